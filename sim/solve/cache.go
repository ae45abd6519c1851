package solve

import (
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
}

type entry struct {
	once  sync.Once
	t     *Table
	equal *EqualTable
	err   error
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
	e.once.Do(func() { e.t, e.err = Solve(k) })
	return e.t, e.err
}

// GetEqual returns the two-player table of v with equal turns, solving it
// on first use; the table is that of Key(v, true).
func (c *Cache) GetEqual(v sim.Variant) (*EqualTable, error) {
	k := Key(v, true)
	e := c.entry(k)
	e.once.Do(func() { e.equal, e.err = SolveEqualTurns(k) })
	return e.equal, e.err
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
	return e
}
