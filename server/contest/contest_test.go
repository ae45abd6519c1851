package contest

import (
	"context"
	"errors"
	"fmt"
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

// classWithPlans is a class of n students each with a plan of game to
// target (hold at 5, 6, ... 24), and its contest.
func classWithPlans(t *testing.T, n, target int) (*Contest, store.Class) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "p.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	class, err := st.CreateClass(ctx, "TOURNY", "h")
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		s, err := st.AddStudent(ctx, store.Student{ClassID: class.ID, Nickname: fmt.Sprint("s", i), AnonName: fmt.Sprint("a", i), TokenHash: fmt.Sprint("t", i)})
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Plans().Save(ctx, class.ID, s.ID, sim.Plan{Form: sim.PlanHold, Game: "pig", Target: target, Hold: 5 + i%20}); err != nil {
			t.Fatal(err)
		}
	}
	return New(st, &solve.Cache{}, slog.New(slog.NewTextHandler(io.Discard, nil)), time.Now), class
}

// TestATournamentIsBounded (issue 58, item 8): a class of 61 plans cannot
// close its tournament (MaxEntries), and is told how many it has; nothing
// is played.
func TestATournamentIsBounded(t *testing.T) {
	c, class := classWithPlans(t, MaxEntries+1, 30)
	v := sim.Standard(sim.Pig)
	v.Target = 30
	ctx := context.Background()
	tour, err := c.Open(ctx, class.ID, v, nil, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var many *TooManyError
	if err := c.Close(ctx, class.ID, tour.ID); !errors.As(err, &many) || many.Entries != MaxEntries+1 {
		t.Fatalf("closing %d entries: %v", MaxEntries+1, err)
	}
	if s, err := c.Status(ctx, class.ID); err != nil || !s.ClosedAt.IsZero() || s.Playing() {
		t.Errorf("after the refused close: closed %v, playing %v, %v", s.ClosedAt, s.Playing(), err)
	}
}

// TestATournamentSharesTheCore (issue 58, item 8): while one class's
// tournament plays its duels, another plan's chances are worked out
// between two of them, not after the last.
func TestATournamentSharesTheCore(t *testing.T) {
	c, class := classWithPlans(t, 12, 100) // 132 duels of Pig to 100
	v := sim.Standard(sim.Pig)
	ctx := context.Background()
	if _, err := c.tables.Get(v); err != nil {
		t.Fatal(err)
	}
	tour, err := c.Open(ctx, class.ID, v, nil, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(ctx, class.ID, tour.ID); err != nil {
		t.Fatal(err)
	}
	// Once the duels are under way, another class's student edits a plan.
	for s, _ := c.Status(ctx, class.ID); s.Done == 0; s, _ = c.Status(ctx, class.ID) {
		time.Sleep(5 * time.Millisecond)
	}
	pl := sim.Plan{Form: sim.PlanHold, Game: "pig", Target: 100, Hold: 27}
	var ch Chances
	for end := time.Now().Add(2 * time.Minute); !ch.Ready && time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		ch = c.ChancesOf(pl)
	}
	s, err := c.Status(ctx, class.ID)
	if !ch.Ready || ch.Err != nil || err != nil {
		t.Fatalf("the plan's chances: %+v, %v", ch, err)
	}
	if s.Result != nil || s.Done >= s.Of {
		t.Errorf("the plan's chances came only after the tournament's %d duels of %d", s.Done, s.Of)
	}
}

// TestATournamentPlaysTheEntriesOfItsClose (issue 58, item 11): the
// entries are fixed when they close: a plan changed and a plan saved
// after the close play no part, and a server that starts the duels only
// later (a restart: here a close made in the store, the duels started by
// the first look) plays the same entries.
func TestATournamentPlaysTheEntriesOfItsClose(t *testing.T) {
	c, class := classWithPlans(t, 3, 30)
	ctx := context.Background()
	v := sim.Standard(sim.Pig)
	v.Target = 30
	tour, err := c.Open(ctx, class.ID, v, nil, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	before, err := c.st.Plans().Of(ctx, class.ID, 0)
	if err != nil || len(before) != 3 {
		t.Fatalf("%d plans, %v", len(before), err)
	}
	if err := c.st.Plans().CloseTournament(ctx, class.ID, tour.ID); err != nil {
		t.Fatal(err)
	}
	// After the close: the first student's plan changes, a fourth saves one.
	if err := c.st.Plans().Save(ctx, class.ID, before[0].StudentID, sim.Plan{Form: sim.PlanHold, Game: "pig", Target: 30, Hold: 25}); err != nil {
		t.Fatal(err)
	}
	late, err := c.st.AddStudent(ctx, store.Student{ClassID: class.ID, Nickname: "late", AnonName: "l", TokenHash: "late"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.st.Plans().Save(ctx, class.ID, late.ID, sim.Plan{Form: sim.PlanHold, Game: "pig", Target: 30, Hold: 22}); err != nil {
		t.Fatal(err)
	}
	var s Status
	for end := time.Now().Add(time.Minute); s.Result == nil && time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if s, err = c.Status(ctx, class.ID); err != nil {
			t.Fatal(err)
		}
	}
	if s.Result == nil || len(s.Result.Entries) != 3 {
		t.Fatalf("the tournament played %+v, want the 3 entries of its close", s.Result)
	}
	for i, e := range s.Result.Entries {
		if e.Student != before[i].StudentID {
			t.Errorf("entry %d is student %d, want %d", i, e.Student, before[i].StudentID)
		}
	}
	want, err := solve.Duel(v, &before[0].Plan, &before[1].Plan)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Result.First[0][1]; math.Abs(got-want) > 1e-12 {
		t.Errorf("the first entry's duel: %.12f, the plan of the close %.12f (hold %d), not the plan saved after", got, want, before[0].Plan.Hold)
	}
}
