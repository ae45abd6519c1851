package solve

import (
	"fmt"
	"math"

	"pigclass/sim"
)

// equalDuel is policy evaluation under equal turns, two players: the first
// player (A) moves first in every round, the second (B) closes it.
//
// Only turn starts are kept: A's chance at (a, b) with A to move, and at
// (b, a') with B to move against A's banked a' (a' may be past the target).
// Within a turn the values are worked out from the top turn total down. The
// states of B facing a mark at or past the target depend on no later round;
// the normal rounds are solved by layers of a+b, each A-turn start paired
// with the B-turn start it busts into. Tie-break rounds are played from
// equal scores past the target; the strategies' choices there must depend
// on the scores only through their difference (true of optimal, ev, hold:N
// and kper), and the first player's chance in a tie-break, tau, is the fixed
// point of an affine map, found exactly from two evaluations.
type equalDuel struct {
	v      sim.Variant
	T, K   int // target; the highest turn total A may roll at
	top    int // K plus the most points one roll adds: the highest A reaches
	KB     int // the highest turn total B may roll at: past any mark A sets
	maxPts int
	d      rollDist
	first  sim.Strategy
	second sim.Strategy
	tau    float64
	a0     []float64 // A's turn start: a0[a*T+b]
	b0     []float64 // B's turn start: b0[b*(T+K+1)+a'], a' up to T+K
	// marked says which of B's turn starts facing a mark past the target
	// are worked out: each when a turn of A's first reaches it (mark).
	marked      []bool
	markScratch *turnScratch
	markErr     error
}

// equalDuelCap is how far past the target a turn may go: a strategy still
// rolling there is refused, not guessed.
func equalDuelCap(T int) int { return 2*T + 60 }

// DuelEqualTurns returns the exact probability that first, moving first in
// every round, beats second under equal turns (Pig or Big Pig).
func DuelEqualTurns(v sim.Variant, first, second sim.Strategy) (float64, error) {
	if err := checkVariant(v); err != nil {
		return 0, err
	}
	if !v.Game.Rules().EqualTurns {
		return 0, fmt.Errorf("duel: equal turns are evaluated for %s, not %s; use simulate", EqualTurnsGames(), v.Game.Title())
	}
	T := v.Target
	e := &equalDuel{v: v, T: T, K: equalDuelCap(T), d: rollDistOf(v.Game), first: first, second: second}
	e.maxPts = e.d.points[len(e.d.points)-1]
	e.top = e.K + e.maxPts
	e.KB = 2 * e.K
	e.a0 = make([]float64, T*T)
	e.b0 = make([]float64, T*e.width())
	e.marked, e.markScratch = make([]bool, T*e.width()), newTurnScratch(e.KB+e.maxPts+1)
	if err := e.tieBreak(); err != nil {
		return 0, err
	}
	if err := e.rounds(); err != nil {
		return 0, err
	}
	return e.a0[0], e.markErr
}

// width is the number of marks a' kept per B score: up to T + top.
func (e *equalDuel) width() int { return e.T + e.top + 1 }

func (e *equalDuel) pos(score, opp, k, order int, tie bool) sim.Position {
	return sim.Position{Variant: e.v, Score: score, Opponent: opp, TurnTotal: k, Order: order, TieBreak: tie}
}

// rolls asks a strategy and refuses one that would roll past the cap.
func (e *equalDuel) rolls(s sim.Strategy, p sim.Position, limit int) (bool, error) {
	r := s.Decide(p) == sim.Roll
	if r && p.TurnTotal >= limit {
		return false, fmt.Errorf("duel: %v still rolls at turn total %d under equal turns; use simulate", s, p.TurnTotal)
	}
	return r, nil
}

// turnScratch is the working room of turn, for turn totals 0 to limit +
// maxPts: each one's value, whether the turn can reach it, and whether the
// strategy rolls there.
type turnScratch struct {
	v            [][2]float64
	reach, rolls []bool
}

func newTurnScratch(n int) *turnScratch {
	return &turnScratch{v: make([][2]float64, n), reach: make([]bool, n), rolls: make([]bool, n)}
}

// turn works out one turn. hold(k) is the value of holding at k, bust the
// value of a bust, roll(k) whether the strategy rolls at k (it may not past
// limit; past it the turn has ended); it returns the value at turn total 0.
// Values are affine in one unknown, so each is a pair (constant, slope).
// The turn totals the strategy can reach from 0 are found first, asking
// it at each; then their values from the top down, each the sum the full
// table of turn totals would give (a total the turn cannot reach is never
// part of one that it can), in a fraction of the time: a strategy holds
// long before the cap.
func (e *equalDuel) turn(limit int, hold func(k int) [2]float64, bust [2]float64, roll func(k int) (bool, error), s *turnScratch) ([2]float64, error) {
	d := &e.d
	top := limit + e.maxPts
	clear(s.reach[:top+1])
	s.reach[0] = true
	for k := 0; k <= limit; k++ {
		if !s.reach[k] {
			continue
		}
		r, err := roll(k)
		if err != nil {
			return [2]float64{}, err
		}
		if s.rolls[k] = r; r {
			for _, pts := range d.points {
				s.reach[k+pts] = true
			}
		}
	}
	for k := top; k >= 0; k-- {
		switch {
		case !s.reach[k]:
		case k > limit || !s.rolls[k]:
			s.v[k] = hold(k)
		default:
			v := [2]float64{d.bust * bust[0], d.bust * bust[1]}
			for n, pts := range d.points {
				next := s.v[k+pts]
				v[0] += d.probs[n] * next[0]
				v[1] += d.probs[n] * next[1]
			}
			s.v[k] = v
		}
	}
	return s.v[0], nil
}

