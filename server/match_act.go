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
	"pigclass/templates/paths"
)

// act takes a form post with action and seq. The room decides first who
// may act: anyone but the match's player is answered as for a match that
// does not exist, whatever the form says. A repeated or stale seq does
// nothing, so double clicks and resent forms are harmless. A move the disk
// refused is answered 503 "not saved, try again": the match is as before.
func (s *Server) act(c *gin.Context) {
	ctx, l := c.Request.Context(), loc(c)
	id, v, ok := s.matchAsked(c)
	if !ok {
		return
	}
	// A player's moves are limited to a few a second, keyed by the
	// player's own token (so the answer says nothing of the match): faster
	// is a script. Without a token nothing can be moved anyway.
	if t, err := c.Cookie(playerCookie); err == nil {
		mover := classroom.HashToken(t)
		if !s.moves.Allow(mover) {
			c.Header("Retry-After", "1")
			refuse(c, http.StatusTooManyRequests, l.T("error.toofast"))
			return
		}
		s.moves.Hit(mover)
	}
	seq, seqErr := strconv.Atoi(c.PostForm("seq"))
	a, actionErr := sim.ParseAction(c.PostForm("action"))
	status, problem := http.StatusOK, ""
	var m *seenMatch
	var err error
	if seqErr != nil || seq < 0 || actionErr != nil {
		// The form is wrong; it is said only to the match's player.
		if m, err = s.see(ctx, v, id, false); err == nil {
			status, problem = http.StatusUnprocessableEntity, l.T("error.action", "Action", c.PostForm("action"))
			if seqErr != nil || seq < 0 {
				problem = l.T("error.seq")
			}
		}
	} else if m, err = s.move(ctx, v, id, seq, a); err == nil {
		s.metrics.actions.Inc()
	} else if m != nil {
		if !errors.Is(err, play.ErrStale) {
			if status, problem = explain(l, err); status == http.StatusInternalServerError {
				c.Error(err)
			}
		}
		err = nil
	}
	if err != nil {
		refuseMatch(c, id, err)
		return
	}
	if problem == "" && !isHTMX(c) {
		// Without JavaScript, back to the page the board is on: nothing
		// is drawn here (the page that follows draws it).
		home := paths.Match("", id)
		if m.Class != nil {
			home = paths.Student.For(m.Class.Code)
		}
		c.Redirect(http.StatusSeeOther, home)
		return
	}
	mv := s.drawMatch(c, m)
	mv.board.Error = problem
	if isHTMX(c) {
		if status == http.StatusServiceUnavailable {
			c.Header("Retry-After", "1")
		}
		render(c, http.StatusOK, templates.BoardFragment(mv.board)) // htmx swaps 2xx only
		return
	}
	render(c, status, templates.PlayView(mv.board))
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
