package server

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/store"
	"pigclass/templates"
	"pigclass/templates/paths"
)

// studentOf lets a request through to a student's page of the class of
// :code only if the room finds the browser is a student of it, and then
// speaks the class's language. Anyone else is refused alike for every
// code, in their own language.
func (s *Server) studentOf(c *gin.Context) (*classroom.Class, store.Student, bool) {
	v := viewerFrom(c)
	me, ok := v.Student()
	if !ok {
		refuse(c, http.StatusForbidden, loc(c).T("error.notinclass", "Code", classroom.NormalizeCode(c.Param("code"))))
		return nil, store.Student{}, false
	}
	class := v.Class()
	classLanguage(c, class, false)
	return class, me, true
}

// identifyViewer finds who the request is from, before the gates and the
// handler of a page that shows a class or a match, and leaves it for them
// (viewerFrom): the browser's player token, and the teacher's secret and
// projector key it holds for the class of the address, as the room finds
// them. It makes no cookie. A request whose viewer cannot be read (the
// disk failed) goes no further. The front and join pages never ask: they
// read no class a stranger names.
func (s *Server) identifyViewer(c *gin.Context) {
	v, err := s.identify(c)
	if err != nil {
		fail(c, err)
		return
	}
	setViewer(c, v)
	if class := v.Class(); class != nil {
		// A class's page is framed by its platform only (issue 79).
		frames, err := s.lti.ClassFrames(c.Request.Context(), class.ID)
		if err != nil {
			fail(c, err)
			return
		}
		setSecurityHeaders(c.Writer.Header(), frames)
	}
	if stream := streamOf(v); stream != "" {
		setStream(c, stream)
	}
	if _, ok := v.Student(); ok && !v.Teacher() && v.Class() != nil {
		setChrome(c, func(ch *templates.Chrome) { ch.Student = v.Class().Code })
	}
}

// followClass has a student's page that stands while the class moves on
// (the lab, the strategy editor, the privacy page) go to the student's
// board when their next game begins, a round's or a lesson phase's
// (issue 81): the layout's follow part asks the student's next (as a
// waiting page does), after the game the student plays now, if any.
func followClass(c *gin.Context) {
	v := viewerFrom(c)
	class := v.Class()
	if _, ok := v.Student(); !ok || v.Teacher() || class == nil {
		return
	}
	after := int64(0)
	if m := v.Playing(); m != nil {
		after = m.ID
	}
	setChrome(c, func(ch *templates.Chrome) { ch.Follow = nextIn(loc(c), class.Code, after) })
}

// streamOf is the event stream (push.go) a page of the viewer's listens
// to: the teacher's (the dashboard and their shared screen), the shared
// screen's, or a student's; "" for a page of no class. A board's page
// adds its match once its player is known (drawWith).
func streamOf(v classroom.Viewer) string {
	class := v.Class()
	switch {
	case class == nil:
		return ""
	case v.Teacher():
		return paths.TeacherEvents.For(class.Code)
	case v.Projector():
		return paths.ProjectorEvents.For(class.Code)
	}
	if _, ok := v.Student(); !ok {
		return ""
	}
	return paths.StudentEvents.For(class.Code)
}

// setStream sets the page's event stream, for the layout.
func setStream(c *gin.Context, stream string) {
	setChrome(c, func(ch *templates.Chrome) { ch.Stream = stream })
}

// setChrome changes the page's frame, for the layout.
func setChrome(c *gin.Context, set func(*templates.Chrome)) {
	ch := templates.ChromeOf(c.Request.Context())
	set(&ch)
	c.Request = c.Request.WithContext(templates.WithChrome(c.Request.Context(), ch))
}

// identify asks the room who the request's credentials make the browser.
func (s *Server) identify(c *gin.Context) (classroom.Viewer, error) {
	code := classroom.NormalizeCode(c.Param("code"))
	cr := classroom.Credentials{Code: code}
	if t, err := c.Cookie(playerCookie); err == nil && len(t) == 64 {
		cr.TokenHash = classroom.HashToken(t)
	}
	if code != "" {
		cr.TeacherSecret, _ = c.Cookie(teacherPrefix + code)
		cr.ProjectorKey, _ = c.Cookie(projectorPrefix + code)
	}
	return s.room.Identify(c.Request.Context(), cr)
}
