package play

import (
	"context"
	"errors"
	"fmt"
	"time"

	"pigclass/sim"
)

// Move carries out who's action in match id, for one of its players only:
// anyone else, and an id that does not exist, are refused alike
// (ErrNotSeated) before anything else is done or said, as See refuses
// them. It is Act for that player, and returns the match as they see it
// after the action (or as it is, with the error).
func (h *Hall) Move(ctx context.Context, who Seer, id int64, seq int, a sim.Action) (*View, error) {
	return h.asPlayer(ctx, who, id, func(studentID int64) (*Match, error) { return h.Act(ctx, id, studentID, seq, a) })
}

// asPlayer runs act for who's seat in match id, once See has let them in
// (refused as See refuses) and the match is being played, and returns
// the match as they see it after (or as it is, with act's error).
func (h *Hall) asPlayer(ctx context.Context, who Seer, id int64, act func(studentID int64) (*Match, error)) (*View, error) {
	v, err := h.See(ctx, who, id, false)
	if err != nil {
		return nil, err
	}
	if !v.Live {
		return v, ErrNotPlaying
	}
	m, err := act(v.Seats[v.Seat].StudentID)
	if m != nil {
		v.Match = m
	}
	return v, err
}

// Act carries out the action of the student in match id, seated there
// (the caller has checked who they are): seq is the number of events the
// player's page showed, and a repeated or stale one does nothing
// (ErrStale). The action, and every bot move it lets happen, are on disk
// before Act returns nil; an error wrapping the store's refusal leaves
// the match as it was. It returns the match after the action (or as it
// is, with the error).
func (h *Hall) Act(ctx context.Context, matchID, studentID int64, seq int, a sim.Action) (*Match, error) {
	return h.seated(matchID, studentID, seq, func(lm *Live, seat int) error {
		switch {
		case a.Kind == sim.TimeoutKind:
			return &sim.ActionError{Code: sim.CodeUnknown, Seat: seat, Action: a, Reason: "a timeout is made by the server, not sent"}
		case lm.row.AtTable:
			return ErrNotAtTable // a table's moves are entries (Enter)
		case lm.row.Seats[seat].Arm == Committed && (a.Kind == sim.RollKind || a.Kind == sim.HoldKind):
			return ErrCommitted
		}
		return h.advance(ctx, lm, &pending{seat: seat, action: a, by: ByStudent})
	})
}

// seated runs do for the seat of the student in match matchID, its lock
// held, once the checks every move of a player passes have: the match
// live and not ended, the student seated there, seq the number of events
// their page showed (else ErrStale, and nothing is done), the class not
// paused. It returns the match after (nil for a student not seated).
func (h *Hall) seated(matchID, studentID int64, seq int, do func(lm *Live, seat int) error) (*Match, error) {
	lm := h.live(matchID)
	if lm == nil {
		return nil, ErrNotPlaying
	}
	lm.mu.Lock()
	defer lm.mu.Unlock()
	seat := lm.row.SeatOf(studentID)
	switch {
	case lm.ended:
		return lm.snap.Load(), ErrNotPlaying
	case seat < 0:
		return nil, ErrNotSeated
	case seq != lm.m.Len():
		return lm.snap.Load(), ErrStale
	case lm.host != nil && lm.host.Paused():
		return lm.snap.Load(), ErrPaused
	}
	err := do(lm, seat)
	return lm.snap.Load(), err
}

// ErrCommitted refuses a roll or a hold of a player of the committed arm
// (Arm): they set how far to roll at their turn's start (Plan).
var ErrCommitted = errors.New("in the committed arm a turn is played by the number set at its start, not roll by roll")

// ErrPlanStarted refuses a plan for a turn already begun: the number is
// set only between turns.
var ErrPlanStarted = errors.New("how far to roll is set at the start of a turn, before its first roll")

