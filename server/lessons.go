package server

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync"

	"github.com/gin-gonic/gin"

	"pigclass/lessons"
	"pigclass/server/charts"
	"pigclass/server/classroom"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
)

// loadLessons reads and checks the lesson plans.
func (s *Server) loadLessons() error {
	r := lessons.Rules{Charts: map[string]bool{}, Figures: map[string]bool{}}
	for k := range charts.Titles {
		r.Charts[k] = true
	}
	for f := range figureVariants {
		r.Figures[f] = true
	}
	r.Strategy = func(name string, v sim.Variant) error {
		_, err := solve.ParseStrategy(name, v, s.tables)
		return err
	}
	ls, err := lessons.Load(r)
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	s.lessons = ls
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
func (s *Server) lessonChoices() []templates.Choice {
	out := []templates.Choice{{Value: "", Label: "No lesson: I will run rounds myself", Selected: true}}
	for _, l := range s.lessons {
		out = append(out, templates.Choice{Value: l.Slug, Label: fmt.Sprintf("%s (%s, %d minutes)", l.Title, l.Level, l.Minutes)})
	}
	return out
}

// figures are the lessons' numbers, computed by the solver once.
type figures struct {
	once   sync.Once
	values map[string]string
	err    error
}

var lessonFigures figures

// figures computes every figure a lesson may name.
func (s *Server) figures() (map[string]string, error) {
	lessonFigures.once.Do(func() { lessonFigures.values, lessonFigures.err = computeFigures(s.tables) })
	return lessonFigures.values, lessonFigures.err
}

func computeFigures(tables *solve.Cache) (map[string]string, error) {
	pct := func(p float64) string { return fmt.Sprintf("%.2f%%", 100*p) }
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
	return map[string]string{
		"pig.first":      pct(t.FirstPlayerWin()),
		"pig.states":     fmt.Sprintf("%d,%03d", t.States()/1000, t.States()%1000),
		"pig50.first":    pct(t50.FirstPlayerWin()),
		"equal.first":    pct(te.FirstPlayerWin()),
		"equal50.first":  pct(te50.FirstPlayerWin()),
		"rule.hold70":    fmt.Sprint(FirstHold(t, 70, 0)),
		"rule.race70":    fmt.Sprint(RaceFrom(t, 70)),
		"hold20.zero":    pct(zero),
		"hold20.points":  fmt.Sprintf("%.2f", points),
		"hold20.duel":    pct(duel),
		"optimal.hold20": pct(optFirst),
		"hold20.second":  pct(1 - optFirst),
		"hog.five":       fmt.Sprintf("%.2f", sim.ExpectedGain(sim.Hog, 0, 0, 5)),
		"hog.ten":        fmt.Sprintf("%.2f", sim.ExpectedGain(sim.Hog, 0, 0, 10)),
		"hog.first":      pct(th.FirstPlayerWin()),
		"ci30.half":      fmt.Sprintf("%.1f", 100*1.959963984540054*math.Sqrt(t.FirstPlayerWin()*(1-t.FirstPlayerWin())/30)),
		"skunk.stand": fmt.Sprintf("Expected-value play stands while one more roll adds more on average than it risks (the round total, and the whole score on two 1s): with nothing banked it sits from a round total of %d, with 50 banked from %d.",
			sitFrom(0), sitFrom(50)),
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
	pig, hog := sim.Standard(sim.Pig), sim.Standard(sim.Hog)
	fifty := pig
	fifty.Target = 50
	equal, equal50 := pig, fifty
	equal.EqualTurns, equal50.EqualTurns = true, true
	for name, v := range map[string]sim.Variant{
		"pig.first": pig, "pig.states": pig, "pig50.first": fifty, "equal.first": equal, "equal50.first": equal50,
		"hold20.zero": pig, "hold20.points": pig, "hold20.duel": pig, "optimal.hold20": pig, "hold20.second": pig,
		"hog.five": hog, "hog.ten": hog, "hog.first": hog, "ci30.half": pig, "rule.hold70": pig, "rule.race70": pig,
		"skunk.stand": sim.Standard(sim.TwoDice),
	} {
		figureVariants[name] = v
	}
}

// lessonView is the class's lesson at its phase, figures filled in.
func (s *Server) lessonView(class store.Class) (*templates.LessonView, error) {
	l, ok := s.lesson(class.Lesson)
	if !ok {
		return nil, nil
	}
	figs, err := s.figures()
	if err != nil {
		return nil, err
	}
	phase := l.Phases[min(class.Phase, len(l.Phases)-1)]
	v := &templates.LessonView{Code: class.Code, Title: l.Title, Level: l.Level, Minutes: l.Minutes, Goals: l.Goals,
		Phase: class.Phase, Phases: len(l.Phases), PhaseName: phase.Name, Charts: phase.Charts, Setup: phaseSetup(phase)}
	for _, m := range l.Maths {
		v.Maths = append(v.Maths, lessons.Fill(m, figs))
	}
	for _, p := range phase.Prompts {
		v.Prompts = append(v.Prompts, lessons.Fill(p, figs))
	}
	return v, nil
}

// phaseSetup describes what a phase plays.
func phaseSetup(p lessons.Phase) string {
	switch p.Game {
	case "none":
		return "No round: discuss the charts."
	case "skunk":
		return fmt.Sprintf("Skunk for the whole room, %d rounds.", p.Rounds)
	}
	against := "each student against " + botLabel(p.Bot)
	if p.Mode == "pairs" {
		against = "students together (seats left over go to " + botLabel(p.Bot) + ")"
	}
	if p.Variant.Seats > 2 {
		against += fmt.Sprintf(", %d players a match", p.Variant.Seats)
	}
	return fmt.Sprintf("%s, %s.", gameTitle(p.Variant), against)
}

// applyPhase moves a class to a phase of its lesson: the phase's round
// starts (when students have joined) and the projector shows its first
// chart.
func (s *Server) applyPhase(ctx context.Context, class store.Class, phase int) (string, error) {
	l, ok := s.lesson(class.Lesson)
	if !ok || phase < 0 || phase >= len(l.Phases) {
		return "", store.ErrNotFound
	}
	if err := s.room.SetLesson(ctx, class.ID, class.Lesson, phase); err != nil {
		return "", err
	}
	p := l.Phases[phase]
	chart := ""
	if len(p.Charts) > 0 {
		chart = p.Charts[0]
	}
	if err := s.room.SetProjector(ctx, class.ID, chart); err != nil {
		return "", err
	}
	note := fmt.Sprintf("Phase %d: %s.", phase+1, p.Name)
	switch {
	case p.Plays():
		round, n, err := s.room.StartRound(ctx, class.ID, classroom.RoundSpec{Variant: p.Variant, Mode: p.Mode, Bot: p.Bot, SameSeed: p.SameSeed})
		if errors.Is(err, classroom.ErrNoStudents) {
			return note + " No students have joined yet: start the round once they have.", nil
		}
		if err != nil {
			return "", err
		}
		note += fmt.Sprintf(" Round %d started: %d matches.", round.Number, n)
	case p.Game == "skunk":
		if err := s.room.StartSkunk(ctx, class.ID, p.Rounds); err != nil {
			return "", err
		}
		note += " Skunk started: everyone stands."
	default:
		if err := s.room.EndRound(ctx, class.ID); err != nil {
			return "", err
		}
	}
	return note, nil
}

// stepLesson moves the class's lesson by delta phases (0: start the
// current phase again).
func (s *Server) stepLesson(delta int) gin.HandlerFunc {
	return func(c *gin.Context) {
		class := classFrom(c)
		if class.Lesson == "" {
			refuse(c, http.StatusConflict, "This class follows no lesson.")
			return
		}
		note, err := s.applyPhase(c.Request.Context(), class.Class, class.Phase+delta)
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
