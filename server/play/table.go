package play

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"pigclass/sim"
)

// A table is a match played on one device with real dice or pigs
// (Match.AtTable): the players read each throw off the table and enter
// it, and the decisions are analysed as any others. A bot at the table
// throws from the seed.

// ErrNotAtTable refuses pieces entered by hand in a match whose dice the
// seed throws, and a throw without its pieces at a table.
var ErrNotAtTable = errors.New("only a match at a table takes throws entered by hand")

// ErrNothingToCorrect refuses a correction when the last event is not a
// throw entered by hand (a decision came after it, or a bot's).
var ErrNothingToCorrect = errors.New("the last entry is not a throw entered by hand: only that can be entered again")

// ErrOutOfOrder refuses an entry that does not follow the last one the
// match has: an entry sent before it is missing (the device sends its
// queue in order; it sends that one first).
var ErrOutOfOrder = errors.New("an entry before this one has not arrived: send the entries in order")

// ConflictError refuses an entry sent at a place in the match that
// already holds another event: two devices of a table entered different
// things for the same moment (one of them offline), and the one that
// arrived second is not taken. It names both, so that the device can
// show the game as it is and let its player decide (issue 58, item 9).
type ConflictError struct {
	Game    sim.Game
	Seq     int       // the place in the match
	Entered Entry     // what the device sent there
	There   sim.Event // what the match holds there
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("entry %d is taken: %s %s sent, the match has %s %s", e.Seq, e.Entered.Action, e.Entered.Faces, e.There.Action, e.There.Faces)
}

// Entry is one entry made at a table: a decision (Action) and, for a
// throw, the pieces it landed (Faces); or, with Correct, the last throw's
// pieces entered again (Faces alone), until the next decision is made.
type Entry struct {
	Action  sim.Action
	Faces   sim.Faces
	Correct bool
	// Score is the mover's score written after the entry on a paper
	// score sheet (a turn's row ends with it: "4 6 h 10"), 0 for none:
	// the entries are refused, and nothing stored, unless their throws
	// make that score (ScoreError).
	Score int
}

// ScoreError refuses a turn's row whose written score is not the one its
// throws make: the sheet or the row was copied wrong.
type ScoreError struct {
	Written, Made int
}

func (e *ScoreError) Error() string {
	return fmt.Sprintf("the row's score is written as %d, but its throws make %d", e.Written, e.Made)
}

// checkScores plays es for seat on a copy of lm's match and refuses them
// if an entry's written score is not the seat's score after it. Entries
// the copy cannot play are left to advance, which says why.
func checkScores(lm *Live, seat int, es []Entry) error {
	if !slices.ContainsFunc(es, func(e Entry) bool { return e.Score > 0 }) {
		return nil
	}
	m, err := sim.Replay(lm.row.Variant, lm.row.Seed, lm.m.Events())
	if err != nil {
		return nil
	}
	for _, e := range es {
		if throws(e.Action) {
			_, err = m.Enter(seat, e.Action, e.Faces)
		} else {
			_, err = m.Apply(seat, e.Action)
		}
		if err != nil {
			return nil
		}
		if made := m.State().Scores[seat]; e.Score > 0 && made != e.Score {
			return &ScoreError{Written: e.Score, Made: made}
		}
	}
	return nil
}

// throws reports whether a is a throw: a roll, or dice:N.
func throws(a sim.Action) bool { return a.Kind == sim.RollKind || a.Kind == sim.DiceKind }

// Enter carries out entries at table match id by one of its players,
// for the seat to move (the device is shared): anyone else, and an id
// that does not exist, are refused alike (ErrNotSeated) as Move refuses
// them. Several entries are one player's turn as a paper sheet's row has
// it (roll 4, roll 6, hold), done together or not at all (ErrTurnOver if
// the turn ends before the last). seq is the number of events the device
// showed: a repeated one does nothing (ErrStale), so an entry sent again
// after the network dropped is not doubled, while another entry at a
// place the match has already taken is refused (ConflictError); one
// ahead of the match is
// refused (ErrOutOfOrder) and changes nothing. It returns the match as the
// player sees it.
func (h *Hall) Enter(ctx context.Context, who Seer, id int64, seq int, es ...Entry) (*View, error) {
	v, err := h.See(ctx, who, id, false)
	if err != nil {
		return nil, err
	}
	if !v.Live {
		return v, ErrNotPlaying
	}
	if !v.AtTable {
		return v, ErrNotAtTable
	}
	m, err := h.enter(ctx, id, seq, es)
	if m != nil {
		v.Match = h.Showing(m, v.Seat)
	}
	return v, err
}

