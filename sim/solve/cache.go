package solve

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"pigclass/sim"
)

// Cache keeps solved tables so that each variant is solved once. It is safe
// for concurrent use; the zero value is ready.
//
// A table is kept under exactly the variant it was solved for: Key turns
// the variant a caller asks about (any seat count, any deadline) into the
// two-seat variant the two-player solver solves, and that key is both
// what is looked up and what is solved. An error is kept too, so a variant
// the solver refuses is refused at once the next time; since the key is
// what was solved, a refusal can never stand for another variant.
//
// Tables are solved by a pool of Workers goroutines, one solve per key at
// a time. Get and GetEqual wait for theirs (the command line, start-up,
// tests); Ready and ReadyEqual never wait (a request, a match's move):
// they start the solve and answer ErrSolving until it is done. A solve
// nobody waits for is given up once nothing needs it: no Ready for a
// while (keepAsked), and no user (see Use: the classroom, with a match of
// the variant or decisions waiting for their analysis) says it needs it.
type Cache struct {
	mu     sync.Mutex
	tables map[sim.Variant]*entry
	// budget bounds the bytes of the tables kept, of two and of N players
	// (0: no bound); past it the least lately used table not pinned is
	// forgotten (a match still reading it keeps it until it ends). size is
	// their bytes; clock orders uses.
	budget, size, clock int64

	pool    chan struct{} // a token per solve running (Workers)
	queue   []sim.Variant // the keys to solve, first asked first
	workers int           // goroutines solving the queue (at most Workers)
	users   map[int]*user // see Use
	nextUse int
	watch   time.Duration // how often a solve asks whether it is needed (tests shorten it)
	asked   time.Duration // how long a Ready keeps its solve needed (tests shorten it)
	solves  int64         // solves started (Solves: the server's metrics)
	stopped int64         // solves given up because nothing needed them
	kinds   map[Kind]int64
	cores   int // the cores one solve may use (SetCores; 0 is one)
}

// Kind is a kind of table, as the metrics count its solves: its game, its
// players, and whether its turns are equal (a bounded set of labels; the
// full key goes to the users told by Watch: the server's log).
type Kind struct {
	Game       sim.Game
	Seats      int
	EqualTurns bool
}

// ErrNoRoom is a solve's answer when its table cannot be kept beside the
// tables still needed (see Fits): it is not solved, and may be asked for
// again once they are no longer needed.
var ErrNoRoom = errors.New("solve: no room for the table beside the tables still needed")

// RoomError says a kind of round cannot start now: its tables need Need
// bytes, and Free are left of the Budget beside the tables still needed
// (by matches being played and decisions waiting for their analysis).
type RoomError struct{ Need, Free, Budget int64 }

func (e *RoomError) Error() string {
	return fmt.Sprintf("solve: its tables need %d MB, and %d MB of the %d MB are free beside the tables still needed", e.Need>>20, e.Free>>20, e.Budget>>20)
}

// Is makes errors.Is(err, ErrNoRoom) true.
func (e *RoomError) Is(target error) bool { return target == ErrNoRoom }

// Workers is how many tables a cache solves at once: one core, the other
// left to the classroom (the machine a class runs on may have two).
const Workers = 1

// ErrSolving is Ready's answer while the table is being solved.
var ErrSolving = errors.New("solve: the table is being solved")

// keepAsked is how long a Ready keeps its table's solve going without
// anything else needing it (a page reloaded finds it: a chart's table); a
// round of a new kind with no match to play, the flood of a script, is
// given up after it. needEvery is how often a solve looks.
const (
	keepAsked = 5 * time.Second
	needEvery = 200 * time.Millisecond
)

type entry struct {
	done    chan struct{} // closed once solved, refused or given up
	t       *Table
	equal   *EqualTable
	multi   *MultiTable
	err     error
	bytes   int64 // once solved
	used    int64 // the cache's clock at the last use
	pinned  bool
	waiting int       // Get calls waiting for it: never given up meanwhile
	asked   time.Time // the last Ready
	refused time.Time // when a solve was refused for room (ErrNoRoom)
}

// retryRoom is how long a table refused for room waits before it is
// tried again (asked again, or by itself while a user needs it).
const retryRoom = 2 * time.Second

