package server

import (
	"context"
	"slices"
	"sync"
)

// labGate is the lab's simulation slots (lab_gate.go says how they are
// shared): slots free, runs simulating by class, and the runs waiting.
type labGate struct {
	mu      sync.Mutex
	free    int
	running map[int64]int // runs simulating now, by class
	waiting []*labWaiter  // in the order they came
}

type labWaiter struct {
	class int64
	ready chan struct{}
}

func newLabGate(slots int) *labGate {
	return &labGate{free: slots, running: map[int64]int{}}
}

// take waits for a slot for a run of class, or for ctx to end; it
// returns what to call when the run ends.
func (g *labGate) take(ctx context.Context, class int64) (func(), error) {
	g.mu.Lock()
	w := &labWaiter{class: class, ready: make(chan struct{})}
	g.waiting = append(g.waiting, w)
	g.grantLocked()
	g.mu.Unlock()
	release := func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.running[class]--; g.running[class] == 0 {
			delete(g.running, class)
		}
		g.free++
		g.grantLocked()
	}
	select {
	case <-w.ready:
		return release, nil
	case <-ctx.Done():
	}
	g.mu.Lock()
	i := slices.Index(g.waiting, w)
	if i >= 0 {
		g.waiting = slices.Delete(g.waiting, i, i+1)
	}
	g.mu.Unlock()
	if i < 0 {
		release() // granted as ctx ended: given back
	}
	return nil, ctx.Err()
}

// held is how many slots runs hold.
func (g *labGate) held() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := 0
	for _, r := range g.running {
		n += r
	}
	return n
}

// waiters is how many runs wait for a slot.
func (g *labGate) waiters() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.waiting)
}

// grantLocked gives the free slots to the waiting runs, fewest running
// class first. g.mu must be held.
func (g *labGate) grantLocked() {
	for g.free > 0 && len(g.waiting) > 0 {
		best := 0
		for i, w := range g.waiting {
			if g.running[w.class] < g.running[g.waiting[best].class] {
				best = i
			}
		}
		w := g.waiting[best]
		g.waiting = slices.Delete(g.waiting, best, best+1)
		g.free--
		g.running[w.class]++
		close(w.ready)
	}
}
