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
	if stream := streamOf(v); stream != "" {
		setStream(c, stream)
	}
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
	ch := templates.ChromeOf(c.Request.Context())
	ch.Stream = stream
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
