package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

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
func (s *Server) act(c *gin.Context) { s.actOn(c, false) }

// enter takes a table's entry (issue 45): as act does, with the throw's
// pieces read off the table (faces, or piece1, piece2...) or, with
// correct=1, the last throw's pieces entered again.
func (s *Server) enter(c *gin.Context) { s.actOn(c, true) }

// actOn is act, or at a table (table) enter.
func (s *Server) actOn(c *gin.Context, table bool) {
	id, v := matchAsked(c)
	ctx := c.Request.Context()
	seq, seqErr := strconv.Atoi(c.PostForm("seq"))
	es, actionErr := readMove(c, table)
	formOK := seqErr == nil && seq >= 0 && actionErr == nil
	var m *seenMatch
	var err error
	if !formOK {
		// The form is wrong; it is said only to the match's player.
		m, err = s.see(ctx, v, id, false)
	} else if m, err = s.move(ctx, v, id, seq, es, table); err == nil {
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
		switch {
		case errors.Is(actionErr, errNoPieces):
			mv.board.Error = loc(c).T("error.table_pieces")
		case errors.Is(actionErr, errTurnRow):
			mv.board.Error = loc(c).T("error.table_row")
		}
	} else if err != nil {
		status, mv.board.Error = explain(loc(c), err)
		if status == http.StatusInternalServerError {
			c.Error(err)
		}
	}
	if isHTMX(c) {
		// Not saved, or (at a table) play paused: the device keeps the
		// entry and sends it again (app.js), the paused one until play
		// resumes; nothing a player entered is dropped for a pause.
		switch {
		case status == http.StatusServiceUnavailable:
			c.Header("Retry-After", "1")
		case table && errors.Is(err, play.ErrPaused):
			c.Header("Retry-After", "2")
		}
		// htmx swaps 2xx only. A table's entries are sent by app.js,
		// which reads a conflict's 409: it holds the entries it has left
		// for the player to decide on.
		var taken *play.ConflictError
		if !(table && errors.As(err, &taken)) {
			status = http.StatusOK
		}
	}
	render(c, status, templates.PlayReply(mv.board, isHTMX(c)))
}

// readMove reads a move's form: a player's action, or at a table (table)
// an entry or a turn's row.
func readMove(c *gin.Context, table bool) ([]play.Entry, error) {
	switch {
	case table && c.PostForm("turn") != "":
		return readTurn(c.PostForm("turn"))
	case table:
		e, err := readEntry(c)
		return []play.Entry{e}, err
	}
	a, err := sim.ParseAction(c.PostForm("action"))
	return []play.Entry{{Action: a}}, err
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
// for one of its players only; at a table, play.Hall.Enter: an entry), and returns the match as v sees it after
// (or as it is, with the error; nil if v may not see it).
func (s *Server) move(ctx context.Context, v classroom.Viewer, id int64, seq int, es []play.Entry, table bool) (*seenMatch, error) {
	var pv *play.View
	var err error
	if table {
		pv, err = s.hall.Enter(ctx, v.Seer(), id, seq, es...)
	} else {
		pv, err = s.hall.Move(ctx, v.Seer(), id, seq, es[0].Action)
	}
	if pv == nil {
		return nil, err
	}
	return seen(v, pv), err
}

// errNoPieces: a table's throw came without its pieces (a piece not
// picked).
var errNoPieces = errors.New("a throw entered without its pieces")

// readEntry reads a table's entry: action (roll, hold, or dice: as many
// dice as faces typed), the pieces as faces ("3 5", "35" or "3,5") or
// one field a piece (piece1, piece2...), and correct=1 for the last
// throw entered again.
func readEntry(c *gin.Context) (play.Entry, error) {
	e := play.Entry{Correct: c.PostForm("correct") == "1"}
	typed := c.PostForm("faces")
	for i := 1; i <= sim.MaxDiceLimit; i++ {
		p, ok := c.GetPostForm("piece" + strconv.Itoa(i))
		if !ok {
			break
		}
		typed += " " + p
	}
	var err error
	if e.Faces, err = typedMarks(typed); err != nil {
		return e, err
	}
	n := e.Faces.Len()
	action := c.PostForm("action")
	switch {
	case action == "dice" && n > 0:
		e.Action = sim.Dice(n)
	case action == "dice":
		return e, errNoPieces
	default:
		if e.Action, err = sim.ParseAction(action); err != nil {
			return e, err
		}
	}
	if (e.Correct || e.Action.Kind == sim.RollKind || e.Action.Kind == sim.DiceKind) && n == 0 {
		return e, errNoPieces
	}
	return e, nil
}

// errTurnRow: a turn's row that cannot be read.
var errTurnRow = errors.New("a turn's row is its throws, then h if the player held")

// readTurn reads a turn in one row, as a paper score sheet has it: each
// throw its pieces' marks together ("4", or "35" for two dice or two
// pigs), separated by spaces, then h if the player held ("4 6 3 h"; a
// turn that ends on a 1 ends without it), and the score written after
// the hold if the sheet has it ("4 6 3 h 13": checked, play.Entry.Score).
func readTurn(row string) ([]play.Entry, error) {
	fields := strings.Fields(strings.ToLower(row))
	var es []play.Entry
	for i, f := range fields {
		if f == "h" {
			hold := play.Entry{Action: sim.Hold}
			switch {
			case i == len(fields)-2: // the score written after the hold
				n, err := strconv.Atoi(fields[i+1])
				if err != nil || n < 1 {
					return nil, errTurnRow
				}
				hold.Score = n
			case i != len(fields)-1:
				return nil, errTurnRow // nothing after a hold but its score
			}
			es = append(es, hold)
			break
		}
		faces, err := typedMarks(f)
		if err != nil {
			return nil, errTurnRow
		}
		es = append(es, play.Entry{Action: sim.Roll, Faces: faces})
	}
	if len(es) == 0 || len(es) > maxTurnRow {
		return nil, errTurnRow
	}
	return es, nil
}

// maxTurnRow is the most moves one row may hold: far past a real turn.
const maxTurnRow = 100

// typedMarks reads a throw's pieces as typed: a digit a piece ("352"),
// spaces and commas between them allowed ("3 5", "3,5").
func typedMarks(typed string) (sim.Faces, error) {
	var marks []int
	for _, r := range typed {
		switch {
		case r >= '1' && r <= '9':
			marks = append(marks, int(r-'0'))
		case r != ' ' && r != ',':
			return sim.Faces{}, fmt.Errorf("faces: %q is not a mark", r)
		}
	}
	return sim.FacesOf(marks...)
}
