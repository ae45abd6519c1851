package solve

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"pigclass/sim"
)

// MultiTable is a solved game of N players (N from 2): for every position
// at the start of a turn (the mover's score, then the others' in the order
// they move after), every player's chance of winning under perfect play:
// each player maximises their own chance, assuming every player does the
// same (a subgame-perfect equilibrium, found by backward induction). Only
// turn starts are stored; a position inside a turn (a turn total) is
// derived on demand by backward induction over the turn total (Advise).
//
// Layers of equal banked sum are solved from the highest down: a hold or a
// Hog throw that scores moves to a higher layer, while a bust (or holding
// on nothing) passes the turn within the layer, rotating the mover:
// (s0, s1, ..., sN-1) becomes (s1, ..., sN-1, s0). The positions one
// rotation apart form an orbit, solved together: once every mover's
// choices are fixed, each turn start is affine in the next one's values
// (W = A + B·W'), so the orbit's values follow exactly by folding around
// it; choices are made at the current estimate and the orbit solved again
// until every choice stands where the solution lies (Newton's method, as
// the two-player pairs are solved), with value iteration behind it. An
// orbit whose best responses still cycle is resolved by the rule of
// resolveCycle, counted in Cycling.
type MultiTable struct {
	variant sim.Variant
	n, t    int
	cores   int // the cores it was solved on, Residual's too
	// cols[r-1][x]: the chance of the player r places after the mover at
	// the turn start kept at x (index), r from 1; the mover's own is 1
	// minus their sum. A compact table: n-1 chances a turn start, each
	// player's apart, so that a turn's sweep reads one player's chances
	// at the turn starts it can hold to side by side.
	cols [][]float64
	// pass is the pass of the layers being solved (see solve): in the
	// first, the layers below are not solved yet.
	pass int
	// onePass makes every sweep of a game of many rolls the one pass over
	// every player's values (sweepFast's yardstick in the tests).
	onePass bool
	dist    rollDist  // Pig games
	hog     throwSums // Hog
	evDice  int       // Hog: expected-value play's dice count
	// residual is Residual's, worked out on first use (a quarter of a
	// solve's time, which a classroom does not need).
	residualOnce sync.Once
	residualMax  float64
	// turns keeps the memory of Advise's turn analyses for the next.
	turns sync.Pool
	// Cycling counts the orbits whose best responses cycled (see
	// resolveCycle), and Mixed those of them settled by a mixed choice.
	Cycling, Mixed int
}

// MaxMultiBytes is the most memory a table of N players may take: three
// players to 100 (16 MB), four to 50 (150 MB) are the largest kept.
const MaxMultiBytes = 256 << 20

// MultiProcessBytes is about what a process solving the table of v takes
// at its peak: the table and some 40 MB of the rest (measured with
// /usr/bin/time -v: four players to 50, a table of 150 MB, peak at 190
// MB; three to 100, 16 MB, at 50 MB).
func MultiProcessBytes(v sim.Variant) int64 {
	b := MultiBytes(v)
	if b > math.MaxInt64-40<<20 {
		return math.MaxInt64
	}
	return b + 40<<20
}

// MultiBytes is the memory the table of v takes (math.MaxInt64 past it:
// ten players' tables are astronomically large): n-1 chances of 8 bytes
// at each turn start.
func MultiBytes(v sim.Variant) int64 { return startsTimes(v, int64(8*(v.Seats-1))) }

// startsTimes is b times the number of turn starts of v (target^seats), or
// math.MaxInt64 past it.
func startsTimes(v sim.Variant, b int64) int64 {
	for range v.Seats {
		if b > math.MaxInt64/int64(max(v.Target, 1)) {
			return math.MaxInt64
		}
		b *= int64(v.Target)
	}
	return b
}

// SolveMulti solves v for its number of seats. Equal turns are not solved
// for more than two players.
func SolveMulti(v sim.Variant) (*MultiTable, error) {
	return SolveMultiContext(context.Background(), v)
}

// SolveMultiContext is SolveMulti that gives up, returning ctx's error,
// once ctx is done (looked at between layers).
func SolveMultiContext(ctx context.Context, v sim.Variant) (*MultiTable, error) {
	return solveMultiCores(ctx, v, 1)
}

// solveMultiCores is SolveMultiContext on cores goroutines: the orbits of
// a layer depend on higher layers alone (and a wipe on the previous
// pass), so each is solved by whichever core is free, the same numbers
// whoever solves it.
func solveMultiCores(ctx context.Context, v sim.Variant, cores int) (*MultiTable, error) {
	if err := v.Validate(); err != nil {
		return nil, err
	}
	switch {
	case v.EqualTurns:
		return nil, fmt.Errorf("solve: equal turns are solved for two players only")
	case v.Target > MaxTarget:
		return nil, fmt.Errorf("solve: target %d: the solver takes targets from %d to %d", v.Target, sim.MinTarget, MaxTarget)
	case MultiBytes(v) > MaxMultiBytes:
		return nil, fmt.Errorf("solve: %d players to %d take a table of %d MB (a process about %d MB), over the %d MB a table may take", v.Seats, v.Target, MultiBytes(v)>>20, MultiProcessBytes(v)>>20, MaxMultiBytes>>20)
	}
	m := newMulti(v, cores)
	if err := m.solve(ctx, cores); err != nil {
		return nil, err
	}
	return m, nil
}

