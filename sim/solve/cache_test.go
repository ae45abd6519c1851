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

// TestCacheBudget: past its budget the cache forgets the least lately
// used table that is not pinned, and keeps the pinned ones.
func TestCacheBudget(t *testing.T) {
	var c Cache
	pinned := sim.Variant{Game: sim.Pig, Target: 40, Seats: 2}
	c.Pin(pinned, false)
	if _, err := c.Get(pinned); err != nil {
		t.Fatal(err)
	}
	one, _ := c.Get(sim.Variant{Game: sim.Pig, Target: 41, Seats: 2})
	c.SetBudget(c.Bytes() + one.Bytes()/2) // room for the pinned table and half another
	c.Get(sim.Variant{Game: sim.Pig, Target: 42, Seats: 2})
	if c.Has(sim.Variant{Game: sim.Pig, Target: 41, Seats: 2}, false) {
		t.Error("the least lately used table was kept past the budget")
	}
	if !c.Has(pinned, false) {
		t.Error("the pinned table was forgotten")
	}
	if c.Bytes() > c.budget && c.Has(sim.Variant{Game: sim.Pig, Target: 42, Seats: 2}, false) {
		t.Errorf("%d bytes kept, budget %d", c.Bytes(), c.budget)
	}
}
