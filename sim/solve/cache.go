package solve

import (
	"sync"

	"pigclass/sim"
)

// Cache keeps solved tables so that each variant is solved once. It is safe
// for concurrent use; the zero value is ready.
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

// Get returns the table of v under the standard rules (for two seats,
// without deadline: neither changes perfect play), solving it on first use.
func (c *Cache) Get(v sim.Variant) (*Table, error) {
	v.EqualTurns = false
	e := c.entry(v)
	e.once.Do(func() { e.t, e.err = Solve(v) })
	return e.t, e.err
}

// GetEqual returns the table of v with equal turns, solving it on first use.
func (c *Cache) GetEqual(v sim.Variant) (*EqualTable, error) {
	v.EqualTurns = true
	e := c.entry(v)
	e.once.Do(func() { e.equal, e.err = SolveEqualTurns(v) })
	return e.equal, e.err
}

func (c *Cache) entry(v sim.Variant) *entry {
	v.Seats, v.Deadline = 2, 0
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tables == nil {
		c.tables = map[sim.Variant]*entry{}
	}
	e, ok := c.tables[v]
	if !ok {
		e = &entry{}
		c.tables[v] = e
	}
	return e
}
