package solve

import (
	"context"
	"fmt"
	"math"

	"pigclass/sim"
)

// EqualTable is two-player Pig (or Big Pig) with equal turns solved for
// perfect play. Each round the first player (A) takes a turn, then the second
// (B); once someone has reached the target at the end of a round the higher
// score wins, and equal scores play tie-break rounds. Reaching the target does
// not end a turn, so A may roll on past it to set B a harder mark.
//
// The states, solved by layers and pairs as in Table:
//   - A to move at (a, b, k) with a, b below the target, k below target - a:
//     kept. Past the target A's hold sets B a mark of a+k; those turn totals
//     are worked out on the way down from a point where holding provably
//     beats rolling (the hold value 1 - G(a+k-b) is at least the most a roll
//     can give), and not kept.
//   - B to move at (b, a, k) with A's banked a below the target: kept. B
//     wins by holding at the target, as in standard Pig.
//   - B to move with A's banked a at or past the target: B must end the turn
//     more than d = a - b - k ahead; the chance is G(d), one function of d.
//   - A tie-break round from equal scores: A's chance tau = W(0), where W is
//     A's turn in it; G depends on tau (B may hold on a tie and replay), so
//     tau is a fixed point, found by iteration.
type EqualTable struct {
	variant sim.Variant
	lay     *Table    // layout, roll distribution, and A's values in lay.p
	second  []float64 // B's values, same layout: (b, a, k)
	g       []float64 // g[d+gOff] = G(d)
	gOff    int
	tau     float64
	w       []float64 // A's turn in a tie-break round: W(k)
}

// SolveEqualTurns solves two-player Pig or Big Pig with equal turns.
func SolveEqualTurns(v sim.Variant) (*EqualTable, error) {
	return SolveEqualTurnsContext(context.Background(), v)
}

// SolveEqualTurnsContext is SolveEqualTurns that gives up, returning ctx's
// error, once ctx is done (looked at between layers).
func SolveEqualTurnsContext(ctx context.Context, v sim.Variant) (*EqualTable, error) {
	if err := checkVariant(v); err != nil {
		return nil, err
	}
	if err := checkEqualTurns(v); err != nil {
		return nil, err
	}
	std := v
	std.EqualTurns = false
	e := &EqualTable{variant: v, lay: newTable(std)}
	e.solveTieBreak()
	e.second = make([]float64, len(e.lay.p))
	T := e.lay.target
	sa := &equalSide{e: e, a: make([]float64, 2*T+64), b: make([]float64, 2*T+64)}
	sb := e.lay.newScratch()
	for s := 2*T - 2; s >= 0; s-- {
		if err := layerDone(ctx); err != nil {
			return nil, err
		}
		for i := max(0, s-T+1); i <= min(s, T-1); i++ {
			sa.i, sa.j = i, s-i
			solvePair(sa, e.lay.side(e.second, e.lay.p, nil, s-i, i, sb))
		}
	}
	return e, nil
}

// EqualTurnsGames names the games whose equal-turns tables are solved,
// "Pig and Big Pig".
func EqualTurnsGames() string {
	return sim.GameTitles(func(r *sim.GameRules) bool { return r.EqualTurns })
}

// checkEqualTurns reports why v's equal-turns table cannot be solved.
func checkEqualTurns(v sim.Variant) error {
	if !v.Game.Rules().EqualTurns {
		return fmt.Errorf("solve: equal turns are solved for %s, not %s", EqualTurnsGames(), v.Game.Title())
	}
	return nil
}

// gLimit is where G is cut off: past it G is below 1e-300 for any game.
const gLimit = 20000

// G returns B's chance of ending the turn more than d points ahead of a mark
// at or past the target (holding on a tie replays the round).
func (e *EqualTable) G(d int) float64 {
	switch {
	case d < -e.gOff:
		return 1
	case d+e.gOff >= len(e.g):
		return 0
	}
	return e.g[d+e.gOff]
}

// fillG computes G for the tie-break chance tau.
func (e *EqualTable) fillG(tau float64) {
	d := &e.lay.dist
	e.gOff = d.points[len(d.points)-1]
	if e.g == nil {
		e.g = make([]float64, 0, 1024)
	}
	e.g = e.g[:0]
	for x := -e.gOff; len(e.g) < gLimit; x++ {
		hold := 0.0
		switch {
		case x < 0:
			hold = 1
		case x == 0:
			hold = 1 - tau
		}
		roll := 0.0
		if x >= 0 {
			for n, pts := range d.points {
				roll += d.probs[n] * e.G(x-pts)
			}
		}
		e.g = append(e.g, max(hold, roll))
		if x > 0 && e.g[len(e.g)-1] < 1e-300 {
			break
		}
	}
}

