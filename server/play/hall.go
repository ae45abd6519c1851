package play

import (
	"cmp"
	"crypto/ed25519"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"pigclass/sim"
	"pigclass/sim/solve"
)

// Errors a player can act on.
var (
	ErrNotPlaying = errors.New("this match is no longer being played")
	ErrNotSeated  = errors.New("you are not playing in this match")
	ErrStale      = errors.New("that click was already counted")
	ErrPaused     = errors.New("the teacher has paused play")
	// ErrMysteryWaits: the mystery bot is offered only where its
	// perfect-play table is ready when the match starts, so that nothing
	// in its play (a wait for the table) tells its strength.
	ErrMysteryWaits = errors.New("the mystery bot's perfect-play table is still being solved")
)

// MaxMatchEvents is the most events a match may have: far past any honest
// game (Pig to 200, two players holding after every roll, is some 400),
// short of a script that holds on nothing for ever. The match then ends,
// stored as ended.
const MaxMatchEvents = 5000

// Hall is where the matches of one pigclass server are played.
type Hall struct {
	// MaxEvents is the longest a match may grow (MaxMatchEvents; tests
	// shorten it). Set it before the hall plays.
	MaxEvents int

	log     Log
	tables  *solve.Cache
	logger  *slog.Logger
	now     func() time.Time
	classes Classes            // the classes of the matches
	signer  ed25519.PrivateKey // signs records (RecordSigner)

	mu      sync.RWMutex
	matches map[int64]*Live

	waitMu  sync.Mutex           // guards waiting (a leaf)
	waiting map[sim.Variant]bool // tables (keyFor) that decisions wait for: see fillin.go
	unuse   func()               // unregisters the hall from the cache

	doorMu sync.Mutex // serializes the door's check and its spending (Start)
	door   door
}

// NewHall builds the hall on a log. tables holds the solved tables the
// analysis and the optimal bots read; classes are the classes matches are
// played in; key is the server's own key (records are signed with a key
// derived from it: RecordSigner); now is the clock. Call Restore to bring
// back what was being played.
func NewHall(log Log, tables *solve.Cache, classes Classes, key []byte, logger *slog.Logger, now func() time.Time) *Hall {
	h := &Hall{
		MaxEvents: MaxMatchEvents, log: log, tables: tables, logger: logger, now: now, classes: classes, signer: RecordSigner(key),
		matches: map[int64]*Live{}, waiting: map[sim.Variant]bool{},
		door: newDoor(DefaultLimits, now),
	}
	unuse := tables.Use(h.needs, h.tableReady)
	unwatch := tables.Watch(func(key sim.Variant) {
		h.logger.Info("solving a table", "kind", key.String(), "bytes", solve.TableBytes(key))
	})
	h.unuse = func() { unuse(); unwatch() }
	return h
}

// Close unregisters the hall from the table cache. Call it once.
func (h *Hall) Close() { h.unuse() }

// Live is a match being played, in memory. Its log on disk is the truth:
// every change is written before it is acknowledged, and the match is
// rebuilt from the log after a restart.
type Live struct {
	mu    sync.Mutex
	row   Match          // the match as stored (Seats, Status, Winner)
	m     *sim.Match     // the game
	bots  []sim.Strategy // per seat; nil for a student
	rows  []Event        // the stored log, with analysis
	last  time.Time      // when the deadline runs from: the last event, or the board's first showing to the player to move
	shown int            // 1 + the events of the position whose board the player to move has been shown (0: none)
	ended bool           // over, or ended
	host  Host           // the class, nil for practice
	ver   int64

	snap atomic.Pointer[Match]
	bell Bell // rung at each publish
}

// Match is the match as last committed.
func (lm *Live) Match() *Match { return lm.snap.Load() }

// publish makes the snapshot of the match as it is now. lm.mu must be
// held.
func (lm *Live) publish() {
	lm.ver++
	row := lm.row
	row.State, row.Events, row.Last, row.Version = lm.m.State(), lm.rows[:len(lm.rows):len(lm.rows)], lm.last, lm.ver
	lm.snap.Store(&row)
	lm.bell.Ring()
	if lm.host != nil {
		lm.host.Changed()
	}
}