// Key returns the variant whose table answers questions about v: two seats,
// no deadline (neither changes the two-player table a caller reads), and
// equal turns as asked.
func Key(v sim.Variant, equalTurns bool) sim.Variant {
	v.Seats, v.Deadline, v.EqualTurns = 2, 0, equalTurns
	return v
}

// Get returns the two-player table of v under the standard rules, solving
// it on first use and waiting for it. v may have any number of seats and a
// deadline: the table is that of Key(v, false).
func (c *Cache) Get(v sim.Variant) (*Table, error) {
	e := c.wait(Key(v, false))
	return e.t, e.err
}

// GetEqual returns the two-player table of v with equal turns, solving it
// on first use and waiting; the table is that of Key(v, true).
func (c *Cache) GetEqual(v sim.Variant) (*EqualTable, error) {
	e := c.wait(Key(v, true))
	return e.equal, e.err
}

// Ready returns the two-player table of v if it is solved. Otherwise it
// has it solved in the background and returns ErrSolving (or the solver's
// refusal, once known).
func (c *Cache) Ready(v sim.Variant) (*Table, error) {
	e := c.ask(Key(v, false))
	if !e.solved() {
		return nil, ErrSolving
	}
	return e.t, e.err
}

// ReadyEqual is Ready for the table of v with equal turns.
func (c *Cache) ReadyEqual(v sim.Variant) (*EqualTable, error) {
	e := c.ask(Key(v, true))
	if !e.solved() {
		return nil, ErrSolving
	}
	return e.equal, e.err
}

// solved reports whether the entry's solve is over (solved, refused or
// given up): its table and error may be read.
func (e *entry) solved() bool {
	select {
	case <-e.done:
		return true
	default:
		return false
	}
}

// user is one reader of the cache's tables (a classroom): need(key)
// reports whether it still needs the table of key (a Key), ready(key) is
// told, in a goroutine of its own, when that table is solved.
type user struct {
	need    func(key sim.Variant) bool
	ready   func(key sim.Variant)
	started func(key sim.Variant) // told as a solve starts (Watch)
}

// Use registers a reader of the cache: a solve nobody waits for goes on
// while need says yes for any reader (or Ready asked lately), and ready is
// called when a table is solved (the classroom fills in the analyses that
// waited for it and lets its perfect-play bots move). Either may be nil.
// The returned func unregisters them.
func (c *Cache) Use(need func(key sim.Variant) bool, ready func(key sim.Variant)) (stop func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.users == nil {
		c.users = map[int]*user{}
	}
	id := c.nextUse
	c.nextUse++
	c.users[id] = &user{need: need, ready: ready}
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.users, id)
	}
}

// Watch registers a reader told, in the solving goroutine, the key of
// each solve as it starts (the server logs it). The returned func
// unregisters it.
func (c *Cache) Watch(started func(key sim.Variant)) (stop func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.users == nil {
		c.users = map[int]*user{}
	}
	id := c.nextUse
	c.nextUse++
	c.users[id] = &user{started: started}
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.users, id)
	}
}

// usersLocked returns the registered users. c.mu must be held.
func (c *Cache) usersLocked() []*user {
	out := make([]*user, 0, len(c.users))
	for _, u := range c.users {
		out = append(out, u)
	}
	return out
}

// SetCores lets one solve use n cores (of N-player tables: the orbits of
// a layer side by side). A server keeps the default, one, leaving the
// other to the classroom; the command line, alone on the machine, gives
// it them all.
func (c *Cache) SetCores(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cores = n
}

// SetBudget bounds the bytes of the tables the cache keeps.
func (c *Cache) SetBudget(bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.budget = bytes
	c.evict(nil)
}

// Pin keeps the table of v (with or without equal turns) whatever the
// budget, and with more than two seats its N-player table too: the
// lessons' and the round form's defaults.
func (c *Cache) Pin(v sim.Variant, equalTurns bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entryLocked(Key(v, equalTurns), false).pinned = true
	if v.Seats > 2 && !equalTurns && ExactFits(v) {
		c.entryLocked(MultiKey(v), false).pinned = true
	}
}

// PinnedBytes returns what the pinned tables take once all are solved.
func (c *Cache) PinnedBytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	var n int64
	for k, e := range c.tables {
		if e.pinned {
			n += TableBytes(k)
		}
	}
	return n
}

