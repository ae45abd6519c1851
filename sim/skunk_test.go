package sim

import (
	"errors"
	"testing"
)

func TestSkunkWithFiveHundred(t *testing.T) {
	const n = 500
	seed := testSeeds.Seed()
	g, err := NewSkunk(seed, n, DefaultSkunkRounds)
	if err != nil {
		t.Fatal(err)
	}
	// Participant p sits once the round total reaches p/10 (0 to 49).
	for !g.Over() {
		for p := range n {
			if g.Standing(p) && g.RoundTotal() >= p/10 && g.RoundTotal() > 0 {
				g.Sit(p)
			}
		}
		if g.Over() {
			break
		}
		round, before := g.Round(), g.Scores()
		standing := make([]bool, n)
		for p := range n {
			standing[p] = g.Standing(p)
		}
		e, err := g.Roll()
		if err != nil {
			t.Fatal(err)
		}
		points, bust, wipe := RollPoints(TwoDice, &e.Faces)
		for p := range n {
			stood := standing[p]
			switch {
			case wipe && stood && g.Score(p) != 0:
				t.Fatalf("double 1s: participant %d kept %d", p, g.Score(p))
			case !(wipe && stood) && g.Score(p) != before[p]:
				t.Fatalf("a roll changed participant %d's banked score", p)
			}
		}
		if !bust && g.Round() != round {
			t.Fatalf("a roll of %s (%d points) ended the round", e.Faces, points)
		}
		if bust && g.Round() != round+1 {
			t.Fatalf("a 1 (%s) did not end the round", e.Faces)
		}
	}
	if g.Round() != DefaultSkunkRounds || len(g.Winners()) == 0 {
		t.Errorf("round %d, winners %v", g.Round(), g.Winners())
	}
	back, err := ReplaySkunk(seed, n, DefaultSkunkRounds, g.Events())
	if err != nil {
		t.Fatal(err)
	}
	for p := range n {
		if back.Score(p) != g.Score(p) {
			t.Fatalf("replay: participant %d has %d, want %d", p, back.Score(p), g.Score(p))
		}
	}
}

func TestSkunkRules(t *testing.T) {
	// Find a seed whose first rolls are: no 1, then a single 1.
	g := skunkWith(t, func(f []Faces) bool { return f[0].Ones() == 0 && f[1].Ones() == 1 })
	e, _ := g.Roll()
	total := e.Faces.Sum()
	if g.RoundTotal() != total {
		t.Fatalf("round total %d after %s", g.RoundTotal(), e.Faces)
	}
	if _, err := g.Sit(0); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Sit(0); !errors.Is(err, ErrSkunkSitting) {
		t.Errorf("sitting twice: %v", err)
	}
	if _, err := g.Sit(3); !errors.Is(err, ErrSkunkNobody) {
		t.Errorf("participant 3 of 3: %v", err)
	}
	g.Roll() // a single 1: the standing get nothing
	if g.Score(0) != total || g.Score(1) != 0 || g.Round() != 1 || !g.Standing(0) {
		t.Errorf("scores %v round %d standing %v", g.Scores(), g.Round(), g.Standing(0))
	}

	// Round 0: one roll without a 1, everyone sits. Round 1: participant 1
	// sits at once, then double 1s wipe the standing participants' scores.
	w := skunkWith(t, func(f []Faces) bool { return f[0].Ones() == 0 && f[3].Ones() == 2 })
	first, _ := w.Roll()
	for p := range 3 {
		w.Sit(p)
	}
	if w.Round() != 1 {
		t.Fatalf("everyone sat: round %d, want 1", w.Round())
	}
	w.Sit(1)
	w.Roll()
	want := []int{0, first.Faces.Sum(), 0}
	if got := w.Scores(); got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("after double 1s: scores %v, want %v", got, want)
	}
}

// skunkWith finds a seed whose rolls 0 to 2 of round 0 and roll 0 of
// round 1 satisfy ok.
func skunkWith(t *testing.T, ok func([]Faces) bool) *Skunk {
	t.Helper()
	for range 100000 {
		seed := testSeeds.Seed()
		f := []Faces{seed.RollFaces(0, 0, 0, 2), seed.RollFaces(0, 0, 1, 2), seed.RollFaces(0, 0, 2, 2), seed.RollFaces(0, 1, 0, 2)}
		if ok(f) {
			g, err := NewSkunk(seed, 3, DefaultSkunkRounds)
			if err != nil {
				t.Fatal(err)
			}
			return g
		}
	}
	t.Fatal("no seed found")
	return nil
}
