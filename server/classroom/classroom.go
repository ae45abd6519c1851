// Package classroom is the live class: the classes being taught, their
// rosters, joins and switches, rounds, homework, days, whole-class Skunk,
// retention and erasure, and who may see what (Viewer). Matches are
// played in package play: a round, a practice match and a game of
// homework each ask play's one door (play.Hall.Start) for their matches.
// It offers typed operations (Join, StartRound, EndRound, Sit, ...) and
// answers with immutable snapshots (Class, Skunk, play.Match), each with
// a version number, so that the web layer draws every live page from
// memory and a poll that finds the version unchanged costs next to
// nothing.
//
// The store is the truth: every change is on disk (through the store's
// group-commit writer) before it is acknowledged, and Restore rebuilds the
// live state from the log after a restart.
//
// # Who owns what, and the locks
//
//   - registry.mu (RWMutex) guards the maps of loaded classes, and
//     registry.loadMu the classes being read from disk. Both are leaves: held only to
//     read or change a map, never while taking another lock or waiting
//     for the disk. A class is read from disk by one caller, with no lock
//     held; others asking for it meanwhile wait for that read.
//   - class.mu guards a class's snapshot and its changing and saving
//     flags, and is never held across a commit. A round change (a round or
//     game of Skunk started or ended, a student removed, the class
//     deleted) marks the class changing under it, makes its commits
//     without it and takes it again only to publish (class.change); a
//     small change (a join, a switch, a setting, a readmission, a rejoin)
//     does the same with saving (class.save), so small changes are made
//     one at a time, in order, and neither kind waits for the other.
//     Readers take no lock. Under class.mu no other lock is taken.
//   - skunk.mu serializes the moves of a class's Skunk game; their commits
//     are made without it, the moves pending at once in one (a class
//     sitting down shares a commit), and a failed commit takes back every
//     pending move (commitSkunk).
//   - class.statsMu guards the per-student totals, and class.devMu the
//     devices students joined from: both leaves, taken with a match's
//     lock held (the class is its matches' play.Host).
//   - The hall's locks (package play's doc) are taken after a class's
//     turnstile (class.change) and never under class.mu.
//
// The order, where two are held: a class's turnstile (changing or
// saving, not a lock held but a flag waited on), then a match's lock
// (play.Live), then class.statsMu or class.devMu. registry.mu, registry.loadMu
// and class.mu are leaves.
//
// No lock is held while a table is solved: the tables of a round, and of
// a practice match, are asked for in the background.
//
// Readers take no lock: snapshots are published through atomic pointers
// after each committed change, and a class's set of live matches is a
// copy-on-write map behind an atomic pointer. Whoever waits for a change
// (a page's event stream) waits on the class's bells (bell.go), rung after
// each publication with no lock held: a channel swapped and closed.
package classroom

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"sync"
	"sync/atomic"
	"time"

	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
)

// Errors a student or teacher can act on.
var (
	ErrNoStudents  = errors.New("no students have joined yet")
	ErrLocked      = errors.New("joining is closed")
	ErrNoSkunk     = errors.New("no game of Skunk is being played")
	ErrLooksTaken  = errors.New("looks like a nickname already taken")
	ErrRemoved     = errors.New("removed from the class by the teacher")
	ErrSkunkIsOver = errors.New("this game of Skunk is over")
	// ErrNotSaved wraps a change the disk refused: nothing of it happened,
	// and it may be tried again.
	ErrNotSaved = store.ErrNotSaved
)

// Room is the live classroom of one pigclass server.
type Room struct {
	st     *store.Store
	key    []byte             // the server's own key (see ProjectorKey)
	signer ed25519.PrivateKey // signs match records, derived from key
	hall   *play.Hall         // where the matches are played
	log    *slog.Logger
	now    func() time.Time
	chance sim.Chance // every draw of the room's: seeds, orders, names (Set)

	classes *registry // the classes in memory

	doors doors // the rate limits of joining (Set)

	// retain is how long a class is kept after its last activity (0:
	// until its teacher deletes it); retained is when the sweep last
	// looked for idle classes (Set, Sweep).
	retain   time.Duration
	retained time.Time

	watching   atomic.Bool
	stop, done chan struct{}
}

