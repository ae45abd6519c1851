package solve

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"pigclass/sim"
)

// Perfect is perfect play for N players as a strategy: the best option of
// the N-player table at the players' scores (sim.Position.InPlay). With
// fewer players still in than the table's (someone out) it plays the
// two-player table against the leader. The last turn start's analysis is
// kept, so the decisions of one turn cost one pass over its turn totals.
type Perfect struct {
	M   *MultiTable
	Two *Table // for a match that lost players; may be nil

	mu   sync.Mutex
	last *multiTurn
}

// Decide plays the table's best option.
func (s *Perfect) Decide(p sim.Position) sim.Action {
	in := p.Scores()
	if len(in) != s.M.n {
		if s.Two == nil {
			return sim.Hold
		}
		return Optimal{s.Two}.Decide(p)
	}
	s.mu.Lock()
	t := s.last
	if t == nil || !slices.Equal(t.p, in) {
		t = s.M.turnInto(t, in) // the last turn's memory, not a new one's
		s.last = t
	}
	a := t.advise(p.TurnTotal).Best
	s.mu.Unlock()
	return a
}

// String returns "optimal".
func (*Perfect) String() string { return sim.PerfectBot }

// Fork returns the same player with a turn analysis of its own, for
// another goroutine (sim.Simulate's workers).
func (s *Perfect) Fork() sim.Strategy { return &Perfect{M: s.M, Two: s.Two} }

// MaxDuelBytes is the most memory DuelMulti may take.
const MaxDuelBytes = 512 << 20

// duelBytes is the memory DuelMulti takes for v: every turn start (the
// scores of all, the mover) with every player's chance.
func duelBytes(v sim.Variant) int64 { return startsTimes(v, int64(8*v.Seats*v.Seats)) }

// DuelMulti returns the exact chance of winning of each seat of a match of
// v between the strategies, one a seat, seat 0 moving first: policy
// evaluation of the fixed strategies over every turn start (every player's
// score and who moves), not sampling. Turn starts are evaluated by layers
// of equal banked sum from the top; the n turn starts of the same scores
// (a bust passes the turn round them) are solved together exactly, and
// Two-Dice Pig's wipes, which lead to a lower layer, are iterated to a
// fixed point. A strategy is asked at every turn total of every turn
// start, as the engine would ask it (the number of rolls in the turn is
// not known: no strategy of pigclass reads it). Equal turns are for two
// players only (Duel).
func DuelMulti(v sim.Variant, strategies []sim.Strategy) ([]float64, error) {
	if err := v.Validate(); err != nil {
		return nil, err
	}
	n, T := v.Seats, v.Target
	if len(strategies) != n {
		return nil, fmt.Errorf("solve: %d strategies for %d seats", len(strategies), n)
	}
	if err := CheckDuelMulti(v); err != nil {
		return nil, err
	}
	e := &multiDuel{v: v, n: n, T: T, strategies: strategies, shape: &MultiTable{n: n, t: T}}
	e.w = make([]float64, duelBytes(v)/8)
	if v.Game.ChoosesDice() {
		e.hog = newThrowSums(v.Game, v.MaxDice)
	} else {
		e.dist = rollDistOf(v.Game)
	}
	for pass := 0; ; pass++ {
		change := e.sweep()
		if e.dist.wipe == 0 || change < 1e-14 {
			break
		}
		if pass > 1000 {
			return nil, fmt.Errorf("solve: the wipes' values did not settle")
		}
	}
	return slices.Clone(e.at(make([]int, n), 0)), nil
}

// CheckDuelMulti reports why DuelMulti would refuse v, before any work (a
// strategy that reads a table need not be solved for a refused duel).
func CheckDuelMulti(v sim.Variant) error {
	switch n, T := v.Seats, v.Target; {
	case v.EqualTurns:
		return fmt.Errorf("solve: equal turns are evaluated for two players only")
	case T > MaxTarget:
		return fmt.Errorf("solve: target %d: the solver takes targets from %d to %d", T, sim.MinTarget, MaxTarget)
	case duelBytes(v) > MaxDuelBytes:
		return fmt.Errorf("solve: %d players to %d take %d MB to evaluate, over the %d MB allowed", n, T, duelBytes(v)>>20, MaxDuelBytes>>20)
	}
	return nil
}