// newMulti is the empty table of v, to be solved on cores.
func newMulti(v sim.Variant, cores int) *MultiTable {
	m := &MultiTable{variant: v, n: v.Seats, t: v.Target, cores: cores}
	starts := int(startsTimes(v, 1))
	for range v.Seats - 1 {
		m.cols = append(m.cols, make([]float64, starts))
	}
	if v.Game.ChoosesDice() {
		m.hog = newThrowSums(v.Game, v.MaxDice)
		m.evDice = v.Game.Rules().EVPieces(v.MaxDice)
	} else {
		m.dist = rollDistOf(v.Game)
	}
	return m
}

// Variant returns the rules the table was solved for.
func (m *MultiTable) Variant() sim.Variant { return m.variant }

// index returns where the turn start p (scores in the mover's frame) is kept.
func (m *MultiTable) index(p []int) int {
	x := 0
	for _, s := range p {
		x = x*m.t + s
	}
	return x
}

// Win returns every player's chance of winning at the turn start p (scores
// from the mover's, then in the order they move), in the same order.
func (m *MultiTable) Win(p []int) []float64 {
	out := make([]float64, m.n)
	m.load(m.index(p), out)
	return out
}

// FirstPlayerWin returns the chances of the players in the order they move
// from the start.
func (m *MultiTable) FirstPlayerWin() []float64 { return m.Win(make([]int, m.n)) }

// starts is the number of turn starts kept.
func (m *MultiTable) starts() int { return len(m.cols[0]) }

// load writes into v the chances kept at the turn start x.
func (m *MultiTable) load(x int, v []float64) {
	others := 0.0
	for r := 1; r < m.n; r++ {
		v[r] = m.cols[r-1][x]
		others += v[r]
	}
	v[0] = 1 - others
}

// loadNext writes into v the chances kept at the turn start x of the next
// mover, in the frame of the mover before (as fromNext).
func (m *MultiTable) loadNext(x int, v []float64) {
	n := m.n
	others := 0.0
	for r := 1; r < n; r++ {
		c := m.cols[r-1][x]
		others += c
		if r == n-1 {
			v[0] = c
		} else {
			v[r+1] = c
		}
	}
	v[1] = 1 - others
}

// keep stores the chances v at the turn start x.
func (m *MultiTable) keep(x int, v []float64) {
	for r := 1; r < m.n; r++ {
		m.cols[r-1][x] = v[r]
	}
}

// multiScratch is the working memory of one orbit solve.
type multiScratch struct {
	n        int
	a        []float64 // a[k*n + r]: the turn's values, affine in the pass vector
	b        []float64 // b[k]
	a0       []float64 // a0[k]: the mover's a[k*n] (all the fast sweep keeps)
	reach    []float64 // the fast sweep's chance of rolling at each turn total (reachHolds)
	pos, nxt []int
	vec, tmp []float64
	ra, ha   []float64 // a roll's and a hold's values
	// Pig: the choice the last sweep made at each turn total (true: roll),
	// and a state forced to a mixed choice (mixK < 0: none): roll with
	// probability mixP; mixD is then the mover's roll minus hold there.
	rolls      []bool
	mixK       int
	mixP, mixD float64
	hv         []float64 // Hog: a throw's next turn start
	hogA       [][]float64
	hogB       []float64
	// per orbit member
	members [][]int
	ma      [][]float64 // A of each member's turn start
	mb      []float64   // B of each member's turn start
	lo, hi  []float64
	sol     [][]float64
	before  []float64 // the members' values before the solve
	// the orbits that cycled and that a mixed choice settled (Cycling,
	// Mixed), counted apart by each core
	cycling, mixed int
}

func newMultiScratch(n, t int) *multiScratch {
	s := &multiScratch{n: n, a: make([]float64, (t+1)*n), b: make([]float64, t+1),
		a0: make([]float64, t+1), reach: make([]float64, 2*(t+1)),
		pos: make([]int, n), nxt: make([]int, n), vec: make([]float64, n), tmp: make([]float64, n),
		ra: make([]float64, n), ha: make([]float64, n), hv: make([]float64, n), rolls: make([]bool, t+1), mixK: -1}
	for range sim.MaxDiceLimit + 1 {
		s.hogA = append(s.hogA, make([]float64, n))
	}
	s.hogB = make([]float64, sim.MaxDiceLimit+1)
	for range n {
		s.members = append(s.members, make([]int, n))
		s.ma = append(s.ma, make([]float64, n))
		s.sol = append(s.sol, make([]float64, n))
	}
	s.mb, s.lo, s.hi = make([]float64, n), make([]float64, n), make([]float64, n)
	s.before = make([]float64, n*n)
	return s
}

