package solve

import (
	"fmt"

	"pigclass/sim"
)

// After returns the mover's chance of winning under perfect play once the
// dice of their throw at own score i, opponent's score j and turn total k
// (0 in Hog) have shown f: the value of the position the dice made.
func (t *Table) After(i, j, k int, f *sim.Faces) float64 {
	g := t.variant.Game
	points, bust, wipe := sim.RollPoints(g, f)
	if g.ChoosesDice() {
		if i+points >= t.target {
			return 1
		}
		return 1 - t.Win(j, i+points, 0)
	}
	switch {
	case wipe:
		return 1 - t.Win(j, 0, 0)
	case bust:
		return 1 - t.Win(j, i, 0)
	}
	return t.Win(i, j, k+points)
}

// Luck returns how much the dice of a throw changed the mover's chance of
// winning, in win probability: the chance after them (After) minus the
// chance the same throw had before it, averaged over every way the dice
// can fall (the option's value in Advise). Over the faces it averages to
// zero; with each decision's cost (the option's value below the best) it
// accounts for every change of a game's chances: from a position of value
// V, a throw that costs c and has luck u leads to V - c + u.
func (t *Table) Luck(i, j, k int, a sim.Action, f *sim.Faces) (float64, error) {
	adv := t.Advise(i, j, k)
	before, ok := adv.Win(a)
	if !ok || a.Kind == sim.HoldKind {
		return 0, fmt.Errorf("luck: %v throws no dice in %v", a, t.variant.Game)
	}
	return t.After(i, j, k, f) - before, nil
}
