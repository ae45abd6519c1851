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
	case bust && g != Hog:
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

// expectations enumerates the 6^n rolls of n dice (n at most 8; more dice
// are computed from the closed form of Hog).
func expectations(g Game, n int) expectation {
	if g != Hog {
		n = g.Dice()
	}
	key := [2]int{int(g), n}
	if e, ok := expectationCache.Load(key); ok {
		return e.(expectation)
	}
	var e expectation
	if g == Hog {
		// n dice with no 1 score 4 on average each: 4n(5/6)^n.
		p := 1.0
		for range n {
			p *= 5.0 / 6
		}
		e.mean = 4 * float64(n) * p
	} else {
		total := 1
		for range n {
			total *= 6
		}
		var f Faces
		for code := range total {
			f.n = 0
			for c, i := code, 0; i < n; i++ {
				f.push(c%6 + 1)
				c /= 6
			}
			points, bust, wipe := RollPoints(g, &f)
			switch {
			case wipe:
				e.wipe++
				e.bust++
			case bust:
				e.bust++
			default:
				e.mean += float64(points)
			}
		}
		e.mean /= float64(total)
		e.bust /= float64(total)
		e.wipe /= float64(total)
	}
	expectationCache.Store(key, e)
	return e
}
