package classroom

import (
	"context"
	"sync"

	"pigclass/server/play"
	"pigclass/server/store"
)

// registry is the classes in memory: each read from disk the first time
// it is asked for, once however many ask at once.
type registry struct {
	st *store.Store

	mu      sync.RWMutex // guards classes and codes (a leaf)
	classes map[int64]*class
	codes   map[string]int64

	loadMu sync.Mutex          // guards loads (a leaf, like mu)
	loads  map[int64]*loadCall // the classes being read from disk
}

func newRegistry(st *store.Store) *registry {
	return &registry{st: st, classes: map[int64]*class{}, codes: map[string]int64{}, loads: map[int64]*loadCall{}}
}

// inMemory returns the class with the join code if it is in memory, or
// nil, never reading the disk.
func (g *registry) inMemory(code string) *class {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.classes[g.codes[code]]
}

// byCode returns the class with the join code, loading it the first
// time.
func (g *registry) byCode(ctx context.Context, code string) (*class, error) {
	g.mu.RLock()
	id, ok := g.codes[code]
	g.mu.RUnlock()
	if ok {
		return g.load(ctx, id)
	}
	row, err := g.st.ClassByCode(ctx, code)
	if err != nil {
		return nil, err
	}
	return g.loadRow(ctx, row.ID, &row)
}

// Host is the class of a class ID in memory, as the hall asks for it
// (nil if it is not).
func (g *registry) Host(classID int64) play.Host {
	if c := g.loaded(classID); c != nil {
		return c
	}
	return nil
}

// Code is a class's join code, the class read from disk if need be.
func (g *registry) Code(ctx context.Context, classID int64) (string, error) {
	c, err := g.load(ctx, classID)
	if err != nil {
		return "", err
	}
	return c.snap.Load().Code, nil
}

// all returns every class in memory.
func (g *registry) all() []*class {
	g.mu.RLock()
	defer g.mu.RUnlock()
	out := make([]*class, 0, len(g.classes))
	for _, c := range g.classes {
		out = append(out, c)
	}
	return out
}

// drop forgets classes (deleted, or erased).
func (g *registry) drop(ids ...int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, id := range ids {
		if c := g.classes[id]; c != nil {
			delete(g.codes, c.snap.Load().Code)
			delete(g.classes, id)
			c.dropped.Store(true)
			c.changedClass() // its pages' streams end
		}
	}
}

// loaded returns a class already in memory, or nil.
func (g *registry) loaded(id int64) *class {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.classes[id]
}

// load returns the class in memory, reading it from disk the first time:
// its row, its students, its rounds and its students' totals.
func (g *registry) load(ctx context.Context, id int64) (*class, error) {
	return g.loadRow(ctx, id, nil)
}

// loadCall is a class being read from disk: whoever asks for it meanwhile
// waits for that one read.
type loadCall struct {
	done chan struct{}
	c    *class
	err  error
}

// loadRow is load with the class's row when the caller has just read it.
// Each class is read once however many ask at once, and different classes
// are read side by side; no lock is held while the disk is read.
func (g *registry) loadRow(ctx context.Context, id int64, known *store.Class) (*class, error) {
	if c := g.loaded(id); c != nil {
		return c, nil
	}
	g.loadMu.Lock()
	if c := g.loaded(id); c != nil {
		g.loadMu.Unlock()
		return c, nil
	}
	if call := g.loads[id]; call != nil {
		g.loadMu.Unlock()
		<-call.done
		return call.c, call.err
	}
	call := &loadCall{done: make(chan struct{})}
	g.loads[id] = call
	g.loadMu.Unlock()
	// The read serves every waiter: a request that goes away does not
	// cut it short.
	call.c, call.err = g.read(context.WithoutCancel(ctx), id, known)
	g.loadMu.Lock()
	delete(g.loads, id)
	g.loadMu.Unlock()
	close(call.done)
	return call.c, call.err
}

// read reads a class from disk and puts it in memory.
func (g *registry) read(ctx context.Context, id int64, known *store.Class) (*class, error) {
	var row store.Class
	var err error
	if known != nil {
		row = *known
	} else if row, err = g.st.ClassByID(ctx, id); err != nil {
		return nil, err
	}
	students, err := g.st.Students(ctx, id)
	if err != nil {
		return nil, err
	}
	rounds, err := g.st.Rounds(ctx, id)
	if err != nil {
		return nil, err
	}
	removed, err := g.st.RemovedStudents(ctx, id)
	if err != nil {
		return nil, err
	}
	stats, total, err := g.st.ClassStats(ctx, id)
	if err != nil {
		return nil, err
	}
	// Whole-class Skunk counts as any game in the students' totals (the
	// class's own total, of everyone's moves, is its matches').
	if err := g.st.AddSkunkStats(ctx, id, "", stats); err != nil {
		return nil, err
	}
	today := g.st.Today()
	dayStats, _, err := g.st.ClassStatsOn(ctx, id, today)
	if err != nil {
		return nil, err
	}
	if err := g.st.AddSkunkStats(ctx, id, today, dayStats); err != nil {
		return nil, err
	}
	snap := &Class{Class: row, Students: students, Removed: removed, byToken: map[string]int{}, drawings: &sync.Map{}}
	for i, st := range students {
		snap.byToken[st.TokenHash] = i
	}
	if n := len(rounds); n > 0 && !rounds[n-1].Ended {
		open := rounds[n-1]
		snap.Round = &open
	}
	c := &class{id: id, stats: stats, total: total, day: today, dayStats: dayStats, today: g.st.Today}
	c.idle = sync.NewCond(&c.mu)
	c.snap.Store(snap)
	c.live.Store(&map[int64]*play.Live{})
	g.mu.Lock()
	g.classes[id] = c
	g.codes[row.Code] = id
	g.mu.Unlock()
	return c, nil
}
