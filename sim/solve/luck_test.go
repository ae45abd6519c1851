package solve

import (
	"math"
	"math/rand/v2"
	"testing"

	"pigclass/sim"
)

// faceSets enumerates every way n dice can fall, each once.
func faceSets(n int) []sim.Faces {
	var out []sim.Faces
	dice := make([]int, n)
	var rec func(d int)
	rec = func(d int) {
		if d == n {
			f, _ := sim.FacesOf(dice...)
			out = append(out, f)
			return
		}
		for v := 1; v <= 6; v++ {
			dice[d] = v
			rec(d + 1)
		}
	}
	rec(0)
	return out
}

// TestLuckAveragesToZero: at every state of every game (a sample of
// states, every option that throws dice), the luck of the dice averaged
// over all the ways they fall is zero, to 1e-12.
func TestLuckAveragesToZero(t *testing.T) {
	for _, g := range sim.Games {
		v := sim.Standard(g)
		v.Target = 40
		if g == sim.Hog {
			v.MaxDice = 4
		}
		tab, err := Solve(v)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(1, 2))
		for range 200 {
			i, j, k := r.IntN(40), r.IntN(40), 0
			if g != sim.Hog {
				k = r.IntN(40 - i)
			}
			acts := []sim.Action{sim.Roll}
			if g == sim.Hog {
				acts = []sim.Action{sim.Dice(1), sim.Dice(2), sim.Dice(3), sim.Dice(4)}
			}
			for _, a := range acts {
				n := g.Dice()
				if g == sim.Hog {
					n = int(a.Dice)
				}
				// Every way the pieces can fall, with its exact weight
				// (all alike for dice; Kern's counts for pigs).
				sets, total := g.Rules().Outcomes(n)
				sum := 0.0
				for _, o := range sets {
					u, err := tab.Luck(i, j, k, a, &o.Faces)
					if err != nil {
						t.Fatal(err)
					}
					sum += u * float64(o.Weight)
				}
				if mean := sum / float64(total); math.Abs(mean) > 1e-12 {
					t.Fatalf("%v at (%d, %d, %d) %v: luck averages %g", g, i, j, k, a, mean)
				}
			}
		}
	}
}

// TestSkillAndLuckAccountForTheGame: over simulated games of hold-at-20
// against perfect play, each player's decisions' costs (skill) and their
// dice's luck add up, exactly, to the change in their chance of winning
// from the start to the end, less the other player's; and the luck of the
// dice averages near zero (within four standard errors).
func TestSkillAndLuckAccountForTheGame(t *testing.T) {
	v := sim.Standard(sim.Pig)
	tab, err := Solve(v)
	if err != nil {
		t.Fatal(err)
	}
	players := []sim.Strategy{sim.HoldAt(20), Optimal{T: tab}}
	const games = 400
	var lucks []float64
	for n := range games {
		var seed sim.Seed
		seed[0], seed[1] = byte(n), byte(n>>8)
		m, err := sim.NewMatch(v, seed)
		if err != nil {
			t.Fatal(err)
		}
		start := m.State()
		// own[p] = skill + luck of player p's moves, from p's side.
		var own [2]float64
		var luck [2]float64
		startWin := tab.Win(0, 0, 0)
		first := start.Seat
		for !m.State().Over {
			s := m.State()
			p := s.Seat
			i, j, k := s.Scores[p], s.Scores[1-p], s.TurnTotal
			act := players[p].Decide(s.Position())
			adv := tab.Advise(i, j, k)
			chosen, _ := adv.Win(act)
			best, _ := adv.Win(adv.Best)
			own[p] -= best - chosen
			e, err := m.Apply(p, act)
			if err != nil {
				t.Fatal(err)
			}
			if e.Faces.Len() > 0 {
				u, err := tab.Luck(i, j, k, act, &e.Faces)
				if err != nil {
					t.Fatal(err)
				}
				own[p] += u
				luck[p] += u
			}
		}
		end := m.State()
		for p := range 2 {
			startP := startWin
			if p != first {
				startP = 1 - startWin
			}
			endP := 0.0
			if end.Winner == p {
				endP = 1
			}
			if got, want := own[p]-own[1-p], endP-startP; math.Abs(got-want) > 1e-9 {
				t.Fatalf("game %d, player %d: skill and luck add to %v, the chance changed by %v", n, p, got, want)
			}
			lucks = append(lucks, luck[p])
		}
	}
	mean, sd := 0.0, 0.0
	for _, u := range lucks {
		mean += u
	}
	mean /= float64(len(lucks))
	for _, u := range lucks {
		sd += (u - mean) * (u - mean)
	}
	sd = math.Sqrt(sd / float64(len(lucks)-1))
	if se := sd / math.Sqrt(float64(len(lucks))); math.Abs(mean) > 4*se {
		t.Errorf("luck averages %v a game, more than four standard errors (%v) from zero", mean, se)
	}
}
