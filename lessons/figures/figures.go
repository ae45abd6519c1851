// Package figures computes the numbers the lesson plans name in braces
// ({pig.first}): one table of every figure, the game it belongs to, how it
// is written and how the solver computes it. Nothing in a lesson is typed
// in: a figure added here (with its line in lessons/FORMAT.md) is one a
// lesson may name. The values are computed once by whoever holds the
// tables (the server, once per server): there is no process-wide state.
package figures

import (
	"errors"
	"math"
	"slices"

	"pigclass/sim"
	"pigclass/sim/solve"
)

// Kind is how a figure is written.
type Kind int

// The kinds of figure.
const (
	Percent  Kind = iota // a chance, written as a percentage with two decimals
	Whole                // a whole number
	Decimal1             // one decimal
	Decimal2             // two decimals
	Pair                 // two whole numbers said in a sentence (Skunk's rule)
)

// Value is a computed figure: X, or for a Pair the two numbers.
type Value struct {
	Kind Kind
	X    float64
	Pair [2]int
}

// Figure is one figure a lesson may name.
type Figure struct {
	Name string
	// Variant is the game it belongs to: a lesson names it only where one
	// of its phases plays that game, or the sentence names the game.
	Variant sim.Variant
	Kind    Kind
	compute func(c *calc) Value
}

// Tables are the solved tables a figure reads (a solve.Cache).
type Tables interface {
	Get(v sim.Variant) (*solve.Table, error)
	GetEqual(v sim.Variant) (*solve.EqualTable, error)
	MultiWait(v sim.Variant) (*solve.MultiTable, error)
}

// The variants of the figures.
var (
	pig, fifty, equal, equal50, three = variants()
	hog                               = sim.Standard(sim.Hog)
	pigs                              = sim.Standard(sim.PassPigs)
	skunk                             = sim.Standard(sim.TwoDice) // Skunk's rule is Two-Dice Pig's
)

func variants() (pig, fifty, equal, equal50, three sim.Variant) {
	pig = sim.Standard(sim.Pig)
	fifty = pig
	fifty.Target = 50
	equal, equal50 = pig, fifty
	equal.EqualTurns, equal50.EqualTurns = true, true
	three = fifty
	three.Seats = 3
	return
}

