package solve

import "math"

// pairTol is how close two successive estimates of a pair's turn-start
// values must be to stop iterating.
const pairTol = 1e-15

// side is one half of a pair of states: the turn-start value of the player
// to move at (i, j) as a function of the other half's turn-start value x.
type side interface {
	// sweep computes the values of this side's states as A + B·x with the
	// choices made at the estimate xe, and returns A and B of the turn-start
	// state and the interval [lo, hi] of x in which every choice made stays
	// the best (±Inf for fixed choices).
	sweep(xe float64) (a, b, lo, hi float64)
	// write stores the values of the last sweep at x.
	write(x float64)
	// start returns the stored turn-start value (an estimate before solving).
	start() float64
}

// solvePair solves the pair (mine, theirs): mine's turn-start value y and
// theirs' x satisfy y = a + b·x and x = c + d·y for the choices made. The
// choices are made at the current estimate, the 2×2 system solved exactly,
// and the estimate moved there; once the solution lies where the choices
// hold, it is exact. Should that ever cycle, it falls back to value
// iteration, which converges because a turn passes with nothing with
// probability below 1. With theirs nil the pair is one state set against
// itself (i = j in a symmetric table): y = a + b·y.
func solvePair(mine, theirs side) {
	y := clamp01(mine.start())
	x := y
	if theirs != nil {
		x = clamp01(theirs.start())
	}
	for it := 0; it < maxPairIterations; it++ {
		newton := it < newtonIterations
		a, b, lo, hi := mine.sweep(x)
		if theirs == nil {
			ny := a + b*x
			exact := newton && 1-b > 1e-9
			if exact {
				ny = a / (1 - b)
			}
			if (exact && ny >= lo && ny <= hi) || math.Abs(ny-y) < pairTol {
				mine.write(ny)
				return
			}
			x, y = ny, ny
			continue
		}
		c, d, lo2, hi2 := theirs.sweep(y)
		ny, nx := a+b*x, c+d*y
		det := 1 - b*d
		exact := newton && det > 1e-9
		if exact {
			ny = (a + b*c) / det
			nx = c + d*ny
		}
		if (exact && nx >= lo && nx <= hi && ny >= lo2 && ny <= hi2) || (math.Abs(nx-x) < pairTol && math.Abs(ny-y) < pairTol) {
			mine.write(nx)
			theirs.write(ny)
			return
		}
		x, y = nx, ny
	}
	panic("solve: a pair of states did not converge")
}

// Newton steps tried before falling back to value iteration, and the most
// iterations in all.
const (
	newtonIterations  = 30
	maxPairIterations = 100000
)

// clamp01 returns a stored value as a first estimate: 0 (not solved yet) or
// anything outside [0, 1] becomes 1/2. (At an estimate of 0 holding on
// nothing looks best for both players, a cycle with no solution.)
func clamp01(v float64) float64 {
	if v <= 0 || v > 1 || math.IsNaN(v) {
		return 0.5
	}
	return v
}

// narrow shrinks [lo, hi] to the x where the sign of dA + dB·x stays as
// chosen: positive when the first option was taken, not positive otherwise.
func narrow(lo, hi, dA, dB float64, took bool) (float64, float64) {
	if dB == 0 {
		return lo, hi
	}
	// Plain comparisons, not max and min: no NaN comes here, and the
	// builtins' care for NaN and signed zeros costs the solver's inner
	// loop a fifth of its time.
	root := -dA / dB
	switch {
	case took != (dB > 0):
		if root < hi {
			hi = root
		}
	case root > lo:
		lo = root
	}
	return lo, hi
}

// better chooses between rolling (rA + rB·x) and holding (hA + hB·x) at
// the estimate xe, ties holding, narrows [lo, hi] to the x where that
// choice stands, and returns the chosen line.
func better(rA, rB, hA, hB, xe, lo, hi float64) (a, b, nlo, nhi float64) {
	dA, dB := rA-hA, rB-hB
	roll := dA+dB*xe > 0
	lo, hi = narrow(lo, hi, dA, dB, roll)
	if roll {
		return rA, rB, lo, hi
	}
	return hA, hB, lo, hi
}
