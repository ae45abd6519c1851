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
// How fast a player may move is paced's, before this. A table's moves are
// entries (enter): its board is not drawn here.
func (s *Server) act(c *gin.Context) {
	id, v := matchAsked(c)
	seq, seqErr := strconv.Atoi(c.PostForm("seq"))
	move, actionErr := actionIn(c)
	formOK := seqErr == nil && seq >= 0 && move != nil
	m, err, more := s.moveOrSee(c, v, id, formOK, func(ctx context.Context) (*seenMatch, error) { return move(ctx, s, v, id, seq) })
	if !more {
		return
	}
	mv := s.drawWith(c, m, s.views.boardView)
	status := http.StatusOK
	if !formOK {
		status, mv.board.Error = formProblem(loc(c), seqErr == nil && seq >= 0, actionErr)
	} else if err != nil {
		status, mv.board.Error = problem(c, err)
	}
	if isHTMX(c) {
		if status == http.StatusServiceUnavailable {
			c.Header("Retry-After", "1") // not saved: htmx sends it again
		}
		status = http.StatusOK // htmx swaps 2xx only
	}
	render(c, status, templates.PlayReply(mv.board, isHTMX(c)))
}

// planAction is the action of a committed player's plan for a turn
// ("Decide before you roll"): the form's until says how far to roll.
const planAction = "until"

// actionIn reads a move's form: the action, or a committed player's plan
// (planAction with until); what cannot be read (move nil) is said back
// by bad, and nothing is moved.
func actionIn(c *gin.Context) (move func(context.Context, *Server, classroom.Viewer, int64, int) (*seenMatch, error), bad string) {
	if c.PostForm("action") == planAction {
		until, err := strconv.Atoi(c.PostForm("until"))
		if err != nil || until < play.MinPlan || until > play.MaxPlan {
			return nil, "until"
		}
		return func(ctx context.Context, s *Server, v classroom.Viewer, id int64, seq int) (*seenMatch, error) {
			pv, err := s.hall.Plan(ctx, v.Seer(), id, seq, until)
			return s.moved(v, pv, err)
		}, ""
	}
	a, err := sim.ParseAction(c.PostForm("action"))
	if err != nil {
		return nil, c.PostForm("action")
	}
	return func(ctx context.Context, s *Server, v classroom.Viewer, id int64, seq int) (*seenMatch, error) {
		return s.move(ctx, v, id, seq, a)
	}, ""
}

// move makes v's move a in match id through the hall (play.Hall.Move: for
// one of its players only), and returns the match as v sees it after (or
// as it is, with the error; nil if v may not see it).
func (s *Server) move(ctx context.Context, v classroom.Viewer, id int64, seq int, a sim.Action) (*seenMatch, error) {
	pv, err := s.hall.Move(ctx, v.Seer(), id, seq, a)
	return s.moved(v, pv, err)
}

// moved is the match as v sees it after a move or an entry (pv, nil if v
// may not see it), counted when it was made.
func (s *Server) moved(v classroom.Viewer, pv *play.View, err error) (*seenMatch, error) {
	if pv == nil {
		return nil, err
	}
	if err == nil {
		s.metrics.actions.Inc()
	}
	return seen(v, pv), err
}

// moveOrSee makes v's move in match id (move) if its form could be read
// (formOK), or else only sees the match: a form that cannot be read moves
// nothing, and is said to the match's player alone. It answers itself
// what needs no board: a match v may not see (as one that does not
// exist) and, without JavaScript, a move made (back to the page the board
// is on, which draws it); more says a board is to be drawn, with err. A
// stale seq is no error: the board as it is.
func (s *Server) moveOrSee(c *gin.Context, v classroom.Viewer, id int64, formOK bool, move func(context.Context) (*seenMatch, error)) (m *seenMatch, err error, more bool) {
	if formOK {
		m, err = move(c.Request.Context())
	} else {
		m, err = s.see(c.Request.Context(), v, id, false)
	}
	if m == nil {
		refuseMatch(c, id, err)
		return nil, err, false
	}
	if errors.Is(err, play.ErrStale) {
		err = nil
	}
	if formOK && err == nil && !isHTMX(c) {
		c.Redirect(http.StatusSeeOther, m.home())
		return m, nil, false
	}
	return m, err, true
}

// problem words a move's error for the board, and logs one the player
// cannot act on.
func problem(c *gin.Context, err error) (int, string) {
	status, msg := explain(loc(c), err)
	if status == http.StatusInternalServerError {
		c.Error(err)
	}
	return status, msg
}

// formProblem words a move's form that cannot be read, for the match's
// player in the board's language: the seq first, then the action.
func formProblem(l *i18n.Localizer, seqOK bool, action string) (int, string) {
	if !seqOK {
		return http.StatusUnprocessableEntity, l.T("error.seq")
	}
	if action == "until" {
		return http.StatusUnprocessableEntity, l.T("error.until", "Min", l.Int(play.MinPlan), "Max", l.Int(play.MaxPlan))
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
