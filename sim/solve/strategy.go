package solve

import (
	"fmt"
	"strings"

	"pigclass/sim"
)

// Optimal is the bot that plays the solved table. With more than two
// players the position's opponent is the leading one, so it reads the
// two-player table against the leader: an approximation.
type Optimal struct{ T *Table }

// Decide plays the best option of the table.
func (o Optimal) Decide(p sim.Position) sim.Action {
	t := o.T
	i, j, k := p.Score, p.Opponent, p.TurnTotal
	if t.row == nil {
		return o.T.Advise(i, min(j, t.target-1), 0).Best
	}
	switch {
	case i+k >= t.target:
		return sim.Hold // only reached under equal turns: bank the target
	case j >= t.target:
		return sim.Roll // the leader is past the target (3-4 seats): chase
	}
	if t.rollValue(i, j, k) > 1-t.Win(j, i+k, 0) {
		return sim.Roll
	}
	return sim.Hold
}

// String returns "optimal".
func (Optimal) String() string { return sim.PerfectBot }

// EVPlay is expected-value play: in the Pig games roll while one more roll
// adds more points on average than it risks (hold at 20 in one-die Pig), in
// Hog throw the number of dice with the most expected points (5). It looks
// at the points of this turn only, whatever the target.
type EVPlay struct {
	dist rollDist
	dice int
}

// NewEVPlay returns expected-value play for variant v.
func NewEVPlay(v sim.Variant) EVPlay {
	if v.Game.ChoosesDice() {
		return EVPlay{dice: v.Game.Rules().EVPieces(v.MaxDice)}
	}
	return EVPlay{dist: rollDistOf(v.Game)}
}

// Decide applies the expected-value rule.
func (e EVPlay) Decide(p sim.Position) sim.Action {
	if e.dice > 0 {
		return sim.Dice(e.dice)
	}
	if e.dist.evRolls(p.Score, p.TurnTotal) {
		return sim.Roll
	}
	return sim.Hold
}

// String returns "ev".
func (EVPlay) String() string { return sim.EVBot }

// StrategyNames lists every strategy ParseStrategy reads.
const StrategyNames = "optimal, ev, hold:N, kper, dice:N (Hog)"

// CheckStrategy reports why ParseStrategy would refuse name for v, without
// solving anything: optimal asks only whether v's table can be solved.
func CheckStrategy(name string, v sim.Variant) error {
	if name == sim.MysteryBot {
		// Its strongest strength is perfect play: it needs the table.
		if v.Game.ChoosesDice() {
			return fmt.Errorf("strategy %s: the mystery bot plays games of many rolls, not %s", name, v.Game.Title())
		}
		if err := CheckStrategy(sim.PerfectBot, v); err != nil {
			return fmt.Errorf("strategy %s: %w", name, err)
		}
		return nil
	}
	if name != sim.PerfectBot {
		_, err := ParseStrategy(name, v, nil)
		return err
	}
	k := Key(v, v.EqualTurns)
	err := checkVariant(k)
	if err == nil && v.EqualTurns {
		err = checkEqualTurns(k)
	}
	if err != nil {
		return fmt.Errorf("strategy optimal: %w", err)
	}
	return nil
}

// ParseStrategy reads a strategy for variant v: optimal and ev, or any of
// sim.ParseStrategy's. tables supplies the solved table optimal plays,
// solved here if need be (see CheckStrategy to check a name without).
func ParseStrategy(name string, v sim.Variant, tables *Cache) (sim.Strategy, error) {
	switch name {
	case sim.PerfectBot:
		if v.EqualTurns {
			e, err := tables.GetEqual(v)
			if err != nil {
				return nil, fmt.Errorf("strategy optimal: %w", err)
			}
			return e, nil
		}
		t, err := tables.Get(v)
		if err != nil {
			return nil, fmt.Errorf("strategy optimal: %w", err)
		}
		return Optimal{t}, nil
	case sim.EVBot:
		return NewEVPlay(v), nil
	case sim.MysteryBot:
		return nil, fmt.Errorf("strategy %s: its strength is drawn from a match's seed, so it plays in a class; here name one of its strengths: %s", name, strings.Join(sim.MysteryStrengths(v.Game), ", "))
	}
	s, err := sim.ParseStrategy(name, v.Game)
	if err != nil {
		return nil, fmt.Errorf("%w (or optimal, ev)", err)
	}
	return s, nil
}