// New builds the room on a store. key is the server's own key, kept
// outside the database (store.LoadKey). tables holds the solved tables the
// analysis and the optimal bots read. now is the clock (nil: time.Now).
// Call Restore to bring back what was being played, then Watch.
func New(st *store.Store, key []byte, tables *solve.Cache, log *slog.Logger, now func() time.Time) *Room {
	if now == nil {
		now = time.Now
	}
	r := &Room{
		st: st, key: key, signer: play.RecordSigner(key), log: log, now: now,
		classes: newRegistry(st),
		stop:    make(chan struct{}), done: make(chan struct{}),
		doors:  newDoors(DefaultGuesses, DefaultClassJoins, now),
		chance: sim.Crypto,
	}
	r.hall = play.NewHall(st, tables, r.classes, key, log, now)
	return r
}

// class is one class in memory.
type class struct {
	id int64
	mu sync.Mutex
	// changing is set while a round change (see change) makes its
	// commits outside mu, saving while a small change (see save) does;
	// another of the same kind waits on idle (a condition of mu). Under mu.
	changing, saving bool
	idle             *sync.Cond
	snap             atomic.Pointer[Class]
	// activity is bumped by every change of the class or of any of its
	// matches: the dashboard's and projector's polls compare it.
	activity atomic.Int64
	// bell rings with every change of activity (Changed), news with
	// every change of the class itself (changedClass), for the pages
	// that wait for one (bell.go); dropped is set once the class leaves
	// memory.
	bell, news play.Bell
	dropped    atomic.Bool
	// live maps a student to their match of the open round (played or
	// finished); replaced whole under mu.
	live atomic.Pointer[map[int64]*play.Live]

	statsMu sync.Mutex
	stats   map[int64]store.StudentStats
	today   func() string // the server's date now (Store.Today)
	// day and dayStats are the totals of one day of the class (today's,
	// rolled over on the first move of a new day): the dashboard's roster
	// shows them by default.
	day      string
	dayStats map[int64]store.StudentStats
	total    int // decisions of anyone in the class

	skunk atomic.Pointer[skunk] // the game being played, or nil

	// The joins waiting for the class's turnstile (joinbatch.go), under
	// joinMu (a leaf); looks are its nicknames' looks, within save.
	joinMu  sync.Mutex
	joinQ   []*joinReq
	joining bool
	looks   map[string]look

	// hw are the class's assignments as last read, at the version hwVer
	// had then; a change of them moves hwVer on (Room.Assignments).
	hw    atomic.Pointer[keptAssignments]
	hwVer atomic.Int64

	// devices are the students who joined from each device (the address a
	// join came from, where it names one: Knock.Device) while the class
	// took one name a device, in join order: in memory only, so that the
	// teacher sees a second name from a device (SharedDevices).
	devMu   sync.Mutex
	devices map[string][]int64
}

// Class is a class as last changed. Do not modify it.
type Class struct {
	store.Class
	// Students are those not removed, in the order they joined.
	Students []store.Student
	// Removed are the students the teacher removed: their browsers may not
	// join again until the teacher lets them back in.
	Removed []store.Student
	// Round is the open round, or nil.
	Round *play.Round
	// Version counts the changes of the class itself (roster, switches,
	// rounds): a student's board depends on it through Paused.
	Version int64
	// JoinsUnlimited lifts the cap on joins a minute; the teacher sets it
	// (in memory: a restart puts the cap back).
	JoinsUnlimited bool
	// LabRuns counts the lab's runs since the class was loaded: a run
	// changes the class's version, so that the pages pooling them redraw.
	LabRuns int

	byToken  map[string]int // token hash -> index in Students
	drawings *sync.Map      // the same for every version of this class
}

// Drawings is where the web layer keeps what it drew of this class (the
// dashboard's live part): it belongs to this class alone, every version
// of it, and goes with it when the class is deleted or leaves memory, so
// a class that later gets the same id starts with none.
func (c *Class) Drawings() *sync.Map { return c.drawings }

// WasRemoved reports whether the browser with this token hash was removed
// from the class.
func (c *Class) WasRemoved(tokenHash string) bool {
	for _, st := range c.Removed {
		if st.TokenHash == tokenHash {
			return true
		}
	}
	return false
}

