package server

import (
	"net/http"
	"slices"

	"github.com/gin-gonic/gin"

	"pigclass/server/charts"
	"pigclass/server/classroom"
	"pigclass/templates/paths"
)

// pickProjectorChart chooses the chart on the projector ("" for none).
func (s *Server) pickProjectorChart(c *gin.Context) {
	class := classFrom(c)
	key := c.PostForm("chart")
	if !slices.Contains(charts.ClassKeys, key) && key != "" {
		refuse(c, http.StatusUnprocessableEntity, loc(c).T("error.chart"))
		return
	}
	if err := s.room.SetProjector(c.Request.Context(), viewerFrom(c), key); err != nil {
		fail(c, err)
		return
	}
	c.Redirect(http.StatusSeeOther, paths.Teacher.For(class.Code)+"#charts")
}

// setSwitch turns one of the class's switches.
func (s *Server) setSwitch(change func(*classroom.Switches), notice string) gin.HandlerFunc {
	return func(c *gin.Context) {
		class := classFrom(c)
		if _, err := s.room.SetSwitches(c.Request.Context(), viewerFrom(c), change); err != nil {
			fail(c, err)
			return
		}
		done(c, class.Code, loc(c).T(notice))
	}
}

// setJoinsUnlimited lifts the cap on joins a minute, or puts it back.
func (s *Server) setJoinsUnlimited(unlimited bool, notice string) gin.HandlerFunc {
	return func(c *gin.Context) {
		class := classFrom(c)
		if err := s.room.SetJoinsUnlimited(viewerFrom(c), unlimited); err != nil {
			fail(c, err)
			return
		}
		done(c, class.Code, loc(c).T(notice, "N", loc(c).Int(s.cfg.ClassJoins)))
	}
}