// All is every figure.
var All = []Figure{
	{"pig.first", pig, Percent, func(c *calc) Value { return c.x(c.table(pig).FirstPlayerWin()) }},
	{"pig.states", pig, Whole, func(c *calc) Value { return c.x(float64(c.table(pig).States())) }},
	{"pig50.first", fifty, Percent, func(c *calc) Value { return c.x(c.table(fifty).FirstPlayerWin()) }},
	{"pig3.first", three, Percent, func(c *calc) Value { return c.x(c.three.FirstPlayerWin()[0]) }},
	{"pig3.second", three, Percent, func(c *calc) Value { return c.x(c.three.FirstPlayerWin()[1]) }},
	{"pig3.third", three, Percent, func(c *calc) Value { return c.x(c.three.FirstPlayerWin()[2]) }},
	{"equal.first", equal, Percent, func(c *calc) Value { return c.x(c.equal(equal)) }},
	{"equal50.first", equal50, Percent, func(c *calc) Value { return c.x(c.equal(equal50)) }},
	{"rule.hold70", pig, Whole, func(c *calc) Value { return c.x(float64(FirstHold(c.table(pig), 70, 0))) }},
	{"rule.race70", pig, Whole, func(c *calc) Value { return c.x(float64(RaceFrom(c.table(pig), 70))) }},
	{"hold20.zero", pig, Percent, func(c *calc) Value { zero, _ := c.holdTwenty(); return c.x(zero) }},
	{"hold20.points", pig, Decimal2, func(c *calc) Value { _, points := c.holdTwenty(); return c.x(points) }},
	{"hold20.duel", pig, Percent, func(c *calc) Value { return c.x(c.duel(sim.HoldAt(20), sim.HoldAt(20))) }},
	{"hold25.duel", pig, Percent, func(c *calc) Value { return c.x(c.duel(sim.HoldAt(25), sim.HoldAt(20))) }},
	{"lab100.half", pig, Decimal1, func(c *calc) Value { return c.x(100 * WilsonHalf(c.duel(sim.HoldAt(25), sim.HoldAt(20)), 100)) }},
	{"lab10000.half", pig, Decimal1, func(c *calc) Value { return c.x(100 * WilsonHalf(c.duel(sim.HoldAt(25), sim.HoldAt(20)), 10000)) }},
	{"optimal.hold20", pig, Percent, func(c *calc) Value { return c.x(c.duel(c.optimal(), sim.HoldAt(20))) }},
	{"hold20.second", pig, Percent, func(c *calc) Value { return c.x(1 - c.duel(c.optimal(), sim.HoldAt(20))) }},
	{"hog.five", hog, Decimal2, func(c *calc) Value { return c.x(sim.ExpectedGain(sim.Hog, 0, 0, 5)) }},
	{"hog.ten", hog, Decimal2, func(c *calc) Value { return c.x(sim.ExpectedGain(sim.Hog, 0, 0, 10)) }},
	{"hog.first", hog, Percent, func(c *calc) Value { return c.x(c.table(hog).FirstPlayerWin()) }},
	{"ci30.half", pig, Decimal1, func(c *calc) Value { return c.x(100 * WilsonHalf(c.table(fifty).FirstPlayerWin(), 30)) }},
	{"skunk.stand", skunk, Pair, func(c *calc) Value { return Value{Kind: Pair, Pair: [2]int{sitFrom(0), sitFrom(50)}} }},
	{"pig.roll", pig, Decimal2, func(c *calc) Value { return c.x(sim.ExpectedGain(sim.Pig, 0, 0, 1)) }},
	{"pigs.first", pigs, Percent, func(c *calc) Value { return c.x(c.table(pigs).FirstPlayerWin()) }},
	{"pigs.roll", pigs, Decimal2, func(c *calc) Value { return c.x(sim.ExpectedGain(sim.PassPigs, 0, 0, 2)) }},
	{"pigs.lose", pigs, Percent, func(c *calc) Value { return c.x(loseChance(sim.PassPigs)) }},
	{"pigs.hold", pigs, Whole, func(c *calc) Value { n, _ := bestTurn(c.table(pigs)); return c.x(float64(n)) }},
	{"pigs.turn", pigs, Decimal2, func(c *calc) Value { _, points := bestTurn(c.table(pigs)); return c.x(points) }},
	{"pigs.best", pigs, Whole, func(c *calc) Value { return c.x(float64(FirstHold(c.table(pigs), 0, 0))) }},
	// "Decide before you roll" (issue 62): a plan "roll until my turn
	// total reaches N", the same every turn, is hold at N; against hold
	// at 20 in Pig to 50, the round the lesson plays.
	{"plan50.twenty", fifty, Percent, func(c *calc) Value { return c.x(c.duelIn(fifty, sim.HoldAt(20), sim.HoldAt(20))) }},
	{"plan50.early", fifty, Percent, func(c *calc) Value { return c.x(c.duelIn(fifty, sim.HoldAt(10), sim.HoldAt(20))) }},
	{"plan50.best", fifty, Whole, func(c *calc) Value { n, _ := c.bestPlan(); return c.x(float64(n)) }},
	{"plan50.bestwin", fifty, Percent, func(c *calc) Value { _, win := c.bestPlan(); return c.x(win) }},
	// One die's figure: any game of dice has it; it is filed under the
	// game the dice lesson plays at its tables (Pig to 50).
	{"loaded.throws", fifty, Whole, func(c *calc) Value { return c.x(float64(LoadedThrows(0.25, 1.0/6))) }},
}

// Lookup returns the figure with a name.
func Lookup(name string) (Figure, bool) {
	i := slices.IndexFunc(All, func(f Figure) bool { return f.Name == name })
	if i < 0 {
		return Figure{}, false
	}
	return All[i], true
}

// Names lists every figure's name.
func Names() []string {
	out := make([]string, len(All))
	for i, f := range All {
		out[i] = f.Name
	}
	return out
}

// Compute computes every figure from tables, waiting for their solves.
func Compute(tables Tables) (map[string]Value, error) {
	c := &calc{tabs: map[sim.Variant]*solve.Table{}, equals: map[sim.Variant]*solve.EqualTable{}}
	for _, v := range []sim.Variant{pig, fifty, hog, pigs} {
		t, err := tables.Get(v)
		if err != nil {
			return nil, err
		}
		c.tabs[v] = t
	}
	for _, v := range []sim.Variant{equal, equal50} {
		e, err := tables.GetEqual(v)
		if err != nil {
			return nil, err
		}
		c.equals[v] = e
	}
	m, err := tables.MultiWait(three)
	if err != nil {
		return nil, err
	}
	c.three = m
	out := make(map[string]Value, len(All))
	for _, f := range All {
		v := f.compute(c)
		v.Kind = f.Kind
		out[f.Name] = v
	}
	return out, c.err
}

// calc holds the solved tables the figures read (every one a figure
// names, solved before any is computed) and the first error of a duel.
type calc struct {
	tabs   map[sim.Variant]*solve.Table
	equals map[sim.Variant]*solve.EqualTable
	three  *solve.MultiTable
	err    error
}

func (c *calc) x(x float64) Value { return Value{X: x} }

func (c *calc) table(v sim.Variant) *solve.Table { return c.tabs[v] }

func (c *calc) equal(v sim.Variant) float64 { return c.equals[v].FirstPlayerWin() }

func (c *calc) optimal() sim.Strategy { return solve.Optimal{T: c.table(pig)} }