// newScratch is the working memory of one orbit solve of m: turn totals up
// to the target, and past it by the largest roll (read as won).
func (m *MultiTable) newScratch() *multiScratch {
	room := m.t
	if k := len(m.dist.points); k > 0 {
		room += m.dist.points[k-1]
	}
	return newMultiScratch(m.n, room)
}

// fromNext writes into dst the vector v of the next mover's frame (the
// player one place after p's mover) in p's frame.
func fromNext(dst, v []float64) {
	n := len(v)
	dst[0] = v[n-1]
	copy(dst[1:n], v[:n-1])
}

// solve fills the table layer by layer from the highest banked sum.
// Two-Dice Pig's double 1s send a player to a lower layer (their score
// becomes 0): the pass is repeated with those values from the previous
// pass until they settle.
func (m *MultiTable) solve(ctx context.Context, cores int) error {
	scs := make([]*multiScratch, max(1, cores))
	for w := range scs {
		scs[w] = m.newScratch()
	}
	defer func() {
		for _, sc := range scs {
			m.Cycling, m.Mixed = m.Cycling+sc.cycling, m.Mixed+sc.mixed
		}
	}()
	seen := make([]bool, m.starts())
	var orbits []int // a layer's orbits, by one member each, n scores apiece
	for m.pass = 0; ; m.pass++ {
		clear(seen)
		change := 0.0
		maxSum := m.n * (m.t - 1)
		p := make([]int, m.n)
		for sum := maxSum; sum >= 0; sum-- {
			if err := layerDone(ctx); err != nil {
				return err
			}
			orbits = orbits[:0]
			m.eachOfSum(sum, p, func(p []int) {
				if !seen[m.index(p)] {
					m.markOrbit(p, scs[0], seen)
					orbits = append(orbits, p...)
				}
			})
			change = max(change, m.solveLayer(orbits, scs))
		}
		if m.dist.wipe == 0 || m.pass > 0 && change < 1e-14 { // the first pass had nothing before
			break
		}
		if m.pass > 1000 {
			panic("solve: the wipe values did not converge")
		}
	}
	return nil
}

// markOrbit marks p and its rotations seen.
func (m *MultiTable) markOrbit(p []int, sc *multiScratch, seen []bool) {
	for i := range m.orbitOf(p, sc) {
		seen[m.index(sc.members[i])] = true
	}
}

// solveLayer solves a layer's orbits (one member each, n scores apiece)
// on the scratches' cores and returns the largest change of a stored
// value. A small layer is not worth the handing out.
func (m *MultiTable) solveLayer(orbits []int, scs []*multiScratch) float64 {
	n := m.n
	count := len(orbits) / n
	if len(scs) == 1 || count < 8*len(scs) {
		change := 0.0
		for o := range count {
			change = max(change, m.solveOrbit(orbits[o*n:o*n+n], scs[0]))
		}
		return change
	}
	var next atomic.Int64
	changes := make([]float64, len(scs))
	var wg sync.WaitGroup
	for w, sc := range scs {
		wg.Go(func() {
			for o := int(next.Add(1) - 1); o < count; o = int(next.Add(1) - 1) {
				changes[w] = max(changes[w], m.solveOrbit(orbits[o*n:o*n+n], sc))
			}
		})
	}
	wg.Wait()
	return slices.Max(changes)
}

// eachOfSum calls fn with every position whose scores add up to sum (p is
// reused).
func (m *MultiTable) eachOfSum(sum int, p []int, fn func([]int)) {
	var rec func(r, left int)
	rec = func(r, left int) {
		if r == m.n-1 {
			if left < m.t {
				p[r] = left
				fn(p)
			}
			return
		}
		for s := min(left, m.t-1); s >= 0; s-- {
			if left-s > (m.n-1-r)*(m.t-1) {
				break
			}
			p[r] = s
			rec(r+1, left-s)
		}
	}
	rec(0, sum)
}

// solveOrbit solves the orbit of p (p and its rotations) and returns the
// largest change of a stored value.
func (m *MultiTable) solveOrbit(p []int, sc *multiScratch) float64 {
	n := m.n
	size := m.orbitOf(p, sc)
	// Newton's first estimates: the stored values (from an earlier pass),
	// else those of the turn starts a point above, solved in the layer
	// above (a fifth fewer sweeps than even chances).
	m.estimate(size, sc, true)
	before := sc.before[:size*n] // the first pass has none: solve does not ask its change
	for i := 0; i < size && m.pass > 0; i++ {
		m.load(m.index(sc.members[i]), before[i*n:i*n+n])
	}
	solved := false
	for it := 0; it < newtonIterations && !solved; it++ {
		solved = m.newtonStep(size, sc)
	}
	if !solved {
		// Newton's method again from even chances, value iteration and
		// the rule for a cycle after it: where a cycle settles depends
		// on where the iteration starts, and this is where it started
		// before the guess.
		m.estimate(size, sc, false)
		for it := 0; it < newtonIterations && !solved; it++ {
			solved = m.newtonStep(size, sc)
		}
	}
	for it := 0; it < maxOrbitIterations && !solved; it++ {
		solved = m.iterate(size, sc)
	}
	if !solved {
		sc.cycling++
		m.resolveCycle(size, sc)
	}
	change := 0.0
	for i := range size {
		for r := range n {
			change = max(change, math.Abs(sc.sol[i][r]-before[i*n+r]))
		}
		m.keep(m.index(sc.members[i]), sc.sol[i])
	}
	return change
}

