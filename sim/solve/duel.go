package solve

import (
	"context"
	"pigclass/sim"
)

// strategyPolicy asks a strategy for its choice in each state.
type strategyPolicy struct {
	s sim.Strategy
	v sim.Variant
}

func (p strategyPolicy) position(i, j, k int) sim.Position {
	return sim.Position{Variant: p.v, Score: i, Opponent: j, TurnTotal: k}
}

func (p strategyPolicy) roll(i, j, k int) bool {
	return p.s.Decide(p.position(i, j, k)) == sim.Roll
}

func (p strategyPolicy) dice(i, j int) int {
	return int(p.s.Decide(p.position(i, j, 0)).Dice)
}

// Duel returns the exact probability that first, moving first, beats
// second in a two-player match of v: policy evaluation of the two strategies
// over the same states as the solver, not sampling.
func Duel(v sim.Variant, first, second sim.Strategy) (float64, error) {
	if err := checkVariant(v); err != nil {
		return 0, err
	}
	if v.EqualTurns {
		return DuelEqualTurns(v, first, second)
	}
	t := newTable(v)
	mine, theirs := t.p, make([]float64, len(t.p))
	err := t.evaluate(context.Background(), mine, theirs, strategyPolicy{first, v}, strategyPolicy{second, v})
	return mine[0], err
}
