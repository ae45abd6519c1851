package sim

import (
	"math"
	"testing"
)

func TestExpectedGain(t *testing.T) {
	cases := []struct {
		g                   Game
		score, turnTotal, n int
		want                float64
	}{
		{Pig, 50, 0, 1, 20.0 / 6},         // 2+3+4+5+6 over 6
		{Pig, 50, 20, 1, 0},               // the hold-at-20 balance
		{TwoDice, 0, 0, 2, 200.0 / 36},    // 25 pairs without a 1 sum to 200
		{TwoDice, 36, 0, 2, 200.0/36 - 1}, // a wipe costs the score 1 time in 36
		{BigPig, 0, 0, 2, 265.0 / 36},     // 25 + 80 + 160 over 36
		{Hog, 0, 0, 5, 20 * math.Pow(5.0/6, 5)},
	}
	for _, c := range cases {
		if got := ExpectedGain(c.g, c.score, c.turnTotal, c.n); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%v at (%d, %d) with %d dice: %v, want %v", c.g, c.score, c.turnTotal, c.n, got, c.want)
		}
	}
	f, _ := FacesOf(1)
	if l := Luck(Pig, 10, 12, &f); math.Abs(l-(-12-(20.0/6-2))) > 1e-12 {
		t.Errorf("luck of a 1 on 12: %v", l)
	}
}