// Plan plays the turn of who in match id by the number they set at its
// start (the committed arm of "Decide before you roll"): rolls until the
// turn total reaches until, or the score with it would reach the
// target, then holds, unless a 1 ends the turn first. Each roll and the
// hold are the player's decisions, analysed as any. Only a player of the
// committed arm, to move at the start of a turn, plans; seq as for Move.
func (h *Hall) Plan(ctx context.Context, who Seer, id int64, seq, until int) (*View, error) {
	if until < MinPlan || until > MaxPlan {
		return nil, fmt.Errorf("play: a plan of %d: how far to roll is from %d to %d", until, MinPlan, MaxPlan) // the form checks it first
	}
	return h.asPlayer(ctx, who, id, func(studentID int64) (*Match, error) {
		return h.seated(id, studentID, seq, func(lm *Live, seat int) error {
			if lm.row.Seats[seat].Arm != Committed {
				return ErrNotCommitted
			}
			if st := lm.m.State(); st.Seat != seat || st.TurnTotal != 0 {
				return ErrPlanStarted
			}
			return h.advance(ctx, lm, &pending{seat: seat, by: ByStudent, until: until})
		})
	})
}

// ErrNotCommitted refuses a plan of a player who rolls and holds as they
// like.
var ErrNotCommitted = errors.New("only a player of the committed arm sets how far to roll")

// MinPlan and MaxPlan bound how far a committed player may plan to roll.
const (
	MinPlan = 1
	MaxPlan = 100
)

// pending is an action to carry out before the bots move.
type pending struct {
	seat   int
	action sim.Action
	by     Decider
	// faces are a throw's pieces entered by hand at a table; nil: the
	// seed throws them.
	faces *sim.Faces
	// until, above 0, is a committed player's plan for the turn (Plan):
	// the rolls and the hold it makes, in place of action.
	until int
}

// advance carries out ps in order (if any: a player's moves of one turn),
// then the bots' moves until a student is to move or the match is over,
// and stores them all as one write. If storing fails the match is put
// back as it was. lm.mu must be held.
func (h *Hall) advance(ctx context.Context, lm *Live, ps ...*pending) error {
	before := lm.m.Len()
	rows, err := h.moves(lm, ps, before)
	if err != nil || len(rows) == 0 {
		return err
	}
	st := lm.m.State()
	if err := h.log.AppendEvents(ctx, lm.row.ID, rows, st.Result()); err != nil {
		h.rollback(lm, before)
		return err
	}
	lm.rows = append(lm.rows, rows...)
	lm.last = rows[len(rows)-1].At
	if p := lastOf(ps); p != nil && p.by == ByStudent && !st.Over && st.Seat == p.seat {
		lm.shown = len(lm.rows) + 1 // the mover sees the result in their reply
	}
	if st.Over {
		lm.ended = true
		lm.row.Status, lm.row.Result, lm.row.Winner = Over, st.Result(), st.Winner
	}
	if lm.host != nil {
		lm.host.Counted(&lm.row, rows, false)
	}
	if !st.Over && len(lm.rows) >= h.MaxEvents {
		h.endTooLong(ctx, lm)
	}
	lm.publish()
	if lm.ended && lm.host == nil {
		h.forget(lm.row.ID) // a practice match leaves memory; its page reads the disk
	}
	return nil
}

// lastOf is the last of ps, or nil.
func lastOf(ps []*pending) *pending {
	if len(ps) == 0 {
		return nil
	}
	return ps[len(ps)-1]
}

// ErrTurnOver refuses a turn's moves sent together (a paper sheet's row)
// when the turn ended before the last of them: nothing of them is done.
var ErrTurnOver = errors.New("the turn ended before the last of its moves: a 1 (or a win) ends it")

