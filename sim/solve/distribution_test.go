package solve

import (
	"math"
	"testing"

	"pigclass/sim"
)

// TestHoldDistribution: from far from the target, hold:20 holds at 20..25
// with the published probabilities (sim/published.md), and everything adds
// up to 1.
func TestHoldDistribution(t *testing.T) {
	tab := mustSolve(t, sim.Standard(sim.Pig))
	holds, win := tab.HoldDistribution(0, 0, sim.HoldAt(20))
	want := map[int]float64{20: .0997, 21: .0950, 22: .0742, 23: .0542, 24: .0352, 25: .0172}
	sum := win
	for k, p := range holds {
		sum += p
		if w, ok := want[k]; ok && math.Abs(p-w) > 0.00005 {
			t.Errorf("P(hold at %d) = %.5f, want %.4f", k, p, w)
		} else if !ok && p != 0 {
			t.Errorf("hold:20 holds at %d with %v", k, p)
		}
	}
	if bust := 1 - sum; math.Abs(bust-0.6245) > 0.00005 {
		t.Errorf("bust %.5f, want 0.6245", bust)
	}
	oh, ow := tab.HoldDistribution(90, 95, Optimal{tab})
	total := ow
	for _, p := range oh {
		total += p
	}
	if total <= 0 || total > 1 {
		t.Errorf("optimal from (90, 95): %v", total)
	}
	if th := tab.HoldThreshold(0, 0); th < 19 || th > 26 {
		t.Errorf("optimal hold threshold at the start: %d", th)
	}
}
