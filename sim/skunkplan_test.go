package sim

import (
	"math"
	"testing"
)

// TestSkunkPlanBySimulation: perfect play by the plan, simulated over the
// engine's own games, scores on average what the plan expects (within
// four standard errors); standing is never better past SkunkMaxTotal, so
// the plan is exact where it analyses.
func TestSkunkPlanBySimulation(t *testing.T) {
	p := PlanSkunk(DefaultSkunkRounds)
	for r := range DefaultSkunkRounds {
		for S := 0; S <= SkunkMaxScore; S += 7 {
			stand, sit, ok := p.Values(r, S, SkunkMaxTotal)
			if !ok || stand >= sit {
				t.Fatalf("round %d, score %d, total %d: stand %v, sit %v", r, S, SkunkMaxTotal, stand, sit)
			}
		}
	}
	const games = 20000
	sum, sq := 0.0, 0.0
	for n := range games {
		var seed Seed
		seed[0], seed[1], seed[2] = byte(n), byte(n>>8), 7
		g, err := NewSkunk(seed, 1, DefaultSkunkRounds)
		if err != nil {
			t.Fatal(err)
		}
		for !g.Over() {
			stand, sit, ok := p.Values(g.Round(), g.Score(0), g.RoundTotal())
			if !ok {
				t.Fatalf("the plan does not cover round %d, score %d, total %d", g.Round(), g.Score(0), g.RoundTotal())
			}
			if sit >= stand {
				g.Sit(0)
			} else {
				g.Roll()
			}
		}
		x := float64(g.Score(0))
		sum += x
		sq += x * x
	}
	mean := sum / games
	se := math.Sqrt((sq/games - mean*mean) / games)
	if math.Abs(mean-p.Start()) > 4*se {
		t.Errorf("perfect play scores %.2f on average over %d games; the plan expects %.4f (SE %.2f)", mean, games, p.Start(), se)
	}
	t.Logf("Skunk, 5 rounds: perfect play expects %.4f points; simulated %.2f ± %.2f", p.Start(), mean, se)
}
