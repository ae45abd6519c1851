package solve

import "pigclass/sim"

// HoldDistribution returns, for a turn that starts at own score i against
// j, the probability that strategy st holds at each turn total (index =
// turn total), and the probability that the turn reaches the target (a win,
// not a hold). The rest of the probability is a bust. Pig games only.
func (t *Table) HoldDistribution(i, j int, st sim.Strategy) (holds []float64, win float64) {
	T, d := t.target, &t.dist
	reach := make([]float64, T-i) // probability the turn stands at turn total k
	holds = make([]float64, T-i)
	reach[0] = 1
	for k := range T - i {
		if reach[k] == 0 {
			continue
		}
		if st.Decide(sim.Position{Variant: t.variant, Score: i, Opponent: j, TurnTotal: k}) != sim.Roll {
			holds[k] += reach[k]
			continue
		}
		for n, pts := range d.points {
			if k+pts >= T-i {
				win += reach[k] * d.probs[n]
			} else {
				reach[k+pts] += reach[k] * d.probs[n]
			}
		}
	}
	return holds, win
}

// HoldThreshold returns the smallest turn total above 0 at which perfect
// play holds at (i, j), or target - i when it rolls on to the target. The
// boundary is not always a single threshold: this is where holding starts.
func (t *Table) HoldThreshold(i, j int) int {
	for k := 1; k < t.target-i; k++ {
		if t.Advise(i, j, k).Best == sim.Hold {
			return k
		}
	}
	return t.target - i
}