// Kept reports whether the tables of keys (Keys and MultiKeys) are all
// kept: solved, or being solved.
func (c *Cache) Kept(keys ...sim.Variant) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range keys {
		e, ok := c.tables[k]
		if !ok || e.done == nil || e.solved() && e.err != nil {
			return false
		}
	}
	return true
}

// Bytes returns what the cache's solved tables take.
func (c *Cache) Bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.size
}

// Solves returns how many solves were started, and how many of them were
// given up because nothing needed them.
func (c *Cache) Solves() (started, givenUp int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.solves, c.stopped
}

// SolvesByKind returns how many solves were started, by kind of table.
func (c *Cache) SolvesByKind() map[Kind]int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.kinds)
}

// Solving returns how many solves are running or waiting for the pool.
func (c *Cache) Solving() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, e := range c.tables {
		if e.done != nil && !e.solved() {
			n++
		}
	}
	return n
}

// wait returns the entry of k once it is done, solving it if need be. A
// waiter keeps the solve going.
func (c *Cache) wait(k sim.Variant) *entry {
	for {
		c.mu.Lock()
		e := c.entryLocked(k, true)
		e.waiting++
		c.mu.Unlock()
		<-e.done
		c.mu.Lock()
		e.waiting--
		c.mu.Unlock()
		if !errors.Is(e.err, context.Canceled) {
			return e
		}
		// Given up just before this call came: solve it again.
	}
}

// ask returns the entry of k, its solve started, as Ready asked for it.
func (c *Cache) ask(k sim.Variant) *entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entryLocked(k, true)
	e.asked = time.Now()
	return e
}

// entryLocked returns the entry of k, made (and, with solve, its solve
// started) if there is none, and counts a use. c.mu must be held.
func (c *Cache) entryLocked(k sim.Variant, solve bool) *entry {
	if c.tables == nil {
		c.tables = map[sim.Variant]*entry{}
	}
	e, ok := c.tables[k]
	if !ok {
		e = &entry{}
		c.tables[k] = e
	}
	if solve && e.done != nil && errors.Is(e.err, ErrNoRoom) && e.solved() && time.Since(e.refused) >= retryRoom {
		e.done, e.err = nil, nil // refused for room a while ago: try again
	}
	if solve && e.done == nil {
		e.done = make(chan struct{})
		c.solves++
		c.queue = append(c.queue, k)
		if c.workers < Workers {
			c.workers++
			go c.work()
		}
	}
	c.clock++
	e.used = c.clock
	return e
}

// work solves the queued tables in turn, first asked first, and ends when
// the queue is empty.
func (c *Cache) work() {
	for {
		c.mu.Lock()
		if len(c.queue) == 0 {
			c.workers--
			c.mu.Unlock()
			return
		}
		k := c.queue[0]
		c.queue = c.queue[1:]
		e := c.tables[k] // queued: neither solved nor given up, so still kept
		c.mu.Unlock()
		c.solve(k, e)
	}
}

// solve solves the table of k in the pool, giving up if nothing needs it
// before or while it is solved.
func (c *Cache) solve(k sim.Variant, e *entry) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var err error
	if !c.needed(k, e) {
		cancel() // asked long ago, and nothing needs it now
	} else {
		go c.watchNeed(ctx, cancel, k, e)
	}
	if c.token(ctx) {
		if err = c.roomFor(k, e); err == nil {
			c.started(k)
			c.mu.Lock()
			cores := c.cores
			c.mu.Unlock()
			err = solveKey(ctx, k, e, cores)
		}
		<-c.pool
	} else {
		err = ctx.Err()
	}
	var keep map[sim.Variant]bool
	if err == nil {
		keep = c.stillNeeded() // the users asked without c.mu, as at the start
	}
	c.mu.Lock()
	e.err = err
	users := c.usersLocked()
	switch {
	case errors.Is(err, ErrNoRoom):
		e.refused = time.Now()
		users = nil
		time.AfterFunc(retryRoom, func() { c.retry(k, e) })
	case errors.Is(err, context.Canceled):
		c.stopped++
		if c.tables[k] == e {
			delete(c.tables, k) // asked again, it is solved again
		}
		users = nil
	case err == nil:
		switch {
		case k.Seats > 2:
			e.bytes = MultiBytes(k)
		case k.EqualTurns:
			e.bytes = e.equal.Bytes()
		default:
			e.bytes = e.t.Bytes()
		}
		c.size += e.bytes
		// Within the budget before the answer: whoever is answered finds
		// the tables past it forgotten.
		c.evict(keep)
	default:
		users = nil // refused: kept, so it is refused at once next time
	}
	close(e.done)
	c.mu.Unlock()
	for _, u := range users {
		if u.ready != nil {
			go u.ready(k) // the pool goes on solving meanwhile
		}
	}
}

