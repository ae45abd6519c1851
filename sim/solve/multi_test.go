package solve

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math"
	"slices"
	"testing"

	"pigclass/sim"
)

func mustSolveMulti(t testing.TB, v sim.Variant) *MultiTable {
	t.Helper()
	m, err := SolveMulti(v)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMultiTwoPlayersEqualsTable: the N-player solver at two seats gives
// the two-player tables, every turn start to 1e-12, in every game.
func TestMultiTwoPlayersEqualsTable(t *testing.T) {
	for _, v := range []sim.Variant{sim.Standard(sim.Pig), {Game: sim.TwoDice, Target: 60, Seats: 2}, {Game: sim.BigPig, Target: 60, Seats: 2}, sim.Standard(sim.Hog)} {
		two := mustSolve(t, v)
		m := mustSolveMulti(t, v)
		worst := 0.0
		for i := range v.Target {
			for j := range v.Target {
				w := m.Win([]int{i, j})
				worst = max(worst, math.Abs(w[0]-two.Win(i, j, 0)), math.Abs(w[0]+w[1]-1))
			}
		}
		if worst > 1e-12 {
			t.Errorf("%v: differs from the two-player table by %.3g", v, worst)
		}
		t.Logf("%v: largest difference %.2g, residual %.2g, cycling %d", v, worst, m.Residual(), m.Cycling)
	}
}

// TestMultiThreeAgainstSimulation: three perfect players of Pig to 40 and
// to 100 (the published figures of sim/published.md), played out by the
// match's own dice (each move the table's advice), win as often as the
// table says, within the 99.9% interval of 20,000 games (5,000 to 100).
func TestMultiThreeAgainstSimulation(t *testing.T) {
	for _, target := range []int{40, 100} {
		t.Run(fmt.Sprint("to ", target), func(t *testing.T) {
			if target == 100 && testing.Short() {
				t.Skip("solves three-player Pig to 100")
			}
			games := 20000
			if target == 100 {
				games = 5000 // longer games: the interval is wider (±0.022)
			}
			threeAgainstSimulation(t, sim.Variant{Game: sim.Pig, Target: target, Seats: 3}, games)
		})
	}
}

// threeAgainstSimulation plays v out games times with every player on the
// table's best option and compares the win rates with the table's.
func threeAgainstSimulation(t *testing.T, v sim.Variant, games int) {
	m := mustSolveMulti(t, v)
	want := m.FirstPlayerWin()
	wins := make([]int, 3)
	for g := range games {
		match, err := sim.NewMatch(v, sim.Seed(sha256.Sum256([]byte(fmt.Sprint("three ", g)))))
		if err != nil {
			t.Fatal(err)
		}
		first := match.State().First
		for !match.State().Over {
			st := match.State()
			p := make([]int, 3)
			for r := range 3 {
				p[r] = st.Scores[(st.Seat+r)%3]
			}
			a := m.Advise(p, st.TurnTotal)
			if _, err := match.Apply(st.Seat, a.Best); err != nil {
				t.Fatal(err)
			}
		}
		wins[(match.State().Winner-first+3)%3]++
	}
	for r := range 3 {
		got := float64(wins[r]) / float64(games)
		half := 3.29 * math.Sqrt(want[r]*(1-want[r])/float64(games))
		if math.Abs(got-want[r]) > half {
			t.Errorf("player %d: wins %.4f of games, the table says %.4f (±%.4f)", r+1, got, want[r], half)
		}
	}
	t.Logf("exact %.4f, residual %.2g, cycling %d (mixed %d)", want, m.Residual(), m.Cycling, m.Mixed)
}

// TestMultiCyclingOrbits: in three-player Pig to 70 some orbits' best
// responses cycle (a mover would roll where they hold and hold where they
// roll); each is settled by the stated rule, every turn start's chances
// are chances (the mover's, 1 minus the others', too), and no mover could
// gain more than the reported residual by deviating.
func TestMultiCyclingOrbits(t *testing.T) {
	m := mustSolveMulti(t, sim.Variant{Game: sim.Pig, Target: 70, Seats: 3})
	if m.Cycling == 0 {
		t.Error("no orbit cycled: the rule is not exercised")
	}
	if m.Residual() > 1e-3 {
		t.Errorf("residual %.3g", m.Residual())
	}
	worst, v := 0.0, make([]float64, 3)
	for x := range m.starts() {
		m.load(x, v)
		for _, c := range v {
			worst = max(worst, -c, c-1)
		}
	}
	if worst > 1e-12 {
		t.Errorf("a chance %.3g outside 0 to 1", worst)
	}
	t.Logf("%d orbits cycled, %d settled by a mixed choice; residual %.2g", m.Cycling, m.Mixed, m.Residual())
}

// TestMultiOnTwoCoresIsTheSameTable: the orbits of a layer solved side by
// side on two cores give the very table one core gives, bit for bit, with
// the same orbits cycling, for Pig and for Two-Dice Pig (whose wipes
// repeat the passes).
func TestMultiOnTwoCoresIsTheSameTable(t *testing.T) {
	for _, v := range []sim.Variant{{Game: sim.Pig, Target: 70, Seats: 3}, {Game: sim.TwoDice, Target: 30, Seats: 3}, {Game: sim.Pig, Target: 20, Seats: 4}} {
		one, err := SolveMulti(v)
		if err != nil {
			t.Fatal(err)
		}
		two, err := solveMultiCores(context.Background(), v, 2)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(one.cols, two.cols, slices.Equal) || one.Cycling != two.Cycling || one.Mixed != two.Mixed {
			t.Errorf("%v: two cores give another table (cycling %d and %d, mixed %d and %d)", v, one.Cycling, two.Cycling, one.Mixed, two.Mixed)
		}
	}
}

// TestFastSweepIsTheOnePassSweep: the two-pass sweep (the mover's value
// back from the target, then the chance of each hold forward from the
// turn start) gives the table the one pass over every player's values
// gives, to 1e-14 at every turn start, in every game of many rolls (wipes,
// uneven rolls and Pig's sliding sums) and for four players, and no mover
// could gain by deviating anywhere (every choice checked, those the turn
// never comes to as well: they make the value of a roll not taken). Tables with
// orbits that cycle are left out: their averaged orbits (see
// resolveCycle) are not an equilibrium, and where the rounds alternate
// depends on the last digit of a sum.
func TestFastSweepIsTheOnePassSweep(t *testing.T) {
	for _, v := range []sim.Variant{
		{Game: sim.Pig, Target: 60, Seats: 3},
		{Game: sim.Pig, Target: 30, Seats: 4},
		{Game: sim.TwoDice, Target: 40, Seats: 3},
		{Game: sim.BigPig, Target: 40, Seats: 3},
		{Game: sim.PassPigs, Target: 40, Seats: 3},
	} {
		fast, err := SolveMulti(v)
		if err != nil {
			t.Fatal(err)
		}
		one := newMulti(v, 1)
		one.onePass = true
		if err := one.solve(context.Background(), 1); err != nil {
			t.Fatal(err)
		}
		if fast.Cycling+one.Cycling > 0 {
			t.Fatalf("%v: orbits cycled (%d and %d): pick a table without", v, fast.Cycling, one.Cycling)
		}
		worst, at := 0.0, 0
		for r := range one.cols {
			for x := range one.cols[r] {
				if d := math.Abs(fast.cols[r][x] - one.cols[r][x]); d > worst {
					worst, at = d, x
				}
			}
		}
		if worst > 1e-14 {
			t.Errorf("%v: the sweeps differ by %.3g at turn start %d", v, worst, at)
		}
		if r := fast.Residual(); r > 1e-14 {
			t.Errorf("%v: a mover could gain %.3g by deviating", v, r)
		}
	}
}
