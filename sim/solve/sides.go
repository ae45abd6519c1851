package solve

import "math"

// pigSide is the states (i, j, k) of one player in a Pig game, k from the
// top down: a roll reaches higher turn totals of the same (i, j), a hold the
// other player's turn start in a higher layer, a bust the other's turn start
// at (j, i): the pair's unknown x.
type pigSide struct {
	t          *Table
	tab, other []float64
	pol        policy
	i, j       int
	sc         *sideScratch
}

func (s *pigSide) sweep(xe float64) (a, b, lo, hi float64) {
	t, i, j := s.t, s.i, s.j
	T, d := t.target, &t.dist
	A, B := s.sc.a, s.sc.b
	bust := d.bust - d.wipe
	wipe := 0.0
	if d.wipe > 0 {
		wipe = d.wipe * (1 - s.other[t.index(j, 0, 0)])
	}
	// (j, i+k, 0) is holdRow[i+k]: the other table's turn starts, kept
	// one after the other by the solve, or gathered from the table here.
	var holdRow []float64
	if s.sc.otherStarts != nil {
		holdRow = s.sc.otherStarts[j*T:]
	} else {
		holdRow = s.sc.row
		for x := i + 1; x < T; x++ {
			holdRow[x] = s.other[t.index(j, x, 0)]
		}
	}
	// A turn total that reaches the target has won: 1 + 0·x, so that
	// the sums below need not ask.
	for k := T - i; k < len(A); k++ {
		A[k], B[k] = 1, 0
	}
	lo, hi = math.Inf(-1), math.Inf(1)
	for k := T - i - 1; k >= 0; k-- {
		rA, rB := d.rolled(A, B, k, bust+wipe, -bust)
		hA, hB := 1.0, -1.0 // holding on nothing passes to (j, i, 0)
		if k > 0 {
			hA, hB = 1-holdRow[i+k], 0
		}
		switch {
		case s.pol == nil:
			A[k], B[k], lo, hi = better(rA, rB, hA, hB, xe, lo, hi)
		case s.pol.roll(i, j, k):
			A[k], B[k] = rA, rB
		default:
			A[k], B[k] = hA, hB
		}
	}
	return A[0], B[0], lo, hi
}

func (s *pigSide) write(x float64) {
	base := s.t.index(s.i, s.j, 0)
	A, B := s.sc.a, s.sc.b
	for k := range s.t.target - s.i {
		s.tab[base+k] = A[k] + B[k]*x
	}
	if s.sc.starts != nil {
		s.sc.starts[s.i*s.t.target+s.j] = s.tab[base]
	}
}

// start is the stored turn-start value, or before it is solved the value
// one point further from the opponent's win, (i, j+1) of the layer above,
// already solved: close enough that the first choices made are the
// right ones, most often.
func (s *pigSide) start() float64 {
	T, i, j := s.t.target, s.i, s.j
	if v := s.startAt(i, j); v != 0 || j+1 >= T || i+1 >= T {
		return v
	}
	return (s.startAt(i, j+1) + s.startAt(i+1, j)) / 2
}

// startAt is the side's stored turn-start value at (i, j).
func (s *pigSide) startAt(i, j int) float64 {
	if s.sc.starts != nil {
		return s.sc.starts[i*s.t.target+j]
	}
	return s.tab[s.t.index(i, j, 0)]
}

// hogSide is the state (i, j) of one player in Hog: each dice count leads to
// the other player's turn at (j, i + points), a higher layer, or on any 1 to
// (j, i): the pair's unknown x.
type hogSide struct {
	t          *Table
	tab, other []float64
	pol        policy
	i, j       int
	sc         *sideScratch
	best       int
}

func (s *hogSide) sweep(xe float64) (a, b, lo, hi float64) {
	t, i, j := s.t, s.i, s.j
	T, D := t.target, t.variant.MaxDice
	A, B := s.sc.a, s.sc.b
	s.best = 0
	for n := 1; n <= D; n++ {
		q0 := t.hog.zero(n)
		v := q0
		for sum, p := range t.hog.sum[n] {
			if p == 0 {
				continue
			}
			if i+sum >= T {
				v += p
			} else {
				v += p * (1 - s.other[t.index(j, i+sum, 0)])
			}
		}
		A[n], B[n] = v, -q0
		if s.best == 0 || A[n]+B[n]*xe > A[s.best]+B[s.best]*xe { // ties: fewer dice
			s.best = n
		}
	}
	lo, hi = math.Inf(-1), math.Inf(1)
	if s.pol != nil {
		s.best = min(max(s.pol.dice(i, j), 1), D)
	} else {
		for n := 1; n <= D; n++ {
			if n != s.best {
				lo, hi = narrow(lo, hi, A[s.best]-A[n], B[s.best]-B[n], true)
			}
		}
	}
	return A[s.best], B[s.best], lo, hi
}

func (s *hogSide) write(x float64) {
	t := s.t
	idx := t.index(s.i, s.j, 0)
	A, B := s.sc.a, s.sc.b
	s.tab[idx] = A[s.best] + B[s.best]*x
	if t.hogOpt != nil && &s.tab[0] == &t.p[0] {
		D := t.variant.MaxDice
		for n := 1; n <= D; n++ {
			t.hogOpt[idx*D+n-1] = A[n] + B[n]*x
		}
	}
}

func (s *hogSide) start() float64 { return s.tab[s.t.index(s.i, s.j, 0)] }
