package sim

import (
	"math"
	"testing"
)

// TestChiSquareTail: the tail against the tables' 5% and 1% points
// (df 1 and 5), and against its closed forms: with 2 degrees of freedom
// P(X >= x) = exp(-x/2), with 1 it is erfc(sqrt(x/2)).
func TestChiSquareTail(t *testing.T) {
	for _, c := range []struct {
		x    float64
		df   int
		want float64
	}{{3.841458820694124, 1, 0.05}, {6.634896601021214, 1, 0.01}, {11.070497693516351, 5, 0.05}, {15.08627246938899, 5, 0.01}, {1.1454762260617692, 5, 0.95}} {
		if got := ChiSquareTail(c.x, c.df); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("P(X >= %g), %d df: %.15f, want %g", c.x, c.df, got, c.want)
		}
	}
	for _, x := range []float64{0.1, 1, 3, 7.5, 20, 60} {
		if got, want := ChiSquareTail(x, 2), math.Exp(-x/2); math.Abs(got-want) > 1e-14 {
			t.Errorf("2 df at %g: %.16f, want %.16f", x, got, want)
		}
		if got, want := ChiSquareTail(x, 1), math.Erfc(math.Sqrt(x/2)); math.Abs(got-want) > 1e-13 {
			t.Errorf("1 df at %g: %.16f, want %.16f", x, got, want)
		}
	}
	if stat, tail := ChiSquareFair([]int{10, 10, 10, 10, 10, 10}); stat != 0 || tail != 1 {
		t.Errorf("equal counts: %g, %g", stat, tail)
	}
	// 60 dice, a six 20 times: (20-10)^2/10 + 5 faces of 8 each (4/10).
	if stat, _ := ChiSquareFair([]int{8, 8, 8, 8, 8, 20}); math.Abs(stat-12) > 1e-12 {
		t.Errorf("a loaded six: %g, want 12", stat)
	}
}

// TestChiSquareFit: categories expected fewer than 5 times are pooled
// before the test; with every category expected often enough it is the
// plain statistic.
func TestChiSquareFit(t *testing.T) {
	probs := []float64{0.5, 0.3, 0.15, 0.05}
	// 100 throws: expected 50, 30, 15, 5; none pooled, 3 df.
	stat, tail, bins, ok := ChiSquareFit([]int{45, 35, 15, 5}, probs)
	want := 25.0/50 + 25.0/30
	if !ok || bins != 4 || math.Abs(stat-want) > 1e-12 || math.Abs(tail-ChiSquareTail(want, 3)) > 1e-15 {
		t.Errorf("100 throws: %g (%d bins, %v), want %g", stat, bins, ok, want)
	}
	// 40 throws: expected 20, 12, 6, 2: the 2 joins the 6 (8), 2 df.
	stat, _, bins, ok = ChiSquareFit([]int{18, 12, 4, 6}, probs)
	want = 4.0/20 + 0 + 4.0/8
	if !ok || bins != 3 || math.Abs(stat-want) > 1e-12 {
		t.Errorf("40 throws: %g (%d bins, %v), want %g", stat, bins, ok, want)
	}
	if _, _, _, ok := ChiSquareFit([]int{3, 2, 1, 0}, probs); ok {
		t.Error("6 throws tested")
	}
}
