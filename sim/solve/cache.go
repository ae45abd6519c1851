package solve

import (
	"fmt"
	"sync"

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
type Cache struct {
	mu     sync.Mutex
	tables map[sim.Variant]*entry
	// budget bounds the bytes of the two-player tables kept (0: no bound);
	// past it the least lately used table not pinned is forgotten (a match
	// still reading it keeps it until it ends). size is their bytes; clock
	// orders uses.
	budget, size, clock int64

	multi      map[sim.Variant]*multiEntry // N-player tables, by variant
	multiBytes int64                       // their memory, solved or being solved
	solving    sync.Mutex                  // one N-player solve at a time
}

type entry struct {
	once   sync.Once
	t      *Table
	equal  *EqualTable
	err    error
	bytes  int64 // once solved
	used   int64 // the cache's clock at the last use
	pinned bool
}

// Key returns the variant whose table answers questions about v: two seats,
// no deadline (neither changes the two-player table a caller reads), and
// equal turns as asked.
func Key(v sim.Variant, equalTurns bool) sim.Variant {
	v.Seats, v.Deadline, v.EqualTurns = 2, 0, equalTurns
	return v
}

// Get returns the two-player table of v under the standard rules, solving
// it on first use. v may have any number of seats and a deadline: the
// table is that of Key(v, false).
func (c *Cache) Get(v sim.Variant) (*Table, error) {
	k := Key(v, false)
	e := c.entry(k)
	e.once.Do(func() {
		e.t, e.err = Solve(k)
		if e.err == nil {
			c.kept(e, e.t.Bytes())
		}
	})
	return e.t, e.err
}

// GetEqual returns the two-player table of v with equal turns, solving it
// on first use; the table is that of Key(v, true).
func (c *Cache) GetEqual(v sim.Variant) (*EqualTable, error) {
	k := Key(v, true)
	e := c.entry(k)
	e.once.Do(func() {
		e.equal, e.err = SolveEqualTurns(k)
		if e.err == nil {
			c.kept(e, e.equal.Bytes())
		}
	})
	return e.equal, e.err
}

// SetBudget bounds the bytes of the two-player tables the cache keeps.
func (c *Cache) SetBudget(bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.budget = bytes
	c.evict()
}

// Pin keeps the table of v (with or without equal turns) whatever the
// budget: the lessons' and the round form's defaults.
func (c *Cache) Pin(v sim.Variant, equalTurns bool) {
	e := c.entry(Key(v, equalTurns))
	c.mu.Lock()
	defer c.mu.Unlock()
	e.pinned = true
}

// Has reports whether the table of v is kept (solved, or being solved).
func (c *Cache) Has(v sim.Variant, equalTurns bool) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.tables[Key(v, equalTurns)]
	return ok
}

// Bytes returns what the cache's two-player tables take.
func (c *Cache) Bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.size
}

// kept counts a table just solved and forgets others past the budget.
func (c *Cache) kept(e *entry, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e.bytes = bytes
	c.size += bytes
	c.evict()
}

// evict forgets the least lately used tables not pinned until the cache
// is within its budget. c.mu must be held.
func (c *Cache) evict() {
	for c.budget > 0 && c.size > c.budget {
		var oldK sim.Variant
		var old *entry
		for k, e := range c.tables {
			if e.bytes > 0 && !e.pinned && (old == nil || e.used < old.used) {
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

func (c *Cache) entry(k sim.Variant) *entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tables == nil {
		c.tables = map[sim.Variant]*entry{}
	}
	e, ok := c.tables[k]
	if !ok {
		e = &entry{}
		c.tables[k] = e
	}
	c.clock++
	e.used = c.clock
	return e
}

// multiEntry is an N-player table being solved or solved.
type multiEntry struct {
	done chan struct{}
	t    *MultiTable
	err  error
}

// MultiBudget is the memory the N-player tables of a cache may take in
// all: a variant past it is not solved (its decisions stay approximate).
const MultiBudget = 128 << 20

// Multi returns the N-player table of v (v.Seats players, standard rules
// but for the seats) if it is solved, and otherwise starts solving it in
// the background, one at a time, and reports false: the caller reads an
// approximation meanwhile. A variant the solver refuses, or one past the
// cache's budget, is never ready.
func (c *Cache) Multi(v sim.Variant) (*MultiTable, bool) {
	e := c.multiEntry(v)
	if e == nil {
		return nil, false
	}
	select {
	case <-e.done:
		return e.t, e.err == nil
	default:
		return nil, false
	}
}

// MultiWait is Multi that waits for the solve (the command line, tests).
func (c *Cache) MultiWait(v sim.Variant) (*MultiTable, error) {
	e := c.multiEntry(v)
	if e == nil {
		return nil, fmt.Errorf("solve: %d players to %d: past the memory the tables may take", v.Seats, v.Target)
	}
	<-e.done
	return e.t, e.err
}

func (c *Cache) multiEntry(v sim.Variant) *multiEntry {
	v.Deadline, v.EqualTurns = 0, false
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.multi == nil {
		c.multi = map[sim.Variant]*multiEntry{}
	}
	if e, ok := c.multi[v]; ok {
		return e
	}
	if c.multiBytes+MultiBytes(v) > MultiBudget {
		return nil
	}
	c.multiBytes += MultiBytes(v)
	e := &multiEntry{done: make(chan struct{})}
	c.multi[v] = e
	go func() {
		c.solving.Lock() // one solve at a time: the classroom's cores stay free
		defer c.solving.Unlock()
		e.t, e.err = SolveMulti(v)
		close(e.done)
	}()
	return e
}
