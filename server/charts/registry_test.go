package charts

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates/i18n"
)

// emptySource is a class with nothing played yet.
type emptySource struct{ l *i18n.Localizer }

func (s emptySource) Localizer() *i18n.Localizer                     { return s.l }
func (emptySource) Student() int64                                   { return 0 }
func (emptySource) PigTable() *solve.Table                           { return nil }
func (emptySource) PigDecisions(int64) ([]store.Decision, error)     { return nil, nil }
func (emptySource) Decisions() ([]store.Decision, error)             { return nil, nil }
func (emptySource) GameDecisions(sim.Game) ([]store.Decision, error) { return nil, nil }
func (emptySource) Name(store.Decision) string                       { return "" }
func (emptySource) Marks(string) (store.Thrown, error)               { return store.Thrown{}, nil }
func (emptySource) SkunkDecisions() ([]store.SkunkDecision, error)   { return nil, nil }
func (emptySource) Rounds() ([]play.Round, error)                    { return nil, nil }
func (emptySource) FirstPlayer() ([]FirstResults, error)             { return nil, nil }
func (emptySource) Ladder() []Rung                                   { return nil }
func (emptySource) Mysteries() ([]store.MysterySeat, error)          { return nil, nil }
func (emptySource) Progress() (ProgressData, error)                  { return ProgressData{}, nil }
func (emptySource) Lab() (LabData, error)                            { return LabData{}, nil }
func (emptySource) Arms() (ArmsData, error)                          { return ArmsData{}, nil }

// TestEveryChartBuilds: every chart of the registry builds from a class
// with nothing played, under its own key, with its words in every
// language; a key that names none is refused.
func TestEveryChartBuilds(t *testing.T) {
	for _, lang := range []string{"en", "es"} {
		src := emptySource{i18n.For(lang)}
		for _, key := range ClassKeys {
			c, err := Build(key, src)
			if err != nil || c.Key != key || c.Title == "" || strings.HasPrefix(c.Title, "chart.") || c.Caption == "" {
				t.Errorf("%s (%s): %v, %+v", key, lang, err, c)
			}
		}
	}
	if _, err := Build("made-up", emptySource{en}); !errors.Is(err, ErrNoChart) {
		t.Errorf("a made-up chart: %v", err)
	}
}

// TestEveryGameChartHasItsGame: a chart of one game's throws alone is
// named by exactly one game's rules (GameRules.Charts), and a game names
// only charts there are; so no chart names a game in code.
func TestEveryGameChartHasItsGame(t *testing.T) {
	named := map[string]int{}
	for _, g := range sim.Games {
		for _, key := range g.Rules().Charts {
			named[key]++
			if !slices.Contains(ClassKeys, key) {
				t.Errorf("%s names chart %q, which is no class chart", g, key)
			}
		}
	}
	for _, key := range []string{HogDiceKey, HogCurveKey, PigLandingsKey} {
		if named[key] != 1 {
			t.Errorf("chart %q is named by %d games' rules, want 1", key, named[key])
		}
	}
	if g := gameOf(PigLandingsKey); g.Rules().Piece.Look != sim.LookPig {
		t.Errorf("the pig landings read %s's throws", g)
	}
}
