package server

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
)

// liveMatch is a match being played, in memory. Its log on disk is the
// truth: every change is written before it is acknowledged, and the match is
// rebuilt from the log after a restart.
type liveMatch struct {
	mu    sync.Mutex
	row   store.Match
	m     *sim.Match
	bots  []sim.Strategy // per seat; nil for a student
	rows  []store.Event  // the stored log, with analysis
	last  time.Time      // when the last event happened: the deadline runs from it
	ended bool           // ended by the teacher, or over
}

// Errors of play that a student can act on.
var (
	errNotPlaying = errors.New("this match is no longer being played")
	errNotSeated  = errors.New("you are not playing in this match")
	errStale      = errors.New("that click was already counted")
	errPaused     = errors.New("the teacher has paused play")
)

// seatOf returns the seat of a student, or -1.
func (lm *liveMatch) seatOf(studentID int64) int {
	for _, s := range lm.row.Seats {
		if s.StudentID == studentID && studentID != 0 {
			return s.Seat
		}
	}
	return -1
}

// restore rebuilds every match still playing from its log.
func (s *Server) restore(ctx context.Context) (int, error) {
	ms, err := s.store.Matches(ctx, store.MatchFilter{Status: store.Playing})
	if err != nil {
		return 0, err
	}
	for _, row := range ms {
		rows, err := s.store.Events(ctx, store.EventFilter{MatchID: row.ID})
		if err != nil {
			return 0, err
		}
		m, err := replayStored(row, rows)
		if err != nil {
			return 0, err
		}
		lm, err := s.newLive(row, m)
		if err != nil {
			return 0, err
		}
		lm.rows = rows
		if err := s.advance(ctx, lm, nil); err != nil {
			return 0, err
		}
		s.mu.Lock()
		s.live[row.ID] = lm
		s.mu.Unlock()
	}
	return len(ms), nil
}

// replayStored rebuilds a stored match from its stored log.
func replayStored(row store.Match, rows []store.Event) (*sim.Match, error) {
	evs, err := store.SimEvents(rows)
	if err != nil {
		return nil, fmt.Errorf("server: match %d: %w", row.ID, err)
	}
	m, err := sim.Replay(row.Variant, row.Seed, evs)
	if err != nil {
		return nil, fmt.Errorf("server: match %d: %w", row.ID, err)
	}
	return m, nil
}

// newLive wraps a match with its bots.
func (s *Server) newLive(row store.Match, m *sim.Match) (*liveMatch, error) {
	lm := &liveMatch{row: row, m: m, bots: make([]sim.Strategy, row.Variant.Seats), last: s.cfg.Now()}
	for _, seat := range row.Seats {
		if seat.Bot == "" {
			continue
		}
		bot, err := solve.ParseStrategy(seat.Bot, row.Variant, s.tables)
		if err != nil {
			return nil, fmt.Errorf("server: match %d seat %d: %w", row.ID, seat.Seat, err)
		}
		lm.bots[seat.Seat] = bot
	}
	return lm, nil
}

// start registers new matches (already stored) and lets bots that move
// first play.
func (s *Server) start(ctx context.Context, rows []store.Match) error {
	for _, row := range rows {
		m, err := sim.NewMatch(row.Variant, row.Seed)
		if err != nil {
			return err
		}
		lm, err := s.newLive(row, m)
		if err != nil {
			return err
		}
		lm.mu.Lock()
		err = s.advance(ctx, lm, nil)
		lm.mu.Unlock()
		if err != nil {
			return err
		}
		s.mu.Lock()
		if !lm.ended {
			s.live[row.ID] = lm
		}
		s.mu.Unlock()
	}
	return nil
}

// liveByID returns a match being played, or nil.
func (s *Server) liveByID(id int64) *liveMatch {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.live[id]
}

// liveWhere returns the matches being played that pass keep.
func (s *Server) liveWhere(keep func(*liveMatch) bool) []*liveMatch {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*liveMatch
	for _, lm := range s.live {
		if keep(lm) {
			out = append(out, lm)
		}
	}
	return out
}

// Act carries out a student's action in a match. seq is the number of
// events the student's page showed: a repeated or stale one does nothing
// (errStale). The action, and every bot move it lets happen, are on disk
// before Act returns nil.
func (s *Server) Act(ctx context.Context, matchID, studentID int64, seq int, a sim.Action) error {
	lm := s.liveByID(matchID)
	if lm == nil {
		return errNotPlaying
	}
	lm.mu.Lock()
	defer lm.mu.Unlock()
	if lm.ended {
		return errNotPlaying
	}
	seat := lm.seatOf(studentID)
	if seat < 0 {
		return errNotSeated
	}
	if seq != lm.m.Len() {
		return errStale
	}
	if paused, err := s.paused(ctx, lm.row.ClassID); err != nil {
		return err
	} else if paused {
		return errPaused
	}
	if a.Kind == sim.TimeoutKind {
		return &sim.ActionError{Code: sim.CodeUnknown, Seat: seat, Action: a, Reason: "a timeout is made by the server, not sent"}
	}
	return s.advance(ctx, lm, &pending{seat: seat, action: a, by: "student"})
}

// pending is an action to carry out before the bots move.
type pending struct {
	seat   int
	action sim.Action
	by     string
}

