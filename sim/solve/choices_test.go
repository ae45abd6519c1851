package solve

import (
	"context"
	"math"
	"testing"

	"pigclass/sim"
)

// evaluated is the duel the general evaluation gives (the solver's
// layered pass with the strategies asked in every state, evaluate): what
// Duel computed before it read choices asked once.
func evaluated(t *testing.T, v sim.Variant, first, second sim.Strategy) float64 {
	t.Helper()
	tab := newTable(v)
	mine, theirs := tab.p, make([]float64, len(tab.p))
	if err := tab.evaluate(context.Background(), mine, theirs, strategyPolicy{first, v}, strategyPolicy{second, v}); err != nil {
		t.Fatal(err)
	}
	return mine[0]
}

// rollsAt is whether choices c roll at (i, j, k), read as the duel reads
// them: below the mark, or the turn's own choice where it has none.
func (c *Choices) rollsAt(i, j, k int) bool {
	T := c.variant.Target
	if h := c.hold[i*T+j]; h >= 0 {
		return k < int(h)
	}
	return c.rolls[int32(i*T+j)][k]
}

// oddRoller rolls at odd turn totals and below 4, holds at the rest:
// choices not of the shape "roll below a mark", so its turns are kept
// choice by choice.
type oddRoller struct{}

func (oddRoller) Decide(p sim.Position) sim.Action {
	if p.Variant.Game.ChoosesDice() {
		return sim.Action{Kind: sim.DiceKind, Dice: uint8(1 + (p.Score+p.Opponent)%p.Variant.MaxDice)}
	}
	if p.TurnTotal < 4 || p.TurnTotal%2 == 1 && p.Score < 60 {
		return sim.Roll
	}
	return sim.Hold
}

func (oddRoller) String() string { return "odd" }

// TestDuelOfChoicesIsTheGeneralEvaluation: the duel that reads choices
// asked once and sweeps a turn only up to its mark is the general
// evaluation's number, to 1e-12, in every game, for strategies of the
// usual shape, strategies that are not, perfect play and a strategy that
// holds on nothing somewhere; and a choice's shape is found as it is.
func TestDuelOfChoicesIsTheGeneralEvaluation(t *testing.T) {
	for _, g := range []sim.Game{sim.Pig, sim.TwoDice, sim.BigPig, sim.Hog, sim.PassPigs} {
		v := sim.Standard(g)
		v.Target = 30
		tab, err := Solve(v)
		if err != nil {
			t.Fatal(err)
		}
		hold := g.Rules().HoldAt
		strategies := []sim.Strategy{sim.HoldAt(hold), sim.HoldAt(1), oddRoller{}, Optimal{tab}, sim.KeepPace{}, NewEVPlay(v)}
		if g.ChoosesDice() {
			strategies = []sim.Strategy{sim.ThrowDice(5), sim.ThrowDice(1), oddRoller{}, Optimal{tab}, NewEVPlay(v)}
		}
		for _, a := range strategies {
			for _, b := range strategies {
				got, err := Duel(v, a, b)
				if err != nil {
					t.Fatal(err)
				}
				if want := evaluated(t, v, a, b); math.Abs(got-want) > 1e-12 || got <= 0 || got >= 1 {
					t.Errorf("%v: %v against %v: %.15f, the general evaluation %.15f", g, a, b, got, want)
				}
			}
		}
		if got, _ := Duel(v, Optimal{tab}, Optimal{tab}); math.Abs(got-tab.FirstPlayerWin()) > 1e-12 {
			t.Errorf("%v: perfect play against itself %.15f, the table %.15f", g, got, tab.FirstPlayerWin())
		}
		if !g.ChoosesDice() {
			odd := ChoicesOf(v, oddRoller{})
			if odd.hold[0] != -1 || len(odd.rolls) == 0 || !odd.rollsAt(0, 0, 5) || odd.rollsAt(0, 0, 6) {
				t.Errorf("%v: odd roller's turn at (0, 0) kept as mark %d, %d turns choice by choice", g, odd.hold[0], len(odd.rolls))
			}
			if h := ChoicesOf(v, sim.HoldAt(hold)); h.hold[0] != int16(hold) || h.rolls != nil {
				t.Errorf("%v: hold at %d kept as mark %d at (0, 0), %d turns choice by choice", g, hold, h.hold[0], len(h.rolls))
			}
		}
	}
}

// TestDuelOfTwoVariantsIsRefused: choices asked in two variants make no
// duel.
func TestDuelOfTwoVariantsIsRefused(t *testing.T) {
	a, b := sim.Standard(sim.Pig), sim.Standard(sim.Pig)
	b.Target = 50
	if _, err := DuelChoices(ChoicesOf(a, sim.HoldAt(20)), ChoicesOf(b, sim.HoldAt(20))); err == nil {
		t.Error("a duel of Pig to 100 against Pig to 50 was played")
	}
}
