package server

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/http"
	"strings"
	"sync"

	"github.com/gin-gonic/gin"

	"pigclass/lessons"
	"pigclass/server/charts"
	"pigclass/server/classroom"
	"pigclass/server/i18n"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
)

// loadLessons reads and checks the lesson plans.
func (s *Server) loadLessons() error {
	r := lessons.Rules{Charts: map[string]bool{}, Figures: map[string]bool{}}
	for _, k := range charts.ClassKeys {
		r.Charts[k] = true
	}
	for f := range figureVariants {
		r.Figures[f] = true
	}
	r.Strategy = solve.CheckStrategy
	ls, err := lessons.Load(r)
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	s.lessons = ls
	// The tables a lesson reads stay whatever the cache's budget.
	for _, v := range figureVariants {
		s.tables.Pin(v, v.EqualTurns)
	}
	for _, l := range ls {
		for _, p := range l.Phases {
			if p.Plays() {
				s.tables.Pin(p.Variant, p.Variant.EqualTurns)
			}
		}
	}
	return nil
}

// lesson returns the lesson with a slug.
func (s *Server) lesson(slug string) (lessons.Lesson, bool) {
	for _, l := range s.lessons {
		if l.Slug == slug {
			return l, true
		}
	}
	return lessons.Lesson{}, false
}

// lessonChoices are the lessons offered on the front page.
func (s *Server) lessonChoices(l *i18n.Localizer) []templates.Choice {
	out := []templates.Choice{{Value: "", Label: l.T("lesson.none"), Selected: true}}
	for _, ls := range s.lessons {
		t := ls.In(l.Lang())
		out = append(out, templates.Choice{Value: ls.Slug, Label: l.T("lesson.choice", "Title", l.Own(t.Title), "Level", l.Own(t.Level), "N", l.Int(ls.Minutes))})
	}
	return out
}

// figures are the lessons' numbers, computed by the solver once.
type figures struct {
	once   sync.Once
	values map[string]figure
	err    error
}

var lessonFigures figures

// figure is one computed number and how it is written.
type figure struct {
	x      float64
	format func(l *i18n.Localizer, x float64) string
}

func pctFigure(p float64) figure {
	return figure{p, func(l *i18n.Localizer, x float64) string { return l.Pct(x, 2) }}
}

func decFigure(x float64, digits int) figure {
	return figure{x, func(l *i18n.Localizer, x float64) string { return l.Dec(x, digits) }}
}

func intFigure(n int) figure {
	return figure{float64(n), func(l *i18n.Localizer, x float64) string { return l.Int(int(x)) }}
}

// figures computes every figure a lesson may name, written in the
// reader's format (53.06% or 53,06 %).
func (s *Server) figures(l *i18n.Localizer) (map[string]string, error) {
	lessonFigures.once.Do(func() { lessonFigures.values, lessonFigures.err = allFigures(s.tables) })
	if lessonFigures.err != nil {
		return nil, lessonFigures.err
	}
	out := make(map[string]string, len(lessonFigures.values))
	for k, f := range lessonFigures.values {
		out[k] = f.format(l, f.x)
	}
	return out, nil
}

// allFigures computes the figures of every game.
func allFigures(tables *solve.Cache) (map[string]figure, error) {
	figs, err := computeFigures(tables)
	if err != nil {
		return nil, err
	}
	pigs, err := passPigsFigures(tables)
	maps.Copy(figs, pigs)
	return figs, err
}