// estimate sets each member's estimate: the stored values (from an
// earlier pass), else the guess from the layer above or even chances.
func (m *MultiTable) estimate(size int, sc *multiScratch, guess bool) {
	for i := range size {
		switch {
		case m.pass > 0:
			m.load(m.index(sc.members[i]), sc.sol[i])
		case guess:
			m.guess(sc.members[i], sc.sol[i])
		default:
			for r := range m.n {
				sc.sol[i][r] = 1 / float64(m.n)
			}
		}
	}
}

// guess writes into v an estimate of the chances at the turn start p for
// Newton's first step, which asks of it only the chance of the player
// before p's mover (v[n-1], the pass value of that player's turn): theirs
// at the turn start with a point more (a layer solved), the rest shared
// evenly; even chances where they are one short of the target. That turn
// start is kept beside p's, read with it: the mean of the n turn starts a
// point above takes fewer rounds (three players to 60: 1.03 a orbit,
// against 1.09 and 1.25 from even chances) but costs more in reading them
// than it saves.
func (m *MultiTable) guess(p []int, v []float64) {
	n := m.n
	c := 1 / float64(n)
	if p[n-1]+1 < m.t {
		c = m.cols[n-2][m.index(p)+1]
	}
	for r := range n - 1 {
		v[r] = (1 - c) / float64(n-1)
	}
	v[n-1] = c
}

// orbitOf puts p and its rotations, until p again, in sc.members and
// returns how many they are.
func (m *MultiTable) orbitOf(p []int, sc *multiScratch) int {
	n, size := m.n, 0
	copy(sc.members[0], p)
	for {
		next := sc.members[(size+1)%n]
		cur := sc.members[size]
		for r := range n {
			next[r] = cur[(r+1)%n]
		}
		size++
		if size == n || equalInts(next, p) {
			return size
		}
	}
}

func equalInts(a, b []int) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// newtonStep fixes every member's choices at the current estimates,
// solves the orbit exactly, and reports whether every choice stands at the
// solution (then sc.sol is exact).
func (m *MultiTable) newtonStep(size int, sc *multiScratch) bool {
	n := m.n
	for i := range size {
		fromNext(sc.vec, sc.sol[(i+1)%size])
		sc.lo[i], sc.hi[i] = m.sweep(sc.members[i], sc.vec, sc, sc.ma[i], &sc.mb[i])
	}
	if !m.foldOrbit(size, sc) {
		return false
	}
	// Each member's choices were made at the mover's value of its pass
	// vector: the next member's value for the player n-1 places after its
	// mover.
	for i := range size {
		x := sc.sol[(i+1)%size][n-1]
		if x < sc.lo[i]-1e-15 || x > sc.hi[i]+1e-15 {
			return false
		}
	}
	return true
}

// foldOrbit solves the orbit whose members' turn starts are affine in the
// next member's (sc.ma, sc.mb) into sc.sol; false when it has no unique
// solution (every member passing for ever).
func (m *MultiTable) foldOrbit(size int, sc *multiScratch) bool {
	n := m.n
	// W0 = C + beta·F^size(W0), folding from the back.
	c := sc.tmp
	copy(c, sc.ma[size-1])
	beta := sc.mb[size-1]
	for i := size - 2; i >= 0; i-- {
		fromNext(sc.vec, c)
		for r := range n {
			c[r] = sc.ma[i][r] + sc.mb[i]*sc.vec[r]
		}
		beta *= sc.mb[i]
	}
	// y[r] = c[r] + beta·y[(r-size) mod n]: following r, r-size, ... round
	// its cycle of length L, y[r] = Σ_t beta^t·c[r - t·size] / (1 - beta^L).
	y := sc.sol[0]
	cycle := n / gcd(n, size)
	den := 1 - math.Pow(beta, float64(cycle))
	if den < 1e-12 {
		return false
	}
	for r := range n {
		num, f, rr := 0.0, 1.0, r
		for range cycle {
			num += f * c[rr]
			f *= beta
			rr = ((rr-size)%n + n) % n
		}
		y[r] = num / den
	}
	for i := size - 1; i >= 1; i-- {
		fromNext(sc.vec, sc.sol[(i+1)%size])
		for r := range n {
			sc.sol[i][r] = sc.ma[i][r] + sc.mb[i]*sc.vec[r]
		}
	}
	return true
}

