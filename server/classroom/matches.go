package classroom

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
)

// match is a match being played, in memory. Its log on disk is the truth:
// every change is written before it is acknowledged, and the match is
// rebuilt from the log after a restart.
type match struct {
	mu    sync.Mutex
	row   play.Match
	m     *sim.Match
	bots  []sim.Strategy // per seat; nil for a student
	rows  []play.Event   // the stored log, with analysis
	last  time.Time      // when the deadline runs from: the last event, or the board's first showing to the player to move
	shown int            // 1 + the events of the position whose board the player to move has been shown (0: none)
	ended bool           // over, or ended by the teacher
	cls   *class         // nil for practice
	ver   int64

	snap atomic.Pointer[play.Match]
}

// publish makes the snapshot of the match as it is now. mu must be held.
func (lm *match) publish() {
	lm.ver++
	row := lm.row
	row.State, row.Events, row.Last, row.Version = lm.m.State(), lm.rows[:len(lm.rows):len(lm.rows)], lm.last, lm.ver
	lm.snap.Store(&row)
	if lm.cls != nil {
		lm.cls.activity.Add(1)
	}
}

// Match returns a live match (being played, or finished in the open round
// or lately in practice), or nil.
func (r *Room) Match(id int64) *play.Match {
	r.mu.RLock()
	lm := r.matches[id]
	r.mu.RUnlock()
	if lm == nil {
		return nil
	}
	return lm.snap.Load()
}

// Playing returns the match of a student in the class's open round (being
// played, or finished), or nil.
func (r *Room) playingOf(classID, studentID int64) *play.Match {
	c := r.loaded(classID)
	if c == nil {
		return nil
	}
	if lm := (*c.live.Load())[studentID]; lm != nil {
		return lm.snap.Load()
	}
	return nil
}

// Matches returns the class's matches of the open round, in ID order.
func (r *Room) matchesOf(classID int64) []*play.Match {
	c := r.loaded(classID)
	if c == nil {
		return nil
	}
	var out []*play.Match
	for _, lm := range uniqueMatches(*c.live.Load()) {
		out = append(out, lm.snap.Load())
	}
	sortMatches(out)
	return out
}

func sortMatches(ms []*play.Match) {
	slices.SortFunc(ms, func(a, b *play.Match) int { return cmp.Compare(a.ID, b.ID) })
}

// Act carries out the viewer's action in match id, for one of its
// players only: anyone else, and an id that does not exist, are refused
// alike (ErrNotSeated) before anything else is done or said. seq is the
// number of events the player's page showed: a repeated or stale one does
// nothing (ErrStale). The action, and every bot move it lets happen, are
// on disk before Act returns nil; an error wrapping ErrNotSaved leaves the
// match as it was. The view returned is the match after the action (or as
// it is, with the error).
func (r *Room) Act(ctx context.Context, v Viewer, id int64, seq int, a sim.Action) (*MatchView, error) {
	mv, err := r.SeeMatch(ctx, v, id, false)
	if err != nil {
		return nil, err
	}
	if !mv.Live {
		return mv, ErrNotPlaying
	}
	snap, err := r.act(ctx, id, mv.Seats[mv.Seat].StudentID, seq, a)
	if snap != nil {
		mv.Match = snap
	}
	return mv, err
}

// act carries out a student's action in a live match (see Act).
func (r *Room) act(ctx context.Context, matchID, studentID int64, seq int, a sim.Action) (*play.Match, error) {
	r.mu.RLock()
	lm := r.matches[matchID]
	r.mu.RUnlock()
	if lm == nil {
		return nil, ErrNotPlaying
	}
	lm.mu.Lock()
	defer lm.mu.Unlock()
	if lm.ended {
		return lm.snap.Load(), ErrNotPlaying
	}
	seat := -1
	for _, s := range lm.row.Seats {
		if s.StudentID == studentID && studentID != 0 {
			seat = s.Seat
		}
	}
	if seat < 0 {
		return nil, ErrNotSeated
	}
	if seq != lm.m.Len() {
		return lm.snap.Load(), ErrStale
	}
	if lm.cls != nil && lm.cls.snap.Load().Paused {
		return lm.snap.Load(), ErrPaused
	}
	if a.Kind == sim.TimeoutKind {
		return lm.snap.Load(), &sim.ActionError{Code: sim.CodeUnknown, Seat: seat, Action: a, Reason: "a timeout is made by the server, not sent"}
	}
	err := r.advance(ctx, lm, &pending{seat: seat, action: a, by: play.ByStudent})
	return lm.snap.Load(), err
}

