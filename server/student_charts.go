package server

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"pigclass/server/charts"
	"pigclass/templates"
	"pigclass/templates/paths"
)

// studentCharts sets a student's play beside the class's. It is its own
// page, asked for, not part of the class page: its cost grows with the
// class, and a thousand students ending a round at once must not all pay it.
func (s *Server) studentCharts(c *gin.Context) {
	class, me, ok := s.studentOf(c)
	if !ok {
		return
	}
	cs, err := s.views.classCharts(c.Request.Context(), loc(c), viewerFrom(c), []string{charts.HoldPointsKey, charts.SkillLuckKey}, me.ID, "")
	if err != nil {
		fail(c, err)
		return
	}
	after := int64(0)
	if m := (viewerFrom(c)).Playing(); m != nil {
		after = m.ID
	}
	render(c, http.StatusOK, templates.StudentChartsView(templates.StudentCharts{Code: class.Code, Nickname: me.Nickname, BackURL: paths.Student.For(class.Code), Charts: cs,
		NextURL: nextIn(loc(c), class.Code, after)}))
}
