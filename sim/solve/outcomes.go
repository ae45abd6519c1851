// Package solve computes exact two-player win probabilities for the games of
// package sim: the solved tables of perfect play, the advice for any
// position (win probability of every option, the best one, the one
// expected-value play takes, the cost of a choice), and exact duels between
// any two strategies by policy evaluation over the same states.
//
// States are solved by layers of equal score sum, from the highest down:
// holding and scoring move to a higher layer, while a bust (or holding on
// nothing) passes the turn within the layer, from (i, j) to (j, i). Each such
// pair is solved together: its two unknowns are linear in each other once the
// choices are fixed, so a few rounds of choosing at the current estimate and
// solving the 2×2 system exactly converge (Newton's method on a piecewise
// linear function). Two-Dice Pig's double 1s send a player to a lower layer
// (their score becomes 0); those values are iterated to a fixed point
// around the layered pass.
package solve

import (
	"math"
	"math/big"

	"pigclass/sim"
)

// rollDist is what one roll of a Pig-family game does to the turn total.
type rollDist struct {
	bust   float64   // the turn ends with nothing (including a wipe)
	wipe   float64   // the score is wiped as well (part of bust)
	points []int     // points a roll can add
	probs  []float64 // their probabilities
	// Exact counts over the 6^dice equally likely rolls, for the
	// expected-value rule: the sum of the points added, the rolls that bust
	// (including wipes) and the rolls that wipe.
	outcomes, pointSum, busts, wipes int
}

// rollDistOf returns the roll distribution of a Pig-family game.
func rollDistOf(g sim.Game) rollDist {
	var d rollDist
	add := map[int]float64{}
	n := g.Dice()
	total := math.Pow(6, float64(n))
	var f sim.Faces
	d.outcomes = int(total)
	for code := 0; code < int(total); code++ {
		dice := make([]int, n)
		c := code
		for i := range dice {
			dice[i] = c%6 + 1
			c /= 6
		}
		f, _ = sim.FacesOf(dice...)
		pts, bust, wipe := sim.RollPoints(g, &f)
		switch {
		case wipe:
			d.wipes++
			d.busts++
		case bust:
			d.busts++
		default:
			add[pts] += 1 / total
			d.pointSum += pts
		}
	}
	d.bust = float64(d.busts) / total
	d.wipe = float64(d.wipes) / total
	for p := 1; p <= 6*n*2+25; p++ {
		if q, ok := add[p]; ok {
			d.points = append(d.points, p)
			d.probs = append(d.probs, q)
		}
	}
	return d
}

// hogDist[n][s] is the probability that n dice show no 1 and sum to s.
type hogDist [][]float64

func newHogDist(maxDice int) hogDist {
	d := make(hogDist, maxDice+1)
	d[0] = []float64{1}
	for n := 1; n <= maxDice; n++ {
		d[n] = make([]float64, 6*n+1)
		for s, p := range d[n-1] {
			for face := 2; face <= 6; face++ {
				d[n][s+face] += p / 6
			}
		}
	}
	return d
}

// evRolls reports whether expected-value play rolls at own score i and turn
// total k: whether one more roll adds more points on average than it puts at
// risk (the turn total on a bust, the score too on a wipe). Ties hold. In
// one-die Pig this is hold at 20: 20/6 > k/6 exactly while k < 20.
func (d *rollDist) evRolls(i, k int) bool {
	return d.pointSum > d.busts*k+d.wipes*i
}

// evDice returns the dice count, up to maxDice, with the most expected
// points n·4·(5/6)^n, compared exactly (5 and 6 tie; ties take fewer dice).
func evDice(maxDice int) int {
	best, bestEV := 1, big.NewRat(0, 1)
	for n := 1; n <= maxDice; n++ {
		// 4n·(5/6)^n
		ev := new(big.Rat).SetFrac(new(big.Int).Mul(big.NewInt(int64(4*n)), new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(n)), nil)),
			new(big.Int).Exp(big.NewInt(6), big.NewInt(int64(n)), nil))
		if ev.Cmp(bestEV) > 0 {
			best, bestEV = n, ev
		}
	}
	return best
}

// zero returns the probability that n dice score nothing (any 1).
func (d hogDist) zero(n int) float64 { return 1 - math.Pow(5.0/6, float64(n)) }
