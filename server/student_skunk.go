package server

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"pigclass/templates"
	"pigclass/templates/paths"
)

// skunkSit sits a student down. The form carries the moment (round and
// roll) the student's page showed: a sit sent before a roll or a new round
// that has happened since is stale and does nothing, and sitting twice
// changes nothing.
func (s *Server) skunkSit(c *gin.Context) {
	class, me, ok := s.studentOf(c)
	if !ok {
		return
	}
	moment := c.PostForm("moment")
	if moment == "" {
		refuse(c, http.StatusUnprocessableEntity, loc(c).T("error.moment"))
		return
	}
	k, err := s.room.Sit(c.Request.Context(), viewerFrom(c), moment)
	if err != nil {
		fail(c, err)
		return
	}
	if !isHTMX(c) {
		c.Redirect(http.StatusSeeOther, paths.Student.For(class.Code))
		return
	}
	render(c, http.StatusOK, templates.SkunkView(s.views.skunkBoard(loc(c), class, k, me.ID, false, paths.StudentSkunk.For(class.Code))))
}

// studentSkunk is the Skunk board alone, for a student's polling.
func (s *Server) studentSkunk(c *gin.Context) {
	class, me, ok := s.studentOf(c)
	if !ok {
		return
	}
	k := (viewerFrom(c)).Skunk()
	if k == nil {
		c.Header("HX-Refresh", "true")
		c.String(http.StatusOK, "")
		return
	}
	if unchanged(c, k, class) {
		return
	}
	render(c, http.StatusOK, templates.SkunkView(s.views.skunkBoard(loc(c), class, k, me.ID, false, paths.StudentSkunk.For(class.Code))))
}
