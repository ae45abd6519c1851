package server

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"pigclass/server/charts"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
)

// ladder is the strategy ladder: exact duels of hold:N against perfect play
// in Pig to 100. It is the same for every class, so one process computes it
// once, in the background, when a chart first asks for it.
type ladder struct {
	start sync.Once
	done  chan struct{}
	rungs []charts.Rung
}

var pigLadder = &ladder{done: make(chan struct{})}

// ladderRungs returns the ladder, or nil while it is being computed.
func (s *Server) ladderRungs() []charts.Rung {
	pigLadder.start.Do(func() { go pigLadder.compute(s.tables, s.log) })
	select {
	case <-pigLadder.done:
		return pigLadder.rungs
	default:
		return nil
	}
}

// waitLadder blocks until the ladder is computed (for tests).
func (s *Server) waitLadder() []charts.Rung {
	s.ladderRungs()
	<-pigLadder.done
	return pigLadder.rungs
}

func (l *ladder) compute(tables *solve.Cache, log *slog.Logger) {
	defer close(l.done)
	v := sim.Standard(sim.Pig)
	t, err := tables.Get(v)
	if err != nil {
		log.Error("ladder", "err", err)
		return
	}
	opt := solve.Optimal{T: t}
	var rungs []charts.Rung
	for n := 5; n <= 40; n++ {
		first, err1 := solve.Duel(v, sim.HoldAt(n), opt)
		second, err2 := solve.Duel(v, opt, sim.HoldAt(n))
		if err1 != nil || err2 != nil {
			log.Error("ladder", "n", n, "err", fmt.Sprint(err1, err2))
			return
		}
		rungs = append(rungs, charts.Rung{N: n, First: first, Second: 1 - second})
	}
	l.rungs = rungs
}

// pigVariant is the Pig variant a class's Pig charts read: the target its
// Pig matches used most (100 when there are none).
func (s *Server) pigVariant(ctx context.Context, classID int64) (sim.Variant, *solve.Table, error) {
	v := sim.Standard(sim.Pig)
	targets, err := s.store.PigTargets(ctx, classID)
	if err != nil {
		return v, nil, err
	}
	if len(targets) > 0 && targets[0] <= solve.MaxTarget {
		v.Target = targets[0]
	}
	t, err := s.tables.Get(v)
	return v, t, err
}

// classChart builds one class chart; studentID limits the decision charts
// to one student (their page), 0 for the whole class.
func (s *Server) classChart(ctx context.Context, class store.Class, key string, studentID int64) (templates.Chart, error) {
	v, table, err := s.pigVariant(ctx, class.ID)
	if err != nil {
		return templates.Chart{}, err
	}
	pig := store.ChartFilter{ClassID: class.ID, Game: "pig", Target: v.Target, StudentID: studentID}
	name := func(d store.Decision) string {
		switch {
		case studentID != 0 && d.StudentID == studentID:
			return "you"
		case class.Anonymous || studentID != 0:
			return d.Anon
		}
		return d.Student
	}
	switch key {
	case charts.HoldPointsKey, charts.DecisionMapKey:
		ds, err := s.store.Decisions(ctx, pig, true)
		if err != nil {
			return templates.Chart{}, err
		}
		switch {
		case key == charts.DecisionMapKey:
			return charts.DecisionMap(ds, table), nil
		case studentID == 0:
			return charts.HoldPoints(ds, table), nil
		}
		pig.StudentID = 0
		class, err := s.store.Decisions(ctx, pig, true)
		if err != nil {
			return templates.Chart{}, err
		}
		return charts.MyHoldPoints(ds, class, table), nil
	case charts.SkillLuckKey:
		pig.StudentID = 0
		ds, err := s.store.Decisions(ctx, pig, true)
		if err != nil {
			return templates.Chart{}, err
		}
		return charts.SkillLuck(ds, sim.Pig, name), nil
	case charts.DiceKey, charts.OnesKey:
		faces, err := s.store.Faces(ctx, class.ID)
		if err != nil {
			return templates.Chart{}, err
		}
		if key == charts.DiceKey {
			return charts.ClassDice(faces), nil
		}
		return charts.ShareOfOnes(faces), nil
	case charts.HogDiceKey:
		ds, err := s.store.Decisions(ctx, store.ChartFilter{ClassID: class.ID, Game: "hog", StudentID: studentID}, true)
		if err != nil {
			return templates.Chart{}, err
		}
		return charts.HogDice(ds), nil
	case charts.HogCurveKey:
		return charts.HogCurve(sim.DefaultMaxDice), nil
	case charts.FirstPlayerKey:
		return s.firstPlayerChart(ctx, class.ID, v, table)
	case charts.LadderKey:
		return charts.Ladder(s.ladderRungs()), nil
	}
	return templates.Chart{}, fmt.Errorf("chart %q: %w", key, store.ErrNotFound)
}

// classCharts builds the charts named by keys.
func (s *Server) classCharts(ctx context.Context, class store.Class, keys []string, studentID int64) ([]templates.Chart, error) {
	out := make([]templates.Chart, 0, len(keys))
	for _, k := range keys {
		c, err := s.classChart(ctx, class, k, studentID)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// timeline is chart 4 for a match.
func timeline(mv *matchView) templates.Chart {
	names := make([]string, mv.row.Variant.Seats)
	for _, seat := range mv.row.Seats {
		names[seat.Seat] = seatName(seat, mv.class.Anonymous && seat.Seat != mv.viewer)
		if seat.Seat == mv.viewer {
			names[seat.Seat] = "you"
		}
	}
	return charts.Timeline(mv.rows, names)
}

// firstPlayerChart is chart 7 for the class's Pig target: the standard
// rules, and equal turns when the class played them.
func (s *Server) firstPlayerChart(ctx context.Context, classID int64, v sim.Variant, table *solve.Table) (templates.Chart, error) {
	rules := fmt.Sprintf("Pig to %d", v.Target)
	games, wins, err := s.store.FirstPlayerResults(ctx, store.ChartFilter{ClassID: classID, Game: "pig", Target: v.Target})
	if err != nil {
		return templates.Chart{}, err
	}
	results := []charts.FirstResults{{Rules: rules, Games: games, FirstWins: wins, Exact: table.FirstPlayerWin()}}
	eg, ew, err := s.store.FirstPlayerResults(ctx, store.ChartFilter{ClassID: classID, Game: "pig", Target: v.Target, EqualTurns: true})
	if err != nil {
		return templates.Chart{}, err
	}
	if eg > 0 {
		ev := v
		ev.EqualTurns = true
		et, err := s.tables.GetEqual(ev)
		if err != nil {
			return templates.Chart{}, err
		}
		results = append(results, charts.FirstResults{Rules: rules + ", equal turns", Games: eg, FirstWins: ew, Exact: et.FirstPlayerWin()})
	}
	return charts.FirstPlayer(results), nil
}