// multiDuel is a policy evaluation in progress.
type multiDuel struct {
	v          sim.Variant
	n, T       int
	strategies []sim.Strategy
	shape      *MultiTable // its index and eachOfSum
	w          []float64   // w[(index(s)·n + mover)·n + seat]
	dist       rollDist
	hog        throwSums
}

// at is every seat's chance at the turn start of mover with scores s (by
// seat).
func (e *multiDuel) at(s []int, mover int) []float64 {
	i := (e.shape.index(s)*e.n + mover) * e.n
	return e.w[i : i+e.n]
}

// sweep evaluates every turn start once, from the top layer down, and
// returns the largest change of a value.
func (e *multiDuel) sweep() float64 {
	n := e.n
	change := 0.0
	p := make([]int, n)
	A := make([][]float64, n) // each mover's turn: what it leads to but the pass
	for m := range A {
		A[m] = make([]float64, n)
	}
	c := make([]float64, n) // each mover's chance of passing the turn with the same scores
	xs := make([][]float64, n)
	for m := range xs {
		xs[m] = make([]float64, n)
	}
	for sum := n * (e.T - 1); sum >= 0; sum-- {
		e.shape.eachOfSum(sum, p, func(s []int) {
			for m := range n {
				c[m] = e.turn(s, m, A[m])
			}
			// x_m = A_m + c_m·x_{m+1} round the movers: x_0 first,
			// then the others back from the last.
			x := xs[0]
			prod := 1.0
			clear(x)
			for m := range n {
				for r := range n {
					x[r] += prod * A[m][r]
				}
				prod *= c[m]
			}
			if prod < 1 {
				for r := range n {
					x[r] /= 1 - prod
				}
			} else {
				clear(x) // no one ever banks: no one wins
			}
			for m := n - 1; m > 0; m-- {
				for r := range n {
					xs[m][r] = A[m][r] + c[m]*xs[(m+1)%n][r]
				}
			}
			for m := range n {
				w := e.at(s, m)
				for r := range n {
					change = max(change, math.Abs(w[r]-xs[m][r]))
					w[r] = xs[m][r]
				}
			}
		})
	}
	return change
}

// turn fills a with what the turn of mover at scores s leads to, every
// seat's chance weighted, but for the turn passing with the scores as they
// are, whose chance it returns.
func (e *multiDuel) turn(s []int, mover int, a []float64) float64 {
	clear(a)
	n, T := e.n, e.T
	next := (mover + 1) % n
	pos := e.position(s, mover)
	bank := func(q float64, add int) { // the mover banks add points
		if s[mover]+add >= T {
			a[mover] += q
			return
		}
		s[mover] += add
		for r, v := range e.at(s, next) {
			a[r] += q * v
		}
		s[mover] -= add
	}
	if e.v.Game.ChoosesDice() {
		d := int(e.strategies[mover].Decide(pos).Dice)
		d = min(max(d, 1), e.v.MaxDice)
		for sum, q := range e.hog.sum[d] {
			if q > 0 && sum > 0 {
				bank(q, sum)
			}
		}
		return e.hog.zero(d)
	}
	pass := 0.0
	reach := make([]float64, T-s[mover])
	reach[0] = 1
	for k, q := range reach {
		if q == 0 {
			continue
		}
		pos.TurnTotal = k
		if e.strategies[mover].Decide(pos) != sim.Roll {
			if k == 0 {
				pass += q // holding on nothing passes the turn
			} else {
				bank(q, k)
			}
			continue
		}
		pass += q * (e.dist.bust - e.dist.wipe)
		if w := q * e.dist.wipe; w > 0 {
			if s[mover] == 0 {
				pass += w // a wipe of nothing is a bust
			} else {
				old := s[mover]
				s[mover] = 0
				for r, v := range e.at(s, next) {
					a[r] += w * v
				}
				s[mover] = old
			}
		}
		for i, pts := range e.dist.points {
			if k+pts >= len(reach) {
				a[mover] += q * e.dist.probs[i] // reaches the target: wins at once
			} else {
				reach[k+pts] += q * e.dist.probs[i]
			}
		}
	}
	return pass
}

// position is what the mover at scores s (by seat) sees at a turn start,
// as the engine shows it (seat 0 moving first).
func (e *multiDuel) position(s []int, mover int) sim.Position {
	st := sim.NewState(e.v, 0)
	copy(st.Scores[:], s)
	st.Seat = mover
	return st.Position()
}
