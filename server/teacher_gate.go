package server

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/templates/paths"
)

// teacherOnly lets a request through only with the class's teacher secret,
// from the cookie or from the secret link's ?key=. Anything else is a 404:
// the page does not exist for whoever lacks the secret.
func (s *Server) teacherOnly(c *gin.Context) {
	code := classroom.NormalizeCode(c.Param("code"))
	if key := c.Query("key"); key != "" {
		v, err := s.room.Identify(c.Request.Context(), classroom.Credentials{Code: code, TeacherSecret: key})
		if err == nil && v.Teacher() {
			setCookie(c, teacherPrefix+code, key, 365*24*3600)
			c.Redirect(http.StatusSeeOther, paths.Teacher.For(code))
			c.Abort()
			return
		}
	}
	s.gate(c, classroom.Viewer.Teacher)
}

// gate lets a request through to a class's page only if the room finds
// the viewer is let in by may (the class's teacher, its projector);
// anything else is the teacher pages' 404, the same for a class that
// exists and one that does not.
func (s *Server) gate(c *gin.Context, may func(classroom.Viewer) bool) {
	if !may(viewerFrom(c)) {
		refuseTeacherPage(c)
		return
	}
	c.Next()
}

// refuseTeacherPage answers a teacher's or projector's page without its
// key: the same for a class that exists and one that does not, with a
// hint for a teacher on the wrong computer.
func refuseTeacherPage(c *gin.Context) {
	refuse(c, http.StatusNotFound, loc(c).T("error.teacherpage"))
}
