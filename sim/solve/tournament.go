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

// Entry is one strategy of a tournament, by the name its standings show.
type Entry struct {
	Name     string
	Strategy sim.Strategy
}

// Standing is one entry's row of a tournament's standings.
type Standing struct {
	Entry   int     // its index in the entries
	Rank    int     // 1 the best; tied entries share a rank
	Average float64 // its exact chance of winning, averaged over every opponent and both seats
	// Its opponents it does best and worst against, and its chance
	// against each (both seats averaged); -1 with a single entry.
	Best, Worst             int
	BestChance, WorstChance float64
}

// Tournament is every ordered duel of a set of entries, played exactly
// (policy evaluation, DuelChoices: each entry's choices asked once), and
// the standings they make.
type Tournament struct {
	Variant sim.Variant
	Entries []Entry
	// First[a][b] is a's exact chance of beating b when a moves first
	// (the diagonal unused).
	First     [][]float64
	Standings []Standing // best first
}

// Chance is a's exact chance against b, both seats averaged.
func (t *Tournament) Chance(a, b int) float64 {
	return (t.First[a][b] + 1 - t.First[b][a]) / 2
}

// TieTolerance is how close two averages are to be a tie: closer than the
// duels' own rounding.
const TieTolerance = 1e-12

// Played is one duel of a tournament as it is played: A moving first
// beat B with probability First; N duels are done of Of.
type Played struct {
	A, B  int
	First float64
	N, Of int
}

// PlayTournament plays every ordered pair of entries (both orders) in
// two-player variant v on workers goroutines, calling done (if not nil)
// after each duel with the duel and how many are done, and ranks the
// entries by their average chance. It stops early, with ctx's error, when
// ctx is done.
func PlayTournament(ctx context.Context, v sim.Variant, entries []Entry, workers int, done func(Played)) (*Tournament, error) {
	if err := checkVariant(v); err != nil {
		return nil, err
	}
	if len(entries) < 2 {
		return nil, fmt.Errorf("solve: a tournament needs two entries or more, not %d", len(entries))
	}
	n := len(entries)
	t := &Tournament{Variant: v, Entries: entries, First: make([][]float64, n)}
	type pair struct{ a, b int }
	work := make(chan pair)
	for a := range n {
		t.First[a] = make([]float64, n)
	}
	// Each entry's choices are asked once, by the first duel that needs
	// them, and read by all its duels.
	choices := make([]func() *Choices, n)
	for a, e := range entries {
		choices[a] = sync.OnceValue(func() *Choices { return ChoicesOf(v, e.Strategy) })
	}
	duel := func(a, b int) (float64, error) {
		if v.EqualTurns {
			return DuelEqualTurns(v, entries[a].Strategy, entries[b].Strategy)
		}
		return DuelChoices(choices[a](), choices[b]())
	}
	var wg sync.WaitGroup
	var count atomic.Int64
	var once sync.Once
	var firstErr error
	for range max(1, workers) {
		wg.Go(func() {
			for p := range work {
				w, err := duel(p.a, p.b)
				if err != nil {
					once.Do(func() { firstErr = fmt.Errorf("solve: %s against %s: %w", entries[p.a].Name, entries[p.b].Name, err) })
					continue
				}
				t.First[p.a][p.b] = w
				if done != nil {
					done(Played{A: p.a, B: p.b, First: w, N: int(count.Add(1)), Of: n * (n - 1)})
				}
			}
		})
	}
feed:
	for a := range n {
		for b := range n {
			if a == b {
				continue
			}
			select {
			case work <- pair{a, b}:
			case <-ctx.Done():
				break feed
			}
		}
	}
	close(work)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if firstErr != nil {
		return nil, firstErr
	}
	t.Standings = t.rank()
	return t, nil
}

// rank orders the entries by average chance, ties sharing a rank, and
// finds each one's best and worst opponent.
func (t *Tournament) rank() []Standing { return Rank(t.First, nil) }

// Rank is the standings of a tournament's duels so far: first[a][b] is a's
// chance moving first against b, played where known[a][b] (nil: all).
// Against each opponent an entry's chance is the mean of the seats
// played; its average is over the opponents it has met. Best first, ties
// (averages within TieTolerance) sharing a rank.
func Rank(first [][]float64, known [][]bool) []Standing {
	n := len(first)
	played := func(a, b int) bool { return known == nil || known[a][b] }
	out := make([]Standing, n)
	for a := range n {
		s := Standing{Entry: a, Best: -1, Worst: -1, WorstChance: math.Inf(1), BestChance: math.Inf(-1)}
		met := 0
		for b := range n {
			if a == b || !played(a, b) && !played(b, a) {
				continue
			}
			c, seats := 0.0, 0.0
			if played(a, b) {
				c, seats = first[a][b], 1
			}
			if played(b, a) {
				c, seats = c+1-first[b][a], seats+1
			}
			c /= seats
			s.Average += c
			met++
			if c > s.BestChance {
				s.Best, s.BestChance = b, c
			}
			if c < s.WorstChance {
				s.Worst, s.WorstChance = b, c
			}
		}
		if met > 0 {
			s.Average /= float64(met)
		}
		out[a] = s
	}
	slices.SortStableFunc(out, func(x, y Standing) int {
		switch {
		case math.Abs(x.Average-y.Average) < TieTolerance:
			return 0
		case x.Average > y.Average:
			return -1
		}
		return 1
	})
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && math.Abs(out[i].Average-out[i-1].Average) < TieTolerance {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out
}

// TurnCost is the chance of winning strategy s gives away, against
// perfect play's choices, in one turn it plays from score i against j
// (turn total 0): each of its decisions costs the chance of perfect
// play's best option less that of its own (both with perfect play after,
// Advise), weighted by the chance its turn reaches that decision. A
// decision that reaches the target ends the turn.
func (t *Table) TurnCost(s sim.Strategy, v sim.Variant, i, j int) float64 {
	d := rollDistOf(v.Game)
	reach := map[int]float64{0: 1} // turn total: the chance the turn gets there still going
	cost := 0.0
	for k := 0; i+k < t.target; k++ {
		p := reach[k]
		if p == 0 {
			continue
		}
		a := t.Advise(i, j, k)
		best := max(a.Roll, a.Hold)
		if s.Decide(sim.Position{Variant: v, Score: i, Opponent: j, TurnTotal: k, Players: 2}) != sim.Roll {
			cost += p * (best - a.Hold)
			continue
		}
		cost += p * (best - a.Roll)
		for n, pts := range d.points {
			if i+k+pts < t.target {
				reach[k+pts] += p * d.probs[n]
			}
		}
	}
	return cost
}
