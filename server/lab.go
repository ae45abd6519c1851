package server

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gin-gonic/gin"

	"pigclass/server/charts"
	"pigclass/server/classroom"
	"pigclass/server/report"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// The simulation lab (issue 62): the teacher poses a question, each
// student runs experiments of simulated games on it, the class's runs
// pool on the lab's chart (the shared screen shows it when picked), and
// the teacher reveals the exact answer.

// The experiments simulated at once are bounded (Server.labGate, lab_gate.go):
// two cores' worth, so that a class of 30 running 100,000 games each is
// done in about a second (BenchmarkClassExperiments) and a class playing
// meanwhile still moves.

// labExacts are the exact answers worked out, by question.
var labExacts sync.Map // classroom.LabQuestion -> float64

// labGames is the games a student's run starts at: the lesson phase's
// (lab-games, "Run 100 games each"), else 1,000.
func (w *views) labGames(class store.Class) int {
	if l, ok := w.lesson(class.Lesson); ok && class.InPhase() && class.Phase < len(l.Phases) && l.Phases[class.Phase].LabGames > 0 {
		return l.Phases[class.Phase].LabGames
	}
	return 1000
}

// labStrategies are the question's two strategies (report.LabStrategies:
// solve.ErrSolving while perfect play's table is solved).
func (w *views) labStrategies(q classroom.LabQuestion) (first, second sim.Strategy, err error) {
	return report.LabStrategies(q, w.tables)
}

// labExact is the question's exact answer (the first strategy's chance of
// winning, by policy evaluation), NaN while it cannot be known yet.
func (w *views) labExact(q classroom.LabQuestion) float64 {
	if x, ok := labExacts.Load(q); ok {
		return x.(float64)
	}
	x, ok := report.LabExact(q, w.tables)
	if !ok {
		return math.NaN()
	}
	labExacts.Store(q, x)
	return x
}

// labMenu are the strategies a lab question may set against each other:
// the bots of the round form (the mystery bot aside, whose strength is a
// match's secret) and a few more rules of holding.
func labMenu() []string {
	out := []string{"hold:15", "hold:25", "hold:30"}
	for _, b := range sim.BotMenu(20) {
		if b != sim.MysteryBot {
			out = append(out, b)
		}
	}
	return out
}

// labChoices are labMenu's strategies in the reader's words, selected
// marked; mines, on a student's page, are their own plans first (their
// saved plan, and the one selected if it is an older one of theirs).
func labChoices(c *gin.Context, selected string, mines ...string) []templates.Choice {
	l := loc(c)
	var out []templates.Choice
	for _, m := range mines {
		if m != "" && !slices.ContainsFunc(out, func(ch templates.Choice) bool { return ch.Value == m }) {
			out = append(out, templates.Choice{Value: m, Label: labStrategyLabel(l, m, 20), Selected: m == selected})
		}
	}
	for _, b := range labMenu() {
		out = append(out, templates.Choice{Value: b, Label: botLabel(l, b, 20), Selected: b == selected})
	}
	return out
}

// labStrategyLabel names one of a question's strategies: a bot, or the
// student's own plan (only their own page asks with it) by its form.
func labStrategyLabel(l *i18n.Localizer, name string, ruleOfThumb int) string {
	pl, ok := planNamed(name)
	if !ok {
		return botLabel(l, name, ruleOfThumb)
	}
	switch pl.Form {
	case sim.PlanRule:
		return l.T("lab.mine_rule", "N", l.Int(pl.Hold))
	case sim.PlanMap:
		return l.T("lab.mine_map")
	}
	return l.T("lab.mine_hold", "N", l.Int(pl.Hold))
}

// labWords is the lab's question in the reader's words.
func labWords(l *i18n.Localizer, q classroom.LabQuestion) string {
	rule := q.Variant.Game.Rules().HoldAt
	return l.T("lab.question", "First", labStrategyLabel(l, q.First, rule), "Second", labStrategyLabel(l, q.Second, rule),
		"Game", gameName(l, q.Variant.Game), "Target", l.Int(q.Variant.Target))
}

