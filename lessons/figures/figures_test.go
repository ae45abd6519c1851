package figures

import (
	"math"
	"testing"

	"pigclass/sim"
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

// TestLoadedThrows: the throws it takes to tell a die that shows 6 one
// time in 4, worked out again from sim.Wilson at whole counts: below it
// (at a multiple of 4, where a quarter is a whole count) the interval
// still holds 1/6; from the next multiple of 4 on, it leaves it out.
func TestLoadedThrows(t *testing.T) {
	n := LoadedThrows(0.25, 1.0/6)
	if n < 50 || n > 200 {
		t.Fatalf("LoadedThrows(1/4, 1/6) = %d", n)
	}
	for m := 1; 4*m <= n+4; m++ {
		lo, _ := sim.Wilson(m, 4*m, 1.959963984540054)
		if out := lo > 1.0/6; out != (4*m >= n) {
			t.Errorf("%d throws, %d sixes: the interval's low end %.4f; LoadedThrows says %d", 4*m, m, lo, n)
		}
	}
}
