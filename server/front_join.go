package server

import (
	"errors"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
	goqr "github.com/piglig/go-qr"

	"pigclass/server/classroom"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// joinPage is the join form; a browser already in the class goes straight
// to its page.
func (s *Server) joinPage(c *gin.Context) {
	code := classroom.NormalizeCode(c.Param("code"))
	if validCode(code) {
		// A returning student of a class in memory goes to its page; no
		// class is read from disk for a code a stranger may have typed.
		cr := classroom.Credentials{Code: code, InMemory: true}
		if t, err := c.Cookie(playerCookie); err == nil && len(t) == 64 {
			cr.TokenHash = classroom.HashToken(t)
		}
		if v, err := s.room.Identify(c.Request.Context(), cr); err == nil {
			if _, ok := v.Student(); ok {
				c.Redirect(http.StatusSeeOther, paths.Student.For(code))
				return
			}
		}
	}
	v := templates.Join{Code: templates.Field{Value: code}}
	if c.Query("moved") == "1" {
		v.Notice = loc(c).T("join.moved")
	}
	v.AskRoster = validCode(code)
	render(c, http.StatusOK, templates.JoinView(v))
}

// checkNickname reads a typed nickname (see classroom.Nickname) and says
// what is wrong with it, if anything.
func checkNickname(l *i18n.Localizer, raw string) (string, string) {
	n, err := classroom.Nickname(raw)
	if err != nil {
		var ne *classroom.NicknameError
		errors.As(err, &ne)
		return strings.TrimSpace(raw), nicknameProblem(l, ne)
	}
	return n, ""
}

// nicknameProblem says what is wrong with a nickname.
func nicknameProblem(l *i18n.Localizer, ne *classroom.NicknameError) string {
	kind, count := "chars", 0
	if ne != nil {
		kind, count = ne.Kind, ne.Count
	}
	return l.T("nickname."+kind, "Max", l.Int(classroom.MaxNickname), "N", l.Int(count))
}

// join adds a student to a class (POST /join/{code}): the classroom
// decides (Room.Enter); a refusal comes back with a message naming the
// field and what is allowed, and the form keeps what was typed.
func (s *Server) join(c *gin.Context) {
	l := loc(c)
	v := templates.Join{Code: templates.Field{Value: c.PostForm("code")}, Nickname: templates.Field{Value: c.PostForm("nickname")},
		Rejoin: templates.Field{Value: strings.TrimSpace(c.PostForm("rejoin"))}}
	code := classroom.NormalizeCode(v.Code.Value)
	if p := c.Param("code"); p != "" {
		code = classroom.NormalizeCode(p)
		v.Code.Value = code
	} else if validCode(code) {
		// The form at /join goes on to /join/{code} (307 keeps the post),
		// so that a proxy routing by class code sends it to the class.
		c.Redirect(http.StatusTemporaryRedirect, paths.JoinCode.For(code))
		return
	}
	_, v.Nickname.Error = checkNickname(l, v.Nickname.Value)
	if !validCode(code) {
		v.Code.Error = l.T("joinerr.code", "Example", exampleCode)
		render(c, http.StatusUnprocessableEntity, templates.JoinView(v))
		return
	}
	ip := clientKey(c)
	k := classroom.Knock{Code: code, Nickname: v.Nickname.Value, Rejoin: v.Rejoin.Value, Guesser: ip}
	if !isLoopback(ip) {
		// This machine's own address (the teacher's laptop, a load test,
		// a proxy not named with --trusted-proxy) is not one device.
		k.Device = ip
	}
	if c.GetBool(elsewhereKey) {
		// Another instance of the district serves the class: a guess,
		// as a wrong code is, so that the answer tells a stranger no
		// more than the join would.
		if !classroom.Guess(s.room, ip) {
			v.Error = l.T("joinerr.guesses")
			render(c, http.StatusTooManyRequests, templates.JoinView(v))
			return
		}
		elsewhere(c)
		return
	}
	if c.PostForm("roster") == "ask" {
		s.askRoster(c, v, code, ip)
		return
	}
	old := s.tokens.current(c, code, v.Nickname.Value)
	token := newToken()
	k.TokenHash, k.NewTokenHash = hashOf(old), classroom.HashToken(token)
	e, err := s.room.Enter(c.Request.Context(), k)
	if e.TookToken {
		s.tokens.took(c, old, token, code, v.Nickname.Value)
	}
	if e.Class != nil {
		classLanguage(c, e.Class, false) // the code is right: the class's language
	}
	var no *classroom.JoinRefusal
	switch {
	case errors.As(err, &no):
		status := joinRefusal(loc(c), &v, code, no)
		if c.PostForm("roster") == "1" {
			cardWords(loc(c), &v, code, no) // a list's student has a login card, not another device
		}
		refusedFromList(c, &v, e.Class)
		render(c, status, templates.JoinView(v))
	case err != nil:
		fail(c, err)
	default:
		c.Redirect(http.StatusSeeOther, paths.Student.For(code))
	}
}

// joinRefusal puts a refused join's message on the form, at the field to
// fix, and returns its status.
func joinRefusal(l *i18n.Localizer, v *templates.Join, code string, no *classroom.JoinRefusal) int {
	switch no.Reason {
	case classroom.TooManyGuesses:
		v.Error = l.T("joinerr.guesses")
		return http.StatusTooManyRequests
	case classroom.TooManyRejoins:
		v.Rejoin.Error = l.T("joinerr.rejoins", "Name", no.Nickname, "Code", code)
		return http.StatusTooManyRequests
	case classroom.NoClass:
		v.Code.Error = l.T("joinerr.noclass", "Code", code)
	case classroom.Removed:
		v.Error = removedMessage(l, code)
		return http.StatusForbidden
	case classroom.Locked:
		v.Error = lockedMessage(l, code)
		return http.StatusConflict
	case classroom.BadNickname:
		v.Nickname.Error = nicknameProblem(l, no.Problem)
	case classroom.WrongRejoin:
		v.Rejoin.Error = l.T("joinerr.rejoin", "Name", no.Nickname, "Code", code)
	case classroom.ClassBusy:
		v.Error = l.T("joinerr.cap", "Code", code, "N", l.Int(no.Limit))
		return http.StatusTooManyRequests
	case classroom.DeviceHasName:
		v.Error = l.T("joinerr.device", "Code", code)
		return http.StatusTooManyRequests
	case classroom.NicknameTaken:
		v.Nickname.Error = l.T("nickname.taken", "Name", no.Nickname)
	case classroom.LooksTaken:
		v.Nickname.Error = l.T("nickname.looks", "Name", no.Nickname)
	case classroom.PlatformOnly:
		v.Error = l.T("joinerr.platform", "Code", code)
		return http.StatusForbidden
	}
	return http.StatusUnprocessableEntity
}

// exampleCode shows the form of a join code.
const exampleCode = "K7RXM4"

// joinQR is the QR code of a class's join address, an SVG drawn here (no
// network). Any well-formed code has one: it tells nothing about classes.
func (s *Server) joinQR(c *gin.Context) {
	code := classroom.NormalizeCode(c.Param("code"))
	if !validCode(code) {
		refuse(c, http.StatusNotFound, loc(c).T("error.nopage"))
		return
	}
	qr, err := goqr.EncodeText(s.publicURL(c.Request)+paths.JoinCode.For(code), goqr.Medium)
	if err != nil {
		fail(c, err)
		return
	}
	c.Header("Content-Type", "image/svg+xml")
	c.Header("Cache-Control", "public, max-age=3600")
	if err := qr.WriteAsSVG(goqr.NewQrCodeImgConfig(8, 4), c.Writer); err != nil {
		c.Error(err)
	}
}

// refusedFromList puts a refused join's words beside the class list's
// names when the name was picked from them (and offers the names again).
func refusedFromList(c *gin.Context, v *templates.Join, class *classroom.Class) {
	if class != nil {
		v.Roster = class.RosterNames()
	}
	if c.PostForm("roster") == "1" {
		v.RosterError = firstOf(v.Error, v.Rejoin.Error, v.Nickname.Error, v.Code.Error)
		v.Picked, v.Error, v.Rejoin, v.Nickname = v.Nickname.Value, "", templates.Field{}, templates.Field{}
	}
}

// cardWords says a rejoin code's refusal to a student who picked their
// name from the class list: their code is on their login card (issue 81),
// not on a class page of another device.
func cardWords(l *i18n.Localizer, v *templates.Join, code string, no *classroom.JoinRefusal) {
	switch no.Reason {
	case classroom.WrongRejoin:
		v.Rejoin.Error = l.T("joinerr.card", "Name", no.Nickname, "Code", code)
	case classroom.TooManyRejoins:
		v.Rejoin.Error = l.T("joinerr.card_rejoins", "Name", no.Nickname, "Code", code)
	}
}

// firstOf is the first of words that says something.
func firstOf(words ...string) string {
	for _, w := range words {
		if w != "" {
			return w
		}
	}
	return ""
}

// askRoster answers "I am on the class list": the join page again, with
// the list's names to pick one's own. Asking with a wrong code counts as
// a guess (RosterFor): the names are for whoever has the right one.
func (s *Server) askRoster(c *gin.Context, v templates.Join, code, guesser string) {
	names, err := s.room.RosterFor(c.Request.Context(), code, guesser)
	switch {
	case errors.Is(err, classroom.ErrListHidden):
		// The teacher keeps the names to themselves (issue 79): the
		// student types theirs, and their card's code, on the form.
		v.Notice = loc(c).T("join.roster.hidden")
		render(c, http.StatusOK, templates.JoinView(v))
		return
	case err != nil:
		fail(c, err)
		return
	}
	v.Nickname, v.Roster = templates.Field{}, names
	if len(names) == 0 {
		v.Notice = loc(c).T("join.roster.none")
	}
	render(c, http.StatusOK, templates.JoinView(v))
}