// labPool is the class's runs of the question pooled, the exact answer
// beside them once revealed.
func (w *views) labPool(c *gin.Context, who classroom.Viewer, q classroom.LabQuestion, revealed bool) (report.Lab, []store.Experiment, error) {
	exps, err := w.reports.Experiments(c.Request.Context(), who)
	if err != nil {
		return report.Lab{}, nil, err
	}
	exact := math.NaN()
	if revealed {
		exact = w.labExact(q)
	}
	return report.PoolLab(exps, q, exact), exps, nil
}

// labQuestionIn is the lab question a form or an address names (game,
// target, first, second), or the words saying what a question can be.
func labQuestionIn(c *gin.Context) (classroom.LabQuestion, string) {
	g, gerr := sim.ParseGame(c.Request.FormValue("game"))
	target, terr := strconv.Atoi(strings.TrimSpace(c.Request.FormValue("target")))
	v := sim.Standard(g)
	v.Target = target
	q := classroom.LabQuestion{Variant: v, First: canonicalPlan(c.Request.FormValue("first")), Second: canonicalPlan(c.Request.FormValue("second"))}
	if gerr == nil && terr == nil && q.Check() != nil {
		if w := cmp.Or(minesMisfit(loc(c), q), labMisfit(loc(c), q)); w != "" {
			return q, w
		}
	}
	if gerr != nil || terr != nil || q.Check() != nil {
		l := loc(c)
		return q, l.T("lab.error.question", "Games", strings.Join(gameNamesIn(l), ", "), "Min", l.Int(sim.MinTarget), "Max", l.Int(sim.MaxTarget))
	}
	return q, ""
}

// canonicalPlan writes a plan's name (sim.PlanName) as pigclass writes
// it, whatever the form sent (a name of its own, spaces, fields in
// another order), so that a question is one string and its replay
// command holds nothing but the plan; any other name is as sent.
func canonicalPlan(name string) string {
	if pl, ok := planNamed(name); ok {
		return sim.PlanName(pl)
	}
	return name
}

// planNamed reads a strategy's name as a plan's (sim.PlanName), unchecked
// (a question's Check checks it for its game); false for a bot's name,
// or for one that only looks like a plan's.
func planNamed(name string) (sim.Plan, bool) {
	var pl sim.Plan
	ok := sim.IsPlanName(name) && json.Unmarshal([]byte(name), &pl) == nil
	return pl, ok
}

// labMisfit says, for a question of a game and target the lab plays, why
// a bot of it cannot play it: the mystery bot plays no lab question, and
// perfect play is solved up to solve.MaxTarget; "" if the fault is
// another.
func labMisfit(l *i18n.Localizer, q classroom.LabQuestion) string {
	if q.Variant.Validate() != nil {
		return ""
	}
	for _, name := range []string{q.First, q.Second} {
		switch {
		case name == sim.MysteryBot:
			return l.T("lab.error.mystery")
		case name == sim.PerfectBot && solve.CheckStrategy(name, q.Variant) != nil:
			return l.T("lab.error.perfect", "Max", l.Int(solve.MaxTarget), "Game", gameName(l, q.Variant.Game))
		}
	}
	return ""
}

// minesMisfit says, for a question that sets a student's plan in a game
// or to a target it was not made for, which it was made for; "" if the
// question's fault is another.
func minesMisfit(l *i18n.Localizer, q classroom.LabQuestion) string {
	for _, name := range []string{q.First, q.Second} {
		pl, ok := planNamed(name)
		if !ok {
			continue
		}
		if g, err := sim.ParseGame(pl.Game); err == nil && (g != q.Variant.Game || pl.Target != q.Variant.Target) {
			return l.T("lab.error.mine", "Game", gameName(l, g), "Target", l.Int(pl.Target))
		}
	}
	return ""
}

// labAsked is the question a lab page is about: the one its form or
// address names (a student's own), else the one the teacher posed; false
// for none, or for a question that cannot be asked (words say why).
func labAsked(c *gin.Context, class *classroom.Class) (q classroom.LabQuestion, own, ok bool, problem string) {
	posed, isPosed := class.LabQuestion()
	if c.Request.FormValue("game") == "" {
		return posed, false, isPosed, ""
	}
	if q, problem = labQuestionIn(c); problem != "" {
		return q, true, false, problem
	}
	return q, q != posed, true, ""
}

