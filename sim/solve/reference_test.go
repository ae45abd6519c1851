package solve

import (
	"math"
	"testing"

	"pigclass/sim"
)

// referenceSolve is the yardstick of the solver's speed: Pig for two
// players to target as Neller and Presser (2004) solve it, written plainly
// and apart from the solver: value iteration over the states (i, j, k) of
// each layer of equal score sum i + j, from the highest layer down, each
// layer swept until no value changes by more than tol. P(i, j, k) is the
// chance that the player to move, with i banked, j against and turn total
// k, wins with the best choices:
//
//	P(i, j, k) = max(roll, hold)
//	roll = 1/6 (1 - P(j, i, 0)) + Σ_{r=2..6} 1/6 P(i, j, k+r)   (1 past the target)
//	hold = 1 - P(j, i+k, 0)
//
// float64, one core, in place (each sweep uses the values it has just
// made), no allocation inside the sweeps. A state's turn totals run to
// target+5, the ones at or past the target held at 1 (won), so that the
// inner loop has no branch.
func referenceSolve(target int, tol float64) [][][]float64 {
	p := make([][][]float64, target)
	for i := range p {
		p[i] = make([][]float64, target)
		for j := range p[i] {
			p[i][j] = make([]float64, target-i+6)
			for k := target - i; k < len(p[i][j]); k++ {
				p[i][j][k] = 1
			}
		}
	}
	for sum := 2*target - 2; sum >= 0; sum-- {
		for changed := true; changed; {
			changed = false
			for i := max(0, sum-target+1); i <= min(sum, target-1); i++ {
				j := sum - i
				row, bust := p[i][j], 1-p[j][i][0]
				for k := target - i - 1; k >= 0; k-- {
					roll := (bust + row[k+2] + row[k+3] + row[k+4] + row[k+5] + row[k+6]) / 6
					hold := bust
					if k > 0 && i+k < target {
						hold = 1 - p[j][i+k][0]
					}
					v := max(roll, hold)
					if math.Abs(v-row[k]) > tol {
						changed = true
					}
					row[k] = v
				}
			}
		}
	}
	return p
}

// TestReferenceSolverAgrees: the yardstick and the solver give the same
// chances, every state of Pig to 100 within 1e-12, and the published 0.5306.
func TestReferenceSolverAgrees(t *testing.T) {
	ref := referenceSolve(100, referenceTol)
	tab, err := Solve(sim.Standard(sim.Pig))
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i := range 100 {
		for j := range 100 {
			for k := range 100 - i {
				worst = max(worst, math.Abs(ref[i][j][k]-tab.Win(i, j, k)))
			}
		}
	}
	if worst > 1e-12 || math.Abs(ref[0][0][0]-0.5306) > 5e-5 {
		t.Errorf("the reference and the solver differ by up to %g; the reference's first player wins %.6f", worst, ref[0][0][0])
	}
}

var sinkRef [][][]float64

// referenceTol is the yardstick's stopping rule: as tight as agreeing with
// the solver to 1e-12 everywhere needs (at 1e-12 it differs by 2e-12).
const referenceTol = 1e-13

// BenchmarkSolvePig100Reference is the yardstick beside BenchmarkSolvePig100:
// run both in one go and quote the ratio of their times.
//
//	go test ./sim/solve -run X -bench 'SolvePig100(Reference)?$' -cpu 1 -count 5
func BenchmarkSolvePig100Reference(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkRef = referenceSolve(100, referenceTol)
	}
}
