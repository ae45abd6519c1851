package solve

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

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
	if c.Kept(Key(sim.Variant{Game: sim.Pig, Target: 41, Seats: 2}, false)) {
		t.Error("the least lately used table was kept past the budget")
	}
	if !c.Kept(Key(pinned, false)) {
		t.Error("the pinned table was forgotten")
	}
	if c.Bytes() > c.budget && c.Kept(Key(sim.Variant{Game: sim.Pig, Target: 42, Seats: 2}, false)) {
		t.Errorf("%d bytes kept, budget %d", c.Bytes(), c.budget)
	}
}

// TestCacheReadyInTheBackground: Ready never waits. It answers ErrSolving
// while the table is solved in the pool, then the table, the same one Get
// returns and equal to a table solved anew; its user is told once, with
// the key that was solved.
func TestCacheReadyInTheBackground(t *testing.T) {
	var c Cache
	told := make(chan sim.Variant, 4)
	c.Use(nil, func(k sim.Variant) { told <- k })
	v := sim.Variant{Game: sim.Pig, Target: 160, Seats: 3}
	if _, err := c.Ready(v); !errors.Is(err, ErrSolving) {
		t.Fatalf("Ready of a table never asked for: %v, want ErrSolving", err)
	}
	var k sim.Variant
	select {
	case k = <-told:
	case <-time.After(time.Minute):
		t.Fatal("the user was never told")
	}
	if k != Key(v, false) {
		t.Errorf("the user was told %v, want %v", k, Key(v, false))
	}
	got, err := c.Ready(v)
	if err != nil {
		t.Fatalf("Ready once told: %v", err)
	}
	if again, _ := c.Get(v); again != got {
		t.Error("Get returned another table than Ready")
	}
	fresh, _ := Solve(k)
	if got.FirstPlayerWin() != fresh.FirstPlayerWin() {
		t.Errorf("first player %v, solved anew %v", got.FirstPlayerWin(), fresh.FirstPlayerWin())
	}
	if started, _ := c.Solves(); started != 1 {
		t.Errorf("%d solves started, want 1", started)
	}
	if _, err := c.GetEqual(sim.Variant{Game: sim.Hog, Target: 50, Seats: 2, MaxDice: 10}); err == nil || errors.Is(err, ErrSolving) {
		t.Errorf("equal turns in Hog: %v, want the solver's refusal", err)
	}
	select {
	case k := <-told:
		t.Errorf("the user was told of %v, a refusal", k)
	default:
	}
}

// TestCacheGivesUpWhatNobodyNeeds: a solve that nothing needs any more (no
// Ready lately, the need hook says no) is given up, its table not kept,
// and solved again when asked again; one still needed is not.
func TestCacheGivesUpWhatNobodyNeeds(t *testing.T) {
	c := Cache{watch: time.Millisecond, asked: time.Millisecond}
	var needed atomic.Bool
	c.Use(func(sim.Variant) bool { return needed.Load() }, nil)
	slow := sim.Variant{Game: sim.TwoDice, Target: MaxTarget, Seats: 2} // seconds of work
	c.Ready(slow)
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, stopped := c.Solves(); stopped == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the solve nobody needed was not given up")
		}
		time.Sleep(time.Millisecond)
	}
	if c.Kept(Key(slow, false)) {
		t.Error("a table given up is still kept")
	}
	if c.Bytes() != 0 {
		t.Errorf("%d bytes kept after giving up", c.Bytes())
	}

	needed.Store(true)
	small := sim.Variant{Game: sim.Pig, Target: 60, Seats: 2}
	c.Ready(small)
	if _, err := c.Get(small); err != nil {
		t.Fatalf("a table still needed: %v", err)
	}
	if started, stopped := c.Solves(); started != 2 || stopped != 1 {
		t.Errorf("solves started %d, given up %d; want 2 and 1", started, stopped)
	}
}
