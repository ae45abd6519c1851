package report

import (
	"math"
	"math/rand/v2"
	"testing"

	"pigclass/server/store"
)

// sumsOf is a day's costs as the store sums them.
func sumsOf(day string, games int, costs []float64) store.DayCost {
	d := store.DayCost{Day: day, Decisions: len(costs), Games: games}
	for _, c := range costs {
		d.Cost += c
		d.Cost2 += c * c
	}
	return d
}

// TestProgressFromSums: a day's mean and 95% interval worked out from the
// store's sums agree with the mean and sample deviation taken from the
// costs one by one; a clear drop from the first day to the last is more
// than chance, two days of the same choices are not (the interval of the change
// holds zero), and a lone decision has no interval.
func TestProgressFromSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	draw := func(n int, mean float64) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = max(0, mean+0.02*(rng.Float64()-0.5))
		}
		return out
	}
	first, last := draw(40, 0.05), draw(60, 0.01)
	p := progressOf([]store.DayCost{sumsOf("2026-11-29", 4, first), sumsOf("2026-12-06", 5, last)})
	for i, costs := range [][]float64{first, last} {
		mean, ss := 0.0, 0.0
		for _, c := range costs {
			mean += c
		}
		mean /= float64(len(costs))
		for _, c := range costs {
			ss += (c - mean) * (c - mean)
		}
		half := 1.96 * math.Sqrt(ss/float64(len(costs)-1)) / math.Sqrt(float64(len(costs)))
		d := p.Days[i]
		if math.Abs(d.PerDecision-mean) > 1e-12 || math.Abs(d.Hi-(mean+half)) > 1e-4 || math.Abs(d.Lo-max(0, mean-half)) > 1e-4 {
			t.Errorf("day %d: %.6f [%.6f, %.6f], want %.6f ± %.6f", i, d.PerDecision, d.Lo, d.Hi, mean, half)
		}
	}
	if p.Days[0].PerGame != sumsOf("", 4, first).Cost/4 {
		t.Errorf("per game: %v", p.Days[0].PerGame)
	}
	if !p.Compared || !p.Sure || p.Change >= 0 || p.ChangeHi >= 0 {
		t.Errorf("a drop from 5%% to 1%% a decision: change %.4f [%.4f, %.4f], sure %v", p.Change, p.ChangeLo, p.ChangeHi, p.Sure)
	}
	same := draw(20, 0.03)
	alike := progressOf([]store.DayCost{sumsOf("a", 2, same), sumsOf("b", 2, same[:15])})
	if alike.Sure || alike.ChangeLo > 0 || alike.ChangeHi < 0 {
		t.Errorf("two days alike: change %.4f [%.4f, %.4f] called sure", alike.Change, alike.ChangeLo, alike.ChangeHi)
	}
	// Homework is a line of its own, and the change compares class days.
	hw := sumsOf("2026-11-29", 1, draw(10, 0.2))
	hw.Homework = true
	mixed := progressOf([]store.DayCost{sumsOf("2026-11-29", 4, first), hw, sumsOf("2026-12-06", 5, last)})
	if len(mixed.Days) != 3 || !mixed.Days[1].Homework || mixed.Change != p.Change || mixed.ChangeFrom.Day != "2026-11-29" || mixed.ChangeFrom.Homework {
		t.Errorf("with homework between: %d days, change %.4f (want %.4f) from %+v", len(mixed.Days), mixed.Change, p.Change, mixed.ChangeFrom)
	}
	one := progressOf([]store.DayCost{sumsOf("a", 1, []float64{0.02})})
	if one.Compared || one.Days[0].Lo != 0.02 || one.Days[0].Hi != 0.02 {
		t.Errorf("a lone decision: %+v", one)
	}
}