// solveTieBreak finds tau = W(0) with G and W consistent.
func (e *EqualTable) solveTieBreak() {
	tau := 0.5
	for it := 0; it < 10000; it++ {
		e.fillG(tau)
		e.tau = tau
		e.w = e.tieTurn(e.w)
		if math.Abs(e.w[0]-tau) < 1e-16 {
			break
		}
		tau = e.w[0]
	}
	e.tau = e.w[0]
}

// tieTurn computes W(k), A's chance in a tie-break round at turn total k,
// from the top down: past the first k where G(k) <= bust·h0 holding beats
// any roll (a bust, or holding on nothing, leaves B to play from a tie).
func (e *EqualTable) tieTurn(w []float64) []float64 {
	d := &e.lay.dist
	bust := d.bust
	top := 1
	for e.G(top) > bust*e.h0() {
		top++
	}
	need := top + e.gOff + 1
	if cap(w) < need {
		w = make([]float64, need)
	}
	w = w[:need]
	for k := need - 1; k >= 0; k-- {
		hold := e.tieHold(k)
		if k >= top {
			w[k] = hold
			continue
		}
		roll := bust * (1 - e.h0())
		for n, pts := range d.points {
			roll += d.probs[n] * w[k+pts]
		}
		w[k] = max(hold, roll)
	}
	return w
}

// equalSide is A's states at (a, b) = (i, j) for solvePair.
type equalSide struct {
	e    *EqualTable
	i, j int
	a, b []float64 // A + B·x per turn total, including past the target
}

func (s *equalSide) sweep(xe float64) (a, b, lo, hi float64) {
	e, i, j := s.e, s.i, s.j
	t := e.lay
	T, d := t.target, &t.dist
	// Past top, holding (1 - G) beats the most a roll can give,
	// bust·(1 - x) + (1 - bust), whenever x >= G / bust.
	top := T - i
	for e.G(i+top-j) > d.bust*xe && top < T-i+gLimit/2 {
		top++
	}
	lo, hi = e.G(i+top-j)/d.bust, math.Inf(1)
	need := top + e.gOff + 1
	if len(s.a) < need {
		s.a, s.b = make([]float64, 2*need), make([]float64, 2*need)
	}
	A, B := s.a, s.b
	holdRow := e.second[t.row[j]:] // B to move at (j, i+k, 0)
	for k := need - 1; k >= 0; k-- {
		var hA, hB float64
		switch {
		case k == 0:
			hA, hB = 1, -1 // holding on nothing hands B the turn at (j, i)
		case i+k < T:
			hA = 1 - holdRow[(i+k)*(T-j)]
		default:
			hA = 1 - e.G(i+k-j)
		}
		if k >= top {
			A[k], B[k] = hA, hB
			continue
		}
		rA, rB := d.bust, -d.bust
		for n, pts := range d.points {
			rA += d.probs[n] * A[k+pts]
			rB += d.probs[n] * B[k+pts]
		}
		A[k], B[k], lo, hi = better(rA, rB, hA, hB, xe, lo, hi)
	}
	return A[0], B[0], lo, hi
}

func (s *equalSide) write(x float64) {
	t := s.e.lay
	base := t.index(s.i, s.j, 0)
	for k := range t.target - s.i {
		t.p[base+k] = s.a[k] + s.b[k]*x
	}
}

func (s *equalSide) start() float64 { return s.e.lay.p[s.e.lay.index(s.i, s.j, 0)] }

// Variant returns the rules the table was solved for.
func (e *EqualTable) Variant() sim.Variant { return e.variant }

// FirstPlayerWin returns the first player's chance at the start.
func (e *EqualTable) FirstPlayerWin() float64 { return e.lay.p[0] }

// States returns the number of states kept: A's and B's below the target.
func (e *EqualTable) States() int { return 2 * len(e.lay.p) }

// TieBreak returns the first player's chance in a tie-break round.
func (e *EqualTable) TieBreak() float64 { return e.tau }

// Decide plays perfect equal-turns play: the table for the first player of
// the round, B's table or G for the second, W and G in a tie-break.
func (e *EqualTable) Decide(p sim.Position) sim.Action {
	return e.Advise(p).Best
}

// Advise analyses the decision of the player to move in p under equal
// turns: the win probability of rolling and of holding, the best option
// (ties hold) and the option expected-value play takes.
func (e *EqualTable) Advise(p sim.Position) Advice {
	a := Advice{Game: e.variant.Game, Best: sim.Hold, EV: sim.Hold}
	a.Roll, a.Hold = e.Options(p)
	if a.Roll > a.Hold {
		a.Best = sim.Roll
	}
	if e.lay.dist.evRolls(p.Score, p.TurnTotal) {
		a.EV = sim.Roll
	}
	return a
}

