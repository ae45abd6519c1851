package server

import (
	"sync"

	"pigclass/sim"
)

// runPaths keep the result of each run of the lab just made until the
// page it is sent on to draws its path (the redirect after the run), so
// that its games are not played a second time for it; a run's page
// drawn again later replays it from its seed. At most runPathsKept are
// kept, the oldest dropped first.
type runPaths struct {
	mu    sync.Mutex
	byID  map[int64]sim.ExperimentResult
	order []int64
}

// runPathsKept bounds the runs kept: a class's worth many times over,
// each a few dozen points of its path.
const runPathsKept = 256

// put keeps the result of run id.
func (p *runPaths) put(id int64, r sim.ExperimentResult) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.byID[id] = r
	p.order = append(p.order, id)
	for len(p.order) > runPathsKept {
		delete(p.byID, p.order[0])
		p.order = p.order[1:]
	}
}

// take gives back run id's result once, false if it is not kept.
func (p *runPaths) take(id int64) (sim.ExperimentResult, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r, ok := p.byID[id]
	delete(p.byID, id) // its place in order goes when it comes round
	return r, ok
}
