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
)

// enter takes a table's entry (issue 45): as act does for a move, with
// the throw's pieces read off the table (faces, or piece1, piece2...), a
// turn's row as a paper sheet has it (turn), or, with correct=1, the last
// throw's pieces entered again; the table's board is drawn after.
func (s *Server) enter(c *gin.Context) {
	id, v := matchAsked(c)
	seq, seqErr := strconv.Atoi(c.PostForm("seq"))
	es, entryErr := readEntries(c)
	formOK := seqErr == nil && seq >= 0 && entryErr == nil
	m, err, more := s.moveOrSee(c, v, id, formOK, func(ctx context.Context) (*seenMatch, error) { return s.enterAt(ctx, v, id, seq, es) })
	if !more {
		return
	}
	mv := s.drawWith(c, m, s.views.tableBoardView)
	l := loc(c)
	status := http.StatusOK
	var taken *play.ConflictError
	switch {
	case !formOK:
		status, mv.board.Error = formProblem(l, seqErr == nil && seq >= 0, c.PostForm("action"))
		switch {
		case errors.Is(entryErr, errNoPieces):
			mv.board.Error = l.T("error.table_pieces")
		case errors.Is(entryErr, errTurnRow):
			mv.board.Error = l.T("error.table_row")
		}
	case errors.As(err, &taken):
		status, mv.board.Error = http.StatusConflict, conflictWords(l, taken)
	case err != nil:
		status, mv.board.Error = problem(c, err)
	}
	if isHTMX(c) {
		// Not saved, or play paused: the device keeps the entry and sends
		// it again (app.js), the paused one until play resumes; nothing a
		// player entered is dropped for a pause.
		switch {
		case status == http.StatusServiceUnavailable:
			c.Header("Retry-After", "1")
		case errors.Is(err, play.ErrPaused):
			c.Header("Retry-After", "2")
		}
		// htmx swaps 2xx only. A table's entries are sent by app.js,
		// which reads a conflict's 409: it holds the entries it has left
		// for the player to decide on.
		if taken == nil {
			status = http.StatusOK
		}
	}
	render(c, status, templates.PlayReply(mv.board, isHTMX(c)))
}

// enterAt enters es at the table of match id for v through the hall
// (play.Hall.Enter), and returns the match as v sees it after (or as it
// is, with the error; nil if v may not see it).
func (s *Server) enterAt(ctx context.Context, v classroom.Viewer, id int64, seq int, es []play.Entry) (*seenMatch, error) {
	pv, err := s.hall.Enter(ctx, v.Seer(), id, seq, es...)
	return s.moved(v, pv, err)
}

// readEntries reads a table's form: a turn's row, or one entry.
func readEntries(c *gin.Context) ([]play.Entry, error) {
	if row := c.PostForm("turn"); row != "" {
		return readTurn(row)
	}
	e, err := readEntry(c)
	return []play.Entry{e}, err
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
	if e.Action.Kind == sim.HoldKind && n > 0 && !e.Correct {
		// A hold throws nothing: pieces sent with it (a score meant
		// for the sheet) are not taken as something they are not
		// (issue 79); the row's form checks a written score.
		return e, errTurnRow
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
