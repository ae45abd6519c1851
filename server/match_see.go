package server

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// askedMatch reads the :id of a match route for the handlers after it
// (matchAsked), answering a bad id itself as a match that does not exist.
func askedMatch(c *gin.Context) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		refuse(c, http.StatusNotFound, loc(c).T("error.nomatch"))
		return
	}
	c.Set(matchKey, id)
}

// seeMatch asks the hall for match :id as the request's viewer may see it
// (with teacher, the class's teacher too), answering a refusal itself: a
// stranger's answer is the same for a real match as for none, and only a
// match's own player is sent from its old address to its class's.
func (s *Server) seeMatch(c *gin.Context, teacher bool) (*matchView, bool) {
	id, v := matchAsked(c)
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

// home is the page a move without JavaScript goes back to: the match's
// own, which shows its board while it is played and its result after
// (issue 79: the class page shows no homework's board, and a homework of
// 17 moves took 15 presses of "Go back to your game").
func (m *seenMatch) home() string {
	code := ""
	if m.Class != nil {
		code = m.Class.Code
	}
	return paths.Match(code, m.ID)
}

// drawMatch puts the page in the class's language and draws the board, a
// table's as a table's.
func (s *Server) drawMatch(c *gin.Context, m *seenMatch) *matchView {
	return s.drawWith(c, m, s.views.matchBoard)
}

// drawWith is drawMatch with the board drawn by board.
func (s *Server) drawWith(c *gin.Context, m *seenMatch, board func(*i18n.Localizer, *classroom.Class, *play.Match, int) templates.Board) *matchView {
	classLanguage(c, m.Class, false)
	mv := &matchView{seenMatch: m, board: board(loc(c), m.Class, m.Match, m.Seat)}
	if _, student := viewerFrom(c).Student(); m.Class != nil && student && !viewerFrom(c).Teacher() {
		// Its player's board hears of its match's moves (a bot's, a
		// classmate's) as well as of the class.
		setStream(c, paths.Query(paths.StudentEvents.For(m.Class.Code), "m", strconv.FormatInt(m.ID, 10)))
	}
	if m.Class != nil && mv.board.Over {
		// The result stays (issue 81): the page moves on when the next
		// match begins; when the lesson does, it is drawn again with what
		// a phase with no game (Design, a discussion) asks beside it.
		mv.board.NextURL = nextIn(loc(c), m.Class.Code, m.ID) + "&lesson=" + url.QueryEscape(lessonAt(m.Class.Class))
		if !m.Class.Paused {
			mv.board.Asks, _ = s.views.phaseAsks(loc(c), m.Class.Class) // a lesson that cannot be read says nothing more
		}
	}
	return mv
}