func computeFigures(tables *solve.Cache) (map[string]figure, error) {
	pig := sim.Standard(sim.Pig)
	t, err := tables.Get(pig)
	if err != nil {
		return nil, err
	}
	fifty := pig
	fifty.Target = 50
	t50, err := tables.Get(fifty)
	if err != nil {
		return nil, err
	}
	equal := pig
	equal.EqualTurns = true
	te, err := tables.GetEqual(equal)
	if err != nil {
		return nil, err
	}
	equal50 := fifty
	equal50.EqualTurns = true
	te50, err := tables.GetEqual(equal50)
	if err != nil {
		return nil, err
	}
	th, err := tables.Get(sim.Standard(sim.Hog))
	if err != nil {
		return nil, err
	}
	three := fifty
	three.Seats = 3
	m3, err := tables.MultiWait(three)
	if err != nil {
		return nil, err
	}
	win3 := m3.FirstPlayerWin()
	holds, win := t.HoldDistribution(0, 0, sim.HoldAt(20))
	zero, points := 1-win, 0.0
	for k, p := range holds {
		zero -= p
		points += float64(k) * p
	}
	opt := solve.Optimal{T: t}
	duel, err1 := solve.Duel(pig, sim.HoldAt(20), sim.HoldAt(20))
	optFirst, err2 := solve.Duel(pig, opt, sim.HoldAt(20))
	if err := errors.Join(err1, err2); err != nil {
		return nil, err
	}
	ev := solve.NewEVPlay(sim.Standard(sim.TwoDice))
	sitFrom := func(score int) int {
		k := 0
		for ev.Decide(sim.Position{Variant: sim.Standard(sim.TwoDice), Score: score, TurnTotal: k}) == sim.Roll {
			k++
		}
		return k
	}
	sit0, sit50 := sitFrom(0), sitFrom(50)
	return map[string]figure{
		"pig.first":      pctFigure(t.FirstPlayerWin()),
		"pig.states":     intFigure(t.States()),
		"pig50.first":    pctFigure(t50.FirstPlayerWin()),
		"pig3.first":     pctFigure(win3[0]),
		"pig3.second":    pctFigure(win3[1]),
		"pig3.third":     pctFigure(win3[2]),
		"equal.first":    pctFigure(te.FirstPlayerWin()),
		"equal50.first":  pctFigure(te50.FirstPlayerWin()),
		"rule.hold70":    intFigure(FirstHold(t, 70, 0)),
		"rule.race70":    intFigure(RaceFrom(t, 70)),
		"hold20.zero":    pctFigure(zero),
		"hold20.points":  decFigure(points, 2),
		"hold20.duel":    pctFigure(duel),
		"optimal.hold20": pctFigure(optFirst),
		"hold20.second":  pctFigure(1 - optFirst),
		"hog.five":       decFigure(sim.ExpectedGain(sim.Hog, 0, 0, 5), 2),
		"hog.ten":        decFigure(sim.ExpectedGain(sim.Hog, 0, 0, 10), 2),
		"hog.first":      pctFigure(th.FirstPlayerWin()),
		"ci30.half":      decFigure(100*wilsonHalf(t50.FirstPlayerWin(), 30), 1),
		"skunk.stand": {0, func(l *i18n.Localizer, _ float64) string {
			return l.T("figure.skunk_stand", "Zero", l.Int(sit0), "Fifty", l.Int(sit50))
		}},
	}, nil
}

// passPigsFigures are the figures of Pass the Pigs to 100: its roll from
// Kern's chances, the hold value that maximises one turn (by the direct
// sum over the turn's totals), perfect play's first hold and the first
// player's chance; and Pig's roll, which its lesson compares.
func passPigsFigures(tables *solve.Cache) (map[string]figure, error) {
	v := sim.Standard(sim.PassPigs)
	t, err := tables.Get(v)
	if err != nil {
		return nil, err
	}
	best, bestPoints := 0, 0.0
	for n := 1; n < v.Target; n++ {
		holds, _ := t.HoldDistribution(0, 0, sim.HoldAt(n))
		points := 0.0
		for k, p := range holds {
			points += float64(k) * p
		}
		if points > bestPoints {
			best, bestPoints = n, points
		}
	}
	outcomes, total := v.Game.Rules().Outcomes(v.Game.Dice())
	lost := 0.0 // a roll's chance of losing the turn total
	for _, o := range outcomes {
		if o.Effect != sim.Adds {
			lost += float64(o.Weight) / float64(total)
		}
	}
	return map[string]figure{
		"pigs.first": pctFigure(t.FirstPlayerWin()),
		"pigs.roll":  decFigure(sim.ExpectedGain(sim.PassPigs, 0, 0, 2), 2),
		"pigs.lose":  pctFigure(lost),
		"pigs.hold":  intFigure(best),
		"pigs.turn":  decFigure(bestPoints, 2),
		"pigs.best":  intFigure(FirstHold(t, 0, 0)),
		"pig.roll":   decFigure(sim.ExpectedGain(sim.Pig, 0, 0, 1), 2), // Pig's roll, which the lesson compares
	}, nil
}