// studentLab is a student's lab: the question (the teacher's, or their
// own), their runs of it, the path of the run asked for (?run=, replayed
// from its seed), and the class's runs of it pooled.
func (s *Server) studentLab(c *gin.Context) {
	class, me, ok := s.studentOf(c)
	if !ok {
		return
	}
	v := templates.LabPage{Code: class.Code, Games: s.views.labGames(class.Class), Min: sim.MinExperiment, Max: sim.MaxExperiment}
	s.drawLab(c, class, me, &v)
}

// drawLab fills the lab page's question, runs and pool, and renders it.
func (s *Server) drawLab(c *gin.Context, class *classroom.Class, me store.Student, v *templates.LabPage) {
	followClass(c)
	l := loc(c)
	q, own, asked, problem := labAsked(c, class)
	v.Error = cmp.Or(v.Error, problem)
	status := http.StatusOK
	if v.Error != "" {
		status = http.StatusUnprocessableEntity
	}
	s.labForm(c, class, me, q, asked, v)
	if !asked {
		render(c, status, templates.LabPageView(*v))
		return
	}
	v.Question, v.Own = labWords(l, q), own
	pool, exps, err := s.views.labPool(c, viewerFrom(c), q, false)
	if err != nil {
		fail(c, err)
		return
	}
	if pool.Games > 0 {
		v.Class = l.N("lab.class", len(pool.Runs), "Games", l.Int(pool.Games), "Share", l.Pct(pool.Pooled, 1), "Lo", l.Pct(pool.Lo, 1), "Hi", l.Pct(pool.Hi, 1))
	}
	runID, _ := strconv.ParseInt(c.Query("run"), 10, 64)
	for i := len(exps) - 1; i >= 0; i-- {
		e := exps[i]
		if e.StudentID != me.ID || classroom.QuestionOf(e) != q {
			continue
		}
		lo, hi := sim.Wilson(e.Wins, e.Games, sim.Z95)
		row := templates.LabRunRow{Games: l.Int(e.Games), Wins: l.Int(e.Wins), Share: l.Pct(float64(e.Wins)/float64(e.Games), 1),
			Interval: l.T("lab.interval", "Lo", l.Pct(lo, 1), "Hi", l.Pct(hi, 1)), Seed: e.Seed, PathURL: labURL(class.Code, q, own, e.ID), Shown: e.ID == runID}
		if row.Shown {
			if path, err := s.labPath(c, q, e); err == nil {
				v.Path = &path
			}
			v.Replay = labReplay(e)
		}
		v.Runs = append(v.Runs, row)
	}
	render(c, status, templates.LabPageView(*v))
}

// labForm fills the lab page's forms: the question asked (its fields, to
// run it again and to change it) and the teacher's, if it is another.
func (s *Server) labForm(c *gin.Context, class *classroom.Class, me store.Student, q classroom.LabQuestion, asked bool, v *templates.LabPage) {
	l := loc(c)
	if !asked {
		q = classroom.LabQuestion{Variant: sim.Standard(sim.Pig), First: "hold:25", Second: "hold:20"}
	}
	mine := ""
	if pl, err := s.contest.PlanOf(c.Request.Context(), class.ID, me.ID); err == nil {
		mine = sim.PlanName(pl) // the strategy editor's plan: "my strategy" against any other
	}
	mines := func(selected string) []templates.Choice {
		if sim.IsPlanName(selected) {
			return labChoices(c, selected, mine, selected)
		}
		return labChoices(c, selected, mine)
	}
	v.Ask = templates.LabPanel{Games: gameChoices(l, q.Variant.Game.String()), Target: q.Variant.Target, First: mines(q.First), Second: mines(q.Second)}
	v.Fields = labFields(q)
	if posed, ok := class.LabQuestion(); ok && (!asked || posed != q) {
		v.Posed, v.PosedURL = labWords(l, posed), paths.StudentLab.For(class.Code)
	}
}

// labFields are a question's form fields.
func labFields(q classroom.LabQuestion) []templates.Choice {
	return []templates.Choice{{Value: q.Variant.Game.String(), Label: "game"}, {Value: strconv.Itoa(q.Variant.Target), Label: "target"},
		{Value: q.First, Label: "first"}, {Value: q.Second, Label: "second"}}
}

// labURL is the lab page of a question (the teacher's unless own) with a
// run's path drawn.
func labURL(code string, q classroom.LabQuestion, own bool, run int64) string {
	kv := []string{"run", strconv.FormatInt(run, 10)}
	if own {
		for _, f := range labFields(q) {
			kv = append(kv, f.Label, f.Value)
		}
	}
	return paths.Query(paths.StudentLab.For(code), kv...)
}

