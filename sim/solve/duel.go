package solve

import (
	"fmt"
	"math"

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
// second in a two-player match of v: policy evaluation of the two
// strategies over the same states as the solver, not sampling.
func Duel(v sim.Variant, first, second sim.Strategy) (float64, error) {
	if err := checkVariant(v); err != nil {
		return 0, err
	}
	if v.EqualTurns {
		return DuelEqualTurns(v, first, second)
	}
	return DuelChoices(ChoicesOf(v, first), ChoicesOf(v, second))
}

// DuelChoices is Duel of two strategies whose choices were asked
// beforehand (ChoicesOf), as a tournament asks each entry once.
//
// With the choices fixed a duel is one pass of the layers from the
// highest score sum down, as the solver's (evaluate), with nothing to
// choose: a pair's two turn-start values are linear in each other, and
// one sweep of each side and the 2×2 system solved give them exactly. No
// iteration to a tolerance, except around the layers for Two-Dice Pig's
// double 1s, which send a player to a lower layer. Only turn-start values
// are kept (a hold and a bust lead to one), and a turn is swept only up
// to where its strategy holds.
func DuelChoices(first, second *Choices) (float64, error) {
	v := first.variant
	if second.variant != v {
		return 0, fmt.Errorf("solve: duel: the choices are of two variants, %v and %v", v, second.variant)
	}
	if err := checkVariant(v); err != nil {
		return 0, err
	}
	if v.EqualTurns {
		return 0, fmt.Errorf("solve: duel: equal turns are evaluated by DuelEqualTurns")
	}
	e := newLayers(v)
	T := e.T
	// mine[i*T+j]: first's chance at the start of its turn at (i, j);
	// theirs[j*T+i]: second's at (j, i).
	mine, theirs := make([]float64, T*T), make([]float64, T*T)
	for pass := 0; ; pass++ {
		var before []float64
		if e.dist.wipe > 0 {
			before = e.wipeValues(mine, theirs)
		}
		for s := 2*T - 2; s >= 0; s-- {
			for i := max(0, s-T+1); i <= min(s, T-1); i++ {
				j := s - i
				a, b := e.turn(first, mine, theirs, i, j)
				c, d := e.turn(second, theirs, mine, j, i)
				y, x := e.pair(a, b, c, d, mine[i*T+j], theirs[j*T+i])
				mine[i*T+j], theirs[j*T+i] = y, x
			}
		}
		if before == nil {
			return mine[0], nil
		}
		change := 0.0
		for n, v := range e.wipeValues(mine, theirs) {
			change = max(change, math.Abs(v-before[n]))
		}
		if change < pairTol {
			return mine[0], nil
		}
		if pass > 10000 {
			return 0, fmt.Errorf("solve: duel: the wipe values did not converge")
		}
	}
}

// layers is a duel's working memory: the variant's dice and one turn's
// values as lines in the pair's unknown (a + b·x by turn total).
type layers struct {
	T, maxPts int
	dist      rollDist
	hog       throwSums
	a, b      []float64
}

func newLayers(v sim.Variant) *layers {
	e := &layers{T: v.Target}
	if v.Game.ChoosesDice() {
		e.hog = newThrowSums(v.Game, v.MaxDice)
		return e
	}
	e.dist = rollDistOf(v.Game)
	e.maxPts = e.dist.points[len(e.dist.points)-1]
	e.a, e.b = make([]float64, e.T+e.maxPts), make([]float64, e.T+e.maxPts)
	return e
}

// wipeValues are the turn starts (j, 0) of both players, where a wipe
// leads.
func (e *layers) wipeValues(mine, theirs []float64) []float64 {
	out := make([]float64, 0, 2*e.T)
	for j := range e.T {
		out = append(out, mine[j*e.T], theirs[j*e.T])
	}
	return out
}

// pair solves y = a + b·x, x = c + d·y, the turn starts of a pair. A pair
// where both players hold on nothing has no single solution (the game
// never ends there): it is iterated from the stored values as the
// solver's solvePair does, which settles where it starts.
func (e *layers) pair(a, b, c, d, y, x float64) (float64, float64) {
	if det := 1 - b*d; det > 1e-9 {
		y = (a + b*c) / det
		return y, c + d*y
	}
	y, x = clamp01(y), clamp01(x)
	for range maxPairIterations {
		ny, nx := a+b*x, c+d*y
		if math.Abs(nx-x) < pairTol && math.Abs(ny-y) < pairTol {
			return ny, nx
		}
		x, y = nx, ny
	}
	return y, x
}

// turn returns the chance of the player whose choices are c at the start
// of its turn at (i, j), as a + b·x with x the other's chance at the start
// of its turn at (j, i): own are the mover's turn starts, other the
// other's, both by (own score, opponent's score).
func (e *layers) turn(c *Choices, own, other []float64, i, j int) (float64, float64) {
	if c.throws != nil {
		return e.throw(c, other, i, j)
	}
	T := e.T
	d := &e.dist
	A, B := e.a, e.b
	holdRow := other[j*T:] // holdRow[x]: the other's turn start at (j, x)
	end := T - i           // a turn total from here on has won
	h := int(c.hold[i*T+j])
	var rolls []bool
	if h < 0 {
		rolls, h = c.rolls[int32(i*T+j)], end
	}
	if h == 0 {
		return 1, -1 // holding on nothing passes to (j, i)
	}
	// The turn totals a roll below the mark reaches: held, or won.
	for k := h; k < h+e.maxPts; k++ {
		if k >= end {
			A[k], B[k] = 1, 0
		} else {
			A[k], B[k] = 1-holdRow[i+k], 0
		}
	}
	bust := d.bust - d.wipe
	wipe := 0.0
	if d.wipe > 0 {
		wipe = d.wipe * (1 - other[j*T])
	}
	// held is the value of holding at k (k > 0) or, at 0, passing.
	held := func(k int) (float64, float64) {
		if k == 0 {
			return 1, -1
		}
		return 1 - holdRow[i+k], 0
	}
	if d.run > 0 {
		return e.slide(rolls, h, bust+wipe, -bust, held)
	}
	for k := h - 1; k >= 0; k-- {
		if rolls != nil && !rolls[k] {
			A[k], B[k] = held(k)
			continue
		}
		A[k], B[k] = d.rolled(A, B, k, bust+wipe, -bust)
	}
	return A[0], B[0]
}

// slide is turn's sweep below the mark h for Pig, whose scoring rolls
// are as likely and score a run of points: the sum of the values a roll
// reaches slides with the turn total, one value in and one out. a and b
// are what a roll's bust (and wipe) give; rolls, if not nil, says where
// the strategy holds below h instead (held).
func (e *layers) slide(rolls []bool, h int, a, b float64, held func(int) (float64, float64)) (float64, float64) {
	d, A, B := &e.dist, e.a, e.b
	p0, pm := d.points[0], e.maxPts
	sa, sb := 0.0, 0.0
	for _, pts := range d.points {
		sa += A[h-1+pts]
		sb += B[h-1+pts]
	}
	for k := h - 1; k >= 0; k-- {
		if rolls != nil && !rolls[k] {
			A[k], B[k] = held(k)
		} else {
			A[k], B[k] = a+d.run*sa, b+d.run*sb
		}
		if k > 0 {
			sa += A[k-1+p0] - A[k+pm]
			sb += B[k-1+p0] - B[k+pm]
		}
	}
	return A[0], B[0]
}

// throw is turn for Hog: the dice the choices throw at (i, j), each sum
// passing the turn to the other at (j, i + sum), a 1 to (j, i).
func (e *layers) throw(c *Choices, other []float64, i, j int) (float64, float64) {
	T := e.T
	n := int(c.throws[i*T+j])
	q0 := e.hog.zero(n)
	v := q0
	for sum, p := range e.hog.sum[n] {
		switch {
		case p == 0:
		case i+sum >= T:
			v += p
		default:
			v += p * (1 - other[j*T+i+sum])
		}
	}
	return v, -q0
}