// FirstHold is the turn total at which perfect play, on score i against j,
// first holds (the target minus i if it never does).
func FirstHold(t *solve.Table, i, j int) int {
	for k := 0; i+k < t.Variant().Target; k++ {
		if t.Advise(i, j, k).Best == sim.Hold {
			return k
		}
	}
	return t.Variant().Target - i
}

// RaceFrom is the lowest opponent's score from which perfect play on score
// i rolls on until it wins, whatever it has rolled this turn.
func RaceFrom(t *solve.Table, i int) int {
	target := t.Variant().Target
	j := target - 1
	for j > 0 && FirstHold(t, i, j-1) == target-i {
		j--
	}
	return j
}

// figureVariants is the game each figure is computed for: a lesson states
// a figure only where one of its phases plays that game, or the sentence
// names it (TestFiguresFitTheirLesson).
var figureVariants = map[string]sim.Variant{}

func init() {
	pig, hog, pigs := sim.Standard(sim.Pig), sim.Standard(sim.Hog), sim.Standard(sim.PassPigs)
	fifty := pig
	fifty.Target = 50
	equal, equal50 := pig, fifty
	equal.EqualTurns, equal50.EqualTurns = true, true
	three := fifty
	three.Seats = 3
	for name, v := range map[string]sim.Variant{
		"pig3.first": three, "pig3.second": three, "pig3.third": three,
		"pig.first": pig, "pig.states": pig, "pig50.first": fifty, "equal.first": equal, "equal50.first": equal50,
		"hold20.zero": pig, "hold20.points": pig, "hold20.duel": pig, "optimal.hold20": pig, "hold20.second": pig,
		"hog.five": hog, "hog.ten": hog, "hog.first": hog, "ci30.half": pig, "rule.hold70": pig, "rule.race70": pig,
		"skunk.stand": sim.Standard(sim.TwoDice), "pig.roll": pig,
		"pigs.first": pigs, "pigs.roll": pigs, "pigs.lose": pigs, "pigs.hold": pigs, "pigs.turn": pigs, "pigs.best": pigs,
	} {
		figureVariants[name] = v
	}
}

// lessonView is the class's lesson at its phase, figures filled in.
// The words are the lesson's in the reader's language (English when it
// has no translation), the numbers in the reader's format.
func (s *Server) lessonView(lc *i18n.Localizer, class store.Class) (*templates.LessonView, error) {
	l, ok := s.lesson(class.Lesson)
	if !ok {
		return nil, nil
	}
	figs, err := s.figures(lc)
	if err != nil {
		return nil, err
	}
	at := min(class.Phase, len(l.Phases)-1)
	phase, text := l.Phases[at], l.In(lc.Lang())
	v := &templates.LessonView{Code: class.Code, Title: lc.Own(text.Title), Level: lc.Own(text.Level), Minutes: l.Minutes,
		Phase: class.Phase, Phases: len(l.Phases), PhaseName: lc.Own(text.Phases[at].Name), Charts: phase.Charts, Setup: phaseSetup(lc, phase)}
	for _, g := range text.Goals {
		v.Goals = append(v.Goals, lc.Own(g))
	}
	for _, m := range text.Maths {
		v.Maths = append(v.Maths, lc.Own(lessons.Fill(m, figs)))
	}
	for _, p := range text.Phases[at].Prompts {
		v.Prompts = append(v.Prompts, lc.Own(lessons.Fill(p, figs)))
	}
	v.StartLabel = lc.T("lesson.start_phase", "N", lc.Int(at+1), "Name", v.PhaseName)
	if at+1 < len(l.Phases) {
		v.NextLabel = lc.T("lesson.start_phase", "N", lc.Int(at+2), "Name", lc.Own(text.Phases[at+1].Name))
	}
	return v, nil
}

