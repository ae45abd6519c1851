package solve

import (
	"context"
	"fmt"
	"math"
	"runtime"

	"pigclass/sim"
)

// Table is a solved two-player game: the probability that the player to
// move wins from every state (own score i, opponent's score j, turn total k)
// under perfect play by both. It is immutable once built and safe to share
// between goroutines.
type Table struct {
	variant sim.Variant
	target  int
	p       []float64 // the values, indexed by index(i, j, k)
	row     []int     // Pig games: where the states with own score i begin
	dist    rollDist  // Pig games: one roll
	hog     throwSums // Hog: the sums of n dice
	hogOpt  []float64 // Hog: the value of each dice count in each state
	evDice  int       // Hog: the dice count of expected-value play
}

// MaxTarget is the largest target the solver accepts.
const MaxTarget = 200

// checkVariant reports why v cannot be solved exactly.
func checkVariant(v sim.Variant) error {
	if err := v.Validate(); err != nil {
		return err
	}
	if v.Seats != 2 {
		return fmt.Errorf("solve: exact tables are for two players, not %d", v.Seats)
	}
	if v.Target > MaxTarget {
		return fmt.Errorf("solve: target %d: the solver takes targets from %d to %d", v.Target, sim.MinTarget, MaxTarget)
	}
	return nil
}

// Solve builds the table of perfect play for a two-player variant. Equal
// turns are solved by SolveEqualTurns.
func Solve(v sim.Variant) (*Table, error) { return SolveContext(context.Background(), v) }

// SolveContext is Solve that gives up, returning ctx's error, once ctx is
// done (looked at between layers: within a few milliseconds).
func SolveContext(ctx context.Context, v sim.Variant) (*Table, error) {
	if err := checkVariant(v); err != nil {
		return nil, err
	}
	if v.EqualTurns {
		return nil, fmt.Errorf("solve: use SolveEqualTurns for equal turns")
	}
	t := newTable(v)
	if v.Game.ChoosesDice() {
		t.hogOpt = make([]float64, len(t.p)*v.MaxDice)
	}
	if err := t.evaluate(ctx, t.p, t.p, nil, nil); err != nil {
		return nil, err
	}
	return t, nil
}

// newTable lays out an empty table for v.
func newTable(v sim.Variant) *Table {
	T := v.Target
	t := &Table{variant: v, target: T}
	if v.Game.ChoosesDice() {
		t.hog = newThrowSums(v.Game, v.MaxDice)
		t.evDice = v.Game.Rules().EVPieces(v.MaxDice)
		t.p = make([]float64, T*T)
		return t
	}
	t.dist = rollDistOf(v.Game)
	t.row = make([]int, T+1)
	for i := range T {
		t.row[i+1] = t.row[i] + T*(T-i)
	}
	t.p = make([]float64, t.row[T])
	return t
}

// TableBytes returns the memory the table of key k (a Key or a MultiKey)
// takes once solved, known before it is solved: what a cache must find
// room for. An equal-turns table's tie-break rows, a few kilobytes, are
// counted as 16 KB.
func TableBytes(k sim.Variant) int64 {
	switch {
	case k.Seats > 2:
		return MultiBytes(k)
	case k.EqualTurns:
		k.EqualTurns = false
		return 2*TableBytes(k) + 16<<10
	}
	T := int64(k.Target)
	if k.Game.ChoosesDice() {
		return 8 * T * T * int64(1+k.MaxDice)
	}
	return 8 * (T*T*(T+1)/2 + T + 1)
}

// Variant returns the rules the table was solved for.
func (t *Table) Variant() sim.Variant { return t.variant }

// States returns the number of non-terminal states.
func (t *Table) States() int { return len(t.p) }

// index returns where state (i, j, k) is kept; k is 0 in Hog.
func (t *Table) index(i, j, k int) int {
	if t.row == nil {
		return i*t.target + j
	}
	return t.row[i] + j*(t.target-i) + k
}

// Win returns the probability that the player to move wins from own score
// i, opponent's score j and turn total k under perfect play. A position
// already at the target is won (1). In Hog k must be 0.
func (t *Table) Win(i, j, k int) float64 {
	switch {
	case i+k >= t.target:
		return 1
	case j >= t.target:
		return 0
	}
	return t.p[t.index(i, j, k)]
}

// FirstPlayerWin returns the first player's chance at the start.
func (t *Table) FirstPlayerWin() float64 { return t.p[0] }

