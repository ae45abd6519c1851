package charts

import (
	"errors"
	"fmt"
	"slices"

	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
	"pigclass/templates/i18n"
)

// Source is what the class charts read, for one viewer of one class: the
// class's data (each read at most once by the server's Source), the
// solved Pig table the decision charts compare with, and the reader's
// words. Student is the student whose page it is, or 0 for the class.
type Source interface {
	Localizer() *i18n.Localizer
	Student() int64
	// PigTable is the table of the charts' Pig variant (the target the
	// class played most).
	PigTable() *solve.Table
	// PigDecisions are one student's decisions (0: everyone's) in that
	// variant; Decisions all the class's students' decisions; GameDecisions
	// the page's decisions of one game.
	PigDecisions(studentID int64) ([]store.Decision, error)
	Decisions() ([]store.Decision, error)
	GameDecisions(g sim.Game) ([]store.Decision, error)
	// Name labels a decision's student as the page shows them.
	Name(d store.Decision) string
	// Marks are what the class's pieces of one kind showed (GameRules'
	// Piece.Name), piece by piece: all, and entered by hand at tables.
	Marks(piece string) (store.Thrown, error)
	SkunkDecisions() ([]store.SkunkDecision, error)
	Rounds() ([]play.Round, error)
	// Mysteries are the class's mystery bots whose seed is published,
	// with their players' guesses.
	Mysteries() ([]store.MysterySeat, error)
	// Progress is the class's play day by day over the unit.
	Progress() (ProgressData, error)
	FirstPlayer() ([]FirstResults, error)
	// Ladder is the strategy ladder, nil while it is being computed.
	Ladder() []Rung
	// Lab is the class's lab: its question's runs.
	Lab() (LabData, error)
	// Arms is the class's experiment "Decide before you roll" compared.
	Arms() (ArmsData, error)
}

// entry is one class chart: its key and how it is built from a Source.
type entry struct {
	key   string
	build func(Source) (templates.Chart, error)
}

// registry is every class chart, in the order the dashboard offers them:
// a chart is added here, with its builder and its words, and nowhere else.
var registry = []entry{
	{HoldPointsKey, holdPoints},
	{DecisionMapKey, func(s Source) (templates.Chart, error) {
		ds, err := s.PigDecisions(s.Student())
		return DecisionMap(s.Localizer(), ds, s.PigTable()), err
	}},
	{SkillLuckKey, func(s Source) (templates.Chart, error) {
		ds, err := s.Decisions()
		return SkillLuck(s.Localizer(), ds, s.Name, s.Student() != 0), err
	}},
	{DiceKey, func(s Source) (templates.Chart, error) {
		faces, err := s.Marks(sim.DieName)
		return ClassDice(s.Localizer(), faces), err
	}},
	{OnesKey, func(s Source) (templates.Chart, error) {
		faces, err := s.Marks(sim.DieName)
		return ShareOfOnes(s.Localizer(), faces.All), err
	}},
	{HogDiceKey, func(s Source) (templates.Chart, error) {
		ds, err := s.GameDecisions(gameOf(HogDiceKey))
		return HogDice(s.Localizer(), ds), err
	}},
	{HogCurveKey, hogCurve},
	{FirstPlayerKey, func(s Source) (templates.Chart, error) {
		results, err := s.FirstPlayer()
		return FirstPlayer(s.Localizer(), results), err
	}},
	{LadderKey, func(s Source) (templates.Chart, error) { return Ladder(s.Localizer(), s.Ladder()), nil }},
	{SkunkSitsKey, func(s Source) (templates.Chart, error) {
		ds, err := s.SkunkDecisions()
		return SkunkSits(s.Localizer(), ds), err
	}},
	{PigLandingsKey, func(s Source) (templates.Chart, error) {
		g := gameOf(PigLandingsKey)
		marks, err := s.Marks(g.Rules().Piece.Name)
		return PigLandings(s.Localizer(), g, marks), err
	}},
	{ProgressKey, func(s Source) (templates.Chart, error) {
		data, err := s.Progress()
		return Progress(s.Localizer(), data), err
	}},
	{MysteryKey, func(s Source) (templates.Chart, error) {
		seats, err := s.Mysteries()
		return MysteryGuesses(s.Localizer(), seats), err
	}},
	{LabKey, func(s Source) (templates.Chart, error) {
		d, err := s.Lab()
		return Lab(s.Localizer(), d), err
	}},
	{LabSpreadKey, func(s Source) (templates.Chart, error) {
		d, err := s.Lab()
		return LabSpread(s.Localizer(), d), err
	}},
	{ArmsKey, func(s Source) (templates.Chart, error) {
		d, err := s.Arms()
		return Arms(s.Localizer(), d), err
	}},
}

// ClassKeys lists the class charts in order.
var ClassKeys = func() []string {
	keys := make([]string, len(registry))
	for i, e := range registry {
		keys[i] = e.key
	}
	return keys
}()

// ErrNoChart is Build's answer for a key that names no class chart.
var ErrNoChart = errors.New("charts: no such chart")

// Build builds the class chart key from src.
func Build(key string, src Source) (templates.Chart, error) {
	for _, e := range registry {
		if e.key == key {
			c, err := e.build(src)
			if err != nil {
				return templates.Chart{}, err
			}
			return c, nil
		}
	}
	return templates.Chart{}, fmt.Errorf("chart %q: %w", key, ErrNoChart)
}

// holdPoints is the class's hold points, or on a student's page theirs
// beside the class's.
func holdPoints(s Source) (templates.Chart, error) {
	ds, err := s.PigDecisions(s.Student())
	if err != nil || s.Student() == 0 {
		return HoldPoints(s.Localizer(), ds, s.PigTable()), err
	}
	class, err := s.PigDecisions(0)
	return MyHoldPoints(s.Localizer(), ds, class, s.PigTable()), err
}

// hogCurve is Hog's expected points, as far as the class's Hog rounds
// allowed (10 dice when none).
func hogCurve(s Source) (templates.Chart, error) {
	most := sim.DefaultMaxDice
	rounds, err := s.Rounds()
	for _, r := range rounds {
		if r.Variant.Game.ChoosesDice() && r.Variant.MaxDice > most {
			most = r.Variant.MaxDice
		}
	}
	return HogCurve(s.Localizer(), gameOf(HogCurveKey), most), err
}

// gameOf is the game whose throws alone the chart key reads (its rules
// name the chart: GameRules.Charts). A chart so named by no game, or by
// two, is a mistake of the games' files: TestEveryGameChartHasItsGame.
func gameOf(key string) sim.Game {
	for _, g := range sim.Games {
		if slices.Contains(g.Rules().Charts, key) {
			return g
		}
	}
	panic("charts: no game feeds chart " + key)
}
