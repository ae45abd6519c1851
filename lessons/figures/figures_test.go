package figures

import (
	"context"
	"math"
	"strings"
	"testing"

	"pigclass/sim"
	"pigclass/sim/solve"
)

// TestTheTable: every figure has a name of its own and a game pigclass
// plays; Lookup finds each; the helpers a figure reads agree with what
// they are said to compute.
func TestTheTable(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range All {
		if seen[f.Name] || f.Name == "" || f.compute == nil {
			t.Errorf("figure %q: a name twice, or none, or no computation", f.Name)
		}
		seen[f.Name] = true
		if err := f.Variant.Validate(); err != nil {
			t.Errorf("%s: %v", f.Name, err)
		}
		if g, ok := Lookup(f.Name); !ok || g.Name != f.Name {
			t.Errorf("Lookup(%q) = %v, %v", f.Name, g.Name, ok)
		}
	}
	if _, ok := Lookup("made.up"); ok || len(Names()) != len(All) {
		t.Error("Lookup finds a made-up figure, or Names misses one")
	}
	// 30 games at 50%: the 95% Wilson half-width is 16.85 points.
	if h := WilsonHalf(0.5, 30); math.Abs(h-0.1685) > 1e-4 {
		t.Errorf("WilsonHalf(0.5, 30) = %.4f", h)
	}
	if s := sitFrom(0); s < 10 || s > 25 {
		t.Errorf("Skunk's expected-value rule sits from %d at 0", s)
	}
}

// TestLoadedThrows (issue 59, item 12): the throws it takes to tell a
// die that shows 6 one time in 4, at whole counts: 20 sixes in 80 throws
// give the interval [16.81%, 35.48%], which leaves 1/6 out; at every
// multiple of 4 below (where a quarter is a whole count) the interval
// holds 1/6, and so does 19 in 77 ([16.40%, 35.35%]), the count a share
// of a quarter at fractional counts gave.
func TestLoadedThrows(t *testing.T) {
	n := LoadedThrows(0.25, 1.0/6)
	if n != 80 {
		t.Fatalf("LoadedThrows(1/4, 1/6) = %d, want 80", n)
	}
	z := 1.959963984540054
	for m := 1; 4*m <= n+8; m++ {
		lo, _ := sim.Wilson(m, 4*m, z)
		if out := lo > 1.0/6; out != (4*m >= n) {
			t.Errorf("%d throws, %d sixes: the interval's low end %.4f; LoadedThrows says %d", 4*m, m, lo, n)
		}
	}
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{{20, 80, 0.1681, 0.3548}, {19, 77, 0.1640, 0.3535}} {
		lo, hi := sim.Wilson(c.k, c.n, z)
		if math.Abs(lo-c.lo) > 5e-5 || math.Abs(hi-c.hi) > 5e-5 {
			t.Errorf("%d in %d: [%.4f, %.4f], want [%.4f, %.4f]", c.k, c.n, lo, hi, c.lo, c.hi)
		}
	}
	// A third (whole at multiples of 3) against a half.
	if n := LoadedThrows(1.0/3, 0.5); n%3 != 0 {
		t.Errorf("LoadedThrows(1/3, 1/2) = %d, not a multiple of 3", n)
	}
}

// TestBestPlan: the best plan of Pig to 50 against hold at 20 (a figure
// of "Decide before you roll") wins, by simulation of 100,000 games
// (sim.Experiment, seeded), within 4 standard errors of its exact
// chance, and beats its neighbours and the plans of 10 and 20 by policy
// evaluation.
func TestBestPlan(t *testing.T) {
	v := sim.Standard(sim.Pig)
	v.Target = 50
	best, win, err := BestPlan(v, sim.HoldAt(20))
	if err != nil {
		t.Fatal(err)
	}
	if best < 10 || best > 40 || win < 0.5 || win > 0.75 {
		t.Fatalf("the best plan %d wins %v", best, win)
	}
	r, err := sim.Experiment(context.Background(), v, sim.HoldAt(best), sim.HoldAt(20), sim.MaxExperiment, strings.Repeat("5", 64))
	if err != nil {
		t.Fatal(err)
	}
	if se := math.Sqrt(win * (1 - win) / float64(r.Games)); math.Abs(r.Share()-win) > 4*se {
		t.Errorf("hold at %d won %v of %d simulated games; exact %v (sd %v)", best, r.Share(), r.Games, win, se)
	}
	for _, n := range []int{best - 1, best + 1, 10, 20} {
		p, err := solve.Duel(v, sim.HoldAt(n), sim.HoldAt(20))
		if err != nil || p > win {
			t.Errorf("hold at %d wins %v, more than the best %d's %v (%v)", n, p, best, win, err)
		}
	}
	t.Logf("Pig to 50 against hold at 20: the best plan is %d, winning %.4f", best, win)
}