// String returns "optimal": the table plays as the optimal bot.
func (e *EqualTable) String() string { return sim.PerfectBot }

// Options returns the win probabilities of rolling and of holding for the
// player to move in p (Order 0: first in the round).
func (e *EqualTable) Options(p sim.Position) (roll, hold float64) {
	t := e.lay
	T, d := t.target, &t.dist
	i, j, k := p.Score, p.Opponent, p.TurnTotal
	rollWith := func(bust float64, next func(k int) float64) float64 {
		v := d.bust * bust
		for n, pts := range d.points {
			v += d.probs[n] * next(k+pts)
		}
		return v
	}
	switch {
	case p.TieBreak && p.Order == 0:
		w := func(k int) float64 {
			if k < len(e.w) {
				return e.w[k]
			}
			return 1 - e.G(k)
		}
		return rollWith(1-e.h0(), w), e.tieHold(k)
	case p.Order != 0 && (p.TieBreak || j >= T):
		// B facing a mark: d0 = j - i points behind at the turn's start.
		d0 := j - i
		next := func(k int) float64 { return e.markValue(d0, k) }
		bust := 0.0
		if d0 == 0 {
			bust = 1 - e.tau
		}
		return rollWith(bust, next), bHold(d0-k, e.tau)
	case p.Order != 0:
		next := func(k int) float64 {
			if i+k >= T {
				return 1
			}
			return e.second[t.index(i, j, k)]
		}
		hold = 1
		if i+k < T {
			hold = 1 - t.p[t.index(j, i+k, 0)]
		}
		return rollWith(1-t.p[t.index(j, i, 0)], next), hold
	}
	x := e.second[t.index(j, i, 0)]
	if maxPts := d.points[len(d.points)-1]; i+k+maxPts < T {
		return rollWith(1-x, func(k int) float64 { return t.p[t.index(i, j, k)] }), e.firstHold(i, j, k, x)
	}
	vals := e.firstTurn(i, j, k, x)
	return rollWith(1-x, func(k int) float64 { return vals[k] }), e.firstHold(i, j, k, x)
}

// h0 is B's chance at the start of its turn in a tie-break round when A
// scored nothing: roll once, then hold ahead; a bust ties again.
func (e *EqualTable) h0() float64 { return 1 - e.lay.dist.bust*e.tau }

// tieHold is A's chance on holding at k in a tie-break round.
func (e *EqualTable) tieHold(k int) float64 {
	if k == 0 {
		return 1 - e.h0()
	}
	return 1 - e.G(k)
}

// markValue is B's chance at turn total k when it started d0 points behind
// a mark at or past the target (d0 = 0 only in a tie-break).
func (e *EqualTable) markValue(d0, k int) float64 {
	if d0 > 0 {
		return e.G(d0 - k)
	}
	if k == 0 {
		return e.h0()
	}
	return 1
}

// bHold is B's chance on holding d points behind a mark at or past the
// target: a win ahead, a tie-break on a tie, a loss behind.
func bHold(d int, tau float64) float64 {
	switch {
	case d < 0:
		return 1
	case d == 0:
		return 1 - tau
	}
	return 0
}

// firstHold is A's chance on holding at k in a normal round.
func (e *EqualTable) firstHold(i, j, k int, x float64) float64 {
	t := e.lay
	switch {
	case k == 0:
		return 1 - x
	case i+k < t.target:
		return 1 - e.second[t.index(j, i+k, 0)]
	}
	return 1 - e.G(i+k-j)
}

// firstTurn returns A's values at every turn total of (i, j) in a normal
// round above k, the kept ones below the target and the rest worked out from
// where holding is sure to be best.
func (e *EqualTable) firstTurn(i, j, k int, x float64) []float64 {
	t := e.lay
	T, d := t.target, &t.dist
	top := T - i
	for e.G(i+top-j) > d.bust*x {
		top++
	}
	vals := make([]float64, max(top, k+1)+e.gOff+1)
	for kk := len(vals) - 1; kk > k; kk-- {
		h := e.firstHold(i, j, kk, x)
		switch {
		case kk >= top:
			vals[kk] = h
		case i+kk < T:
			vals[kk] = t.p[t.index(i, j, kk)]
		default:
			r := d.bust * (1 - x)
			for n, pts := range d.points {
				r += d.probs[n] * vals[kk+pts]
			}
			vals[kk] = max(h, r)
		}
	}
	return vals
}

// Bytes returns the memory the table's values take.
func (e *EqualTable) Bytes() int64 {
	return e.lay.Bytes() + int64(8*(len(e.second)+len(e.g)+len(e.w)))
}