// phaseSetup describes what a phase plays.
func phaseSetup(l *i18n.Localizer, p lessons.Phase) string {
	switch p.Game {
	case "none":
		return l.T("lesson.setup.none")
	case "skunk":
		return l.T("lesson.setup.skunk", "N", l.Int(p.Rounds))
	}
	return l.T("lesson.setup.game", "Game", gameTitle(l, p.Variant), "Against", against(l, store.Mode(p.Mode), p.Bot, p.Variant))
}

// against says whom a round's students play.
func against(l *i18n.Localizer, mode store.Mode, bot string, v sim.Variant) string {
	seats := v.Seats
	id := "against.bot"
	if mode == store.InPairs {
		id = "against.pairs"
	}
	if seats > 2 {
		id += "_seats"
	}
	return l.T(id, "Bot", botLabel(l, bot, v.Game.Rules().HoldAt), "N", l.Int(seats))
}

// applyPhase moves a class to a phase of its lesson, as one operation of
// the room: the phase's round starts (when students have joined), or its
// game of Skunk, and the projector shows its first chart.
func (s *Server) applyPhase(ctx context.Context, lc *i18n.Localizer, v classroom.Viewer, phase int) (string, error) {
	class := v.Class()
	l, ok := s.lesson(class.Lesson)
	if !ok || phase < 0 || phase >= len(l.Phases) {
		return "", store.ErrNotFound
	}
	p := l.Phases[phase]
	start := classroom.PhaseStart{Lesson: class.Lesson, Phase: phase}
	if len(p.Charts) > 0 {
		start.Chart = p.Charts[0]
	}
	switch {
	case p.Plays():
		start.Round = &classroom.RoundSpec{Variant: p.Variant, Mode: store.Mode(p.Mode), Bot: p.Bot, SameSeed: p.SameSeed}
	case p.Game == "skunk":
		start.Skunk = p.Rounds
	}
	round, n, err := s.room.StartPhase(ctx, v, start)
	note := lc.T("notice.phase", "N", lc.Int(phase+1), "Name", lc.Own(l.In(lc.Lang()).Phases[phase].Name))
	switch {
	case errors.Is(err, classroom.ErrNoStudents):
		return note + " " + lc.T("notice.nostudents_phase"), nil
	case err != nil:
		return "", err
	case start.Round != nil:
		note += " " + lc.N("notice.round_started", n, "Round", lc.Int(round.Number))
	case start.Skunk > 0:
		note += " " + lc.T("notice.skunk_started")
	}
	return note, nil
}

// stepLesson moves the class's lesson by delta phases (0: start the
// current phase again).
func (s *Server) stepLesson(delta int) gin.HandlerFunc {
	return func(c *gin.Context) {
		class := classFrom(c)
		if class.Lesson == "" {
			refuse(c, http.StatusConflict, loc(c).T("error.nolesson"))
			return
		}
		note, err := s.applyPhase(c.Request.Context(), loc(c), viewerFrom(c), class.Phase+delta)
		if err != nil {
			fail(c, err)
			return
		}
		done(c, class.Code, note)
	}
}

// checkLessonField reads the front page's lesson field.
func (s *Server) checkLessonField(v string) (string, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", true
	}
	_, ok := s.lesson(v)
	return v, ok
}

// wilsonHalf is the half-width of the 95% Wilson interval the
// first-player chart draws, for a share p observed in n games: what a
// lesson can say a class's estimate is "about, either side".
func wilsonHalf(p float64, n int) float64 {
	const z = 1.959963984540054
	nf := float64(n)
	return z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / (1 + z*z/nf)
}
