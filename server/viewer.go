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
	v, err := s.viewer(c)
	if err != nil {
		fail(c, err)
		return nil, store.Student{}, false
	}
	me, ok := v.Student()
	if !ok {
		refuse(c, http.StatusForbidden, loc(c).T("error.notinclass", "Code", classroom.NormalizeCode(c.Param("code"))))
		return nil, store.Student{}, false
	}
	class := v.Class()
	classLanguage(c, class, false)
	return class, me, true
}

// viewer is who the request is from, as the room finds them: the
// browser's player token, and the teacher's secret and projector key it
// holds for the class of the address. It makes no cookie. A request is
// identified once: a middleware's finding (the gate, notRemoved) serves
// the handler too.
func (s *Server) viewer(c *gin.Context) (classroom.Viewer, error) {
	if v, ok := c.Get(viewerKey); ok {
		return v.(classroom.Viewer), nil
	}
	v, err := s.identify(c)
	if err == nil {
		setViewer(c, v)
	}
	return v, err
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