// pending is an action to carry out before the bots move.
type pending struct {
	seat   int
	action sim.Action
	by     play.Decider
}

// advance carries out p (if any), then the bots' moves until a student is
// to move or the match is over, and stores them all as one write. If
// storing fails the match is put back as it was. lm.mu must be held.
func (r *Room) advance(ctx context.Context, lm *match, p *pending) error {
	before := lm.m.Len()
	var rows []play.Event
	now := r.now()
	do := func(seat int, a sim.Action, by play.Decider) error {
		pre := lm.m.State()
		e, err := lm.m.Apply(seat, a)
		if err != nil {
			return err
		}
		rows = append(rows, r.eventRow(lm, &pre, e, by, before+len(rows)+1, now))
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
		a, ok := r.botMove(lm.bots[st.Seat], &st)
		if !ok {
			break // its table is being solved: fillIn moves it
		}
		if err := do(st.Seat, a, play.ByBot); err != nil {
			r.rollback(lm, before)
			return errorf(fmt.Sprintf("bot in match %d", lm.row.ID), err)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	st := lm.m.State()
	if err := r.st.AppendEvents(ctx, lm.row.ID, rows, st.Result()); err != nil {
		r.rollback(lm, before)
		return err
	}
	lm.rows = append(lm.rows, rows...)
	lm.last = now
	if p != nil && p.by == play.ByStudent && !st.Over && st.Seat == p.seat {
		lm.shown = len(lm.rows) + 1 // the mover sees the result in their reply
	}
	if st.Over {
		lm.ended = true
		lm.row.Status, lm.row.Result, lm.row.Winner = play.Over, st.Result(), st.Winner
	}
	r.count(lm, rows, st)
	if !st.Over && len(lm.rows) >= r.maxEvents {
		// Longer than any honest game: two players holding on nothing,
		// or a script. The match ends, as if the teacher had ended it.
		if err := r.st.EndMatch(ctx, lm.row.ID); err != nil {
			r.log.Error("end a match too long", "match", lm.row.ID, "err", err)
		} else {
			r.log.Warn("a match too long ended", "match", lm.row.ID, "events", len(lm.rows))
			lm.ended, lm.row.Status = true, play.Ended
		}
	}
	lm.publish()
	if lm.ended && lm.cls == nil {
		r.forget(lm.row.ID) // a practice match leaves memory; its page reads the disk
	}
	return nil
}

// count adds committed events to the class's totals, as store.ClassStats
// counts them.
func (r *Room) count(lm *match, rows []play.Event, st sim.State) {
	c := lm.cls
	if c == nil {
		return
	}
	today := r.today()
	c.statsMu.Lock()
	defer c.statsMu.Unlock()
	for _, e := range rows {
		if e.Action.Kind == sim.ResignKind {
			continue
		}
		c.total++
		student := lm.row.Seats[e.Seat].StudentID
		if e.By != play.ByStudent || student == 0 {
			continue
		}
		c.add(today, student, func(s *store.StudentStats) {
			s.Decisions++
			addAnalysis(s, &e)
		})
	}
	if st.Over {
		for _, seat := range lm.row.Seats {
			if seat.StudentID == 0 {
				continue
			}
			c.add(today, seat.StudentID, func(s *store.StudentStats) {
				s.Games++
				if st.Winner == seat.Seat {
					s.Wins++
				}
			})
		}
	}
}

// addAnalysis counts the analysis of a student's decision e (if it has
// one) in their totals, as store.ClassStats counts it.
func addAnalysis(s *store.StudentStats, e *play.Event) {
	a := e.Analysis
	if a == nil {
		return
	}
	s.Analysed++
	if a.Approximate {
		s.Approximate++
	}
	if e.Action == a.Best {
		s.AgreeOptimal++
	}
	if e.Action == a.EV {
		s.AgreeEV++
	}
	s.Cost += a.Cost
}

// rollback rebuilds the match from its first n events.
func (r *Room) rollback(lm *match, n int) {
	m, err := sim.Replay(lm.row.Variant, lm.row.Seed, lm.m.Events()[:n])
	if err != nil {
		r.log.Error("rollback", "match", lm.row.ID, "err", err)
		return
	}
	lm.m = m
}

// eventRow builds the stored row of event e made from state pre.
func (r *Room) eventRow(lm *match, pre *sim.State, e sim.Event, by play.Decider, seq int, at time.Time) play.Event {
	seat := e.Seat
	row := play.Event{
		MatchID: lm.row.ID, Seq: seq, Seat: seat, Action: e.Action, Turn: e.Turn, Roll: e.Roll,
		Faces: e.Faces, By: by, At: at,
		Score: pre.Scores[seat], Scores: append([]int(nil), pre.Scores[:pre.Variant.Seats]...),
		OpponentScore: pre.Leader(seat), TurnTotal: pre.TurnTotal, Dice: e.Faces.Len(),
	}
	if seat == pre.Seat {
		row.Analysis, row.Pending = Analyse(r.tables, pre, e.Action)
		mysteryAgrees(lm.row, pre, &row)
		if row.Pending {
			r.awaiting(keyFor(pre))
		}
	}
	return row
}

// forget drops a match from the room's map.
func (r *Room) forget(id int64) {
	r.mu.Lock()
	delete(r.matches, id)
	r.mu.Unlock()
}

// newLive wraps a stored match, replayed, with its bots.
func (r *Room) newLive(row play.Match, m *sim.Match, rows []play.Event, c *class) (*match, error) {
	lm := &match{row: row, m: m, rows: rows, bots: make([]sim.Strategy, row.Variant.Seats), last: r.now(), cls: c}
	for _, seat := range row.Seats {
		if seat.Bot == "" {
			continue
		}
		bot, err := newBot(seat.Bot, row.Variant, &row.Seed, seat.Seat)
		if err != nil {
			return nil, errorf(fmt.Sprintf("match %d seat %d", row.ID, seat.Seat), err)
		}
		lm.bots[seat.Seat] = bot
	}
	lm.publish()
	return lm, nil
}

// begin registers new matches (already stored) and lets the bots that move
// first play, many at once so that their writes share batches. It returns
// the live matches.
func (r *Room) begin(ctx context.Context, rows []play.Match, c *class) ([]*match, error) {
	out := make([]*match, len(rows))
	for i, row := range rows {
		m, err := sim.NewMatch(row.Variant, row.Seed)
		if err != nil {
			return nil, err
		}
		if out[i], err = r.newLive(row, m, nil, c); err != nil {
			return nil, err
		}
	}
	r.mu.Lock()
	for _, lm := range out {
		r.matches[lm.row.ID] = lm
	}
	r.mu.Unlock()
	errs := make([]error, len(out))
	sem := make(chan struct{}, 64)
	var wg sync.WaitGroup
	for i, lm := range out {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			lm.mu.Lock()
			defer lm.mu.Unlock()
			errs[i] = r.advance(ctx, lm, nil)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// Practice starts a match against a bot for the browser with token hash
// tokenHash, which plays without a class, and returns it. The browser's
// practice player is found, or made the first time it plays.
func (r *Room) Practice(ctx context.Context, tokenHash string, v sim.Variant, bot string) (*play.Match, error) {
	r.prepare(v)
	if err := solve.CheckStrategy(bot, v); err != nil {
		return nil, err
	}
	if bot == sim.MysteryBot && !r.botReady(v) {
		return nil, ErrMysteryWaits
	}
	player, err := r.st.StudentByToken(ctx, 0, tokenHash)
	if errors.Is(err, store.ErrNotFound) {
		player, err = r.st.AddStudent(ctx, store.Student{Nickname: "You", AnonName: AnonName(nil), TokenHash: tokenHash})
	}
	if err != nil {
		return nil, err
	}
	row := play.NewMatch(v, sim.NewSeed(), []play.Seat{{Seat: 0, StudentID: player.ID, Nickname: player.Nickname, AnonName: player.AnonName, TokenHash: player.TokenHash}, {Seat: 1, Bot: bot}})
	if row.ID, err = r.st.CreateMatch(ctx, row); err != nil {
		return nil, err
	}
	lms, err := r.begin(ctx, []play.Match{row}, nil)
	if err != nil {
		return nil, err
	}
	return lms[0].snap.Load(), nil
}

// Restore rebuilds every match still playing, and every game of Skunk, from
// the log: after a restart play goes on where it stopped.
func (r *Room) Restore(ctx context.Context) (int, error) {
	if err := r.endIdleOnDisk(ctx); err != nil {
		return 0, err
	}
	if err := r.restoreSkunk(ctx); err != nil {
		return 0, err
	}
	ms, err := r.st.Matches(ctx, store.MatchFilter{Status: play.Playing})
	if err != nil {
		return 0, err
	}
	logs, err := r.st.PlayingEvents(ctx)
	if err != nil {
		return 0, err
	}
	var todo []*match
	for _, row := range ms {
		m, err := sim.Replay(row.Variant, row.Seed, play.SimEvents(logs[row.ID]))
		if err != nil {
			return 0, errorf(fmt.Sprintf("restore match %d", row.ID), err)
		}
		var c *class
		if row.ClassID != 0 {
			if c, err = r.load(ctx, row.ClassID); err != nil {
				return 0, err
			}
		}
		lm, err := r.newLive(row, m, logs[row.ID], c)
		if err != nil {
			return 0, err
		}
		todo = append(todo, lm)
	}
	r.mu.Lock()
	for _, lm := range todo {
		r.matches[lm.row.ID] = lm
	}
	r.mu.Unlock()
	byClass := map[*class][]*match{}
	for _, lm := range todo {
		if lm.cls != nil {
			byClass[lm.cls] = append(byClass[lm.cls], lm)
		}
	}
	for c, lms := range byClass {
		r.index(c, lms)
	}
	for _, lm := range todo {
		lm.mu.Lock()
		err := r.advance(ctx, lm, nil)
		lm.mu.Unlock()
		if err != nil {
			return 0, err
		}
	}
	return len(ms), r.restorePending(ctx)
}

// index adds matches to their class's map of students to matches.
func (r *Room) index(c *class, lms []*match) {
	next := map[int64]*match{}
	for k, v := range *c.live.Load() {
		next[k] = v
	}
	for _, lm := range lms {
		for _, s := range lm.row.Seats {
			if s.StudentID != 0 {
				next[s.StudentID] = lm
			}
		}
	}
	c.live.Store(&next)
	c.activity.Add(1)
}

// end stops live matches (a round ended, a student removed, a class
// deleted): write stores the change, and only if it succeeds do the
// matches stop in memory. Each match's lock is taken in turn, so a move in
// flight finishes first.
func (r *Room) end(lms []*match, write func() error) error {
	for _, lm := range lms {
		lm.mu.Lock()
	}
	defer func() {
		for _, lm := range lms {
			lm.mu.Unlock()
		}
	}()
	if err := write(); err != nil {
		return err
	}
	for _, lm := range lms {
		if !lm.ended {
			lm.ended = true
			lm.row.Status = play.Ended
			lm.publish()
		}
	}
	return nil
}

// deadlineTick is how often the deadline watcher looks.
const deadlineTick = 250 * time.Millisecond

// Watch starts the watcher: when a student's per-roll deadline passes, the
// server holds for them (Hog: the turn passes), recorded as a timeout; and
// every minute what nobody uses expires (Sweep). Close stops it.
func (r *Room) Watch() {
	r.watching.Store(true)
	go func() {
		defer close(r.done)
		t := time.NewTicker(deadlineTick)
		defer t.Stop()
		sweep := time.NewTicker(sweepEvery)
		defer sweep.Stop()
		for {
			select {
			case <-r.stop:
				return
			case <-t.C:
				r.CheckDeadlines(context.Background())
			case <-sweep.C:
				if err := r.Sweep(context.Background()); err != nil {
					r.log.Error("sweep", "err", err)
				}
			}
		}
	}()
}

// CheckDeadlines makes every timeout that is due. The matches' timeouts
// are made side by side (at most 64 at once), so that their writes share
// the writer's batches as students' moves do.
func (r *Room) CheckDeadlines(ctx context.Context) {
	now := r.now()
	r.mu.RLock()
	var lms []*match
	for _, lm := range r.matches {
		if lm.row.Variant.Deadline > 0 {
			lms = append(lms, lm)
		}
	}
	r.mu.RUnlock()
	sem := make(chan struct{}, 64)
	var wg sync.WaitGroup
	for _, lm := range lms {
		if s := lm.snap.Load(); s.Over() || now.Sub(s.Last) < time.Duration(s.Variant.Deadline) {
			continue // not due (checked again under the match's lock)
		}
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			r.timeout(ctx, lm, now)
		})
	}
	wg.Wait()
}

// timeout holds for the student on turn in lm if their deadline has passed.
func (r *Room) timeout(ctx context.Context, lm *match, now time.Time) {
	lm.mu.Lock()
	defer lm.mu.Unlock()
	st := lm.m.State()
	due := !lm.ended && !st.Over && lm.bots[st.Seat] == nil && now.Sub(lm.last) >= time.Duration(lm.row.Variant.Deadline)
	if due && lm.cls != nil && lm.cls.snap.Load().Paused {
		due = false
	}
	if due {
		if err := r.advance(ctx, lm, &pending{seat: st.Seat, action: sim.Timeout, by: play.ByTimeout}); err != nil {
			r.log.Error("timeout", "match", lm.row.ID, "err", err)
		}
	}
}

// shownTo starts the deadline of the player to move in lm when their
// board is first shown to them: the limit counts from when they can see
// the position, not from when the server made it (a poll's delay, a page
// loading). Only the first showing of each position counts, so a turn
// lasts at most twice the limit however the board is fetched.
func (r *Room) shownTo(lm *match, seat int) {
	lm.mu.Lock()
	defer lm.mu.Unlock()
	st := lm.m.State()
	if lm.ended || st.Over || st.Seat != seat || lm.bots[seat] != nil || lm.row.Variant.Deadline == 0 || lm.shown == len(lm.rows)+1 {
		return
	}
	if lm.cls != nil && lm.cls.snap.Load().Paused {
		return // the clocks start again when play resumes
	}
	lm.shown = len(lm.rows) + 1
	if now := r.now(); now.After(lm.last) {
		lm.last = now
	}
	lm.publish()
}

// restartClocks gives every student on turn in a class a fresh deadline
// (after a pause).
func (r *Room) restartClocks(c *class) {
	for _, lm := range uniqueMatches(*c.live.Load()) {
		lm.mu.Lock()
		lm.last = r.now()
		lm.publish()
		lm.mu.Unlock()
	}
}

// Live returns every match in the room, in ID order: for tests and
// maintenance.
func (r *Room) Live() []*play.Match {
	r.mu.RLock()
	out := make([]*play.Match, 0, len(r.matches))
	for _, lm := range r.matches {
		out = append(out, lm.snap.Load())
	}
	r.mu.RUnlock()
	sortMatches(out)
	return out
}
