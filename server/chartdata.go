package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"pigclass/server/charts"
	"pigclass/server/classroom"
	"pigclass/server/i18n"
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
// Pig matches used most (100 when there are none). A request never waits
// for a solve: while that target's table is being solved (after a restart,
// or forgotten past the cache's budget) the charts read the next target
// played whose table is ready, or 100 (always kept), and name it.
func (s *Server) pigVariant(ctx context.Context, who classroom.Viewer) (sim.Variant, *solve.Table, error) {
	v := sim.Standard(sim.Pig)
	targets, err := s.reports.PigTargets(ctx, who)
	if err != nil {
		return v, nil, err
	}
	for _, target := range targets {
		if target > solve.MaxTarget {
			continue
		}
		try := v
		try.Target = target
		if t, err := s.tables.Ready(try); err == nil {
			return try, t, nil
		}
	}
	t, err := s.tables.Get(v)
	return v, t, err
}

// chartSource reads what a page's charts need, each query at most once:
// the dashboard draws nine charts from four kinds of data.
type chartSource struct {
	s         *Server
	ctx       context.Context
	who       classroom.Viewer // who asks: the class's reads are theirs
	l         *i18n.Localizer
	class     store.Class
	studentID int64 // 0: the whole class; else that student's own page
	v         sim.Variant
	table     *solve.Table
	pig       map[int64][]store.Decision // students' Pig decisions, by student (0: all)
	faces     []int
	facesRead bool
}

// chartSource prepares the charts of a class (studentID 0) or of one
// student's page.
func (s *Server) chartSource(ctx context.Context, l *i18n.Localizer, who classroom.Viewer, studentID int64) (*chartSource, error) {
	v, table, err := s.pigVariant(ctx, who)
	if err != nil {
		return nil, err
	}
	return &chartSource{s: s, ctx: ctx, who: who, l: l, class: who.Class().Class, studentID: studentID, v: v, table: table, pig: map[int64][]store.Decision{}}, nil
}

// pigDecisions returns the students' decisions in the charts' Pig variant:
// one student's, or everyone's (0).
func (c *chartSource) pigDecisions(studentID int64) ([]store.Decision, error) {
	if ds, ok := c.pig[studentID]; ok {
		return ds, nil
	}
	ds, err := c.s.reports.Decisions(c.ctx, c.who, store.ChartFilter{Game: store.OnlyGame(sim.Pig), Target: c.v.Target, StudentID: studentID}, true)
	c.pig[studentID] = ds
	return ds, err
}

func (c *chartSource) classFaces() ([]int, error) {
	if !c.facesRead {
		var err error
		if c.faces, err = c.s.reports.Faces(c.ctx, c.who); err != nil {
			return nil, err
		}
		c.facesRead = true
	}
	return c.faces, nil
}

// pigLandings is the chart of the class's pigs beside the chances Pass
// the Pigs is played with.
func (c *chartSource) pigLandings() (templates.Chart, error) {
	marks, err := c.s.reports.Marks(c.ctx, c.who, sim.PassPigs.Rules().Piece.Name)
	if err != nil {
		return templates.Chart{}, err
	}
	return charts.PigLandings(c.l, sim.PassPigs, marks), nil
}

// name labels a decision's student: "you" on the student's own page,
// generated names on shared screens and on students' pages.
func (c *chartSource) name(d store.Decision) string {
	switch {
	case c.studentID != 0 && d.StudentID == c.studentID:
		return c.l.T("chart.you")
	case c.class.Anonymous || c.studentID != 0:
		return anonIn(c.l, d.Anon)
	}
	return d.Student
}

