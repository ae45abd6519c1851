package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/templates/paths"
)

// matchID reads the :id of a match route.
func matchID(c *gin.Context) (int64, bool) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		refuse(c, http.StatusNotFound, loc(c).T("error.nomatch"))
		return 0, false
	}
	return id, true
}

// matchAsked reads match :id and who asks for it, answering a bad id or a
// failed lookup itself.
func (s *Server) matchAsked(c *gin.Context) (int64, classroom.Viewer, bool) {
	id, ok := matchID(c)
	if !ok {
		return 0, classroom.Stranger, false
	}
	return id, viewerFrom(c), true
}

// seeMatch asks the hall for match :id as the request's viewer may see it
// (with teacher, the class's teacher too), answering a refusal itself: a
// stranger's answer is the same for a real match as for none, and only a
// match's own player is sent from its old address to its class's.
func (s *Server) seeMatch(c *gin.Context, teacher bool) (*matchView, bool) {
	id, v, ok := s.matchAsked(c)
	if !ok {
		return nil, false
	}
	mv, err := s.see(c.Request.Context(), v, id, teacher)
	if err != nil {
		refuseMatch(c, id, err)
		return nil, false
	}
	return s.drawMatch(c, mv), true
}

// see asks the hall for match id as v may see it (with teacher, the
// class's teacher too).
func (s *Server) see(ctx context.Context, v classroom.Viewer, id int64, teacher bool) (*seenMatch, error) {
	pv, err := s.hall.See(ctx, v.Seer(), id, teacher)
	if err != nil {
		return nil, err
	}
	return seen(v, pv), nil
}

// refuseMatch answers a match the room refused: sent on to its class's
// address for one of its players, else as if there were no such match.
func refuseMatch(c *gin.Context, id int64, err error) {
	var m *play.MovedError
	if errors.As(err, &m) {
		moved(c, id, paths.Match(m.Code, id))
		return
	}
	fail(c, err)
}

// drawMatch puts the page in the class's language and draws the board.
func (s *Server) drawMatch(c *gin.Context, m *seenMatch) *matchView {
	classLanguage(c, m.Class, false)
	mv := &matchView{seenMatch: m, board: s.views.boardView(loc(c), m.Class, m.Match, m.Seat)}
	if m.Class != nil && mv.board.Over {
		mv.board.NextURL = nextIn(loc(c), m.Class.Code, m.ID)
	}
	return mv
}
