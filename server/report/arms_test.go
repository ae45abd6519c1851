package report

import (
	"math"
	"testing"

	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
)

// armGames are n students' games, the first half free, each student's
// cost per game drawn from costs in turn (two games each).
func armGames(costs []float64) []store.ArmGame {
	var out []store.ArmGame
	for i, c := range costs {
		arm := play.Free
		if i%2 == 1 {
			arm = play.Committed
		}
		id := int64(i + 1)
		out = append(out, store.ArmGame{StudentID: id, MatchID: int64(2*i + 1), Arm: arm, Cost: c - 1, Decisions: 5},
			store.ArmGame{StudentID: id, MatchID: int64(2*i + 2), Arm: arm, Cost: c + 1, Decisions: 5})
	}
	return out
}

// exactP is the randomization test's p-value over every way of labelling
// the students with as many committed as there were: by enumeration of
// the subsets, not by reshuffles.
func exactP(costs []float64, committed []bool) float64 {
	k := 0
	for _, c := range committed {
		if c {
			k++
		}
	}
	obs := ArmsDiff(costs, committed)
	var all, far int
	labels := make([]bool, len(costs))
	for mask := 0; mask < 1<<len(costs); mask++ {
		ones := 0
		for i := range costs {
			labels[i] = mask&(1<<i) != 0
			if labels[i] {
				ones++
			}
		}
		if ones != k {
			continue
		}
		all++
		if sim.AsFar(ArmsDiff(costs, labels), obs) {
			far++
		}
	}
	return float64(far) / float64(all)
}

// TestArmsMatchesEnumeration: the reshuffled p-value is within 4 standard
// errors of the exact one, every label assignment counted; the means are
// the students' means per game, and the same seed replays the same test.
func TestArmsMatchesEnumeration(t *testing.T) {
	costs := []float64{3.1, 2.2, 4.4, 0.8, 2.9, 3.0, 5.3, 1.1, 1.2, 2.0, 4.1, 3.4}
	games := armGames(costs)
	got, ok := CompareArms(games, ArmsShuffles, 7)
	if !ok {
		t.Fatal("not tested")
	}
	var free, comm float64
	for i, c := range costs {
		if i%2 == 1 {
			comm += c
		} else {
			free += c
		}
	}
	free, comm = free/6, comm/6
	if math.Abs(got.Mean[0]-free) > 1e-12 || math.Abs(got.Mean[1]-comm) > 1e-12 || math.Abs(got.Diff-(comm-free)) > 1e-12 {
		t.Errorf("means %v diff %v, want %v %v", got.Mean, got.Diff, [2]float64{free, comm}, comm-free)
	}
	if got.Students != [2]int{6, 6} || got.Games != [2]int{12, 12} || len(got.Diffs) != ArmsShuffles {
		t.Errorf("students %v games %v diffs %d", got.Students, got.Games, len(got.Diffs))
	}
	c, labels, _ := StudentCosts(games)
	p := exactP(c, labels)
	if se := math.Sqrt(p * (1 - p) / ArmsShuffles); math.Abs(got.P-p) > 4*se {
		t.Errorf("p = %v, the enumeration's %v (sd %v)", got.P, p, se)
	}
	if p < 0.01 || p > 0.99 {
		t.Errorf("the example's exact p %v tests nothing", p)
	}
	again, _ := CompareArms(games, ArmsShuffles, 7)
	if again.AtLeast != got.AtLeast {
		t.Errorf("the same seed gave %d then %d", got.AtLeast, again.AtLeast)
	}
	if _, ok := CompareArms(games[:2], ArmsShuffles, 7); ok {
		t.Error("one arm alone was tested")
	}
}

// BenchmarkArmsTest: the randomization test's 10,000 reshuffles for a
// class of 30 (issue 62: under a second).
func BenchmarkArmsTest(b *testing.B) {
	costs := make([]float64, 30)
	for i := range costs {
		costs[i] = float64(i%7) + 0.25*float64(i%3)
	}
	games := armGames(costs)
	for b.Loop() {
		CompareArms(games, ArmsShuffles, 1)
	}
}
