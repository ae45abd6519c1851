package server

import (
	"bytes"
	"image"
	_ "image/jpeg" // the guide's pictures
	"net/http"
	"strconv"
	"sync"

	"github.com/gin-gonic/gin"

	"pigclass/server/charts"
	"pigclass/server/report"
	"pigclass/static"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// helpSection is a section of the teacher's guide as the server knows
// it: its words are the catalog's help.ID.heading and help.ID.1 to
// help.ID.N (Paras of them).
type helpSection struct {
	ID    string
	Paras int
	// Picture is a picture of the screen the section speaks of, a file
	// of static/help/ (TestHelpPicturesAreTheScreens makes them), its
	// words help.ID.picture.
	Picture string
	// Lessons: the lesson plans the server has follow the words.
	Lessons bool
	// Links are where to read more: an address and the catalog key of
	// its words.
	Links []helpLink
}

type helpLink struct{ URL, Key string }

// helpPictureSizes are the guide's pictures' sizes, read from the files
// once, so that a page keeps its place while they load.
var helpPictureSizes = sync.OnceValue(func() map[string]image.Point {
	sizes := map[string]image.Point{}
	for _, h := range helpSections {
		if h.Picture == "" {
			continue
		}
		b, err := static.Files.ReadFile("help/" + h.Picture)
		if err != nil {
			panic("help: " + err.Error())
		}
		c, _, err := image.DecodeConfig(bytes.NewReader(b))
		if err != nil {
			panic("help: " + h.Picture + ": " + err.Error())
		}
		sizes[h.Picture] = image.Pt(c.Width, c.Height)
	}
	return sizes
})

// helpSections are the teacher's guide, in order. A section added here
// gets its words in the five catalogs (TestCatalogsDoNotDrift), and every
// page walk reaches it from the front page's link.
var helpSections = []helpSection{
	{ID: "install", Paras: 4},
	{ID: "start", Paras: 3, Picture: "dashboard.jpg", Links: []helpLink{{paths.Join.String(), "help.join"}}},
	{ID: "classlist", Paras: 2},
	{ID: "projector", Paras: 2, Picture: "shared-screen.jpg"},
	{ID: "lessons", Paras: 2, Lessons: true},
	{ID: "rounds", Paras: 3, Picture: "phone-board.jpg"},
	{ID: "charts", Paras: 2},
	{ID: "tables", Paras: 2},
	{ID: "tournament", Paras: 1},
	{ID: "homework", Paras: 1},
	{ID: "lab", Paras: 2},
	{ID: "unit", Paras: 1},
	{ID: "files", Paras: 2, Links: []helpLink{{paths.Glossary.String(), "help.glossary"}, {paths.Privacy.String(), "help.privacy"}, {paths.Verify.String(), "help.verify"}}},
	{ID: "trouble", Paras: 6},
}

// help is the teacher's guide, in the reader's language.
func (s *Server) help(c *gin.Context) {
	render(c, http.StatusOK, templates.HelpView(s.helpView(loc(c))))
}

// helpView is the guide's sections in the reader's words. The counts it
// names (lesson plans, charts, files) are the app's own lists', so the
// guide cannot say a number the app does not have.
func (s *Server) helpView(l *i18n.Localizer) templates.Help {
	args := []any{"Lessons", l.Int(len(s.views.lessons)), "Charts", l.Int(len(charts.ClassKeys)), "Files", l.Int(len(report.Files))}
	var v templates.Help
	for _, h := range helpSections {
		key := "help." + h.ID + "."
		sec := templates.HelpSection{ID: h.ID, Heading: l.T(key + "heading")}
		for i := 1; i <= h.Paras; i++ {
			sec.Paras = append(sec.Paras, l.T(key+strconv.Itoa(i), args...))
		}
		if h.Picture != "" {
			size := helpPictureSizes()[h.Picture]
			sec.Picture = &templates.HelpPicture{Src: static.Path("help/" + h.Picture), Alt: l.T(key + "picture"), Width: size.X, Height: size.Y}
		}
		if h.Lessons {
			for _, ls := range s.views.lessons {
				t := ls.In(l.Lang())
				sec.Lessons = append(sec.Lessons, l.T("lesson.choice", "Title", l.Own(t.Title), "Level", l.Own(t.Level), "N", l.Int(ls.Minutes)))
			}
		}
		for _, k := range h.Links {
			sec.Links = append(sec.Links, templates.HelpLink{Label: l.T(k.Key), URL: k.URL})
		}
		v.Sections = append(v.Sections, sec)
	}
	return v
}
