package sim

import (
	"context"
	"math"
	"sync/atomic"
	"testing"
)

func holdDuel(t *testing.T, games, workers int, seed string) SimResult {
	t.Helper()
	r, err := Simulate(context.Background(), SimConfig{
		Variant: Standard(Pig), Players: []Strategy{HoldAt(20), HoldAt(20)},
		Games: games, Key: SimKey(seed), Workers: workers,
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestSimulateHoldTwentyDuel reproduces published.md: both holding at 20,
// the first player wins 0.5347 of games.
func TestSimulateHoldTwentyDuel(t *testing.T) {
	r := holdDuel(t, 1_000_000, 0, "reference")
	lo, hi := r.CI95(0)
	if lo > 0.5347 || hi < 0.5347 {
		t.Errorf("first player wins %.4f, 95%% CI [%.4f, %.4f], which misses 0.5347", r.WinRate(0), lo, hi)
	}
	if r.Wins[0]+r.Wins[1] != r.Games || r.Unfinished != 0 {
		t.Errorf("wins %v of %d games, %d unfinished", r.Wins, r.Games, r.Unfinished)
	}
	// Alone a player needs 12.63 turns on average; a game between two ends
	// with the faster of the two, so it takes fewer than twice that.
	if m := r.MeanTurns(); m < 18 || m > 2*12.63 {
		t.Errorf("mean turns %.2f, want between 18 and 25.26", m)
	}
}

func TestSimulateIsReproducibleOnAnyNumberOfCores(t *testing.T) {
	one := holdDuel(t, 20000, 1, "cores")
	three := holdDuel(t, 20000, 3, "cores")
	if one.Wins[0] != three.Wins[0] || one.Turns != three.Turns {
		t.Errorf("1 worker: %v %d turns; 3 workers: %v %d turns", one.Wins, one.Turns, three.Wins, three.Turns)
	}
	other := holdDuel(t, 20000, 1, "other seed")
	if other.Turns == one.Turns {
		t.Errorf("two seeds gave the same %d turns", one.Turns)
	}
}

// exactHoldTurn returns the exact distribution of points banked in one
// hold-at-n turn of Pig from a score far from the target.
func exactHoldTurn(n int) map[int]float64 {
	dist := map[int]float64{}
	var walk func(k int, p float64)
	walk = func(k int, p float64) {
		if k >= n {
			dist[k] += p
			return
		}
		dist[0] += p / 6
		for r := 2; r <= 6; r++ {
			walk(k+r, p/6)
		}
	}
	walk(0, 1)
	return dist
}

// TestHoldTwentyTurnOutcomes checks published.md's turn outcomes three ways:
// the published figures, an exact recursion, and the simulator.
func TestHoldTwentyTurnOutcomes(t *testing.T) {
	exact := exactHoldTurn(20)
	published := map[int]float64{0: .6245, 20: .0997, 21: .0950, 22: .0742, 23: .0542, 24: .0352, 25: .0172}
	for pts, want := range published {
		if math.Abs(exact[pts]-want) > 0.00005 {
			t.Errorf("exact P(%d points) = %.6f, published %.4f", pts, exact[pts], want)
		}
	}
	mean := 0.0
	for pts, p := range exact {
		mean += float64(pts) * p
	}
	if math.Abs(mean-8.14) > 0.005 {
		t.Errorf("exact expected points %.4f, published 8.14", mean)
	}

	const n = 1_000_000
	counts := TurnOutcomes(Standard(Pig), HoldAt(20), 0, 0, n, SimKey("turns"))
	sum := 0
	for pts, c := range counts {
		p := exact[pts]
		if se := math.Sqrt(p * (1 - p) / n); math.Abs(float64(c)/n-p) > 4*se+1e-9 {
			t.Errorf("simulated P(%d points) = %.5f, exact %.5f (4 SE = %.5f)", pts, float64(c)/n, p, 4*se)
		}
		sum += pts * c
	}
	if got := float64(sum) / n; math.Abs(got-mean) > 0.05 {
		t.Errorf("simulated mean %.3f, exact %.3f", got, mean)
	}
}

func TestWilson(t *testing.T) {
	lo, hi := Wilson(50, 100, 1.96)
	// Wilson 95% interval for 50/100 is [0.4038, 0.5962].
	if math.Abs(lo-0.4038) > 1e-4 || math.Abs(hi-0.5962) > 1e-4 {
		t.Errorf("Wilson(50, 100) = [%.4f, %.4f]", lo, hi)
	}
	if lo, hi := Wilson(0, 10, 1.96); lo != 0 || hi < 0.27 || hi > 0.28 {
		t.Errorf("Wilson(0, 10) = [%.4f, %.4f], want [0, 0.2775]", lo, hi)
	}
}

func TestSimulateRejectsBadConfigs(t *testing.T) {
	ctx := context.Background()
	if _, err := Simulate(ctx, SimConfig{Variant: Standard(Pig), Players: []Strategy{HoldAt(20)}, Games: 10}); err == nil {
		t.Error("one player for two seats was accepted")
	}
	if _, err := Simulate(ctx, SimConfig{Variant: Standard(Pig), Players: []Strategy{HoldAt(20), HoldAt(20)}}); err == nil {
		t.Error("zero games were accepted")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Simulate(cancelled, SimConfig{Variant: Standard(Pig), Players: []Strategy{HoldAt(20), HoldAt(20)}, Games: 100000}); err == nil {
		t.Error("a cancelled simulation returned no error")
	}
}

func BenchmarkSimulatePig(b *testing.B) {
	c := SimConfig{Variant: Standard(Pig), Players: []Strategy{HoldAt(20), HoldAt(20)}, Games: b.N, Key: SimKey("bench")}
	b.ReportAllocs()
	if _, err := Simulate(context.Background(), c); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// TestEqualTurnsGamesEnd: under equal turns every bot finishes its games,
// tie-breaks included (a bot that held on nothing once past the target would
// tie for ever).
func TestEqualTurnsGamesEnd(t *testing.T) {
	v := Standard(Pig)
	v.EqualTurns = true
	for _, players := range [][]Strategy{{HoldAt(20), HoldAt(20)}, {KeepPace{}, HoldAt(25)}, {KeepPace{}, KeepPace{}}, {HoldAt(10), KeepPace{}, HoldAt(30)}} {
		v.Seats = len(players)
		r, err := Simulate(context.Background(), SimConfig{Variant: v, Players: players, Games: 20000, Key: SimKey("equal")})
		if err != nil {
			t.Fatal(err)
		}
		if r.Unfinished != 0 || r.MeanTurns() > 60 {
			t.Errorf("%v: %d unfinished games, %.1f turns a game", players, r.Unfinished, r.MeanTurns())
		}
	}
}

func TestBotRules(t *testing.T) {
	pig := Standard(Pig)
	fifty := pig
	fifty.Target = 50
	eq := pig
	eq.EqualTurns = true
	cases := []struct {
		s    Strategy
		v    Variant
		i, j int
		k    int
		want Action
	}{
		{HoldAt(20), pig, 0, 0, 19, Roll},
		{HoldAt(20), pig, 0, 0, 20, Hold},
		{HoldAt(20), eq, 95, 50, 6, Hold},   // past the target, ahead
		{HoldAt(20), eq, 80, 104, 22, Hold}, // hold:N is literal: holds at N behind
		{HoldAt(20), eq, 90, 104, 12, Roll}, // past the target but behind the mark
		{HoldAt(20), eq, 104, 104, 0, Roll}, // a tie-break: roll on to N
		{KeepPace{}, pig, 50, 50, 20, Roll}, // 21 + round(0/8) = 21
		{KeepPace{}, pig, 50, 50, 21, Hold},
		{KeepPace{}, pig, 30, 70, 25, Roll}, // 21 + round(40/8) = 26
		{KeepPace{}, pig, 30, 70, 26, Hold},
		{KeepPace{}, pig, 60, 30, 16, Roll}, // 21 + round(-30/8) = 21 - 4 = 17
		{KeepPace{}, pig, 60, 30, 17, Hold},
		{KeepPace{}, pig, 20, 71, 40, Roll}, // the opponent has 71: roll to win
		{KeepPace{}, pig, 46, 50, 21, Roll}, // 21 + round(4/8): halves away from zero, 22
		{KeepPace{}, pig, 46, 50, 22, Hold},
		{KeepPace{}, pig, 50, 46, 19, Roll}, // 21 + round(-4/8) = 20
		{KeepPace{}, pig, 50, 46, 20, Hold},
		{KeepPace{}, fifty, 10, 10, 10, Roll}, // to 50: round(21·50/100) = round(10.5) = 11
		{KeepPace{}, fifty, 10, 10, 11, Hold},
		{KeepPace{}, fifty, 36, 0, 12, Roll}, // 36 is 72% of 50: roll to win
		{KeepPace{}, fifty, 35, 0, 8, Roll},  // 35 is 70%: round((21 + round(-35/8))·50/100) = round(8.5) = 9
		{KeepPace{}, fifty, 35, 0, 9, Hold},
		{KeepPace{}, eq, 104, 104, 0, Roll}, // tie-break: roll until ahead
		{KeepPace{}, eq, 104, 104, 3, Hold},
		{ThrowDice(6), Standard(Hog), 0, 0, 0, Dice(6)},
	}
	for _, c := range cases {
		p := Position{Variant: c.v, Score: c.i, Opponent: c.j, TurnTotal: c.k}
		if got := c.s.Decide(p); got != c.want {
			t.Errorf("%v at (%d, %d, %d) equal turns %v: %v, want %v", c.s, c.i, c.j, c.k, c.v.EqualTurns, got, c.want)
		}
	}
	small := Standard(Hog)
	small.MaxDice = 3
	if got := ThrowDice(8).Decide(Position{Variant: small}); got != Dice(3) {
		t.Errorf("dice:8 with at most 3: %v", got)
	}
}

// forking is hold at 20 that counts the forks Simulate makes of it.
type forking struct {
	HoldAt
	forks *atomic.Int32
}

func (f forking) Fork() Strategy {
	f.forks.Add(1)
	return f.HoldAt
}

// TestSimulateForksForEachWorker: a strategy that keeps something between
// its decisions is forked once a worker, and the results do not depend on
// it.
func TestSimulateForksForEachWorker(t *testing.T) {
	var forks atomic.Int32
	v := Standard(Pig)
	players := []Strategy{forking{HoldAt(20), &forks}, HoldAt(20)}
	r, err := Simulate(context.Background(), SimConfig{Variant: v, Players: players, Games: 2000, Key: SimKey("fork"), Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := Simulate(context.Background(), SimConfig{Variant: v, Players: []Strategy{HoldAt(20), HoldAt(20)}, Games: 2000, Key: SimKey("fork"), Workers: 1})
	if forks.Load() != 3 || r.Wins[0] != plain.Wins[0] {
		t.Errorf("%d forks for 3 workers; wins %v, unforked %v", forks.Load(), r.Wins, plain.Wins)
	}
}