// iterate makes one round of value iteration around the orbit, each
// member at the next one's current values, and reports whether nothing
// moved by more than pairTol.
func (m *MultiTable) iterate(size int, sc *multiScratch) bool {
	n := m.n
	done := true
	for i := size - 1; i >= 0; i-- {
		fromNext(sc.vec, sc.sol[(i+1)%size])
		var b float64
		m.sweep(sc.members[i], sc.vec, sc, sc.ma[i], &b)
		for r := range n {
			v := sc.ma[i][r] + b*sc.vec[r]
			if math.Abs(v-sc.sol[i][r]) >= pairTol {
				done = false
			}
			sc.sol[i][r] = v
		}
	}
	return done
}

// resolveCycle settles an orbit whose best responses cycle: some mover
// prefers to roll at a turn total when it would hold there, and to hold
// when it would roll. The rule: that mover mixes at that one turn total,
// rolling with the probability that leaves them indifferent between
// rolling and holding (found by bisection; every other choice stays a best
// response), which is an equilibrium in mixed strategies. Hog, or a cycle
// that flips more than that one choice, falls back to the average of the
// two rounds that alternate; the table's Residual then says how far from
// an equilibrium that is.
func (m *MultiTable) resolveCycle(size int, sc *multiScratch) {
	if !m.variant.Game.ChoosesDice() && m.mixAtFlip(size, sc) {
		sc.mixed++
		return
	}
	n := m.n
	prev := make([][]float64, size)
	for i := range size {
		prev[i] = append([]float64(nil), sc.sol[i]...)
	}
	for it := 0; it < maxOrbitIterations; it++ {
		m.iterate(size, sc)
		moved := 0.0
		for i := range size {
			for r := range n {
				avg := (sc.sol[i][r] + prev[i][r]) / 2
				moved = max(moved, math.Abs(avg-prev[i][r]))
				sc.sol[i][r], prev[i][r] = avg, avg
			}
		}
		if moved < pairTol {
			return
		}
	}
}

// flip is a choice that flips between two rounds of value iteration: the
// mover of member at turn total k, rolling there with probability q.
type flip struct {
	member, k int
	q, d      float64 // d: the mover's roll minus hold there, at the solution
}

// mixAtFlip finds the choices that flip between two rounds of value
// iteration (at most one a member, two in all) and the mixing
// probabilities there that leave each of their movers indifferent, or
// content with a pure choice (nested bisection); it reports whether it
// settled the orbit (sc.sol then holds the solution).
func (m *MultiTable) mixAtFlip(size int, sc *multiScratch) bool {
	choices := func() [][]bool {
		out := make([][]bool, size)
		for i := size - 1; i >= 0; i-- {
			fromNext(sc.vec, sc.sol[(i+1)%size])
			var b float64
			m.sweep(sc.members[i], sc.vec, sc, sc.ma[i], &b)
			out[i] = append([]bool(nil), sc.rolls[:m.t-sc.members[i][0]]...)
			for r := range m.n {
				sc.sol[i][r] = sc.ma[i][r] + b*sc.vec[r]
			}
		}
		return out
	}
	one, two := choices(), choices()
	var flips []flip
	for i := range size {
		for k := range one[i] {
			if one[i][k] != two[i][k] {
				flips = append(flips, flip{member: i, k: k})
			}
		}
	}
	if len(flips) == 0 || len(flips) > 2 || len(flips) == 2 && flips[0].member == flips[1].member {
		return false
	}
	return m.settle(size, sc, flips, 0)
}

