package figures

import (
	"math"
	"testing"
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