// advance carries out p (if any), then the bots' moves until a student is
// to move or the match is over, and stores them all in one transaction. If
// storing fails the match is put back as it was. lm must be locked.
func (s *Server) advance(ctx context.Context, lm *liveMatch, p *pending) error {
	before := lm.m.Len()
	var rows []store.Event
	do := func(seat int, a sim.Action, by string) error {
		pre := lm.m.State()
		e, err := lm.m.Apply(seat, a)
		if err != nil {
			return err
		}
		rows = append(rows, s.eventRow(lm, &pre, e, by, before+len(rows)+1))
		return nil
	}
	if p != nil {
		if err := do(p.seat, p.action, p.by); err != nil {
			return err
		}
	}
	for moves := 0; moves < 100000; moves++ {
		st := lm.m.State()
		if st.Over || lm.bots[st.Seat] == nil {
			break
		}
		if err := do(st.Seat, lm.bots[st.Seat].Decide(st.Position()), "bot"); err != nil {
			return fmt.Errorf("server: bot in match %d: %w", lm.row.ID, err)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	st := lm.m.State()
	if err := s.store.AppendEvents(ctx, lm.row.ID, rows, st.Result()); err != nil {
		s.rollback(lm, before)
		return err
	}
	lm.rows = append(lm.rows, rows...)
	lm.last = s.cfg.Now()
	if st.Over {
		lm.ended = true
		lm.row.Status, lm.row.Result = store.Over, st.Result()
		s.mu.Lock()
		delete(s.live, lm.row.ID)
		s.mu.Unlock()
	}
	return nil
}

// rollback rebuilds the match from its first n events.
func (s *Server) rollback(lm *liveMatch, n int) {
	events := lm.m.Events()[:n]
	m, err := sim.Replay(lm.row.Variant, lm.row.Seed, events)
	if err != nil {
		s.log.Error("rollback", "match", lm.row.ID, "err", err)
		return
	}
	lm.m = m
}

// eventRow builds the stored row of event e made from state pre.
func (s *Server) eventRow(lm *liveMatch, pre *sim.State, e sim.Event, by string, seq int) store.Event {
	seat := e.Seat
	dice := e.Faces.Len()
	row := store.Event{
		MatchID: lm.row.ID, Seq: seq, Seat: seat, Action: e.Action.String(), Turn: e.Turn, Roll: e.Roll,
		Faces: e.Faces.String(), By: by, At: s.cfg.Now(),
		Score: pre.Scores[seat], Scores: append([]int(nil), pre.Scores[:pre.Variant.Seats]...),
		OpponentScore: pre.Leader(seat), TurnTotal: pre.TurnTotal, Dice: dice,
	}
	if seat == pre.Seat {
		row.Analysis = s.analyse(pre, e.Action)
	}
	return row
}

// endMatches stops matches being played (a round ended, a student removed,
// a class deleted): they are marked ended on disk and leave memory.
func (s *Server) endMatches(ctx context.Context, lms []*liveMatch) error {
	for _, lm := range lms {
		lm.mu.Lock()
		if !lm.ended {
			if err := s.store.EndMatch(ctx, lm.row.ID); err != nil {
				lm.mu.Unlock()
				return err
			}
			lm.ended = true
			lm.row.Status = store.Ended
		}
		lm.mu.Unlock()
		s.mu.Lock()
		delete(s.live, lm.row.ID)
		s.mu.Unlock()
	}
	return nil
}

// paused reports whether a class has paused play (practice never pauses).
func (s *Server) paused(ctx context.Context, classID int64) (bool, error) {
	if classID == 0 {
		return false, nil
	}
	c, err := s.store.ClassByID(ctx, classID)
	if err != nil {
		return false, err
	}
	return c.Paused, nil
}

// deadlineTick is how often the deadline watcher looks.
const deadlineTick = 250 * time.Millisecond

// watchDeadlines makes timeouts: when a student's per-roll deadline passes,
// the server holds for them (Hog: the turn passes), recorded as a timeout.
func (s *Server) watchDeadlines() {
	defer close(s.done)
	t := time.NewTicker(deadlineTick)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.checkDeadlines(context.Background())
		}
	}
}

// checkDeadlines makes every timeout that is due.
func (s *Server) checkDeadlines(ctx context.Context) {
	now := s.cfg.Now()
	for _, lm := range s.liveWhere(func(lm *liveMatch) bool { return lm.row.Variant.Deadline > 0 }) {
		lm.mu.Lock()
		st := lm.m.State()
		due := !lm.ended && !st.Over && lm.bots[st.Seat] == nil && now.Sub(lm.last) >= time.Duration(lm.row.Variant.Deadline)
		if due {
			if paused, err := s.paused(ctx, lm.row.ClassID); err != nil || paused {
				due = false
			}
		}
		if due {
			if err := s.advance(ctx, lm, &pending{seat: st.Seat, action: sim.Timeout, by: "timeout"}); err != nil {
				s.log.Error("timeout", "match", lm.row.ID, "err", err)
			}
		}
		lm.mu.Unlock()
	}
}

// restartClocks gives every student on turn in a class a fresh deadline
// (after a pause).
func (s *Server) restartClocks(classID int64) {
	for _, lm := range s.liveWhere(func(lm *liveMatch) bool { return lm.row.ClassID == classID }) {
		lm.mu.Lock()
		lm.last = s.cfg.Now()
		lm.mu.Unlock()
	}
}