// settle chooses the mixing probability of flips[idx] (those before it
// fixed, those after settled for each candidate) so that its mover is
// indifferent, or prefers the pure choice taken; it reports whether the
// orbit was solved, leaving the solution in sc.sol.
func (m *MultiTable) settle(size int, sc *multiScratch, flips []flip, idx int) bool {
	if idx == len(flips) {
		for range newtonIterations {
			if m.newtonStepMixed(size, sc, flips) {
				return true
			}
		}
		return false
	}
	f := &flips[idx]
	at := func(q float64) (float64, bool) {
		f.q = q
		ok := m.settle(size, sc, flips, idx+1)
		return f.d, ok
	}
	d0, ok0 := at(0)
	if !ok0 {
		return false
	}
	if d0 <= 0 {
		return true // holding is a best response: settled at q = 0
	}
	d1, ok1 := at(1)
	if !ok1 {
		return false
	}
	if d1 >= 0 {
		return true // rolling is: q = 1
	}
	lo, hi := 0.0, 1.0
	for range 50 {
		mid := (lo + hi) / 2
		d, ok := at(mid)
		if !ok {
			return false
		}
		if d > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	_, ok := at((lo + hi) / 2)
	return ok
}

// newtonStepMixed is newtonStep with each flip's mover rolling with its
// probability at its turn total; each flip's d is left at the solution.
func (m *MultiTable) newtonStepMixed(size int, sc *multiScratch, flips []flip) bool {
	n := m.n
	mixOf := func(i int) {
		sc.mixK = -1
		for _, f := range flips {
			if f.member == i {
				sc.mixK, sc.mixP = f.k, f.q
			}
		}
	}
	defer func() { sc.mixK = -1 }()
	for i := range size {
		fromNext(sc.vec, sc.sol[(i+1)%size])
		mixOf(i)
		sc.lo[i], sc.hi[i] = m.sweep(sc.members[i], sc.vec, sc, sc.ma[i], &sc.mb[i])
	}
	if !m.foldOrbit(size, sc) {
		return false
	}
	for i := range size {
		x := sc.sol[(i+1)%size][n-1]
		if x < sc.lo[i]-1e-15 || x > sc.hi[i]+1e-15 {
			return false
		}
	}
	// Each flip's d at the solution.
	for j := range flips {
		i := flips[j].member
		fromNext(sc.vec, sc.sol[(i+1)%size])
		mixOf(i)
		var b float64
		m.sweep(sc.members[i], sc.vec, sc, sc.ma[i], &b)
		flips[j].d = sc.mixD
	}
	return true
}

// maxOrbitIterations bounds the value iteration behind Newton's method:
// an orbit that needs more cycles (its best responses flip for ever).
const maxOrbitIterations = 2000

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// sweep computes the turn of the mover at turn start p as A + B·pass,
// pass being the values (in p's frame) of passing the turn with nothing,
// with the choices made at the estimate est (the mover's value of pass:
// est[0]). It writes the turn start's A into a and B into *b, and returns
// the interval of the mover's pass value in which every choice stands.
func (m *MultiTable) sweep(p []int, est []float64, sc *multiScratch, a []float64, b *float64) (lo, hi float64) {
	switch {
	case m.variant.Game.ChoosesDice():
		return m.sweepHog(p, est, sc, a, b)
	case sc.mixK < 0 && !m.onePass:
		return m.sweepFast(p, est, sc, a, b)
	}
	n, T, d := m.n, m.t, &m.dist
	s0 := p[0]
	A, B := sc.a, sc.b
	x := est[0]
	lo, hi = math.Inf(-1), math.Inf(1)
	wipeV, bust := m.wiped(p, sc)
	rA, hA := sc.ra, sc.ha
	hold0 := m.nextStart(p, sc, s0)
	// A roll's value starts from its wipe (0 when s0 is 0: the wipe is a
	// bust then), the same at every turn total.
	for r := range n {
		wipeV[r] *= d.wipe
	}
	// A turn total that reaches the target has won: (1, 0, ...) + 0·x,
	// so that the sums below need not ask.
	for k := T - s0; k < len(B); k++ {
		won := A[k*n : k*n+n]
		clear(won)
		won[0], B[k] = 1, 0
		sc.a0[k] = 1
	}
	for k := T - s0 - 1; k >= 0; k-- {
		// Roll.
		rB := d.rollInto(rA, wipeV, A, B, k, bust)
		// Hold: the next mover's turn with this one's score s0+k, or the
		// pass itself with nothing (its vector is asked for only when it
		// is taken).
		hB, h0 := 1.0, 0.0
		if k > 0 {
			hB, h0 = 0, m.cols[n-2][hold0+k]
		}
		dA, dB := rA[0]-h0, rB-hB
		roll := dA+dB*x > 0
		sc.rolls[k] = roll
		if !roll || k == sc.mixK {
			clear(hA)
			if k > 0 {
				m.loadNext(hold0+k, hA)
			}
		}
		if k == sc.mixK {
			m.mixAt(k, sc, rB, hB, dA+dB*x) // held, not narrowed
			continue
		}
		lo, hi = narrow(lo, hi, dA, dB, roll)
		if roll {
			copy(A[k*n:k*n+n], rA)
			B[k] = rB
		} else {
			copy(A[k*n:k*n+n], hA)
			B[k] = hB
		}
		sc.a0[k] = A[k*n]
	}
	copy(a, A[:n])
	*b = B[0]
	return lo, hi
}

// mixAt writes the values of turn total k where the mover rolls with
// probability sc.mixP (choices elsewhere made as ever): the roll's (sc.ra,
// slope rB) and the hold's (sc.ha, hB) mixed; d, the mover's roll minus
// hold there, is kept in sc.mixD.
func (m *MultiTable) mixAt(k int, sc *multiScratch, rB, hB, d float64) {
	n, q := m.n, sc.mixP
	sc.mixD = d
	for r := range n {
		sc.a[k*n+r] = q*sc.ra[r] + (1-q)*sc.ha[r]
	}
	sc.b[k] = q*rB + (1-q)*hB
	sc.a0[k] = sc.a[k*n]
}

// rollInto sets rA to the value of a roll at turn total k, affine in the
// pass vector (the turn totals above k worked out in A, B by the stride
// of rA), and returns its slope: the wipe's values wipeV, then each roll's
// chance times its next turn total's, the bust's slope bust. Three and
// four players, the tables solved in practice, add up in registers.
func (d *rollDist) rollInto(rA, wipeV, A, B []float64, k int, bust float64) float64 {
	n, rB := len(rA), bust
	switch n {
	case 3:
		r0, r1, r2 := wipeV[0], wipeV[1], wipeV[2]
		for i, pts := range d.points {
			q, kk := d.probs[i], k+pts
			next := A[kk*3 : kk*3+3]
			r0, r1, r2 = r0+q*next[0], r1+q*next[1], r2+q*next[2]
			rB += q * B[kk]
		}
		rA[0], rA[1], rA[2] = r0, r1, r2
	case 4:
		r0, r1, r2, r3 := wipeV[0], wipeV[1], wipeV[2], wipeV[3]
		for i, pts := range d.points {
			q, kk := d.probs[i], k+pts
			next := A[kk*4 : kk*4+4]
			r0, r1, r2, r3 = r0+q*next[0], r1+q*next[1], r2+q*next[2], r3+q*next[3]
			rB += q * B[kk]
		}
		rA[0], rA[1], rA[2], rA[3] = r0, r1, r2, r3
	default:
		copy(rA, wipeV)
		for i, pts := range d.points {
			q, kk := d.probs[i], k+pts
			for r, v := range A[kk*n : kk*n+n] {
				rA[r] += q * v
			}
			rB += q * B[kk]
		}
	}
	return rB
}

// wiped returns the values of a wipe for the mover at turn start p (the
// next mover's turn at (p[1], ..., p[n-1], 0); with nothing banked, the
// pass itself, counted with the busts), and the chance of a bust that
// passes the turn.
func (m *MultiTable) wiped(p []int, sc *multiScratch) (wipeV []float64, bust float64) {
	d, n := &m.dist, m.n
	bust = d.bust - d.wipe
	wipeV = sc.tmp
	clear(wipeV)
	if d.wipe == 0 {
		return wipeV, bust
	}
	if p[0] == 0 {
		return wipeV, d.bust
	}
	if m.pass == 0 {
		// Not solved yet (the first pass): even chances.
		for r := range n {
			wipeV[r] = 1 / float64(n)
		}
		return wipeV, bust
	}
	m.loadNext(m.nextStart(p, sc, 0), wipeV)
	return wipeV, bust
}

// nextStart sets sc.nxt to the next mover's turn start once the mover at
// p banks to score (p[1], ..., p[n-1], score) and returns its index: a
// hold of k more is kept at that index + k (the last score counts one).
func (m *MultiTable) nextStart(p []int, sc *multiScratch, score int) int {
	n := m.n
	for r := 1; r < n; r++ {
		sc.nxt[r-1] = p[r]
	}
	sc.nxt[n-1] = score
	return m.index(sc.nxt)
}

// sweepHog is sweep for Hog: each dice count leads to the next mover's
// turn with this one's score raised, a higher layer, or on any 1 to the
// pass.
func (m *MultiTable) sweepHog(p []int, est []float64, sc *multiScratch, a []float64, b *float64) (lo, hi float64) {
	n, T, D := m.n, m.t, m.variant.MaxDice
	s0 := p[0]
	x := est[0]
	best := -1
	As, Bs := sc.hogA, sc.hogB
	for d := 1; d <= D; d++ {
		opt := As[d]
		clear(opt)
		for sum, q := range m.hog.sum[d] {
			if q == 0 {
				continue
			}
			if s0+sum >= T {
				opt[0] += q
				continue
			}
			for r := 1; r < n; r++ {
				sc.nxt[r-1] = p[r]
			}
			sc.nxt[n-1] = s0 + sum
			m.loadNext(m.index(sc.nxt), sc.hv)
			for r := range n {
				opt[r] += q * sc.hv[r]
			}
		}
		Bs[d] = m.hog.zero(d)
		if best < 0 || opt[0]+Bs[d]*x > As[best][0]+Bs[best]*x { // ties: fewer dice
			best = d
		}
	}
	lo, hi = math.Inf(-1), math.Inf(1)
	for d := 1; d <= D; d++ {
		if d != best {
			lo, hi = narrow(lo, hi, As[best][0]-As[d][0], Bs[best]-Bs[d], true)
		}
	}
	copy(a, As[best])
	*b = Bs[best]
	return lo, hi
}

// Residual is the largest Bellman residual at a turn start once solved: how
// far a stored value is from the best option recomputed from the table
// (see residual). It is worked out on first use.
func (m *MultiTable) Residual() float64 {
	m.residualOnce.Do(func() { m.residualMax = m.residual() })
	return m.residualMax
}

// residual is the most a mover could gain at a turn start by deviating:
// the largest difference between the mover's stored chance and the best
// the mover could do there, every choice of the turn made afresh against
// the table (the one-shot deviation check of an equilibrium). The other
// players' chances follow from the choices by the orbit's exact solve.
// The turn starts are shared out to the cores the table was solved on.
func (m *MultiTable) residual() float64 {
	cores := max(1, m.cores)
	worst := make([]float64, cores)
	count := m.starts()
	var wg sync.WaitGroup
	for w := range cores {
		wg.Go(func() {
			sc := m.newScratch()
			p, v := make([]int, m.n), make([]float64, m.n)
			for x := w * count / cores; x < (w+1)*count/cores; x++ {
				for r, rest := m.n-1, x; r >= 0; r-- {
					p[r], rest = rest%m.t, rest/m.t
				}
				for r := range m.n {
					sc.nxt[r] = p[(r+1)%m.n]
				}
				m.loadNext(m.index(sc.nxt), sc.vec)
				var b float64
				m.sweep(p, sc.vec, sc, v, &b)
				m.load(x, sc.tmp)
				worst[w] = max(worst[w], math.Abs(v[0]+b*sc.vec[0]-sc.tmp[0]))
			}
		})
	}
	wg.Wait()
	return slices.Max(worst)
}

// Advise analyses the decision of the mover at turn start p (scores from
// the mover's, then in the order they move) with turn total k: each
// option's chance of winning for the mover, by backward induction over the
// turn total from the table's turn starts (ties hold, fewer dice). It
// costs a pass over the turn totals of the turn: microseconds.
func (m *MultiTable) Advise(p []int, k int) Advice {
	t, _ := m.turns.Get().(*multiTurn)
	t = m.turnInto(t, p)
	a := t.advise(k)
	m.turns.Put(t)
	return a
}

// multiTurn is one turn start analysed: the options at every turn total
// of the turn are read off it.
type multiTurn struct {
	m    *MultiTable
	p    []int
	sc   *multiScratch
	pass []float64
}

// turn analyses the turn start p (see Advise).
func (m *MultiTable) turn(p []int) *multiTurn { return m.turnInto(nil, p) }

// turnInto analyses the turn start p in t's memory, which it no longer
// holds (as the solver reuses its scratch from orbit to orbit), or in new
// memory when t is nil or of another table.
func (m *MultiTable) turnInto(t *multiTurn, p []int) *multiTurn {
	n := m.n
	if t == nil || t.m != m {
		t = &multiTurn{m: m, sc: m.newScratch(), pass: make([]float64, n)}
	}
	t.p = append(t.p[:0], p...)
	for r := range n {
		t.sc.nxt[r] = p[(r+1)%n]
	}
	m.loadNext(m.index(t.sc.nxt), t.pass)
	var b float64
	v := make([]float64, n)
	if m.variant.Game.ChoosesDice() {
		m.sweepHog(t.p, t.pass, t.sc, v, &b)
	} else {
		m.sweep(t.p, t.pass, t.sc, v, &b)
	}
	return t
}

// advise reads the options at turn total k.
func (t *multiTurn) advise(k int) Advice {
	m, p, sc, pass, n := t.m, t.p, t.sc, t.pass, t.m.n
	a := Advice{Game: m.variant.Game}
	if m.variant.Game.ChoosesDice() {
		D := m.variant.MaxDice
		a.MaxDice = D
		best := 1
		for d := 1; d <= D; d++ {
			a.Dice[d] = sc.hogA[d][0] + sc.hogB[d]*pass[0]
			if a.Dice[d] > a.Dice[best] {
				best = d
			}
		}
		a.Best, a.EV = sim.Dice(best), sim.Dice(m.evDice)
		return a
	}
	// The sweep left each turn total's values as A + B·pass; the options
	// at k are read off the values above it.
	d, T, s0 := &m.dist, m.t, p[0]
	value := func(kk int) float64 {
		if s0+kk >= T {
			return 1
		}
		return sc.a0[kk] + sc.b[kk]*pass[0]
	}
	wipe := 0.0
	if d.wipe > 0 && s0 > 0 {
		for r := 1; r < n; r++ {
			sc.nxt[r-1] = p[r]
		}
		sc.nxt[n-1] = 0
		m.loadNext(m.index(sc.nxt), sc.vec)
		wipe = d.wipe * sc.vec[0]
	}
	bust := d.bust - d.wipe
	if s0 == 0 {
		bust = d.bust
	}
	a.Roll = bust*pass[0] + wipe
	for i, pts := range d.points {
		a.Roll += d.probs[i] * value(k+pts)
	}
	a.Hold = pass[0]
	if k > 0 {
		for r := 1; r < n; r++ {
			sc.nxt[r-1] = p[r]
		}
		sc.nxt[n-1] = s0 + k
		m.loadNext(m.index(sc.nxt), sc.vec)
		a.Hold = sc.vec[0]
	}
	a.Best = sim.Hold
	if a.Roll > a.Hold {
		a.Best = sim.Roll
	}
	a.EV = sim.Hold
	if d.evRolls(s0, k) {
		a.EV = sim.Roll
	}
	return a
}
