package server

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"pigclass/server/store"
	"pigclass/templates/paths"
)

func (s *Server) removeStudent(c *gin.Context) {
	class := classFrom(c)
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		refuse(c, http.StatusNotFound, loc(c).T("error.nostudent"))
		return
	}
	if !confirmed(c, paths.ConfirmRemove.With(class.Code, id)) {
		return
	}
	if err := s.room.RemoveStudent(c.Request.Context(), viewerFrom(c), id); err != nil {
		fail(c, err)
		return
	}
	done(c, class.Code, loc(c).T("notice.removed"))
}

// readmitStudent lets a removed student back in.
func (s *Server) readmitStudent(c *gin.Context) {
	class := classFrom(c)
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		refuse(c, http.StatusNotFound, loc(c).T("error.nostudent"))
		return
	}
	switch err := s.room.Readmit(c.Request.Context(), viewerFrom(c), id); {
	case errors.Is(err, store.ErrNicknameTaken):
		refuse(c, http.StatusConflict, loc(c).T("error.readmit_taken"))
		return
	case err != nil:
		fail(c, err)
		return
	}
	done(c, class.Code, loc(c).T("notice.readmitted"))
}
