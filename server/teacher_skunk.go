package server

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"pigclass/templates"
	"pigclass/templates/paths"
)

// skunkRoll throws the shared dice (the teacher's button).
func (s *Server) skunkRoll(c *gin.Context) {
	class := classFrom(c)
	if _, err := s.room.SkunkRoll(c.Request.Context(), viewerFrom(c)); err != nil {
		fail(c, err)
		return
	}
	c.Redirect(http.StatusSeeOther, skunkBack(c, class.Code))
}

// teacherSkunk is the Skunk board for the dashboard's polling.
func (s *Server) teacherSkunk(c *gin.Context) {
	class := classFrom(c)
	k := s.room.Skunk(viewerFrom(c))
	if k == nil {
		c.String(http.StatusOK, "")
		return
	}
	if unchanged(c, k, class) {
		return
	}
	render(c, http.StatusOK, templates.SkunkView(s.views.skunkBoard(loc(c), class, k, 0, true, paths.TeacherSkunk.For(class.Code))))
}

// endSkunk stops the class's game of Skunk.
func (s *Server) endSkunk(c *gin.Context) {
	class := classFrom(c)
	if err := s.room.EndSkunk(c.Request.Context(), viewerFrom(c)); err != nil {
		fail(c, err)
		return
	}
	c.Redirect(http.StatusSeeOther, skunkBack(c, class.Code))
}
