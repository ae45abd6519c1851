package server

import (
	"github.com/gin-gonic/gin"

	"pigclass/templates/paths"
)

// deleteClass deletes the class and every row that belongs to it.
func (s *Server) deleteClass(c *gin.Context) {
	class := classFrom(c)
	if !confirmed(c, paths.ConfirmDelete.For(class.Code)) {
		return
	}
	if err := s.room.DeleteClass(c.Request.Context(), viewerFrom(c)); err != nil {
		fail(c, err)
		return
	}
	setCookie(c, teacherPrefix+class.Code, "", -1)
	doneAt(c, paths.Front.String(), loc(c).T("notice.deleted", "Code", class.Code))
}
