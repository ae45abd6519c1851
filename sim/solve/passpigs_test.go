package solve

import (
	"context"
	"math"
	"math/big"
	"testing"

	"pigclass/sim"
)

// Pass the Pigs' figures, as sim/published.md gives them, each checked
// against a second method.

// kernRoll is Kern's data summed directly, written apart from the game
// file: one pig's landings in 5,977 throws without a touch, 23 touches in
// 6,000; the points of a pair as the commercial rules score them.
func kernRoll() (mean, pigOut, bacon *big.Rat) {
	counts := []int64{1796, 2063, 551, 1354, 184, 29} // dot up, dot down, Trotter, Razorback, Snouter, Leaning Jowler
	special := []int64{0, 0, 5, 5, 10, 15}
	touch := big.NewRat(23, 6000)
	apart := new(big.Rat).Sub(big.NewRat(1, 1), touch)
	mean, pigOut = new(big.Rat), new(big.Rat)
	for a := range counts {
		for b := range counts {
			p := new(big.Rat).Mul(apart, big.NewRat(counts[a]*counts[b], 5977*5977))
			var pts int64
			switch {
			case a < 2 && b < 2 && a != b:
				pigOut.Add(pigOut, p)
				continue
			case a < 2 && b < 2:
				pts = 1
			case a == b:
				pts = 2 * (special[a] + special[b])
			default:
				pts = special[a] + special[b]
			}
			mean.Add(mean, new(big.Rat).Mul(p, big.NewRat(pts, 1)))
		}
	}
	return mean, pigOut, touch
}

func TestPassPigsPointsPerRoll(t *testing.T) {
	mean, pigOut, bacon := kernRoll()
	if want := big.NewRat(34122061, 7172400); mean.Cmp(want) != 0 {
		t.Errorf("expected points a roll %s, want %s (published.md)", mean.RatString(), want.RatString())
	}
	d := rollDistOf(sim.PassPigs)
	got := 0.0
	for n, pts := range d.points {
		got += float64(pts) * d.probs[n]
	}
	m, _ := mean.Float64()
	po, _ := pigOut.Float64()
	ba, _ := bacon.Float64()
	if math.Abs(got-m) > 1e-12 || math.Abs(d.bust-po-ba) > 1e-15 || math.Abs(d.wipe-ba) > 1e-15 {
		t.Errorf("the solver's roll: %.12f points, bust %.15f, wipe %.15f; Kern's sum %.12f, %.15f, %.15f", got, d.bust, d.wipe, m, po+ba, ba)
	}
	if e := sim.ExpectedGain(sim.PassPigs, 0, 0, 2); math.Abs(e-m) > 1e-12 {
		t.Errorf("sim.ExpectedGain %.12f, want %.12f", e, m)
	}
	// The simulator's pigs: the mean of 400,000 rolls within 4.5 standard
	// errors (a roll's points have a standard deviation near 7).
	const n = 400000
	fd := sim.NewFastDice(sim.SimKey("pigs"), 0)
	var f sim.Faces
	sum, sq := 0.0, 0.0
	for range n {
		fd.ThrowOf(sim.PassPigs, &f, 2)
		p, bust, _ := sim.RollPoints(sim.PassPigs, &f)
		if bust {
			p = 0
		}
		sum += float64(p)
		sq += float64(p * p)
	}
	avg := sum / n
	se := math.Sqrt((sq/n - avg*avg) / n)
	if math.Abs(avg-m) > 4.5*se {
		t.Errorf("400,000 simulated rolls average %.4f points, the exact mean %.4f (standard error %.4f)", avg, m, se)
	}
}

// TestPassPigsBestSingleTurn: the hold point that maximises one turn's
// expected score from 0 is 23 (10.09345 points), by the direct sum over
// the turn's totals, which the expected-value rule and the game file's
// rule of thumb agree with; a simulated turn of hold at 23 scores the same
// on average.
func TestPassPigsBestSingleTurn(t *testing.T) {
	tab := mustSolve(t, sim.Standard(sim.PassPigs))
	best, bestE := 0, 0.0
	for N := 1; N < 60; N++ {
		holds, _ := tab.HoldDistribution(0, 0, sim.HoldAt(N))
		e := 0.0
		for k, q := range holds {
			e += float64(k) * q
		}
		if e > bestE {
			best, bestE = N, e
		}
	}
	if best != 23 || math.Abs(bestE-10.09345) > 1e-5 {
		t.Errorf("one turn scores most holding at %d (%.5f points), want 23 (10.09345)", best, bestE)
	}
	if h := sim.PassPigs.Rules().HoldAt; h != best {
		t.Errorf("the game file's rule of thumb holds at %d, the direct sum at %d", h, best)
	}
	ev := NewEVPlay(sim.Standard(sim.PassPigs))
	for k := range 40 {
		want := sim.Roll
		if k >= best {
			want = sim.Hold
		}
		if got := ev.Decide(sim.Position{Variant: sim.Standard(sim.PassPigs), TurnTotal: k}); got != want {
			t.Errorf("expected-value play at score 0, turn total %d: %v, want %v", k, got, want)
		}
	}
	counts := sim.TurnOutcomes(sim.Standard(sim.PassPigs), sim.HoldAt(23), 0, 0, 200000, sim.SimKey("one turn"))
	sum, sq, n := 0.0, 0.0, 0.0
	for pts, c := range counts {
		sum += float64(pts * c)
		sq += float64(pts * pts * c)
		n += float64(c)
	}
	avg := sum / n
	if se := math.Sqrt((sq/n - avg*avg) / n); math.Abs(avg-bestE) > 4.5*se {
		t.Errorf("200,000 simulated hold-at-23 turns average %.4f points, the direct sum %.4f (standard error %.4f)", avg, bestE, se)
	}
}

// TestPassPigsPerfectPlay: the first player's chance under perfect play by
// both to 100 is 53.08%, the same by policy evaluation of the table's own
// choices and, within the 99.9% interval, in 20,000 games played out with
// the simulator's pigs; at (0, 0) perfect play rolls below a turn total of
// 24 and holds from there.
func TestPassPigsPerfectPlay(t *testing.T) {
	v := sim.Standard(sim.PassPigs)
	tab := mustSolve(t, v)
	if p := tab.FirstPlayerWin(); math.Abs(p-0.530782089) > 1e-9 {
		t.Errorf("first player %.10f, want 0.530782089 (published.md)", p)
	}
	opt := Optimal{T: tab}
	if p, err := Duel(v, opt, opt); err != nil || math.Abs(p-tab.FirstPlayerWin()) > 1e-12 {
		t.Errorf("policy evaluation of perfect play: %.12f (%v), the table %.12f", p, err, tab.FirstPlayerWin())
	}
	for k := 1; k < 100; k++ {
		want := sim.Roll
		if k >= 24 {
			want = sim.Hold
		}
		if got := tab.Advise(0, 0, k).Best; got != want {
			t.Errorf("at (0, 0) with turn total %d perfect play %v, want %v", k, got, want)
		}
	}
	const games = 20000
	res, err := sim.Simulate(context.Background(), sim.SimConfig{Variant: v, Players: []sim.Strategy{opt, opt}, Games: games, Key: sim.SimKey("pigs duel")})
	if err != nil {
		t.Fatal(err)
	}
	p := tab.FirstPlayerWin()
	if half := 3.29 * math.Sqrt(p*(1-p)/games); math.Abs(res.WinRate(0)-p) > half {
		t.Errorf("%d simulated games: the first player won %.4f, the table says %.4f ± %.4f", games, res.WinRate(0), p, half)
	}
}
