package server

import (
	"context"
	"errors"
	"fmt"
	"math"

	"pigclass/server/charts"
	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/server/report"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// pigVariant is the Pig variant a class's Pig charts read: the target its
// Pig matches used most (100 when there are none). A request never waits
// for a solve: while that target's table is being solved (after a restart,
// or forgotten past the cache's budget) the charts read the next target
// played whose table is ready, or 100 (always kept), and name it.
func (w *views) pigVariant(ctx context.Context, who classroom.Viewer) (sim.Variant, *solve.Table, error) {
	v := sim.Standard(sim.Pig)
	targets, err := w.reports.PigTargets(ctx, who)
	if err != nil {
		return v, nil, err
	}
	for _, target := range targets {
		if target > solve.MaxTarget {
			continue
		}
		try := v
		try.Target = target
		if t, err := w.tables.Ready(try); err == nil {
			return try, t, nil
		}
	}
	t, err := w.tables.Get(v)
	return v, t, err
}

// chartSource reads what a page's charts need, each query at most once:
// the dashboard draws nine charts from four kinds of data.
type chartSource struct {
	w         *views
	ctx       context.Context
	who       classroom.Viewer // who asks: the class's reads are theirs
	l         *i18n.Localizer
	class     store.Class
	studentID int64  // 0: the whole class; else that student's own page
	day       string // the day of the class the charts show ("" every day)
	v         sim.Variant
	table     *solve.Table
	pig       map[int64][]store.Decision // students' Pig decisions, by student (0: all)
	marks     map[string]store.Thrown    // the class's marks, by kind of piece
	lab       *charts.LabData            // the lab's runs, once read
}

// chartSource prepares the charts of a class (studentID 0) or of one
// student's page.
func (w *views) chartSource(ctx context.Context, l *i18n.Localizer, who classroom.Viewer, studentID int64, day string) (*chartSource, error) {
	v, table, err := w.pigVariant(ctx, who)
	if err != nil {
		return nil, err
	}
	return &chartSource{w: w, ctx: ctx, who: who, l: l, class: who.Class().Class, studentID: studentID, day: day, v: v, table: table, pig: map[int64][]store.Decision{}, marks: map[string]store.Thrown{}}, nil
}

// The chartSource is the charts' Source (charts.Build): each of its reads
// is made at most once a page.

// Localizer is the reader's words.
func (c *chartSource) Localizer() *i18n.Localizer { return c.l }

// Student is the student whose page it is, or 0 for the class.
func (c *chartSource) Student() int64 { return c.studentID }

// PigTable is the table of the charts' Pig variant.
func (c *chartSource) PigTable() *solve.Table { return c.table }

// PigDecisions returns the students' decisions in the charts' Pig variant:
// one student's, or everyone's (0).
func (c *chartSource) PigDecisions(studentID int64) ([]store.Decision, error) {
	if ds, ok := c.pig[studentID]; ok {
		return ds, nil
	}
	ds, err := c.w.reports.Decisions(c.ctx, c.who, store.ChartFilter{Game: store.OnlyGame(sim.Pig), Target: c.v.Target, StudentID: studentID, Day: c.day}, true)
	c.pig[studentID] = ds
	return ds, err
}

// Decisions are every decision of the class's students.
func (c *chartSource) Decisions() ([]store.Decision, error) {
	return c.w.reports.Decisions(c.ctx, c.who, store.ChartFilter{Day: c.day}, true)
}

// GameDecisions are the page's decisions of one game (one student's on
// their page).
func (c *chartSource) GameDecisions(g sim.Game) ([]store.Decision, error) {
	return c.w.reports.Decisions(c.ctx, c.who, store.ChartFilter{Game: store.OnlyGame(g), StudentID: c.studentID, Day: c.day}, true)
}

// Marks are the marks the class's pieces of one kind showed.
func (c *chartSource) Marks(piece string) (store.Thrown, error) {
	if m, ok := c.marks[piece]; ok {
		return m, nil
	}
	m, err := c.w.reports.Marks(c.ctx, c.who, piece, c.day)
	c.marks[piece] = m
	return m, err
}

// SkunkDecisions are the stands and sits of the class's games of Skunk.
func (c *chartSource) SkunkDecisions() ([]store.SkunkDecision, error) {
	return c.w.reports.SkunkDecisions(c.ctx, c.who, c.day)
}

// Rounds are the class's rounds.
func (c *chartSource) Rounds() ([]play.Round, error) { return c.w.reports.Rounds(c.ctx, c.who) }

// FirstPlayer is the first-player chart's results.
func (c *chartSource) FirstPlayer() ([]charts.FirstResults, error) {
	return c.w.firstPlayerResults(c.ctx, c.l, c.who, c.v, c.table, c.day)
}

// Mysteries are the class's mystery bots whose seed is published.
func (c *chartSource) Mysteries() ([]store.MysterySeat, error) {
	return c.w.reports.MysterySeats(c.ctx, c.who, c.day)
}

// Progress is the class's play day by day over the unit (every day,
// whatever day the other charts show).
func (c *chartSource) Progress() (charts.ProgressData, error) {
	p, err := c.w.reports.ClassProgress(c.ctx, c.who)
	var out charts.ProgressData
	for _, d := range p.Days {
		day := d.Day
		if d.Homework {
			day = c.l.T("progress.homework_day", "Date", d.Day)
		}
		out.Days = append(out.Days, charts.ProgressDay{Day: day, Games: d.Games, Mean: d.PerGame, Lo: d.Lo, Hi: d.Hi})
	}
	// The change said by the same rule and words as a student's page.
	if v := progressWords(c.l, p, c.l.T("progress.the_class")); v != nil {
		out.Verdict = v.Change
	}
	return out, err
}

// Ladder is the strategy ladder, nil while it is computed.
func (c *chartSource) Ladder() []charts.Rung { return c.w.ladder.rungs() }

// Lab is the class's lab: its question's runs, sorted by their share, and
// the exact answer once the teacher revealed it.
func (c *chartSource) Lab() (charts.LabData, error) {
	if c.lab != nil {
		return *c.lab, nil
	}
	class := c.who.Class()
	q, ok := class.LabQuestion()
	if !ok {
		return charts.LabData{}, nil
	}
	exps, err := c.w.reports.Experiments(c.ctx, c.who)
	if err != nil {
		return charts.LabData{}, err
	}
	exact := math.NaN()
	if class.LabRevealed {
		exact = c.w.labExact(q)
	}
	p := report.PoolLab(exps, q, exact)
	d := charts.LabData{Question: labWords(c.l, q), Games: p.Games, Pooled: p.Pooled, Lo: p.Lo, Hi: p.Hi, Exact: p.Exact, Covering: p.Covering, Covered: p.Covered}
	for _, r := range p.Runs {
		d.Runs = append(d.Runs, charts.LabRun{Games: r.Games, Share: r.Share, Lo: r.Lo, Hi: r.Hi})
	}
	c.lab = &d
	return d, nil
}

// Arms is the class's experiment "Decide before you roll" compared, with
// its randomization test (report.CompareArms).
func (c *chartSource) Arms() (charts.ArmsData, error) {
	a, ok, err := c.w.reports.Arms(c.ctx, c.who)
	if err != nil {
		return charts.ArmsData{}, err
	}
	return charts.ArmsData{Ready: ok, Students: a.Students, Games: a.Games, Mean: a.Mean, Diff: a.Diff, Diffs: a.Diffs,
		AtLeast: a.AtLeast, P: a.P, Seed: a.Seed}, nil
}

// Name labels a decision's student: "you" on the student's own page,
// generated names on shared screens and on students' pages.
func (c *chartSource) Name(d store.Decision) string {
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
	ch, err := charts.Build(key, c)
	if errors.Is(err, charts.ErrNoChart) {
		return ch, fmt.Errorf("%w: %w", err, store.ErrNotFound)
	}
	return ch, err
}

// classChart builds one class chart; studentID limits the decision charts
// to one student (their page), 0 for the whole class.
func (w *views) classChart(ctx context.Context, l *i18n.Localizer, who classroom.Viewer, key string, studentID int64, day string) (templates.Chart, error) {
	src, err := w.chartSource(ctx, l, who, studentID, day)
	if err != nil {
		return templates.Chart{}, err
	}
	return src.chart(key)
}

// classCharts builds the charts named by keys from one chartSource.
func (w *views) classCharts(ctx context.Context, l *i18n.Localizer, who classroom.Viewer, keys []string, studentID int64, day string) ([]templates.Chart, error) {
	src, err := w.chartSource(ctx, l, who, studentID, day)
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
	viewer := mv.Seat
	if mv.teacher {
		viewer = -1 // the teacher's look: every player by name
	}
	return charts.Timeline(l, mv.Variant.Game, mv.Events, seatNames(l, *mv.Match, viewer, anonymous, l.T("chart.you")))
}

// firstPlayerResults are chart 7's results: each set of rules the class
// finished two-player matches under (any game, the most played first, at
// most firstRules of them), beside its exact first-player chance. A class
// that has finished none (or whose tables are all being solved) sees Pig's
// exact value at its target (v, table).
// A table still being solved leaves its rules out until it is ready: a
// request never waits.
func (w *views) firstPlayerResults(ctx context.Context, l *i18n.Localizer, who classroom.Viewer, v sim.Variant, table *solve.Table, day string) ([]charts.FirstResults, error) {
	played, err := w.reports.FirstPlayerRules(ctx, who, store.ChartFilter{Day: day})
	if err != nil {
		return nil, err
	}
	var results []charts.FirstResults
	for _, r := range played {
		g, err := sim.ParseGame(r.Game)
		if err != nil || r.Target > solve.MaxTarget {
			continue // a game this server no longer plays, or beyond the solver
		}
		rv := sim.Standard(g)
		rv.Target, rv.EqualTurns = r.Target, r.EqualTurns
		exact, err := w.firstPlayerWin(rv)
		if errors.Is(err, solve.ErrSolving) {
			continue
		} else if err != nil {
			return nil, err
		}
		results = append(results, charts.FirstResults{Rules: gameTitle(l, rv), Games: r.Games, FirstWins: r.FirstWins, Exact: exact})
		if len(results) == firstRules {
			break
		}
	}
	if len(results) == 0 && table != nil {
		results = append(results, charts.FirstResults{Rules: gameTitle(l, v), Exact: table.FirstPlayerWin()})
	}
	return results, nil
}

// firstPlayerWin is the first player's exact chance under v's rules
// (equal turns or not), solve.ErrSolving while its table is solved.
func (w *views) firstPlayerWin(v sim.Variant) (float64, error) {
	if v.EqualTurns {
		t, err := w.tables.ReadyEqual(v)
		if err != nil {
			return 0, err
		}
		return t.FirstPlayerWin(), nil
	}
	t, err := w.tables.Ready(v)
	if err != nil {
		return 0, err
	}
	return t.FirstPlayerWin(), nil
}

// firstRules is how many sets of rules the first-player chart sets side
// by side: two boxes each, readable on a phone.
const firstRules = 4

// projectorChart is the chart the teacher picked for the projector.
func (w *views) projectorChart(ctx context.Context, l *i18n.Localizer, who classroom.Viewer, poll paths.Route) (templates.ProjectorChart, error) {
	class := who.Class()
	v := templates.ProjectorChart{Code: class.Code, PollURL: poll.For(class.Code)}
	if class.Projector == "" {
		return v, nil
	}
	day, err := w.chartDay(ctx, who, false)
	if err != nil {
		return v, err
	}
	ch, err := w.classChart(ctx, l, who, class.Projector, 0, day)
	if err != nil {
		return v, err
	}
	if playing, _ := who.RoundProgress(); ch.Key == charts.MysteryKey && playing > 0 {
		// The room guesses while the round is played: nothing of the
		// mystery bots shows until every match is over, its seed
		// published.
		ch = templates.Chart{Key: ch.Key, ID: ch.ID, Title: ch.Title, Empty: l.T("chart.mystery-guesses.after_round")}
	}
	v.Chart = &ch
	return v, nil
}

// chartDay is the day of the class its charts show: today once the class
// has played today, else (or asked for the unit) every day, "".
func (w *views) chartDay(ctx context.Context, who classroom.Viewer, unit bool) (string, error) {
	if unit {
		return "", nil
	}
	today := w.reports.Today()
	played, err := w.reports.PlayedOn(ctx, who, today)
	if err != nil || !played {
		return "", err
	}
	return today, nil
}
