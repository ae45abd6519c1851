package solve

import (
	"testing"

	"pigclass/sim"
)

func benchSolve(b *testing.B, v sim.Variant) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Solve(v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSolvePig100 is the figure in the solver issue: under 50 ms on
// one core (run with -cpu 1).
func BenchmarkSolvePig100(b *testing.B) { benchSolve(b, sim.Standard(sim.Pig)) }

func BenchmarkSolveTwoDice100(b *testing.B) { benchSolve(b, sim.Standard(sim.TwoDice)) }
func BenchmarkSolveBigPig100(b *testing.B)  { benchSolve(b, sim.Standard(sim.BigPig)) }
func BenchmarkSolveHog100(b *testing.B)     { benchSolve(b, sim.Standard(sim.Hog)) }

// BenchmarkDuel is an exact duel of optimal against hold:20 in Pig-100
// (the table solved beforehand): under 200 ms.
func BenchmarkDuel(b *testing.B) {
	v := sim.Standard(sim.Pig)
	opt := Optimal{mustSolve(b, v)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Duel(v, opt, sim.HoldAt(20)); err != nil {
			b.Fatal(err)
		}
	}
}

var sinkAdvice Advice

// BenchmarkAdvise is one advice look-up: under 100 ns, no allocation.
func BenchmarkAdvise(b *testing.B) {
	tab := mustSolve(b, sim.Standard(sim.Pig))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i = (i + 37) % 90
		sinkAdvice = tab.Advise(i, 99-i, i%10)
	}
}

func BenchmarkAdviseHog(b *testing.B) {
	tab := mustSolve(b, sim.Standard(sim.Hog))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i = (i + 37) % 90
		sinkAdvice = tab.Advise(i, 99-i, 0)
	}
}

// BenchmarkDuelEqualTurns is an exact duel under equal turns: hold:20
// against hold:20 in Pig to 100.
func BenchmarkDuelEqualTurns(b *testing.B) {
	v := sim.Standard(sim.Pig)
	v.EqualTurns = true
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Duel(v, sim.HoldAt(20), sim.HoldAt(20)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSolveMultiPig100Three is the three-player solve of Pig to 100
// (run with -cpu 1 for one core).
func BenchmarkSolveMultiPig100Three(b *testing.B) {
	v := sim.Variant{Game: sim.Pig, Target: 100, Seats: 3}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SolveMulti(v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAdviseMultiThree is one analysis inside a turn of three-player
// Pig to 100, derived from the turn starts.
func BenchmarkAdviseMultiThree(b *testing.B) {
	m, err := SolveMulti(sim.Variant{Game: sim.Pig, Target: 50, Seats: 3})
	if err != nil {
		b.Fatal(err)
	}
	p := []int{20, 30, 10}
	b.ReportAllocs()
	for b.Loop() {
		sinkAdvice = m.Advise(p, 7)
	}
}
