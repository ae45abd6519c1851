package server

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/store"
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
