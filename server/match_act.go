package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/sim"
	"pigclass/templates"
	"pigclass/templates/i18n"
)

// act takes a form post with action and seq. The room decides first who
// may act: anyone but the match's player is answered as for a match that
// does not exist, whatever the form says. A repeated or stale seq does
// nothing, so double clicks and resent forms are harmless. A move the disk
// refused is answered 503 "not saved, try again": the match is as before.
// How fast a player may move is paced's, before this.
func (s *Server) act(c *gin.Context) {
	id, v := matchAsked(c)
	ctx := c.Request.Context()
	seq, seqErr := strconv.Atoi(c.PostForm("seq"))
	a, actionErr := sim.ParseAction(c.PostForm("action"))
	formOK := seqErr == nil && seq >= 0 && actionErr == nil
	var m *seenMatch
	var err error
	if !formOK {
		// The form is wrong; it is said only to the match's player.
		m, err = s.see(ctx, v, id, false)
	} else if m, err = s.move(ctx, v, id, seq, a); err == nil {
		s.metrics.actions.Inc()
	}
	if m == nil {
		refuseMatch(c, id, err)
		return
	}
	if errors.Is(err, play.ErrStale) {
		err = nil
	}
	if formOK && err == nil && !isHTMX(c) {
		// Without JavaScript, back to the page the board is on: nothing
		// is drawn here (the page that follows draws it).
		c.Redirect(http.StatusSeeOther, m.home())
		return
	}
	mv := s.drawMatch(c, m)
	status := http.StatusOK
	if !formOK {
		status, mv.board.Error = formProblem(loc(c), seqErr == nil && seq >= 0, c.PostForm("action"))
	} else if err != nil {
		status, mv.board.Error = explain(loc(c), err)
		if status == http.StatusInternalServerError {
			c.Error(err)
		}
	}
	if isHTMX(c) {
		if status == http.StatusServiceUnavailable {
			c.Header("Retry-After", "1")
		}
		status = http.StatusOK // htmx swaps 2xx only
	}
	render(c, status, templates.PlayReply(mv.board, isHTMX(c)))
}

// formProblem words a move's form that cannot be read, for the match's
// player in the board's language: the seq first, then the action.
func formProblem(l *i18n.Localizer, seqOK bool, action string) (int, string) {
	if !seqOK {
		return http.StatusUnprocessableEntity, l.T("error.seq")
	}
	return http.StatusUnprocessableEntity, l.T("error.action", "Action", action)
}

// paced holds a player's moves to a few a second, keyed by the player's
// own token (so the answer says nothing of the match): faster is a
// script. Without a token nothing can be moved anyway.
func (s *Server) paced(c *gin.Context) {
	t, err := c.Cookie(playerCookie)
	if err != nil {
		return
	}
	mover := classroom.HashToken(t)
	if !s.moves.Allow(mover) {
		c.Header("Retry-After", "1")
		refuse(c, http.StatusTooManyRequests, loc(c).T("error.toofast"))
		return
	}
	s.moves.Hit(mover)
}

// move carries out v's action in match id through the hall (play.Hall.Move:
// for one of its players only), and returns the match as v sees it after
// (or as it is, with the error; nil if v may not see it).
func (s *Server) move(ctx context.Context, v classroom.Viewer, id int64, seq int, a sim.Action) (*seenMatch, error) {
	pv, err := s.hall.Move(ctx, v.Seer(), id, seq, a)
	if pv == nil {
		return nil, err
	}
	return seen(v, pv), err
}
