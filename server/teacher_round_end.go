package server

import (
	"github.com/gin-gonic/gin"

	"pigclass/templates/paths"
)

func (s *Server) endRound(c *gin.Context) {
	class := classFrom(c)
	if !confirmed(c, paths.ConfirmEndRound.For(class.Code)) {
		return
	}
	if err := s.room.EndRound(c.Request.Context(), viewerFrom(c)); err != nil {
		fail(c, err)
		return
	}
	done(c, class.Code, loc(c).T("notice.round_ended"))
}