func constant(x float64) [2]float64 { return [2]float64{x, 0} }

// endOf is the first player's chance when a round past the target ends at
// A's a against B's b: the higher wins, a tie plays a tie-break.
func endOf(a, b int, tau [2]float64) [2]float64 {
	switch {
	case a > b:
		return constant(1)
	case a < b:
		return constant(0)
	}
	return tau
}

// tieBreak finds tau. A tie-break round starts from equal scores s past the
// target (s = T stands for all); everything is affine in tau.
func (e *equalDuel) tieBreak() error {
	s := e.T
	scratch := newTurnScratch(e.KB + e.maxPts + 1)
	tau := [2]float64{0, 1}
	// B's turn start facing A's lead of dA points: tb[dA].
	tb := make([][2]float64, e.top+1)
	for dA := 0; dA <= e.top; dA++ {
		v, err := e.turn(e.KB,
			func(k int) [2]float64 { return endOf(dA, k, tau) },
			endOf(dA, 0, tau),
			func(k int) (bool, error) { return e.rolls(e.second, e.pos(s, s+dA, k, 1, true), e.KB) },
			scratch)
		if err != nil {
			return err
		}
		tb[dA] = v
	}
	ta, err := e.turn(e.K,
		func(k int) [2]float64 { return tb[k] },
		tb[0],
		func(k int) (bool, error) { return e.rolls(e.first, e.pos(s, s, k, 0, true), e.K) },
		scratch)
	if err != nil {
		return err
	}
	// tau = ta[0] + ta[1]·tau
	if ta[1] >= 1 {
		return fmt.Errorf("duel: under equal turns %v and %v never break a tie; use simulate", e.first, e.second)
	}
	e.tau = ta[0] / (1 - ta[1])
	return nil
}

// mark is B's turn start at b facing A's mark a at or past the target,
// worked out the first time a turn of A's reaches it (they depend on tau
// alone, and most are never reached). A strategy refused there is kept in
// markErr.
func (e *equalDuel) mark(b, a int) float64 {
	i := b*e.width() + a
	if e.marked[i] {
		return e.b0[i]
	}
	tau := constant(e.tau)
	v, err := e.turn(e.KB,
		func(k int) [2]float64 { return endOf(a, b+k, tau) },
		endOf(a, b, tau),
		func(k int) (bool, error) { return e.rolls(e.second, e.pos(b, a, k, 1, false), e.KB) },
		e.markScratch)
	if err != nil && e.markErr == nil {
		e.markErr = err
	}
	e.b0[i], e.marked[i] = v[0], true
	return v[0]
}

// rounds solves the normal rounds by layers of a+b from the top.
func (e *equalDuel) rounds() error {
	T, W := e.T, e.width()
	sa, sb := newTurnScratch(e.top+1), newTurnScratch(e.KB+e.maxPts+1)
	var failed error
	for sum := 2*T - 2; sum >= 0; sum-- {
		for a := max(0, sum-T+1); a <= min(sum, T-1); a++ {
			b := sum - a
			// A's side: y = A(a, b) as a function of x = B(b, a).
			mine := &duelSide{
				sweepFn: func(x float64) [2]float64 {
					v, err := e.turn(e.K,
						func(k int) [2]float64 {
							if k == 0 {
								return [2]float64{0, 1}
							}
							if a+k >= T {
								return constant(e.mark(b, a+k))
							}
							return constant(e.b0[b*W+a+k])
						},
						[2]float64{0, 1},
						func(k int) (bool, error) { return e.rolls(e.first, e.pos(a, b, k, 0, false), e.K) },
						sa)
					if err != nil && failed == nil {
						failed = err
					}
					return v
				},
				store: func(v float64) { e.a0[a*T+b] = v },
				now:   func() float64 { return e.a0[a*T+b] },
			}
			// B's side: x = B(b, a) as a function of y = A(a, b). A round
			// ending below the target goes on at (a, b+k); past it B wins.
			theirs := &duelSide{
				sweepFn: func(y float64) [2]float64 {
					end := func(k int) [2]float64 {
						switch {
						case b+k >= T:
							return constant(0)
						case k == 0:
							return [2]float64{0, 1}
						}
						return constant(e.a0[a*T+b+k])
					}
					v, err := e.turn(e.KB, end, [2]float64{0, 1},
						func(k int) (bool, error) { return e.rolls(e.second, e.pos(b, a, k, 1, false), e.KB) },
						sb)
					if err != nil && failed == nil {
						failed = err
					}
					return v
				},
				store: func(v float64) { e.b0[b*W+a] = v },
				now:   func() float64 { return e.b0[b*W+a] },
			}
			solvePair(mine, theirs)
			if failed != nil {
				return failed
			}
		}
	}
	return nil
}

// duelSide adapts one turn start of a fixed strategy to solvePair: its
// choices do not depend on the estimate, so the interval is everything.
type duelSide struct {
	sweepFn func(x float64) [2]float64
	store   func(v float64)
	now     func() float64
	last    [2]float64
}

func (s *duelSide) sweep(xe float64) (a, b, lo, hi float64) {
	s.last = s.sweepFn(xe)
	return s.last[0], s.last[1], math.Inf(-1), math.Inf(1)
}

func (s *duelSide) write(x float64) { s.store(s.last[0] + s.last[1]*x) }

func (s *duelSide) start() float64 { return s.now() }
