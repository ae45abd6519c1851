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

// notRemoved answers a removed student's request on their class's pages
// with what happened (403: the teacher removed this device) and how to get
// back, before anything else; polls show it in the page's place.
func (s *Server) notRemoved(c *gin.Context) {
	v, err := s.viewer(c)
	if err != nil {
		fail(c, err)
		return
	}
	if v.Removed() {
		c.Header("X-Pigclass-Removed", "1")
		refuse(c, http.StatusForbidden, removedMessage(loc(c), normalizeCode(c.Param("code"))))
	}
}
