package sim

import (
	"testing"
)

func TestStreamRepeatsAndDealsFirst(t *testing.T) {
	a, b := NewStream(7), NewStream(7)
	for i := range 20 {
		if x, y := a.Below(1000), b.Below(1000); x != y {
			t.Fatalf("draw %d: %d and %d from the same stream", i, x, y)
		}
	}
	if a.Seed() != b.Seed() {
		t.Fatal("the same stream drew two seeds")
	}
	if NewStream(7).Seed() == NewStream(8).Seed() {
		t.Fatal("streams 7 and 8 drew the same seed")
	}
	var x, y Seed
	x[0], y[0] = 1, 2
	a.Deal(x, y)
	if a.Dealt() != 2 {
		t.Fatalf("%d dealt, want 2", a.Dealt())
	}
	if got := a.Seed(); got != x {
		t.Fatalf("first seed %v, want the first dealt", got)
	}
	if got := a.Seed(); got != y {
		t.Fatalf("second seed %v, want the second dealt", got)
	}
	// Past the dealt seeds, the stream goes on where it was.
	if a.Seed() != b.Seed() {
		t.Fatal("the stream's own seeds moved with the dealt ones")
	}
}

func TestStreamDrawsEachValueItsShare(t *testing.T) {
	s := NewStream(1)
	var count [6]int
	const n = 60000
	for range n {
		count[s.Below(6)]++
	}
	// Each value within 5 standard deviations (sqrt(n*1/6*5/6) = 91).
	for v, c := range count {
		if c < n/6-455 || c > n/6+455 {
			t.Errorf("value %d drawn %d times of %d", v, c, n)
		}
	}
}

func TestFindSeed(t *testing.T) {
	// The first seed whose first player of two is seat 1 and whose seat
	// 1's first throw of Pig is a 1.
	want := func(s *Seed) bool {
		f := s.ThrowFor(Pig, 1, 0, 0, 1)
		return s.FirstSeat(2) == 1 && f.At(0) == 1
	}
	seed, tried, err := FindSeed(3, 1000, want)
	if err != nil {
		t.Fatal(err)
	}
	if !want(&seed) {
		t.Fatalf("seed %v found after %d tries does not hold", seed, tried)
	}
	// It is the stream's own: the tried-th seed the stream draws.
	s := NewStream(3)
	for range tried - 1 {
		if skipped := s.Seed(); want(&skipped) {
			t.Fatalf("an earlier seed %v holds too", skipped)
		}
	}
	if s.Seed() != seed {
		t.Fatal("FindSeed's seed is not the stream's")
	}
	if _, _, err := FindSeed(3, 5, func(*Seed) bool { return false }); err == nil {
		t.Fatal("no seed holds, and FindSeed found one")
	}
}

// testSeeds are the seeds the package's tests play: the same on every run.
var testSeeds = NewStream(20261204)
