package solve

import (
	"testing"

	"pigclass/sim"
)

// TestCacheKeyedByWhatIsSolved: a table asked for first by a three-seat
// (or four-seat, or timed) round is solved as the two-seat table it is
// kept under, so the same table answers every seat count, and no refusal
// is kept under a key that was not what was solved.
func TestCacheKeyedByWhatIsSolved(t *testing.T) {
	var c Cache
	three := sim.Variant{Game: sim.Pig, Target: 30, Seats: 3, Deadline: sim.Duration(1e10)}
	t3, err := c.Get(three)
	if err != nil {
		t.Fatalf("a table first asked for by a three-seat round: %v", err)
	}
	if got := t3.Variant(); got.Seats != 2 || got.Deadline != 0 {
		t.Errorf("the table kept for %v was solved for %v", three, got)
	}
	two := three
	two.Seats, two.Deadline = 2, 0
	t2, err := c.Get(two)
	if err != nil || t2 != t3 {
		t.Errorf("the two-seat round after it: %p %v, want the same table %p", t2, err, t3)
	}
	fresh, err := Solve(two)
	if err != nil {
		t.Fatal(err)
	}
	if t3.FirstPlayerWin() != fresh.FirstPlayerWin() {
		t.Errorf("cached %v, solved anew %v", t3.FirstPlayerWin(), fresh.FirstPlayerWin())
	}

	four := sim.Variant{Game: sim.BigPig, Target: 30, Seats: 4, EqualTurns: true}
	e4, err := c.GetEqual(four)
	if err != nil {
		t.Fatalf("an equal-turns table first asked for by a four-seat round: %v", err)
	}
	e2, err := c.GetEqual(Key(four, true))
	if err != nil || e2 != e4 {
		t.Errorf("the two-seat equal-turns round after it: %p %v, want %p", e2, err, e4)
	}
	if _, err := c.Get(four); err != nil {
		t.Errorf("the same variant without equal turns: %v", err)
	}

	// A refusal is kept only for the variant refused.
	big := sim.Variant{Game: sim.Pig, Target: MaxTarget + 1, Seats: 3}
	if _, err := c.Get(big); err == nil {
		t.Errorf("target %d solved", big.Target)
	}
	if _, err := c.Get(three); err != nil {
		t.Errorf("after a refusal of another variant: %v", err)
	}
}