// moves applies ps (if any: one seat's moves, each while it is still that
// seat's turn) and the bots' moves after them to the game, and returns
// their rows, numbered from before+1; on an error the game is put back as
// it was.
func (h *Hall) moves(lm *Live, ps []*pending, before int) ([]Event, error) {
	var rows []Event
	now := h.now()
	do := func(seat int, a sim.Action, by Decider, f *sim.Faces) error {
		pre := lm.m.State()
		var e sim.Event
		var err error
		if f != nil {
			e, err = lm.m.Enter(seat, a, *f)
		} else {
			e, err = lm.m.Apply(seat, a)
		}
		if err != nil {
			return err
		}
		rows = append(rows, h.eventRow(lm, &pre, e, by, before+len(rows)+1, now))
		return nil
	}
	for i, p := range ps {
		if st := lm.m.State(); i > 0 && (st.Over || st.Seat != p.seat) {
			h.rollback(lm, before)
			return nil, ErrTurnOver
		}
		if p.until > 0 {
			from := len(rows)
			if err := playPlan(lm.m, p, do); err != nil {
				h.rollback(lm, before)
				return nil, err
			}
			for k := from; k < len(rows); k++ {
				rows[k].Plan = p.until
			}
			continue
		}
		if err := do(p.seat, p.action, p.by, p.faces); err != nil {
			if i > 0 {
				h.rollback(lm, before)
			}
			return nil, err
		}
	}
	for moves := 0; moves < 100000; moves++ {
		st := lm.m.State()
		if st.Over || lm.bots[st.Seat] == nil {
			break
		}
		a, ok := h.botMove(lm.bots[st.Seat], &st)
		if !ok {
			break // its table is being solved: fillIn moves it
		}
		if err := do(st.Seat, a, ByBot, nil); err != nil {
			h.rollback(lm, before)
			return nil, fmt.Errorf("play: bot in match %d: %w", lm.row.ID, err)
		}
	}
	return rows, nil
}

// playPlan plays p's turn by its plan (pending.until) through do: a roll
// while the turn total is below the plan and the score with it below the
// target, then a hold; a 1 (or the end of the match) ends it first.
func playPlan(m *sim.Match, p *pending, do func(int, sim.Action, Decider, *sim.Faces) error) error {
	for range 10000 {
		st := m.State()
		if st.Over || st.Seat != p.seat {
			return nil
		}
		a := sim.Roll
		if st.TurnTotal >= p.until || st.Scores[p.seat]+st.TurnTotal >= st.Variant.Target {
			a = sim.Hold
		}
		if err := do(p.seat, a, p.by, nil); err != nil {
			return err
		}
		if a == sim.Hold {
			return nil
		}
	}
	return nil
}

// endTooLong ends a match longer than any honest game: two players
// holding on nothing, or a script. It ends as if the teacher had ended
// it. lm.mu must be held.
func (h *Hall) endTooLong(ctx context.Context, lm *Live) {
	if err := h.log.EndMatch(ctx, lm.row.ID); err != nil {
		h.logger.Error("end a match too long", "match", lm.row.ID, "err", err)
		return
	}
	h.logger.Warn("a match too long ended", "match", lm.row.ID, "events", len(lm.rows))
	lm.ended, lm.row.Status = true, Ended
}

// rollback rebuilds the match from its first n events.
func (h *Hall) rollback(lm *Live, n int) {
	m, err := sim.Replay(lm.row.Variant, lm.row.Seed, lm.m.Events()[:n])
	if err != nil {
		h.logger.Error("rollback", "match", lm.row.ID, "err", err)
		return
	}
	lm.m = m
}

// eventRow builds the stored row of event e made from state pre.
func (h *Hall) eventRow(lm *Live, pre *sim.State, e sim.Event, by Decider, seq int, at time.Time) Event {
	seat := e.Seat
	row := Event{
		MatchID: lm.row.ID, Seq: seq, Seat: seat, Action: e.Action, Turn: e.Turn, Roll: e.Roll,
		Faces: e.Faces, By: by, At: at, Entered: e.Entered,
		Score: pre.Scores[seat], Scores: append([]int(nil), pre.Scores[:pre.Variant.Seats]...),
		OpponentScore: pre.Leader(seat), TurnTotal: pre.TurnTotal, Dice: e.Faces.Len(),
	}
	if seat == pre.Seat {
		row.Analysis, row.Pending = Analyse(h.tables, pre, e.Action)
		mysteryAgrees(lm.row, pre, &row)
		if row.Pending {
			h.awaiting(keyFor(pre))
		}
	}
	return row
}
