package server

import (
	"log/slog"
	"sync"

	"pigclass/lessons/figures"
	"pigclass/server/charts"
	"pigclass/sim"
	"pigclass/sim/solve"
)

// ladder is this server's strategy ladder (charts.LadderRungs), computed
// once, in the background, when a chart first asks for it: a page never
// waits for it (the chart says it is coming).
type ladder struct {
	tables *solve.Cache
	log    *slog.Logger
	start  sync.Once
	done   chan struct{}
	got    []charts.Rung
}

// newLadder is the ladder of the tables: one for every server that shares
// them (the tests' servers do), computed once, since the tables never
// change.
func newLadder(tables *solve.Cache, log *slog.Logger) *ladder {
	l, _ := ladders.LoadOrStore(tables, &ladder{tables: tables, log: log, done: make(chan struct{})})
	return l.(*ladder)
}

var ladders sync.Map // *solve.Cache -> *ladder

// rungs returns the ladder, or nil while it is being computed.
func (l *ladder) rungs() []charts.Rung {
	l.start.Do(func() { go l.compute() })
	select {
	case <-l.done:
		return l.got
	default:
		return nil
	}
}

// wait blocks until the ladder is computed (for tests).
func (l *ladder) wait() []charts.Rung {
	l.rungs()
	<-l.done
	return l.got
}

func (l *ladder) compute() {
	defer close(l.done)
	t, err := l.tables.Get(sim.Standard(sim.Pig))
	if err == nil {
		l.got, err = charts.LadderRungs(t)
	}
	if err != nil {
		l.log.Error("ladder", "err", err)
	}
}

// lessonFigures are the figures a lesson may name (lessons/figures),
// computed once from one set of tables: they are exact, the same for
// every server that reads those tables.
type lessonFigures struct {
	once   sync.Once
	values map[string]figures.Value
	err    error
}

// figuresOf is the lessons' figures of tables, one for every server that
// shares them.
func figuresOf(tables *solve.Cache) *lessonFigures {
	f, _ := sharedFigures.LoadOrStore(tables, &lessonFigures{})
	return f.(*lessonFigures)
}

var sharedFigures sync.Map // *solve.Cache -> *lessonFigures
