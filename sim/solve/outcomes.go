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
//
// Why it is fast. Published solvers (Neller and Presser 2004) sweep each
// layer's states by value iteration until nothing changes; here each pair
// is solved exactly, and the first guess of a pair's turn-start values is
// the mean of its two neighbours in the layer above, already solved, so
// that the choices made at the guess are nearly always the right ones:
// 1.13 rounds a pair in Pig to 100, most pairs one sweep of each side. A
// sweep holds every turn total's value as a line in the unknown (two
// numbers), reads a hold's value from the other player's turn starts kept
// one after the other, and reads a roll past the target as won from
// padding, without a branch. BenchmarkSolvePig100 and
// BenchmarkSolvePig100Reference (a plain layered value iteration written
// apart, reference_test.go) compare the two in one run:
//
//	go test ./sim/solve -run X -bench 'SolvePig100(Reference)?$' -cpu 1 -count 5
//
// With more players (MultiTable) the orbits of a turn start's rotations are
// solved the same way, and the work is bounded by memory more than by
// arithmetic. A turn is swept in two passes (sweepFast): back from the
// target, only the mover's own value and its slope (what the choices need;
// Pig's five rolls as a sum that slides with the turn total), then forward
// from the turn start, the chance of coming to each turn total, which
// gathers every player's values from the holds the turn can end in alone.
// The table is compact and kept a player at a time (n-1 chances a turn
// start), so the backward pass reads the mover's chances at the turn
// starts it can hold to in one run; Newton's first estimate is read beside
// the turn start's own place (1.09 rounds an orbit against 1.25); the
// orbits of a layer are shared among the cores where the caller allows it
// (Cache.SetCores: the command line; a server leaves a core to the
// classroom). The command line times the solve apart from the residual's
// check:
//
//	go run ./cmd/pigclass solve --seats 3               # Pig to 100: 1.2-1.4 s
//	go run ./cmd/pigclass solve --seats 4 --target 50   # 3.3-3.6 s, 190 MB
//
// TestFastSweepIsTheOnePassSweep holds the two-pass sweep to the one pass
// over every player's values (multi.go's sweep, kept for mixed choices).
package solve

import (
	"maps"
	"slices"

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
	// even is the one chance every scoring roll has, where they are all
	// as likely (Pig's 2 to 6); else 0. run is even where they also score
	// a run of points, one apart (Pig's again); else 0.
	even, run float64
}

// rollDistOf returns the roll distribution of a game of many rolls, from
// the exact weights of its throws.
func rollDistOf(g sim.Game) rollDist {
	var d rollDist
	add := map[int]float64{}
	outcomes, total := g.Rules().Outcomes(g.Dice())
	ft := float64(total)
	d.outcomes = int(total)
	for _, o := range outcomes {
		w := int(o.Weight)
		switch o.Effect {
		case sim.Wipes:
			d.wipes += w
			d.busts += w
		case sim.Busts:
			d.busts += w
		default:
			add[o.Points] += float64(o.Weight) / ft
			d.pointSum += w * o.Points
		}
	}
	d.bust = float64(d.busts) / ft
	d.wipe = float64(d.wipes) / ft
	for _, p := range slices.Sorted(maps.Keys(add)) {
		d.points = append(d.points, p)
		d.probs = append(d.probs, add[p])
	}
	if len(d.probs) > 0 && slices.Min(d.probs) == slices.Max(d.probs) {
		d.even = d.probs[0]
		if d.points[len(d.points)-1]-d.points[0] == len(d.points)-1 {
			d.run = d.even
		}
	}
	return d
}

// throwSums is a game of one throw of chosen pieces: sum[n][s], the
// probability that n pieces score s (none busts), and zeroes[n], the
// probability that they score nothing.
type throwSums struct {
	sum    [][]float64
	zeroes []float64
}

func newThrowSums(g sim.Game, maxDice int) throwSums {
	r := g.Rules()
	d := throwSums{sum: r.PieceSums(maxDice), zeroes: make([]float64, maxDice+1)}
	for n := range d.zeroes {
		d.zeroes[n] = 1 - r.NoBust(n)
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

// rolled returns the value of rolling at turn total k as a line in the
// pair's unknown: (a, b), what the rolls that score nothing give, plus
// each scoring roll's chance times the value it reaches, A[k+points] +
// B[k+points]·x. With every scoring roll as likely (Pig) the values are
// summed first, as the solver has always summed them.
func (d *rollDist) rolled(A, B []float64, k int, a, b float64) (float64, float64) {
	if d.even > 0 {
		sa, sb := 0.0, 0.0
		for _, pts := range d.points {
			sa += A[k+pts]
			sb += B[k+pts]
		}
		return a + d.even*sa, b + d.even*sb
	}
	for n, pts := range d.points {
		q := d.probs[n]
		a += q * A[k+pts]
		b += q * B[k+pts]
	}
	return a, b
}

// zero returns the probability that n pieces score nothing.
func (d *throwSums) zero(n int) float64 { return d.zeroes[n] }
