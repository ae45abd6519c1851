package classroom

import (
	"context"
	"errors"
	"time"

	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
)

// A class is the Host of its matches (package play): the hall asks it
// whether play is paused, and tells it what its matches did.

// Paused reports whether the class's teacher has paused play.
func (c *class) Paused() bool { return c.snap.Load().Paused }

// Counted adds committed events of one of the class's matches to its
// totals, as store.ClassStats counts them.
func (c *class) Counted(m *play.Match, events []play.Event, filled bool) {
	today := c.today()
	c.statsMu.Lock()
	defer c.statsMu.Unlock()
	for i := range events {
		e := &events[i]
		if e.Action.Kind == sim.ResignKind {
			continue
		}
		if !filled {
			c.total++
		}
		student := m.Seats[e.Seat].StudentID
		if e.By != play.ByStudent || student == 0 {
			continue
		}
		c.add(today, student, func(s *store.StudentStats) {
			if !filled {
				s.Decisions++
			}
			addAnalysis(s, e)
		})
	}
	if filled || m.Status != play.Over {
		return
	}
	for _, seat := range m.Seats {
		if seat.StudentID == 0 {
			continue
		}
		c.add(today, seat.StudentID, func(s *store.StudentStats) {
			s.Games++
			if m.Winner == seat.Seat {
				s.Wins++
			}
		})
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

// playing returns the match of a student in the class's open round
// (being played, or finished), or nil.
func (c *class) playing(studentID int64) *play.Match {
	if lm := (*c.live.Load())[studentID]; lm != nil {
		return lm.Match()
	}
	return nil
}

// matches returns the class's matches of the open round, in ID order.
func (c *class) matches() []*play.Match { return play.Snapshots(uniqueMatches(*c.live.Load())) }

// Practice starts a match against a bot for the browser with token hash
// tokenHash, which plays without a class, from device (a network
// address), through the door every match starts through, and returns it.
// The browser's practice player is found, or made the first time it
// plays.
func (r *Room) Practice(ctx context.Context, tokenHash, device string, v sim.Variant, bot string) (*play.Match, error) {
	if err := solve.CheckStrategy(bot, v); err != nil {
		return nil, err
	}
	player, err := r.st.StudentByToken(ctx, 0, tokenHash)
	if errors.Is(err, store.ErrNotFound) {
		player, err = r.st.AddStudent(ctx, store.Student{Nickname: "You", AnonName: AnonName(r.chance, nil), TokenHash: tokenHash})
	}
	if err != nil {
		return nil, err
	}
	row := play.NewMatch(v, r.chance.Seed(), []play.Seat{seatOf(player, 0), {Seat: 1, Bot: bot}})
	lms, err := r.hall.Start(ctx, play.Request{Origin: play.FromPractice, Device: device, Player: player.ID, Matches: []play.Match{row}})
	if err != nil {
		return nil, err
	}
	return lms[0].Match(), nil
}

// seatOf is a student's seat n.
func seatOf(st store.Student, n int) play.Seat {
	return play.Seat{Seat: n, StudentID: st.ID, Nickname: st.Nickname, AnonName: st.AnonName, TokenHash: st.TokenHash}
}

// Restore rebuilds every match still playing, and every game of Skunk, from
// the log: after a restart play goes on where it stopped.
func (r *Room) Restore(ctx context.Context) (int, error) {
	// The practice matches idle on disk end first, so that a restart
	// does not rebuild them.
	if _, err := r.st.EndIdlePractice(ctx, r.now().Add(-PracticeIdle)); err != nil {
		return 0, err
	}
	return restore(ctx, r, 0)
}

// restore rebuilds the games still playing of one class, or of every
// class and practice (0).
func restore(ctx context.Context, r *Room, classID int64) (int, error) {
	if err := r.restoreSkunk(ctx, classID); err != nil {
		return 0, err
	}
	hostOf := func(ctx context.Context, classID int64) (play.Host, error) { return r.classes.load(ctx, classID) }
	return r.hall.Restore(ctx, classID, hostOf, func(h play.Host, lms []*play.Live) { index(h.(*class), lms) })
}

// TakeOver loads a class as a restart would (its matches still playing,
// its game of Skunk, the analyses it waits for), for a district's
// instance that has just taken the class's lease: whatever it had of the
// class in memory is left first (another instance served it since).
func TakeOver(ctx context.Context, r *Room, classID int64) (int, error) {
	Evict(r, classID)
	return restore(ctx, r, classID)
}

// Evict takes a class out of memory, its live matches and its game of
// Skunk with it, leaving the database as it is: a district's instance
// that no longer holds the class's lease serves it no more.
func Evict(r *Room, classID int64) {
	c := r.classes.loaded(classID)
	if c == nil {
		return
	}
	r.hall.Forget(r.hall.Of(c, func(*play.Match) bool { return true }))
	r.classes.drop(classID)
	c.skunk.Store(nil)
}

// index adds the matches of a class's open round, and its tables, to its
// map of students to matches (a homework game, of no round, is left out).
func index(c *class, lms []*play.Live) {
	next := map[int64]*play.Live{}
	for k, v := range *c.live.Load() {
		next[k] = v
	}
	for _, lm := range lms {
		m := lm.Match()
		if m.RoundID == 0 && !m.AtTable {
			continue // homework is played from its own page
		}
		for _, s := range m.Seats {
			if s.StudentID != 0 {
				next[s.StudentID] = lm
			}
		}
	}
	c.live.Store(&next)
	c.changedClass()
}

// deadlineTick is how often the deadline watcher looks.
const deadlineTick = 250 * time.Millisecond

// Watch starts the watcher: when a student's per-roll deadline passes, the
// server holds for them (play.Hall.CheckDeadlines); and every minute what
// nobody uses expires (Sweep). Close stops it.
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
				r.hall.CheckDeadlines(context.Background())
			case <-sweep.C:
				if err := r.Sweep(context.Background()); err != nil {
					r.log.Error("sweep", "err", err)
				}
			}
		}
	}()
}
