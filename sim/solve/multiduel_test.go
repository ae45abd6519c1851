package solve

import (
	"context"
	"fmt"
	"math"
	"testing"

	"pigclass/sim"
)

// TestDuelMultiTwoSeatsEqualsDuel: the N-player policy evaluation at two
// seats gives the two-player one (solve.Duel, written apart), in every
// game, to 1e-12.
func TestDuelMultiTwoSeatsEqualsDuel(t *testing.T) {
	for _, g := range sim.Games {
		v := sim.Standard(g)
		v.Target = 60
		a, b := sim.Strategy(sim.HoldAt(20)), sim.Strategy(sim.KeepPace{})
		if g == sim.Hog {
			a, b = sim.ThrowDice(5), sim.ThrowDice(7)
		}
		want, err := Duel(v, a, b)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DuelMulti(v, []sim.Strategy{a, b})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got[0]-want) > 1e-12 || math.Abs(got[0]+got[1]-1) > 1e-12 {
			t.Errorf("%v, %v against %v: %v, Duel %.15f", v, a, b, got, want)
		}
	}
}

// TestDuelMultiOfTheEquilibrium: three players (and four in Pig) each
// playing the N-player table's best option (Perfect) win, by policy
// evaluation, what the equilibrium solver says, in every game (where the
// solver settled no orbit by a mixed choice, which a strategy of pure
// choices cannot play).
func TestDuelMultiOfTheEquilibrium(t *testing.T) {
	var vs []sim.Variant
	for _, g := range sim.Games {
		v := sim.Standard(g)
		v.Target, v.Seats = 30, 3
		vs = append(vs, v)
	}
	vs = append(vs, sim.Variant{Game: sim.Pig, Target: 20, Seats: 4})
	for _, v := range vs {
		m := mustSolveMulti(t, v)
		if m.Mixed > 0 {
			t.Logf("%v: %d orbits settled by a mixed choice: not compared", v, m.Mixed)
			continue
		}
		var players []sim.Strategy
		for range v.Seats {
			players = append(players, &Perfect{M: m})
		}
		got, err := DuelMulti(v, players)
		if err != nil {
			t.Fatal(err)
		}
		want := m.FirstPlayerWin()
		for r := range v.Seats {
			if math.Abs(got[r]-want[r]) > 1e-9 {
				t.Errorf("%v: seat %d wins %.12f by policy evaluation, %.12f by the solver", v, r, got[r], want[r])
			}
		}
	}
}

// TestDuelMultiAgainstSimulation: three players holding at 20, and three
// of kinds, in Pig to 100: the exact chances lie within four standard
// errors of 40,000 simulated games.
func TestDuelMultiAgainstSimulation(t *testing.T) {
	for _, players := range [][]sim.Strategy{
		{sim.HoldAt(20), sim.HoldAt(20), sim.HoldAt(20)},
		{sim.HoldAt(25), sim.KeepPace{}, sim.HoldAt(15)},
	} {
		v := sim.Standard(sim.Pig)
		v.Seats = 3
		exact, err := DuelMulti(v, players)
		if err != nil {
			t.Fatal(err)
		}
		const games = 40000
		r, err := sim.Simulate(context.Background(), sim.SimConfig{Variant: v, Players: players, Games: games, Key: sim.SimKey(fmt.Sprint(players))})
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for seat := range 3 {
			sum += exact[seat]
			rate := r.WinRate(seat)
			se := math.Sqrt(exact[seat] * (1 - exact[seat]) / games)
			if math.Abs(rate-exact[seat]) > 4*se {
				t.Errorf("%v seat %d: simulated %.4f, exact %.4f (±%.4f)", players, seat, rate, exact[seat], 4*se)
			}
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("%v: the chances add up to %v", players, sum)
		}
		t.Logf("%v: exact %.4f", players, exact)
	}
}
