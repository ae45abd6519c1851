package server

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/templates"
	"pigclass/templates/paths"
)

// matchPage is the play page while the match goes on, and the review of
// the viewer's decisions once it is over.
func (s *Server) matchPage(c *gin.Context) {
	mv, ok := s.seeMatch(c, false)
	if !ok {
		return
	}
	if code := classroom.NormalizeCode(c.Query("class")); mv.Class == nil && validCode(code) {
		// A practice match started from a class: the class's next match
		// for this student (it is told only to its students) moves the
		// page there.
		after, _ := strconv.ParseInt(c.Query("after"), 10, 64)
		mv.board.ClassNextURL = paths.Next(code, max(after, 0))
		mv.board.NextURL = mv.board.ClassNextURL
	}
	if !mv.board.Over {
		render(c, http.StatusOK, templates.PlayView(mv.board))
		return
	}
	render(c, http.StatusOK, templates.ReviewView(s.views.reviewView(loc(c), mv)))
}

// board is the play area alone, for htmx polling. A poll whose ?v= is the
// version of the board now gets 204: nothing new, nothing drawn.
func (s *Server) board(c *gin.Context) {
	id, v := matchAsked(c)
	m, err := s.see(c.Request.Context(), v, id, false)
	if err != nil {
		refuseMatch(c, id, err)
		return
	}
	if ver := c.Query("v"); ver != "" && m.Live && boardVersion(m.Match, m.Class) == ver {
		c.Status(http.StatusNoContent)
		return
	}
	mv := s.drawMatch(c, m)
	if !reloadIfLanguageChanged(c) {
		render(c, http.StatusOK, templates.BoardFragment(mv.board))
	}
}
