package server

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"pigclass/templates"
	"pigclass/templates/paths"
)

// confirmPage asks before an action that cannot be undone: ending the
// round, removing a student, deleting the class.
func (s *Server) confirmPage(what string) gin.HandlerFunc {
	return func(c *gin.Context) {
		class, l := classFrom(c), loc(c)
		v := templates.Confirm{Code: class.Code, CancelURL: paths.Teacher.For(class.Code)}
		switch what {
		case "end-round":
			if class.Round == nil {
				done(c, class.Code, l.T("notice.noround"))
				return
			}
			v.Title, v.Action, v.Button = l.T("confirm.end.title", "N", l.Int(class.Round.Number)), paths.RoundsEnd.For(class.Code), l.T("dash.endround")
			v.Message = l.T("confirm.end.message")
		case "remove":
			id, _ := strconv.ParseInt(c.Param("id"), 10, 64)
			var name string
			for _, st := range class.Students {
				if st.ID == id {
					name = st.Nickname
				}
			}
			if name == "" {
				refuse(c, http.StatusNotFound, l.T("error.nostudent_class"))
				return
			}
			v.Title, v.Action, v.Button = l.T("confirm.remove.title", "Name", name), paths.RemoveStudent.With(class.Code, id), l.T("live.remove_label", "Name", name)
			v.Message = l.T("confirm.remove.message", "Name", name)
		case "delete":
			v.Title, v.Action, v.Button = l.T("confirm.delete.title", "Code", class.Code), paths.DeleteClass.For(class.Code), l.T("confirm.delete.button")
			v.Message = l.T("confirm.delete.message")
			v.Danger = true
		}
		render(c, http.StatusOK, templates.ConfirmView(v))
	}
}