// started counts a solve of k's kind as it starts, and tells the users.
func (c *Cache) started(k sim.Variant) {
	c.mu.Lock()
	if c.kinds == nil {
		c.kinds = map[Kind]int64{}
	}
	c.kinds[Kind{k.Game, k.Seats, k.EqualTurns}]++
	users := c.usersLocked()
	c.mu.Unlock()
	for _, u := range users {
		if u.started != nil {
			u.started(k)
		}
	}
}

// retry asks again for a table refused for room, if a user still needs it
// (the decisions that wait for it, a match being played): room may have
// been made meanwhile.
func (c *Cache) retry(k sim.Variant, e *entry) {
	c.mu.Lock()
	current := c.tables[k] == e
	c.mu.Unlock()
	if current && c.stillNeeded()[k] {
		c.ask(k)
	}
}

// solveKey solves the table of k into e.
func solveKey(ctx context.Context, k sim.Variant, e *entry, cores int) (err error) {
	switch {
	case k.Seats > 2:
		e.multi, err = solveMultiCores(ctx, k, cores)
	case k.EqualTurns:
		e.equal, err = SolveEqualTurnsContext(ctx, k)
	default:
		e.t, err = SolveContext(ctx, k)
	}
	return err
}

// Pause keeps every solve from starting until resume is called (one
// running goes on): for maintenance, and for tests that need a table not
// ready yet.
func (c *Cache) Pause() (resume func()) {
	c.token(context.Background())
	return sync.OnceFunc(func() { <-c.pool })
}