// enter is Enter once the player is known.
func (h *Hall) enter(ctx context.Context, id int64, seq int, es []Entry) (*Match, error) {
	lm := h.live(id)
	if lm == nil {
		return nil, ErrNotPlaying
	}
	lm.mu.Lock()
	defer lm.mu.Unlock()
	switch {
	case lm.ended:
		return lm.snap.Load(), ErrNotPlaying
	case seq < lm.m.Len():
		return lm.snap.Load(), taken(lm.row.Variant.Game, lm.m.Events(), seq, es)
	case seq > lm.m.Len():
		return lm.snap.Load(), ErrOutOfOrder
	case lm.host != nil && lm.host.Paused():
		return lm.snap.Load(), ErrPaused
	case len(es) == 1 && es[0].Correct:
		return lm.snap.Load(), h.correct(ctx, lm, es[0].Faces)
	}
	seat := lm.m.State().Seat
	var ps []*pending
	for _, e := range es {
		p, err := entryMove(lm, seat, e)
		if err != nil {
			return lm.snap.Load(), err
		}
		ps = append(ps, p)
	}
	if err := checkScores(lm, seat, es); err != nil {
		return lm.snap.Load(), err
	}
	err := h.advance(ctx, lm, ps...)
	return lm.snap.Load(), err
}

// taken answers entries es sent at seq, a place events have passed: the
// same entries again (sent twice after the network dropped) are stale;
// any that differs from the event at its place is a conflict. A
// correction sent at seq is of the throw before it.
func taken(g sim.Game, events []sim.Event, seq int, es []Entry) error {
	for i, e := range es {
		at := seq + i
		if e.Correct {
			at--
		}
		if at < 0 || at >= len(events) {
			break
		}
		there := events[at]
		same := there.Faces.String() == e.Faces.String() // a correction: its pieces
		if !e.Correct {
			same = there.Action == e.Action && (!throws(e.Action) || same)
		}
		if !same {
			return &ConflictError{Game: g, Seq: at, Entered: e, There: there}
		}
	}
	return ErrStale
}

// entryMove is an entry as the move of seat, the player to move, or why
// it cannot be one.
func entryMove(lm *Live, seat int, e Entry) (*pending, error) {
	a := e.Action
	switch {
	case lm.row.Seats[seat].StudentID == 0:
		return nil, &sim.ActionError{Code: sim.CodeNotYourTurn, Seat: seat, Action: a, Reason: "the bot at the table throws its own dice"}
	case e.Correct:
		return nil, ErrNothingToCorrect // a correction is sent alone
	case a.Kind == sim.TimeoutKind || a.Kind == sim.ResignKind:
		return nil, &sim.ActionError{Code: sim.CodeUnknown, Seat: seat, Action: a, Reason: "at a table, roll or hold (or dice:N)"}
	case throws(a) && e.Faces.Len() == 0:
		return nil, ErrNotAtTable
	}
	p := &pending{seat: seat, action: a, by: ByStudent}
	if throws(a) {
		p.faces = &e.Faces
	}
	return p, nil
}

// correct stores the last throw entered again with pieces f: the same
// decision (its analysis stands), the pieces read anew, and whatever
// follows from them (a turn that goes on, or ends, or the match won).
// Only an entered throw that is still the last event can be corrected.
// lm.mu must be held.
func (h *Hall) correct(ctx context.Context, lm *Live, f sim.Faces) error {
	events := lm.m.Events()
	n := len(events)
	if n == 0 || !events[n-1].Entered {
		return ErrNothingToCorrect
	}
	events[n-1].Faces = f
	m, err := sim.Replay(lm.row.Variant, lm.row.Seed, events)
	if err != nil {
		return err
	}
	row := lm.rows[n-1]
	row.Faces, row.Dice, row.Corrects = f, f.Len(), true
	st := m.State()
	if err := h.log.AppendEvents(ctx, lm.row.ID, []Event{row}, st.Result()); err != nil {
		return err
	}
	row.Corrects = false
	lm.m = m
	lm.rows = append(slices.Clone(lm.rows[:n-1]), row) // the published rows are not changed
	if st.Over {
		lm.ended = true
		lm.row.Status, lm.row.Result, lm.row.Winner = Over, st.Result(), st.Winner
		if lm.host != nil {
			lm.host.Counted(&lm.row, nil, false)
		}
	}
	lm.publish()
	if st.Over {
		return nil
	}
	return h.advance(ctx, lm) // the bots move if the turn passed to them
}
