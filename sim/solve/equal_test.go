package solve

import (
	"context"
	"math"
	"testing"

	"pigclass/sim"
)

func equalPig() sim.Variant {
	v := sim.Standard(sim.Pig)
	v.EqualTurns = true
	return v
}

// TestEqualTurnsResidual: every kept state's value is the best of its
// options recomputed from the tables, for both players of the round.
func TestEqualTurnsResidual(t *testing.T) {
	for _, v := range []sim.Variant{equalPig(), func() sim.Variant { v := equalPig(); v.Game = sim.BigPig; v.Target = 60; return v }()} {
		e, err := SolveEqualTurns(v)
		if err != nil {
			t.Fatal(err)
		}
		T := v.Target
		worst := 0.0
		for i := range T {
			for j := range T {
				for k := range T - i {
					for order, tab := range [][]float64{e.lay.p, e.second} {
						roll, hold := e.Options(sim.Position{Variant: v, Score: i, Opponent: j, TurnTotal: k, Order: order})
						worst = max(worst, math.Abs(max(roll, hold)-tab[e.lay.index(i, j, k)]))
					}
				}
			}
		}
		if worst > 1e-12 {
			t.Errorf("%v: residual %g", v, worst)
		}
		t.Logf("%v: first player %.6f, tie-break %.6f, residual %g", v, e.FirstPlayerWin(), e.TieBreak(), worst)
	}
}

// TestEqualTurnsMovesTheAdvantage: with equal turns the second player is
// ahead (seed 000: "it moves the advantage to the LAST player"), and a
// simulation of the optimal bots agrees with the exact value.
func TestEqualTurnsMovesTheAdvantage(t *testing.T) {
	v := equalPig()
	e, err := SolveEqualTurns(v)
	if err != nil {
		t.Fatal(err)
	}
	p := e.FirstPlayerWin()
	if p >= 0.5 || p < 0.4 {
		t.Errorf("first player wins %.4f with equal turns; the last player should be ahead", p)
	}
	r, err := sim.Simulate(context.Background(), sim.SimConfig{Variant: v, Players: []sim.Strategy{e, e}, Games: 200000, Key: sim.SimKey("equal")})
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi := r.CI95(0); p < lo || p > hi {
		t.Errorf("simulated first player %.4f [%.4f, %.4f], exact %.6f", r.WinRate(0), lo, hi, p)
	}
	// The tie-break: the first player of a round is behind there too.
	if tb := e.TieBreak(); tb >= 0.5 || tb <= 0.2 {
		t.Errorf("tie-break %.4f", tb)
	}
	// G: a player ahead holds and wins; needing nothing more than a tie.
	if e.G(-1) != 1 || math.Abs(e.G(0)-max(1-e.TieBreak(), 5.0/6)) > 1e-15 {
		t.Errorf("G(-1) = %v, G(0) = %v", e.G(-1), e.G(0))
	}
}

func TestEqualTurnsRefusesOtherGames(t *testing.T) {
	for _, g := range []sim.Game{sim.TwoDice, sim.Hog} {
		v := sim.Standard(g)
		v.EqualTurns = true
		if _, err := SolveEqualTurns(v); err == nil {
			t.Errorf("%v with equal turns was solved", g)
		}
	}
}

// TestEqualTurnsDuels: policy evaluation under equal turns agrees with the
// solved table (optimal against itself) and with the simulator.
func TestEqualTurnsDuels(t *testing.T) {
	v := equalPig()
	e, err := SolveEqualTurns(v)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Duel(v, e, e)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(p-e.FirstPlayerWin()) > 1e-12 {
		t.Errorf("optimal against itself under equal turns: %.15f, solved %.15f", p, e.FirstPlayerWin())
	}
	for _, pair := range [][2]sim.Strategy{{sim.HoldAt(20), sim.HoldAt(20)}, {sim.KeepPace{}, NewEVPlay(v)}, {e, sim.HoldAt(25)}} {
		exact, err := Duel(v, pair[0], pair[1])
		if err != nil {
			t.Fatal(err)
		}
		r, err := sim.Simulate(context.Background(), sim.SimConfig{Variant: v, Players: pair[:], Games: 200000, Key: sim.SimKey("equal duel")})
		if err != nil {
			t.Fatal(err)
		}
		if lo, hi := r.CI95(0); exact < lo || exact > hi {
			t.Errorf("%v against %v: exact %.4f, simulated %.4f [%.4f, %.4f]", pair[0], pair[1], exact, r.WinRate(0), lo, hi)
		}
		t.Logf("%v against %v under equal turns: %.6f", pair[0], pair[1], exact)
	}
	if _, err := Duel(v, sim.HoldAt(1000), sim.HoldAt(20)); err == nil {
		t.Error("a strategy rolling past the cap was evaluated")
	}
}
