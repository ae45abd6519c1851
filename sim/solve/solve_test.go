package solve

import (
	"math"
	"testing"

	"pigclass/sim"
)

func mustSolve(t testing.TB, v sim.Variant) *Table {
	t.Helper()
	tab, err := Solve(v)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// TestPigReference reproduces Neller and Presser (2004): 505,000 states,
// the first player wins 0.5306 under perfect play.
func TestPigReference(t *testing.T) {
	tab := mustSolve(t, sim.Standard(sim.Pig))
	if tab.States() != 505000 {
		t.Errorf("%d states, want 505,000", tab.States())
	}
	if p := tab.FirstPlayerWin(); math.Abs(p-0.5306) > 0.00005 {
		t.Errorf("first player wins %.6f, want 0.5306", p)
	}
	t.Logf("Pig-100 first player %.12f", tab.FirstPlayerWin())
}

// residual returns the largest difference between a state's value and the
// best of its options recomputed from the table (the Bellman equation).
func residual(t *Table) (worst float64, at [3]int) {
	T := t.target
	for i := range T {
		for j := range T {
			kmax := T - i
			if t.row == nil {
				kmax = 1
			}
			for k := range kmax {
				a := t.Advise(i, j, k)
				best, _ := a.Win(a.Best)
				for _, o := range a.Options() {
					if o.Win > best+1e-15 {
						return 1, [3]int{i, j, k} // Best is not the best
					}
				}
				if d := math.Abs(best - t.Win(i, j, k)); d > worst {
					worst, at = d, [3]int{i, j, k}
				}
			}
		}
	}
	return worst, at
}

func TestBellmanResidual(t *testing.T) {
	variants := []sim.Variant{sim.Standard(sim.Pig), sim.Standard(sim.TwoDice), sim.Standard(sim.BigPig), sim.Standard(sim.Hog)}
	small := sim.Standard(sim.Pig)
	small.Target = 10
	hog30 := sim.Standard(sim.Hog)
	hog30.MaxDice = 30
	hog1 := sim.Standard(sim.Hog)
	hog1.MaxDice, hog1.Target = 1, 50
	variants = append(variants, small, hog30, hog1)
	for _, v := range variants {
		tab := mustSolve(t, v)
		if worst, at := residual(tab); worst > 1e-12 {
			t.Errorf("%v: Bellman residual %g at %v", v, worst, at)
		}
		if p := tab.FirstPlayerWin(); p <= 0.5 || p >= 0.75 {
			t.Errorf("%v: first player wins %.4f", v, p)
		}
		t.Logf("%v: first player %.6f, %d states", v, tab.FirstPlayerWin(), tab.States())
	}
}

// TestTwoDiceWipe: the solved values satisfy the equations with the wipe
// term in them (the residual test) and are not those of a game without it:
// at a high score, rolling costs more than in Pig-like play.
func TestTwoDiceWipe(t *testing.T) {
	tab := mustSolve(t, sim.Standard(sim.TwoDice))
	d := tab.dist
	if d.wipes != 1 || d.busts != 11 || d.outcomes != 36 {
		t.Fatalf("two dice: %d wipes, %d busts of %d", d.wipes, d.busts, d.outcomes)
	}
	// Worked by hand at (90, 0, 0): rolling risks the whole 90.
	a := tab.Advise(90, 0, 0)
	want := (10.0/36)*(1-tab.Win(0, 90, 0)) + (1.0/36)*(1-tab.Win(0, 0, 0))
	for x := 2; x <= 6; x++ {
		for y := 2; y <= 6; y++ {
			want += tab.Win(90, 0, x+y) / 36
		}
	}
	if math.Abs(a.Roll-want) > 1e-15 {
		t.Errorf("roll at (90, 0, 0) = %.15f, by hand %.15f", a.Roll, want)
	}
}

func TestOptimalAgainstItself(t *testing.T) {
	for _, v := range []sim.Variant{sim.Standard(sim.Pig), sim.Standard(sim.TwoDice), sim.Standard(sim.Hog)} {
		tab := mustSolve(t, v)
		p, err := Duel(v, Optimal{tab}, Optimal{tab})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(p-tab.FirstPlayerWin()) > 1e-12 {
			t.Errorf("%v: optimal against itself %.15f, solved %.15f", v, p, tab.FirstPlayerWin())
		}
	}
}

func TestHoldTwentyDuelIsExact(t *testing.T) {
	p, err := Duel(sim.Standard(sim.Pig), sim.HoldAt(20), sim.HoldAt(20))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(p-0.5347) > 0.00005 {
		t.Errorf("hold:20 against hold:20: %.6f, want 0.5347", p)
	}
}

// TestOptimalBeatsHoldN: from either seat, optimal wins more often against
// hold:N than hold:N does against itself in the same seat, and more than
// half its games on average over the two seats.
func TestOptimalBeatsHoldN(t *testing.T) {
	v := sim.Standard(sim.Pig)
	opt := Optimal{mustSolve(t, v)}
	for n := 5; n <= 40; n++ {
		h := sim.HoldAt(n)
		first, _ := Duel(v, opt, h)
		second, _ := Duel(v, h, opt)
		self, _ := Duel(v, h, h)
		if first <= self || 1-second <= 1-self {
			t.Errorf("hold:%d: optimal first %.4f (hold:%d itself %.4f), optimal second %.4f (itself %.4f)", n, first, n, self, 1-second, 1-self)
		}
		if (first+1-second)/2 <= 0.5 {
			t.Errorf("hold:%d: optimal wins %.4f on average", n, (first+1-second)/2)
		}
	}
}

func TestHogEVIsFiveOrSixDice(t *testing.T) {
	tab := mustSolve(t, sim.Standard(sim.Hog))
	a := tab.Advise(0, 0, 0)
	if a.EV != sim.Dice(5) {
		t.Errorf("EV dice %v, want dice:5 (5 and 6 tie at 8.0376; ties take fewer)", a.EV)
	}
	for n, want := range map[int]float64{5: 8.0376, 6: 8.0376, 1: 3.3333, 10: 6.4602} {
		mean := 0.0
		for s, p := range tab.hog.sum[n] {
			mean += float64(s) * p
		}
		if math.Abs(mean-want) > 0.00005 || math.Abs(mean-4*float64(n)*math.Pow(5.0/6, float64(n))) > 1e-12 {
			t.Errorf("%d dice: expected %.6f points, want %.4f", n, mean, want)
		}
	}
	v := sim.Standard(sim.Hog)
	v.MaxDice = 3
	if got := NewEVPlay(v).Decide(sim.Position{Variant: v}); got != sim.Dice(3) {
		t.Errorf("EV with at most 3 dice: %v", got)
	}
}

func TestEVIsHoldAtTwentyInPig(t *testing.T) {
	ev := NewEVPlay(sim.Standard(sim.Pig))
	for i := 0; i < 100; i += 7 {
		for k := 0; k < 100-i; k++ {
			p := sim.Position{Variant: sim.Standard(sim.Pig), Score: i, Opponent: 50, TurnTotal: k}
			if got, want := ev.Decide(p), sim.HoldAt(20).Decide(p); got != want {
				t.Fatalf("at score %d turn total %d: ev %v, hold:20 %v", i, k, got, want)
			}
		}
	}
	big := NewEVPlay(sim.Standard(sim.BigPig))
	// Big Pig adds 265/36 points per roll on average and busts 10 rolls in
	// 36: roll while 10k < 265, hold at 27.
	for k, want := range map[int]sim.Action{26: sim.Roll, 27: sim.Hold} {
		if got := big.Decide(sim.Position{Variant: sim.Standard(sim.BigPig), TurnTotal: k}); got != want {
			t.Errorf("Big Pig EV at %d: %v, want %v", k, got, want)
		}
	}
	two := NewEVPlay(sim.Standard(sim.TwoDice))
	// Two-Dice Pig: 200/36 on average, 11 busts and a wipe of the score:
	// roll while 11k + i < 200.
	for _, c := range []struct {
		i, k int
		want sim.Action
	}{{0, 18, sim.Roll}, {0, 19, sim.Hold}, {22, 16, sim.Roll}, {22, 17, sim.Hold}} {
		if got := two.Decide(sim.Position{Variant: sim.Standard(sim.TwoDice), Score: c.i, TurnTotal: c.k}); got != c.want {
			t.Errorf("Two-Dice EV at score %d turn total %d: %v, want %v", c.i, c.k, got, c.want)
		}
	}
}

// TestBoundaryIsNotAThreshold finds states (i, j) where perfect play holds,
// then rolls at a higher turn total, then holds again.
func TestBoundaryIsNotAThreshold(t *testing.T) {
	tab := mustSolve(t, sim.Standard(sim.Pig))
	var found [][2]int
	for i := range 100 {
		for j := range 100 {
			switches := 0
			prev := tab.Advise(i, j, 0).Best
			for k := 1; k < 100-i; k++ {
				if b := tab.Advise(i, j, k).Best; b != prev {
					switches++
					prev = b
				}
			}
			if switches >= 3 {
				found = append(found, [2]int{i, j})
			}
		}
	}
	if len(found) == 0 {
		t.Fatal("no state with a hold-roll-hold boundary")
	}
	t.Logf("%d (i, j) with hold, then roll, then hold: first %v", len(found), found[:min(5, len(found))])
}
