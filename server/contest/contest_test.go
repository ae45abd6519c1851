package contest

import (
	"context"
	"io"
	"log/slog"
	"math"
	"path/filepath"
	"testing"
	"time"

	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
)

// TestChancesOf: a plan's chances are worked out in the background and
// are the exact duels against the rule of thumb and perfect play, from
// both seats; asking again keeps them; past maxChances the kept ones are
// halved and worked out again when asked.
func TestChancesOf(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "p.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c := New(st, &solve.Cache{}, slog.New(slog.NewTextHandler(io.Discard, nil)), time.Now)
	v := sim.Standard(sim.Pig)
	v.Target = 30
	pl := sim.Plan{Form: sim.PlanHold, Game: "pig", Target: 30, Hold: 12}
	var ch Chances
	for end := time.Now().Add(60 * time.Second); !ch.Ready && time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		ch = c.ChancesOf(pl)
	}
	if !ch.Ready || ch.Err != nil {
		t.Fatalf("not worked out: %+v", ch)
	}
	tab, _ := solve.Solve(v)
	for i, other := range []sim.Strategy{sim.HoldAt(20), solve.Optimal{T: tab}} {
		first, _ := solve.Duel(v, &pl, other)
		second, _ := solve.Duel(v, other, &pl)
		got := [][3]float64{ch.RuleOfThumb, ch.Perfect}[i]
		want := [3]float64{first, 1 - second, (first + 1 - second) / 2}
		for k := range 3 {
			if math.Abs(got[k]-want[k]) > 1e-12 {
				t.Errorf("against %s, %d: %.12f, want %.12f", other, k, got[k], want[k])
			}
		}
	}
	// A script saving plan after plan waits: past maxPending a new plan
	// is not queued (its page asks again).
	c.mu.Lock()
	c.pending = maxPending
	c.mu.Unlock()
	other := sim.Plan{Form: sim.PlanHold, Game: "pig", Target: 30, Hold: 13}
	if got := c.ChancesOf(other); got.Ready {
		t.Error("a plan past the queue's bound was worked out")
	}
	c.mu.Lock()
	if len(c.chances) != 1 {
		t.Errorf("%d plans kept, want 1 (the one past the bound is not)", len(c.chances))
	}
	c.pending = 0
	for i := range maxChances {
		c.chances[[32]byte{byte(i), byte(i >> 8), 1}] = &Chances{Ready: true}
	}
	c.forgetChances()
	left := len(c.chances)
	c.mu.Unlock()
	if left > maxChances/2+1 || left < maxChances/2-1 {
		t.Errorf("%d chances kept after forgetting half of %d", left, maxChances+1)
	}
}