// Match returns a live match (being played, or finished in the open round
// or lately in practice), or nil.
func (h *Hall) Match(id int64) *Match {
	if lm := h.live(id); lm != nil {
		return lm.snap.Load()
	}
	return nil
}

// live returns the live match id, or nil.
func (h *Hall) live(id int64) *Live {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.matches[id]
}

// Matches returns every match in the hall, in ID order: for tests,
// maintenance and the health check.
func (h *Hall) Matches() []*Match {
	return Snapshots(h.each(func(*Live) bool { return true }))
}

// Of returns the live matches of host that keep asks for.
func (h *Hall) Of(host Host, keep func(*Match) bool) []*Live {
	return h.each(func(lm *Live) bool { return lm.host == host && keep(lm.snap.Load()) })
}

// each returns the live matches that keep asks for.
func (h *Hall) each(keep func(*Live) bool) []*Live {
	h.mu.RLock()
	defer h.mu.RUnlock()
	var out []*Live
	for _, lm := range h.matches {
		if keep(lm) {
			out = append(out, lm)
		}
	}
	return out
}

// Snapshots returns the matches of live ones, in ID order.
func Snapshots(lms []*Live) []*Match {
	out := make([]*Match, 0, len(lms))
	for _, lm := range lms {
		out = append(out, lm.snap.Load())
	}
	slices.SortFunc(out, func(a, b *Match) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// Playing counts the matches being played.
func (h *Hall) Playing() int {
	return len(h.each(func(lm *Live) bool { return !lm.snap.Load().Over() }))
}

// SharingDice counts the matches other than id still being played with
// seed. Every match being played is in memory.
func (h *Hall) SharingDice(seed sim.Seed, id int64) int {
	return len(h.each(func(lm *Live) bool {
		s := lm.snap.Load()
		return s.ID != id && s.Seed == seed && !s.Over()
	}))
}

// Forget drops matches from the hall (their class ended or left them).
func (h *Hall) Forget(lms []*Live) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, lm := range lms {
		delete(h.matches, lm.row.ID)
	}
}

// forget drops a match from the hall.
func (h *Hall) forget(id int64) {
	h.mu.Lock()
	delete(h.matches, id)
	h.mu.Unlock()
}

// End stops live matches (a round ended, a student removed, a class
// deleted): write stores the change, and only if it succeeds do the
// matches stop in memory. Each match's lock is taken in turn, so a move
// in flight finishes first.
func (h *Hall) End(lms []*Live, write func() error) error {
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
			lm.row.Status = Ended
			lm.publish()
		}
	}
	return nil
}

// EndEach ends each match alone (write stores its end), and forgets it.
func (h *Hall) EndEach(lms []*Live, write func(id int64) error) error {
	for _, lm := range lms {
		if err := h.End([]*Live{lm}, func() error { return write(lm.row.ID) }); err != nil {
			return err
		}
		h.forget(lm.row.ID)
	}
	return nil
}

// Reseat changes the seats of the live matches that hold a student who
// passes who (a student's token moved, or their names were erased): set
// changes one seat.
func (h *Hall) Reseat(who func(s Seat) bool, set func(s *Seat)) {
	lms := h.each(func(lm *Live) bool { return slices.ContainsFunc(lm.snap.Load().Seats, who) })
	for _, lm := range lms {
		lm.Reseat(who, set)
	}
}

// Reseat changes the seats of the match that hold a student who passes
// who, and publishes it.
func (lm *Live) Reseat(who func(s Seat) bool, set func(s *Seat)) {
	lm.mu.Lock()
	defer lm.mu.Unlock()
	seats := slices.Clone(lm.row.Seats)
	for i := range seats {
		if seats[i].StudentID != 0 && who(seats[i]) {
			set(&seats[i])
		}
	}
	lm.row.Seats = seats
	lm.publish()
}

// RestartClocks gives every student on turn in the matches a fresh
// deadline (after a pause).
func (h *Hall) RestartClocks(lms []*Live) {
	for _, lm := range lms {
		lm.mu.Lock()
		lm.last = h.now()
		lm.publish()
		lm.mu.Unlock()
	}
}
