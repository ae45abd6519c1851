package server

import (
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"
	goqr "github.com/piglig/go-qr"

	"pigclass/server/classlist"
	"pigclass/server/classroom"
	"pigclass/server/store"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// rosterPreview reads an uploaded class list (its files, or the names
// typed) and shows what adding it would do, row by row, before anything
// is stored: the rows it could not read, duplicates, names that look like
// others, names already in the class.
func (s *Server) rosterPreview(c *gin.Context) {
	l, who := loc(c), viewerFrom(c)
	code := who.Class().Code
	v := templates.RosterPreview{Code: code}
	files, typed, err := uploaded(c)
	var list classlist.List
	if err == nil {
		list, err = classlist.Read(files, typed)
	}
	var refusal *classlist.Refusal
	switch {
	case errors.Is(err, classlist.ErrEmpty):
		v.Refusal = l.T("rosterui.empty")
	case errors.As(err, &refusal):
		v.Refusal = l.Say(refusal.Msg)
	case err != nil:
		v.Refusal = l.T("rosterui.unreadable", "N", l.Int(classlist.MaxBytes>>20))
	}
	if v.Refusal != "" {
		render(c, http.StatusUnprocessableEntity, templates.RosterPreviewView(v))
		return
	}
	v.Problems = l.SayAll(list.Problems)
	for _, g := range list.Groups {
		names := make([]string, len(g.Names))
		for i, e := range g.Names {
			names[i] = e.Name
		}
		rows, err := who.RosterRows(names)
		if err != nil {
			fail(c, err)
			return
		}
		rg := templates.RosterGroup{Title: g.Title, Names: names}
		for i, r := range rows {
			kind, says := rosterSays(l, r)
			if r.Status == classroom.RosterNew {
				rg.New++
			}
			rg.Rows = append(rg.Rows, templates.RosterRow{Name: r.Name, Where: l.Say(g.Names[i].Where), Kind: kind, Says: says})
		}
		v.Groups = append(v.Groups, rg)
	}
	render(c, http.StatusOK, templates.RosterPreviewView(v))
}

// uploaded is an upload's files and typed names, within roster's limits
// (the body's: limitBody).
func uploaded(c *gin.Context) ([]classlist.File, string, error) {
	if err := c.Request.ParseMultipartForm(classlist.MaxBytes); err != nil && !errors.Is(err, http.ErrNotMultipart) {
		return nil, "", err
	}
	typed := c.PostForm("names")
	if c.Request.MultipartForm == nil {
		return nil, typed, nil
	}
	heads := c.Request.MultipartForm.File["files"]
	if len(heads) > classlist.MaxFiles {
		return nil, "", &classlist.Refusal{Msg: i18n.M("roster.files", "N", classlist.MaxFiles)}
	}
	var files []classlist.File
	for _, h := range heads {
		b, err := readPart(h)
		if err != nil {
			return nil, "", err
		}
		if len(b) > 0 {
			files = append(files, classlist.File{Name: h.Filename, Data: b})
		}
	}
	return files, typed, nil
}

func readPart(h *multipart.FileHeader) ([]byte, error) {
	f, err := h.Open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, classlist.MaxBytes+1))
}

// rosterSays is what adding a row does, as a kind (for the page's style
// and tests) and in words.
func rosterSays(l *i18n.Localizer, r classroom.RosterRow) (string, string) {
	switch r.Status {
	case classroom.RosterNew:
		return "new", l.T("rosterui.does.new")
	case classroom.RosterThere:
		return "there", l.T("rosterui.does.there")
	case classroom.RosterTwice:
		return "twice", l.T("rosterui.does.twice")
	case classroom.RosterLooks:
		return "looks", l.T("rosterui.does.looks", "Like", r.Like)
	case classroom.RosterRemoved:
		return "removed", l.T("rosterui.does.removed")
	}
	return "bad", nicknameProblem(l, r.Problem)
}

// addRoster adds the new names of a class list the teacher previewed
// (the names posted again, checked again against the class as it is now)
// and goes back to the dashboard saying how many were added.
func (s *Server) addRoster(c *gin.Context) {
	l, who := loc(c), viewerFrom(c)
	code := who.Class().Code
	names := c.PostFormArray("name")
	if len(names) == 0 || len(names) > classlist.MaxNames {
		refuse(c, http.StatusUnprocessableEntity, l.T("rosterui.empty"))
		return
	}
	rows, added, err := s.room.AddRoster(c.Request.Context(), who, names)
	if err != nil {
		fail(c, err)
		return
	}
	left := 0
	for _, r := range rows {
		if r.Status != classroom.RosterNew {
			left++
		}
	}
	notice := l.N("rosterui.added", len(added))
	if left > 0 {
		notice += " " + l.N("rosterui.left", left)
	}
	done(c, code, notice)
}

// loginCards is the page of the students' login cards: each student's
// name, the class code, their rejoin code and a QR code of the join page
// that fills in both (in its address's fragment, which no server sees).
func (s *Server) loginCards(c *gin.Context) {
	class := viewerFrom(c).Class()
	join := s.publicURL(c.Request) + paths.JoinCode.For(class.Code)
	v := templates.LoginCards{Code: class.Code, JoinURL: join}
	students := slices.Clone(class.Students)
	slices.SortFunc(students, func(a, b store.Student) int { return strings.Compare(a.Nickname, b.Nickname) })
	for _, st := range students {
		rejoin := s.room.RejoinCode(class, st)
		qr, err := goqr.EncodeText(join+"#"+url.Values{"name": {st.Nickname}, "rejoin": {rejoin}}.Encode(), goqr.Medium)
		if err != nil {
			fail(c, err)
			return
		}
		svg, err := qr.ToSVGBytes(goqr.NewQrCodeImgConfig(4, 2))
		if err != nil {
			fail(c, err)
			return
		}
		v.Cards = append(v.Cards, templates.LoginCard{Name: st.Nickname, Rejoin: rejoin, QR: templ.Raw(string(svg))})
	}
	render(c, http.StatusOK, templates.LoginCardsView(v))
}
