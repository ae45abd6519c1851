package report

import (
	"math"
	"testing"

	"pigclass/server/store"
	"pigclass/sim"
)

// dayOf is a day's analysed decisions, game by game, summed as the store
// sums them (DayCosts: per game, then per day).
func dayOf(day string, games ...[]float64) store.DayCost {
	d := store.DayCost{Day: day, Games: len(games)}
	seen := map[int64]bool{}
	for _, g := range games {
		total := 0.0
		for _, c := range g {
			total += c
			d.Decisions++
		}
		d.Cost += total
		d.GameCost2 += total * total
		seen[int64(math.Round(total*1e9))] = true
	}
	d.Distinct = len(seen)
	return d
}

// meanSD is the mean and sample standard deviation of each game's total,
// worked out one by one (not from sums).
func meanSD(games [][]float64) (mean, sd float64) {
	var totals []float64
	for _, g := range games {
		t := 0.0
		for _, c := range g {
			t += c
		}
		totals = append(totals, t)
		mean += t
	}
	mean /= float64(len(totals))
	for _, t := range totals {
		sd += (t - mean) * (t - mean)
	}
	return mean, math.Sqrt(sd / float64(len(totals)-1))
}

// TestProgressCountsGames (issue 43, item 6): a day's figure is its mean
// cost per game with a t interval from the games' spread (checked
// against the mean and deviation taken game by game and the published t
// quantiles: 2.776 for 4 degrees of freedom, 2.228 for 10); the change
// is Welch's; a day of one game, of games all alike (all zero, say) or of
// two games claims nothing and makes no verdict; a range below 0 is cut
// and says so; a change of exactly 0 is no change.
func TestProgressCountsGames(t *testing.T) {
	first := [][]float64{{0.02, 0.01, 0}, {0.05, 0}, {0.03, 0.02, 0.01}, {0.08}, {0.04, 0.01}}                                  // 5 games
	last := [][]float64{{0}, {0.01}, {0, 0.005}, {0.02}, {0, 0}, {0.01, 0.002}, {0.004}, {0}, {0.012}, {0.003, 0.003}, {0.001}} // 11 games
	p := progressOf([]store.DayCost{dayOf("2026-11-29", first...), dayOf("2026-12-06", last...)})
	for i, c := range []struct {
		games [][]float64
		t     float64
	}{{first, 2.776}, {last, 2.228}} {
		mean, sd := meanSD(c.games)
		half := c.t * sd / math.Sqrt(float64(len(c.games)))
		d := p.Days[i]
		if !d.Told || math.Abs(d.PerGame-mean) > 1e-12 || math.Abs(d.Hi-(mean+half)) > 1e-4 || math.Abs(d.Lo-max(0, mean-half)) > 1e-4 || d.Cut != (mean-half < 0) {
			t.Errorf("day %d: %.5f [%.5f, %.5f] cut %v, want %.5f ± %.5f", i, d.PerGame, d.Lo, d.Hi, d.Cut, mean, half)
		}
	}
	// Three costless games and one of 10 points: 2.5 ± 3.182 × 5 / 2
	// points reaches below 0, cut there, and said to be.
	if d := progressOf([]store.DayCost{dayOf("e", []float64{0}, []float64{0}, []float64{0, 0}, []float64{0.1})}).Days[0]; !d.Told || !d.Cut || d.Lo != 0 || math.Abs(d.Hi-(0.025+3.182*0.05/2)) > 1e-4 {
		t.Errorf("a range below 0: cut %v [%v, %v]", d.Cut, d.Lo, d.Hi)
	}
	// Welch's interval, worked out here from the games.
	m1, s1 := meanSD(first)
	m2, s2 := meanSD(last)
	v1, v2 := s1*s1/5, s2*s2/11
	df := (v1 + v2) * (v1 + v2) / (v1*v1/4 + v2*v2/10)
	half := sim.StudentT975(df) * math.Sqrt(v1+v2)
	if !p.Compared || !p.Judged || math.Abs(p.Change-(m2-m1)) > 1e-12 || math.Abs(p.ChangeLo-(m2-m1-half)) > 1e-9 || math.Abs(p.ChangeHi-(m2-m1+half)) > 1e-9 {
		t.Errorf("the change: %.5f [%.5f, %.5f], want %.5f ± %.5f (df %.2f)", p.Change, p.ChangeLo, p.ChangeHi, m2-m1, half, df)
	}
	if p.Sure != (m2-m1+half < 0) {
		t.Errorf("sure %v for the interval [%.5f, %.5f]", p.Sure, p.ChangeLo, p.ChangeHi)
	}
	// Days that tell nothing: all zero, all alike, two games, one game.
	zero := dayOf("a", []float64{0, 0}, []float64{0}, []float64{0, 0, 0})
	alike := dayOf("b", []float64{0.02}, []float64{0.01, 0.01}, []float64{0.02})
	two := dayOf("c", []float64{0.02}, []float64{0.06})
	one := dayOf("d", []float64{0.03})
	for _, d := range []store.DayCost{zero, alike, two, one} {
		got := progressOf([]store.DayCost{d}).Days[0]
		if got.Told || got.Lo != got.PerGame || got.Hi != got.PerGame {
			t.Errorf("day %s of %d games, %d different: told %v [%v, %v]", d.Day, d.Games, d.Distinct, got.Told, got.Lo, got.Hi)
		}
	}
	// Two such days with different means: a change, no verdict.
	untold := progressOf([]store.DayCost{zero, alike})
	if !untold.Compared || untold.Judged || untold.Sure || untold.Change <= 0 {
		t.Errorf("two days that tell nothing: %+v", untold)
	}
	// The same games on two days: no change.
	same := progressOf([]store.DayCost{dayOf("x", first...), dayOf("y", first...)})
	if same.Change != 0 || same.Sure {
		t.Errorf("the same games twice: change %v, sure %v", same.Change, same.Sure)
	}
	// Homework is a line of its own, and the change compares class days.
	hw := dayOf("2026-11-29", []float64{0.2})
	hw.Homework = true
	mixed := progressOf([]store.DayCost{dayOf("2026-11-29", first...), hw, dayOf("2026-12-06", last...)})
	if len(mixed.Days) != 3 || !mixed.Days[1].Homework || mixed.Change != p.Change || mixed.ChangeFrom.Day != "2026-11-29" || mixed.ChangeFrom.Homework {
		t.Errorf("with homework between: %d days, change %.4f (want %.4f) from %+v", len(mixed.Days), mixed.Change, p.Change, mixed.ChangeFrom)
	}
}