func (c *calc) duel(first, second sim.Strategy) float64 {
	p, err := solve.Duel(pig, first, second)
	if err != nil {
		c.err = errors.Join(c.err, err)
	}
	return p
}

// duelIn is first's exact chance, moving first, against second in v.
func (c *calc) duelIn(v sim.Variant, first, second sim.Strategy) float64 {
	p, err := solve.Duel(v, first, second)
	if err != nil {
		c.err = errors.Join(c.err, err)
	}
	return p
}

// bestPlan is the plan of Pig to 50 that wins most often moving first
// against hold at 20 (BestPlan), and its chance.
func (c *calc) bestPlan() (int, float64) {
	n, win, err := BestPlan(fifty, sim.HoldAt(20))
	c.err = errors.Join(c.err, err)
	return n, win
}

// BestPlan is the N from 1 to v's target whose plan "roll until my turn
// total reaches N" every turn (hold at N) wins most often in v moving
// first against second, the lowest of equals, with its exact chance.
func BestPlan(v sim.Variant, second sim.Strategy) (best int, win float64, err error) {
	for n := 1; n <= v.Target; n++ {
		p, err := solve.Duel(v, sim.HoldAt(n), second)
		if err != nil {
			return 0, 0, err
		}
		if p > win {
			best, win = n, p
		}
	}
	return best, win, nil
}

// holdTwenty is one hold-at-20 turn of Pig from 0: the chance it scores
// nothing, and its expected points.
func (c *calc) holdTwenty() (zero, points float64) {
	holds, win := c.table(pig).HoldDistribution(0, 0, sim.HoldAt(20))
	zero = 1 - win
	for k, p := range holds {
		zero -= p
		points += float64(k) * p
	}
	return zero, points
}

// sitFrom is Skunk's expected-value rule: the round total from which it
// sits at a score.
func sitFrom(score int) int {
	ev := solve.NewEVPlay(skunk)
	k := 0
	for ev.Decide(sim.Position{Variant: skunk, Score: score, TurnTotal: k}) == sim.Roll {
		k++
	}
	return k
}

// loseChance is a roll's chance of losing the turn total (a bust or a
// wipe) in a game of many rolls.
func loseChance(g sim.Game) float64 {
	outcomes, total := g.Rules().Outcomes(g.Dice())
	lost := 0.0
	for _, o := range outcomes {
		if o.Effect != sim.Adds {
			lost += float64(o.Weight) / float64(total)
		}
	}
	return lost
}

// bestTurn is the hold value that maximises one turn's expected score from
// 0, by the direct sum over the turn's totals, and that score.
func bestTurn(t *solve.Table) (best int, bestPoints float64) {
	for n := 1; n < t.Variant().Target; n++ {
		holds, _ := t.HoldDistribution(0, 0, sim.HoldAt(n))
		points := 0.0
		for k, p := range holds {
			points += float64(k) * p
		}
		if points > bestPoints {
			best, bestPoints = n, points
		}
	}
	return best, bestPoints
}

// FirstHold is the turn total at which perfect play, on score i against j,
// first holds (the target minus i if it never does).
func FirstHold(t *solve.Table, i, j int) int {
	for k := 0; i+k < t.Variant().Target; k++ {
		if t.Advise(i, j, k).Best == sim.Hold {
			return k
		}
	}
	return t.Variant().Target - i
}

// RaceFrom is the lowest opponent's score from which perfect play on score
// i rolls on until it wins, whatever it has rolled this turn.
func RaceFrom(t *solve.Table, i int) int {
	target := t.Variant().Target
	j := target - 1
	for j > 0 && FirstHold(t, i, j-1) == target-i {
		j--
	}
	return j
}

// WilsonHalf is the half-width of the 95% Wilson interval of a share p
// estimated from n games (the interval the first-player chart draws).
func WilsonHalf(p float64, n int) float64 {
	const z = sim.Z95
	nf := float64(n)
	return z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / (1 + z*z/nf)
}

// LoadedThrows is the fewest throws of a die that shows a face with
// chance p (a loaded die: 1/4 for a six) after which, if the face came up
// exactly that share of the time, its 95% Wilson interval (the one the
// class-dice chart draws) leaves out fair, the share of a fair die (1/6):
// how many throws it takes to tell the die is loaded. Throws and faces
// are whole: only a count of throws of which p is a whole number of faces
// can show the face exactly that share of the time (for 1/4, a multiple
// of 4: 20 sixes in 80 throws, where 19 in 77 would still hold 1/6).
func LoadedThrows(p, fair float64) int {
	const z = sim.Z95
	for n := 1; ; n++ {
		k := p * float64(n)
		if math.Abs(k-math.Round(k)) > 1e-9 {
			continue // p of n throws is not a whole number of faces
		}
		lo, hi := sim.Wilson(int(math.Round(k)), n, z)
		if lo > fair || hi < fair {
			return n
		}
	}
}