// chart builds one chart by key.
func (c *chartSource) chart(key string) (templates.Chart, error) {
	switch key {
	case charts.HoldPointsKey, charts.DecisionMapKey:
		ds, err := c.pigDecisions(c.studentID)
		if err != nil {
			return templates.Chart{}, err
		}
		switch {
		case key == charts.DecisionMapKey:
			return charts.DecisionMap(c.l, ds, c.table), nil
		case c.studentID == 0:
			return charts.HoldPoints(c.l, ds, c.table), nil
		}
		class, err := c.pigDecisions(0)
		if err != nil {
			return templates.Chart{}, err
		}
		return charts.MyHoldPoints(c.l, ds, class, c.table), nil
	case charts.SkillLuckKey:
		ds, err := c.s.reports.Decisions(c.ctx, c.who, store.ChartFilter{}, true)
		if err != nil {
			return templates.Chart{}, err
		}
		return charts.SkillLuck(c.l, ds, c.name), nil
	case charts.DiceKey, charts.OnesKey:
		faces, err := c.classFaces()
		if err != nil {
			return templates.Chart{}, err
		}
		if key == charts.DiceKey {
			return charts.ClassDice(c.l, faces), nil
		}
		return charts.ShareOfOnes(c.l, faces), nil
	case charts.PigLandingsKey:
		return c.pigLandings()
	case charts.SkunkSitsKey:
		ds, err := c.s.reports.SkunkDecisions(c.ctx, c.who)
		if err != nil {
			return templates.Chart{}, err
		}
		return charts.SkunkSits(c.l, ds), nil
	case charts.HogDiceKey:
		ds, err := c.s.reports.Decisions(c.ctx, c.who, store.ChartFilter{Game: store.OnlyGame(sim.Hog), StudentID: c.studentID}, true)
		if err != nil {
			return templates.Chart{}, err
		}
		return charts.HogDice(c.l, ds), nil
	case charts.HogCurveKey:
		// As far as the class's Hog rounds allowed (10 dice when none).
		most := sim.DefaultMaxDice
		rounds, err := c.s.reports.Rounds(c.ctx, c.who)
		if err != nil {
			return templates.Chart{}, err
		}
		for _, r := range rounds {
			if r.Variant.Game.ChoosesDice() && r.Variant.MaxDice > most {
				most = r.Variant.MaxDice
			}
		}
		return charts.HogCurve(c.l, most), nil
	case charts.FirstPlayerKey:
		return c.s.firstPlayerChart(c.ctx, c.l, c.who, c.v, c.table)
	case charts.LadderKey:
		return charts.Ladder(c.l, c.s.ladderRungs()), nil
	}
	return templates.Chart{}, fmt.Errorf("chart %q: %w", key, store.ErrNotFound)
}

// classChart builds one class chart; studentID limits the decision charts
// to one student (their page), 0 for the whole class.
func (s *Server) classChart(ctx context.Context, l *i18n.Localizer, who classroom.Viewer, key string, studentID int64) (templates.Chart, error) {
	src, err := s.chartSource(ctx, l, who, studentID)
	if err != nil {
		return templates.Chart{}, err
	}
	return src.chart(key)
}

// classCharts builds the charts named by keys from one chartSource.
func (s *Server) classCharts(ctx context.Context, l *i18n.Localizer, who classroom.Viewer, keys []string, studentID int64) ([]templates.Chart, error) {
	src, err := s.chartSource(ctx, l, who, studentID)
	if err != nil {
		return nil, err
	}
	out := make([]templates.Chart, 0, len(keys))
	for _, k := range keys {
		c, err := src.chart(k)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// timeline is chart 4 for a match.
func timeline(l *i18n.Localizer, mv *matchView) templates.Chart {
	anonymous := mv.Class != nil && mv.Class.Anonymous
	return charts.Timeline(l, mv.Variant.Game, mv.Events, seatNames(l, mv.Match.Match, mv.Seat, anonymous, l.T("chart.you")))
}

// firstPlayerChart is chart 7 for the class's Pig target: the standard
// rules, and equal turns when the class played them.
func (s *Server) firstPlayerChart(ctx context.Context, l *i18n.Localizer, who classroom.Viewer, v sim.Variant, table *solve.Table) (templates.Chart, error) {
	rules := gameTitle(l, v)
	ev := v
	ev.EqualTurns = true
	games, wins, err := s.reports.FirstPlayerResults(ctx, who, store.ChartFilter{Game: store.OnlyGame(sim.Pig), Target: v.Target})
	if err != nil {
		return templates.Chart{}, err
	}
	results := []charts.FirstResults{{Rules: rules, Games: games, FirstWins: wins, Exact: table.FirstPlayerWin()}}
	eg, ew, err := s.reports.FirstPlayerResults(ctx, who, store.ChartFilter{Game: store.OnlyGame(sim.Pig), Target: v.Target, EqualTurns: true})
	if err != nil {
		return templates.Chart{}, err
	}
	if eg > 0 {
		et, err := s.tables.ReadyEqual(ev)
		switch {
		case errors.Is(err, solve.ErrSolving):
			// its bar comes when the table is ready: a request never waits
		case err != nil:
			return templates.Chart{}, err
		default:
			results = append(results, charts.FirstResults{Rules: gameTitle(l, ev), Games: eg, FirstWins: ew, Exact: et.FirstPlayerWin()})
		}
	}
	return charts.FirstPlayer(l, results), nil
}