// Student finds a student of the class by their token's hash.
func (c *Class) Student(tokenHash string) (store.Student, bool) {
	i, ok := c.byToken[tokenHash]
	if !ok {
		return store.Student{}, false
	}
	return c.Students[i], true
}

// publish makes a new snapshot of the class from the old one changed by
// change; roster says the students changed (the token index is rebuilt).
// c.mu must be held.
func (c *class) publish(roster bool, change func(*Class)) *Class {
	next := c.publishQuietly(roster, change)
	c.news.Ring()
	return next
}

// publishQuietly is publish for a change no student's page shows
// (newcomers joining): the teacher's screens hear of it, the students'
// streams are not woken. c.mu must be held.
func (c *class) publishQuietly(roster bool, change func(*Class)) *Class {
	old := c.snap.Load()
	next := *old
	change(&next)
	next.Version = old.Version + 1
	if roster {
		next.byToken = make(map[string]int, len(next.Students))
		for i, st := range next.Students {
			next.byToken[st.TokenHash] = i
		}
	}
	c.snap.Store(&next)
	c.Changed()
	return &next
}

// Class returns the class with the join code, loading it from disk the
// first time. An unknown code is store.ErrNotFound.
func (r *Room) Class(ctx context.Context, code string) (*Class, error) {
	c, err := r.classes.byCode(ctx, code)
	if err != nil {
		return nil, err
	}
	return c.snap.Load(), nil
}

// ClassByID returns a class by its ID, loading it the first time.
func (r *Room) ClassByID(ctx context.Context, id int64) (*Class, error) {
	c, err := r.classes.load(ctx, id)
	if err != nil {
		return nil, err
	}
	return c.snap.Load(), nil
}

// Counts is what the room holds now: the classes in memory, their
// students, and the matches being played.
type Counts struct {
	Classes  int `json:"classes"`
	Students int `json:"students"`
	Playing  int `json:"matches_playing"`
}

// Counts counts what the room holds (for the health check; reads
// snapshots only).
func (r *Room) Counts() Counts {
	all := r.classes.all()
	n := Counts{Classes: len(all)}
	for _, c := range all {
		n.Students += len(c.snap.Load().Students)
	}
	n.Playing = r.hall.Playing()
	return n
}

// statsCopy returns a copy of every student's totals in the class, and
// the number of decisions (of anyone) in it.
func (c *class) statsCopy() (map[int64]store.StudentStats, int) {
	c.statsMu.Lock()
	defer c.statsMu.Unlock()
	return maps.Clone(c.stats), c.total
}

// todayStats are the class's totals of today, begun afresh on a new day.
// c.statsMu must be held.
func (c *class) todayStats(today string) map[int64]store.StudentStats {
	if c.day != today {
		c.day, c.dayStats = today, map[int64]store.StudentStats{}
	}
	return c.dayStats
}

// add applies f to a student's totals of the unit and of today. c.statsMu
// must be held.
func (c *class) add(today string, student int64, f func(*store.StudentStats)) {
	for _, m := range []map[int64]store.StudentStats{c.stats, c.todayStats(today)} {
		s := m[student]
		f(&s)
		m[student] = s
	}
}

// DayStats returns a copy of every student's totals of today in the
// class, for its teacher.
func (v Viewer) DayStats() map[int64]store.StudentStats {
	c, err := v.teaching()
	if err != nil {
		return nil
	}
	c.statsMu.Lock()
	defer c.statsMu.Unlock()
	today := c.todayStats(c.today())
	out := make(map[int64]store.StudentStats, len(today))
	for k, v := range today {
		out[k] = v
	}
	return out
}

// Hall is where the room's matches are played: their reads and moves
// for the web layer, which checks who asks through the room first.
func (r *Room) Hall() *play.Hall { return r.hall }

// Close stops the deadline watcher, if it runs. Call it once.
func (r *Room) Close() {
	r.hall.Close()
	close(r.stop)
	if r.watching.Load() {
		<-r.done
	}
}

// errorf names the operation of an unexpected error.
func errorf(op string, err error) error { return fmt.Errorf("classroom: %s: %w", op, err) }
