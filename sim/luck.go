package sim

import "sync"

// ExpectedGain returns the points one roll adds on average to score plus
// turn total in a Pig game (a bust loses the turn total, a wipe the score
// too), or the points n dice score on average in Hog. It is what the same
// decision would expect, against which Luck measures the dice.
func ExpectedGain(g Game, score, turnTotal, n int) float64 {
	e := expectations(g, n)
	return e.mean - e.bust*float64(turnTotal) - e.wipe*float64(score)
}

// Gain returns the points a roll with faces f actually added to score plus
// turn total.
func Gain(g Game, score, turnTotal int, f *Faces) float64 {
	points, bust, wipe := RollPoints(g, f)
	switch {
	case wipe:
		return -float64(turnTotal + score)
	case bust && !g.ChoosesDice():
		return -float64(turnTotal)
	}
	return float64(points)
}

// Luck returns how many points the dice gave above (or below) what the
// same roll expects.
func Luck(g Game, score, turnTotal int, f *Faces) float64 {
	return Gain(g, score, turnTotal, f) - ExpectedGain(g, score, turnTotal, f.Len())
}

type expectation struct{ mean, bust, wipe float64 }

var expectationCache sync.Map // [2]int{game, dice} -> expectation

// expectations enumerates the throws of a roll, with their exact weights;
// a throw of n chosen pieces is worked out from one piece (any number).
func expectations(g Game, n int) expectation {
	r := g.Rules()
	if r.Turn == ManyRolls {
		n = r.Pieces
	}
	key := [2]int{int(g), n}
	if e, ok := expectationCache.Load(key); ok {
		return e.(expectation)
	}
	var e expectation
	if r.Turn == OneThrow {
		e.mean = r.MeanPoints(n)
	} else {
		outcomes, total := r.Outcomes(n)
		for _, o := range outcomes {
			switch o.Effect {
			case Wipes:
				e.wipe += float64(o.Weight)
				e.bust += float64(o.Weight)
			case Busts:
				e.bust += float64(o.Weight)
			default:
				e.mean += float64(o.Weight) * float64(o.Points)
			}
		}
		e.mean /= float64(total)
		e.bust /= float64(total)
		e.wipe /= float64(total)
	}
	expectationCache.Store(key, e)
	return e
}