// token waits for a place in the pool, and reports false if ctx is done
// first.
func (c *Cache) token(ctx context.Context) bool {
	c.mu.Lock()
	if c.pool == nil {
		c.pool = make(chan struct{}, Workers)
	}
	pool := c.pool
	c.mu.Unlock()
	select {
	case pool <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

// watchNeed cancels the solve of k once nothing needs it: no one waiting,
// not pinned, no Ready lately, and no user needs it.
func (c *Cache) watchNeed(ctx context.Context, cancel func(), k sim.Variant, e *entry) {
	c.mu.Lock()
	every := c.watch
	c.mu.Unlock()
	if every == 0 {
		every = needEvery
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if !c.needed(k, e) {
			cancel()
			return
		}
	}
}

// needed reports whether the table of k is still needed: someone waits for
// it, it is pinned, Ready asked for it lately, or a user needs it.
func (c *Cache) needed(k sim.Variant, e *entry) bool {
	c.mu.Lock()
	keep := c.asked
	if keep == 0 {
		keep = keepAsked
	}
	held := e.waiting > 0 || e.pinned || time.Since(e.asked) < keep
	users := c.usersLocked()
	c.mu.Unlock()
	return held || slices.ContainsFunc(users, func(u *user) bool { return u.need != nil && u.need(k) })
}

// evict forgets the least lately used tables neither pinned nor in keep
// until the cache is within its budget. c.mu must be held.
func (c *Cache) evict(keep map[sim.Variant]bool) {
	for c.budget > 0 && c.size > c.budget {
		var oldK sim.Variant
		var old *entry
		for k, e := range c.tables {
			if e.bytes > 0 && !e.pinned && !keep[k] && (old == nil || e.used < old.used) {
				oldK, old = k, e
			}
		}
		if old == nil {
			return
		}
		delete(c.tables, oldK)
		c.size -= old.bytes
	}
}

// stillNeeded returns the keys of the tables kept or being solved that a
// user needs. c.mu must not be held.
func (c *Cache) stillNeeded() map[sim.Variant]bool {
	c.mu.Lock()
	keys := slices.Collect(maps.Keys(c.tables))
	users := c.usersLocked()
	c.mu.Unlock()
	keep := map[sim.Variant]bool{}
	for _, k := range keys {
		keep[k] = slices.ContainsFunc(users, func(u *user) bool { return u.need != nil && u.need(k) })
	}
	return keep
}

// held returns the bytes the cache must keep whatever comes: the tables
// pinned or in keep, solved or being solved (at their size to come), but
// not those of skip. c.mu must be held.
func (c *Cache) held(keep map[sim.Variant]bool, skip ...sim.Variant) int64 {
	var n int64
	for k, e := range c.tables {
		switch {
		case slices.Contains(skip, k), !e.pinned && !keep[k]:
		case e.bytes > 0:
			n += e.bytes
		case e.done != nil && !e.solved():
			n += TableBytes(k)
		}
	}
	return n
}

// roomFor reports ErrNoRoom if the table of k, once solved, could not be
// kept beside the tables still needed (pinned tables always can): the
// cache never solves a table only to forget it.
func (c *Cache) roomFor(k sim.Variant, e *entry) error {
	keep := c.stillNeeded()
	c.mu.Lock()
	defer c.mu.Unlock()
	if e.pinned || c.budget == 0 || c.held(keep, k)+TableBytes(k) <= c.budget {
		return nil
	}
	return ErrNoRoom
}

// Fits reports whether the tables of keys (Keys and MultiKeys) not kept
// yet can be kept beside the tables still needed, and if not a *RoomError
// (errors.Is ErrNoRoom) that says how much they need and how much is free:
// the round form asks before a round of a new kind starts.
func (c *Cache) Fits(keys ...sim.Variant) error {
	return c.fits(c.stillNeeded(), keys)
}

// FitsBeside is Fits with the tables still needed told by need rather
// than by the users (the classroom asks for a round that ends the class's
// open one: that round's tables are no longer needed once it starts).
func (c *Cache) FitsBeside(need func(key sim.Variant) bool, keys ...sim.Variant) error {
	c.mu.Lock()
	all := slices.Collect(maps.Keys(c.tables))
	c.mu.Unlock()
	keep := map[sim.Variant]bool{}
	for _, k := range all {
		keep[k] = need(k)
	}
	return c.fits(keep, keys)
}

func (c *Cache) fits(keep map[sim.Variant]bool, keys []sim.Variant) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.budget == 0 {
		return nil
	}
	var need int64
	for _, k := range keys {
		if e, ok := c.tables[k]; !ok || e.bytes == 0 && e.done == nil {
			need += TableBytes(k)
		}
	}
	free := c.budget - c.held(keep)
	if need == 0 || need <= free {
		return nil
	}
	return &RoomError{Need: need, Free: max(free, 0), Budget: c.budget}
}

// MultiKey returns the variant whose N-player table answers questions
// about v: its seats, no deadline, standard turns.
func MultiKey(v sim.Variant) sim.Variant {
	v.Deadline, v.EqualTurns = 0, false
	return v
}

// MultiBudget is the most memory one N-player table solved for a
// classroom (Multi) may take, three players to 128, four to 34: past it a variant is
// not solved there (its decisions stay approximate), so that a table being
// solved and the cache's budget together stay well under the server's
// heap limit (MultiReady). MultiWait (the command line) takes up to
// MaxMultiBytes.
const MultiBudget = 32 << 20

// ErrBeyondBudget is MultiReady's answer for a table past MultiBudget,
// never solved in a classroom.
var ErrBeyondBudget = errors.New("solve: the table is beyond what a classroom solves")

// ExactFits reports whether the N-player table of v is within MultiBudget,
// so a classroom solves it.
func ExactFits(v sim.Variant) bool { return MultiBytes(v) <= MultiBudget }

// MultiReady is Multi that says why the table is not there: ErrSolving
// while it is being solved, ErrNoRoom while it waits for room beside the
// tables still needed, ErrBeyondBudget past MultiBudget, or the solver's
// refusal.
func (c *Cache) MultiReady(v sim.Variant) (*MultiTable, error) {
	if !ExactFits(v) {
		return nil, ErrBeyondBudget
	}
	e := c.ask(MultiKey(v))
	if !e.solved() {
		return nil, ErrSolving
	}
	return e.multi, e.err
}

// MultiWait is Multi that waits for the solve, for any table the solver
// takes (the command line, tests).
func (c *Cache) MultiWait(v sim.Variant) (*MultiTable, error) {
	e := c.wait(MultiKey(v))
	return e.multi, e.err
}
