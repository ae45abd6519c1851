package solve

import "math"

// sweepFast is sweep without a mixed choice, in two passes over the turn
// totals instead of one over every player's values: backward, the
// mover's own value and the slope alone (what the choices need; Pig's
// roll sums slide with the turn total, the other games' are added
// farthest first, so the values agree with sweep's to rounding,
// TestFastSweepIsTheOnePassSweep); then forward from the turn start, the
// chance of coming to each turn total under those choices, which sums the
// other players' values over the holds the turn can end in. Turn totals
// the choices never reach (above the last roll, most of a turn early in a
// game) cost the forward pass nothing. One core, three players to 100:
// 5.8 s before, 1.95 s with this (BenchmarkSolveMultiPig100Three -cpu 1,
// the test binaries of before and after run in turn, the best of each).
func (m *MultiTable) sweepFast(p []int, est []float64, sc *multiScratch, a []float64, b *float64) (lo, hi float64) {
	n, T, d := m.n, m.t, &m.dist
	s0 := p[0]
	A0, B := sc.a0, sc.b
	x := est[0]
	lo, hi = math.Inf(-1), math.Inf(1)
	wipeV, bust := m.wiped(p, sc)
	wipe0 := wipeV[0] * d.wipe
	hold0 := m.nextStart(p, sc, s0)
	top := T - s0
	// The mover's chances at the turn starts after a hold, side by side.
	held := m.cols[n-2][hold0:]
	for k := top; k < len(B); k++ {
		A0[k], B[k] = 1, 0
	}
	probs, points := d.probs, d.points
	first, last := points[0], points[len(points)-1]
	// Where every roll that scores is as likely and they score a run of
	// points (Pig's 2 to 6), a roll's sums slide with k: sA, sB are those
	// of A0 and B over the turn totals a roll comes to from k.
	q := d.run
	var sA, sB float64
	for j := top - 1 + first; q > 0 && j <= top-1+last; j++ {
		sA, sB = sA+A0[j], sB+B[j]
	}
	for k := top - 1; k >= 0; k-- {
		rA, rB := wipe0+q*sA, bust+q*sB
		if q == 0 {
			nextA, nextB := A0[k:], B[k:]
			// The farthest first: the nearest turn totals were worked
			// out last, and the sum waits for them only at its end.
			for i := len(points) - 1; i >= 0; i-- {
				q, pts := probs[i], points[i]
				rA += q * nextA[pts]
				rB += q * nextB[pts]
			}
		}
		hB, h0 := 1.0, 0.0
		if k > 0 {
			hB, h0 = 0, held[k]
		}
		dA, dB := rA-h0, rB-hB
		roll := dA+dB*x > 0
		sc.rolls[k] = roll
		// Every choice, those the turn never comes to as well: they
		// make the values of the rolls not taken.
		lo, hi = narrow(lo, hi, dA, dB, roll)
		if roll {
			A0[k], B[k] = rA, rB
		} else {
			A0[k], B[k] = h0, hB
		}
		if q > 0 && k > 0 {
			sA += A0[k-1+first] - A0[k+last]
			sB += B[k-1+first] - B[k+last]
		}
	}
	m.reachHolds(top, hold0, wipeV, sc, a)
	a[0] = A0[0]
	*b = B[0]
	return lo, hi
}

// reachHolds writes into a the other players' part of the turn start's
// values (a[1:]; a[0], the mover's, is the backward pass's) from the
// choices in sc.rolls: each hold's values times the chance of holding
// there, and a wipe's (wipeV, not yet times its chance); a win gives the
// others nothing. A turn total's chance is gathered from the chances of
// rolling at those below it, kept in sc.reach from off on (0 where the
// mover holds).
func (m *MultiTable) reachHolds(top, hold0 int, wipeV []float64, sc *multiScratch, a []float64) {
	n, d := m.n, &m.dist
	off := d.points[len(d.points)-1]
	rolled := sc.reach
	clear(rolled[:off])
	clear(a)
	wiped := 0.0
	// The highest turn total a roll came to so far: the pass ends above it.
	reached := 0
	// A run of points as likely (see sweepFast): the sum of the chances of
	// rolling at the turn totals k comes to by one roll slides with k.
	q, near := d.run, d.points[0]
	sum := 0.0
	for k := 0; k < top && k <= reached; k++ { // past top: won, nothing for the others
		c := 1.0
		switch {
		case k == 0:
		case q > 0:
			c = q * sum
		default:
			c = 0
			for i := len(d.points) - 1; i >= 0; i-- { // the nearest last
				c += d.probs[i] * rolled[k+off-d.points[i]]
			}
		}
		rolled[k+off] = 0
		switch {
		case c == 0: // never come to
		case sc.rolls[k]:
			rolled[k+off] = c
			wiped += c
			reached = k + off
		default:
			if k > 0 {
				h := sc.hv
				m.loadNext(hold0+k, h)
				for r := 1; r < n; r++ {
					a[r] += c * h[r]
				}
			}
		}
		if q > 0 { // from k to k+1: from rolled[k+off-last] on, to k+1+off-near
			sum += rolled[k+1+off-near] - rolled[k]
		}
	}
	if d.wipe > 0 {
		for r := 1; r < n; r++ {
			a[r] += wiped * d.wipe * wipeV[r]
		}
	}
}