// labReplay is the command that plays a run's games again, anywhere
// (TestSimulateReplaysALabRun holds it to the run).
// A student's plan is written to a file first, which simulate reads.
func labReplay(e store.Experiment) string {
	var files []string
	players := []string{e.First, e.Second}
	for i, name := range players {
		if sim.IsPlanName(name) {
			players[i] = [...]string{"first.json", "second.json"}[i]
			files = append(files, fmt.Sprintf("echo '%s' > %s && ", name, players[i])) // a plan's JSON has no quote of its own
		}
	}
	return strings.Join(files, "") + fmt.Sprintf("pigclass simulate --game %s --target %d --players %s,%s --games %d --seed %s",
		e.Variant.Game, e.Variant.Target, players[0], players[1], e.Games, e.Seed)
}

// labPath draws how a run's share wandered: from the run just made, or
// replayed from its seed.
func (s *Server) labPath(c *gin.Context, q classroom.LabQuestion, e store.Experiment) (templates.Chart, error) {
	if r, ok := s.labRuns.take(e.ID); ok && r.Games == e.Games && r.Wins == e.Wins {
		return charts.LabPath(loc(c), r), nil
	}
	first, second, err := s.views.labStrategies(q)
	if err != nil {
		return templates.Chart{}, err
	}
	// A run taken within its budget replays within twice it.
	r, err := s.simulateLab(c.Request.Context(), e.ClassID, 2*s.labBudget(), q, first, second, e.Games, e.Seed)
	if err != nil {
		return templates.Chart{}, err
	}
	return charts.LabPath(loc(c), r), nil
}

// runExperiment runs a student's experiment of a lab question (the form's,
// else the teacher's): N games with a seed drawn now (and shown), stored,
// and the page again with its path.
func (s *Server) runExperiment(c *gin.Context) {
	class, me, ok := s.studentOf(c)
	if !ok {
		return
	}
	l := loc(c)
	v := templates.LabPage{Code: class.Code, Games: s.views.labGames(class.Class), Min: sim.MinExperiment, Max: sim.MaxExperiment}
	q, own, asked, problem := labAsked(c, class)
	n, err := strconv.Atoi(c.PostForm("games"))
	switch {
	case problem != "":
		v.Error = problem // the question cannot be asked: the words say why
	case !asked:
		v.Error = l.T("lab.error.none")
	case err != nil || n < sim.MinExperiment || n > sim.MaxExperiment:
		v.Error = l.T("lab.error.games", "Min", l.Int(sim.MinExperiment), "Max", l.Int(sim.MaxExperiment))
	}
	// A student's runs are bounded, a minute's and the class's (issue 79).
	if v.Error == "" {
		v.Error = s.labRunsLeft(c, class.ID, me.ID)
	}
	// A refused question costs nothing: its strategies (perfect play's
	// table) are made only for a question the lab takes (issue 79).
	var first, second sim.Strategy
	if v.Error == "" {
		var serr error
		first, second, serr = s.views.labStrategies(q)
		switch {
		case errors.Is(serr, solve.ErrSolving):
			v.Error = l.T("lab.error.solving")
		case serr != nil:
			fail(c, serr)
			return
		}
	}
	if v.Error != "" {
		s.drawLab(c, class, me, &v)
		return
	}
	seed := s.cfg.Chance.Seed().String()[:16]
	r, err := s.simulateLab(c.Request.Context(), class.ID, s.labBudget(), q, first, second, n, seed)
	switch {
	case errors.Is(err, errLabBudget):
		v.Error = l.T("lab.error.budget", "Games", l.Int(n), "Seconds", l.Dec(s.labBudget().Seconds(), 1))
		s.drawLab(c, class, me, &v)
		return
	case err != nil:
		fail(c, err)
		return
	}
	e, err := s.room.AddExperiment(c.Request.Context(), viewerFrom(c), store.Experiment{Variant: q.Variant, First: q.First, Second: q.Second, Games: n, Wins: r.Wins, Seed: seed})
	if err != nil {
		fail(c, err)
		return
	}
	s.labRuns.put(e.ID, r)
	c.Redirect(http.StatusSeeOther, labURL(class.Code, q, own, e.ID))
}
