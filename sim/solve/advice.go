package solve

import (
	"fmt"

	"pigclass/sim"
)

// Advice is the analysis of one decision: the win probability of every
// option under perfect play from then on, the best option, and the option
// expected-value play takes.
type Advice struct {
	Game sim.Game
	// Roll and Hold are the options of the Pig games.
	Roll, Hold float64
	// Dice[n] is the option of throwing n dice in Hog, n from 1 to MaxDice.
	Dice    [sim.MaxDiceLimit + 1]float64
	MaxDice int
	Best    sim.Action // the option with the highest win probability (ties: hold, fewer dice)
	EV      sim.Action // the option expected-value play takes
}

// Advise analyses the decision at own score i, opponent's score j and turn
// total k (0 in Hog). It does not allocate.
func (t *Table) Advise(i, j, k int) Advice {
	a := Advice{Game: t.variant.Game}
	if t.row == nil {
		D := t.variant.MaxDice
		a.MaxDice = D
		base := t.index(i, j, 0) * D
		best := 1
		for n := 1; n <= D; n++ {
			a.Dice[n] = t.hogOpt[base+n-1]
			if a.Dice[n] > a.Dice[best] {
				best = n
			}
		}
		a.Best = sim.Dice(best)
		a.EV = sim.Dice(t.evDice)
		return a
	}
	a.Roll, a.Hold = t.rollValue(i, j, k), 1-t.Win(j, i+k, 0)
	a.Best = sim.Hold
	if a.Roll > a.Hold {
		a.Best = sim.Roll
	}
	a.EV = sim.Hold
	if t.dist.evRolls(i, k) {
		a.EV = sim.Roll
	}
	return a
}

// rollValue is the win probability of rolling at (i, j, k) in a Pig game.
func (t *Table) rollValue(i, j, k int) float64 {
	d := &t.dist
	v := (d.bust-d.wipe)*(1-t.Win(j, i, 0)) + d.wipe*(1-t.Win(j, 0, 0))
	for n, pts := range d.points {
		v += d.probs[n] * t.Win(i, j, k+pts)
	}
	return v
}

// Win returns the win probability of option act, and whether it is an
// option here.
func (a *Advice) Win(act sim.Action) (float64, bool) {
	switch {
	case a.Game.ChoosesDice() && act.Kind == sim.DiceKind && int(act.Dice) >= 1 && int(act.Dice) <= a.MaxDice:
		return a.Dice[act.Dice], true
	case !a.Game.ChoosesDice() && act == sim.Roll:
		return a.Roll, true
	case !a.Game.ChoosesDice() && act == sim.Hold:
		return a.Hold, true
	}
	return 0, false
}

// Cost returns how much win probability option act gives up against the
// best option (0 for the best).
func (a *Advice) Cost(act sim.Action) (float64, error) {
	w, ok := a.Win(act)
	if !ok {
		return 0, fmt.Errorf("advice: %v is not an option in %s", act, a.Game.Title())
	}
	best, _ := a.Win(a.Best)
	return best - w, nil
}

// Option is one choice and its win probability.
type Option struct {
	Action sim.Action
	Win    float64
}

// Options lists the options in a fixed order: roll, hold; or dice:1 up.
func (a *Advice) Options() []Option {
	if !a.Game.ChoosesDice() {
		return []Option{{sim.Roll, a.Roll}, {sim.Hold, a.Hold}}
	}
	out := make([]Option, 0, a.MaxDice)
	for n := 1; n <= a.MaxDice; n++ {
		out = append(out, Option{sim.Dice(n), a.Dice[n]})
	}
	return out
}
