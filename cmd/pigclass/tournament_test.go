package main

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"pigclass/sim"
	"pigclass/sim/solve"
)

// TestTournamentOfPlans (issue 46): five plans of the three forms (hold
// at N twice, the keep-pace rule, perfect play's map rounded to the grid,
// and a map painted by hand) in Pig to 50. Every ordered duel of the
// tournament agrees with "pigclass duel" on the plans' JSON files and
// with a policy evaluation written here (value iteration over every
// state, not the solver's layers) to 1e-9, and the standings are the
// duels' averages in order.
func TestTournamentOfPlans(t *testing.T) {
	t.Parallel() // it waits on its processes, or fills a core the waiting ones leave
	v := sim.Standard(sim.Pig)
	v.Target = 50
	tab, err := solve.Solve(v)
	if err != nil {
		t.Fatal(err)
	}
	painted := sim.MapOf(sim.HoldAt(20), v, "painted")
	for a := range painted.Cells {
		painted.Cells[a][sim.MapSize(v.Target)-1] = v.Target // the other near the end: roll for the win
		painted.Cells[a][0] = 15
	}
	plans := []*sim.Plan{
		{Name: "hold 20", Form: sim.PlanHold, Game: "pig", Target: 50, Hold: 20},
		{Name: "hold 12", Form: sim.PlanHold, Game: "pig", Target: 50, Hold: 12},
		sim.KeepPacePlan(v),
		sim.MapOf(solve.Optimal{T: tab}, v, "perfect map"),
		painted,
	}
	dir := t.TempDir()
	var entries []solve.Entry
	files := make([]string, len(plans))
	for i, pl := range plans {
		if err := pl.Check(v); err != nil {
			t.Fatalf("%s: %v", pl, err)
		}
		b, _ := json.Marshal(pl)
		files[i] = filepath.Join(dir, pl.Name+".json")
		if err := os.WriteFile(files[i], b, 0o600); err != nil {
			t.Fatal(err)
		}
		entries = append(entries, solve.Entry{Name: pl.String(), Strategy: pl})
	}
	tour, err := solve.PlayTournament(context.Background(), v, entries, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := len(plans)
	independent := make([][]float64, n)
	for a := range n {
		independent[a] = make([]float64, n)
		for b := range n {
			if a == b {
				continue
			}
			independent[a][b] = evaluatePig(plans[a], plans[b], v)
			var duel struct {
				FirstWins float64 `json:"first_wins"`
			}
			runJSON(t, &duel, "duel", "--game", "pig", "--target", "50", "--first", files[a], "--second", files[b], "--json")
			got := tour.First[a][b]
			if math.Abs(got-duel.FirstWins) > 1e-9 || math.Abs(got-independent[a][b]) > 1e-9 {
				t.Errorf("%s first against %s: tournament %.12f, pigclass duel %.12f, evaluated here %.12f", plans[a], plans[b], got, duel.FirstWins, independent[a][b])
			}
		}
	}
	avg := make([]float64, n)
	for a := range n {
		for b := range n {
			if a != b {
				avg[a] += (independent[a][b] + 1 - independent[b][a]) / 2 / float64(n-1)
			}
		}
	}
	order := []int{0, 1, 2, 3, 4}
	sort.SliceStable(order, func(x, y int) bool { return avg[order[x]] > avg[order[y]] })
	for i, s := range tour.Standings {
		if s.Entry != order[i] || math.Abs(s.Average-avg[s.Entry]) > 1e-9 || s.Rank != i+1 {
			t.Errorf("standing %d: %s at rank %d with %.9f, want %s with %.9f", i+1, plans[s.Entry], s.Rank, s.Average, plans[order[i]], avg[order[i]])
		}
	}
	// Perfect play's map, rounded to cells of 10, still beats holding at
	// 20 from either seat; holding at 12 is last.
	if tour.Chance(3, 0) <= 0.5 || tour.Standings[n-1].Entry != 1 {
		t.Errorf("the perfect map against hold 20: %.4f; last: %s", tour.Chance(3, 0), plans[tour.Standings[n-1].Entry])
	}
	t.Logf("standings: %v", func() (out []string) {
		for _, s := range tour.Standings {
			out = append(out, plans[s.Entry].String())
		}
		return out
	}())
}

// evaluatePig is a's exact chance of beating b in Pig (one die) when a
// moves first, by value iteration over every state (the mover's score,
// the other's, the turn total) until no value moves by 1e-15: a policy
// evaluation independent of the solver's layers. Each player's choices
// are read once; the sweeps go from the highest scores down, where the
// values they lean on were swept just before (Gauss-Seidel), so that
// the iteration settles in fewer sweeps to the same values.
func evaluatePig(a, b sim.Strategy, v sim.Variant) float64 {
	n := v.Target
	at := func(i, j, k int) int { return (i*n+j)*n + k }
	w := [2][]float64{make([]float64, n*n*n), make([]float64, n*n*n)} // w[s]: the mover, playing s, wins
	var holds [2][]bool
	for s, pl := range [2]sim.Strategy{a, b} {
		holds[s] = make([]bool, n*n*n)
		for i := range n {
			for j := range n {
				for k := 1; i+k < n; k++ {
					holds[s][at(i, j, k)] = pl.Decide(sim.Position{Variant: v, Score: i, Opponent: j, TurnTotal: k, Players: 2}) == sim.Hold
				}
			}
		}
	}
	for {
		moved := 0.0
		for s := range 2 {
			for i := n - 1; i >= 0; i-- {
				for j := n - 1; j >= 0; j-- {
					for k := n - 1 - i; k >= 0; k-- {
						var x float64
						if holds[s][at(i, j, k)] {
							x = 1 - w[1-s][at(j, i+k, 0)]
						} else {
							x = (1 - w[1-s][at(j, i, 0)]) / 6
							for d := 2; d <= 6; d++ {
								if i+k+d >= n {
									x += 1.0 / 6
								} else {
									x += w[s][at(i, j, k+d)] / 6
								}
							}
						}
						moved = max(moved, math.Abs(x-w[s][at(i, j, k)]))
						w[s][at(i, j, k)] = x
					}
				}
			}
		}
		if moved < 1e-15 {
			return w[0][at(0, 0, 0)]
		}
	}
}