// policy fixes the choice in a state for policy evaluation: roll or hold in
// the Pig games (true for roll), the number of dice in Hog.
type policy interface {
	roll(i, j, k int) bool
	dice(i, j int) int
}

// evaluate fills mine (the player to move at (i, j, k)) and theirs (the
// other player to move at (j, i, k)) layer by layer from the highest score
// sum. With mine and theirs the same slice and no policies it solves perfect
// play; with two policies it evaluates them against each other. Two-Dice
// Pig's wipe reads turn-start values of a lower layer from the previous
// pass, and passes repeat until those values settle. It stops with ctx's
// error once ctx is done.
func (t *Table) evaluate(ctx context.Context, mine, theirs []float64, pm, pt policy) error {
	same := &mine[0] == &theirs[0]
	T := t.target
	scratch := func() *sideScratch { return t.newScratch() }
	sm, st := scratch(), scratch()
	if t.row != nil {
		// Each table's turn-start values again, (i, j) at i*T + j: a turn's
		// holds read a row of them, one after the other in memory.
		sm.starts = make([]float64, T*T)
		st.starts = sm.starts
		if !same {
			st.starts = make([]float64, T*T)
		}
		sm.otherStarts, st.otherStarts = st.starts, sm.starts
	}
	for pass := 0; ; pass++ {
		change := 0.0
		var before []float64
		if t.dist.wipe > 0 {
			before = t.wipeValues(mine, theirs)
		}
		for s := 2*T - 2; s >= 0; s-- {
			if err := layerDone(ctx); err != nil {
				return err
			}
			for i := max(0, s-T+1); i <= min(s, T-1); i++ {
				j := s - i
				if same && i > j {
					continue
				}
				a := t.side(mine, theirs, pm, i, j, sm)
				if same && i == j {
					solvePair(a, nil)
					continue
				}
				solvePair(a, t.side(theirs, mine, pt, j, i, st))
			}
		}
		if before == nil {
			return nil
		}
		for n, v := range t.wipeValues(mine, theirs) {
			change = max(change, math.Abs(v-before[n]))
		}
		if change < pairTol {
			return nil
		}
		if pass > 10000 {
			panic("solve: the wipe values did not converge")
		}
	}
}

// wipeValues returns the turn-start values (j, 0, 0) of both tables, which a
// wipe leads to.
func (t *Table) wipeValues(mine, theirs []float64) []float64 {
	out := make([]float64, 0, 2*t.target)
	for j := range t.target {
		out = append(out, mine[t.index(j, 0, 0)], theirs[t.index(j, 0, 0)])
	}
	return out
}

// sideScratch is the working memory of one side, reused for every pair.
type sideScratch struct {
	a, b []float64 // per turn total (Pig games) or per dice count (Hog)
	// starts are the turn-start values of the side's own table, (i, j) at
	// i*T + j, and otherStarts the other's (Pig games); row, where a solve
	// keeps none, is room for one row of the other's.
	starts, otherStarts, row []float64
	pig                      pigSide
	hog                      hogSide
}

// newScratch returns a side's working memory: for a Pig game, turn totals
// up to the target and past it by the largest roll.
func (t *Table) newScratch() *sideScratch {
	if t.row == nil {
		n := t.variant.MaxDice + 1
		return &sideScratch{a: make([]float64, n), b: make([]float64, n)}
	}
	n := t.target + t.dist.points[len(t.dist.points)-1]
	return &sideScratch{a: make([]float64, n), b: make([]float64, n), row: make([]float64, t.target)}
}

// side returns one half of the pair at (i, j) for the right game.
func (t *Table) side(tab, other []float64, pol policy, i, j int, sc *sideScratch) side {
	if t.row == nil {
		sc.hog = hogSide{t: t, tab: tab, other: other, pol: pol, i: i, j: j, sc: sc}
		return &sc.hog
	}
	sc.pig = pigSide{t: t, tab: tab, other: other, pol: pol, i: i, j: j, sc: sc}
	return &sc.pig
}

// Bytes returns the memory the table's values take.
func (t *Table) Bytes() int64 { return int64(8 * (len(t.p) + len(t.hogOpt) + len(t.row))) }

// layerDone is called between a solve's layers (a few milliseconds
// apart): it lets other goroutines run first and returns ctx's error once
// ctx is done.
func layerDone(ctx context.Context) error {
	runtime.Gosched()
	return ctx.Err()
}
