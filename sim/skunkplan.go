package sim

import "sync"

// SkunkPlan is perfect play of whole-class Skunk for one participant, in
// expected points: the most final points on average from any moment of a
// game of a given number of rounds, by dynamic programming over the rules
// as the engine plays them. A participant's choices do not depend on the
// others' (the round goes on while anyone stands, so while they do), so the
// plan is exact for each one alone.
//
// F(r, S) is the expected final score from the start of round r (from 0)
// with S banked; F(rounds, S) = S. Within a round, at round total T:
//
//	sit:   F(r+1, S+T)
//	stand: 10/36 F(r+1, S) + 1/36 F(r+1, 0) + sum over the 25 rolls without
//	       a 1 of 1/36 V(r, S, T+sum)
//
// and V is the better of the two. Beyond SkunkMaxTotal standing is never
// better (checked by the tests), so V(r, S, T) is sitting's there.
type SkunkPlan struct {
	rounds int
	f      [][]float64 // f[r][S] for S up to limit[r]
	limit  []int
}

// SkunkMaxTotal is the round total up to which the plan weighs standing,
// and SkunkMaxScore the banked score up to which it analyses the first
// round (later rounds, more).
const (
	SkunkMaxTotal = 250
	SkunkMaxScore = 1000
)

// skunkSums are the 25 sums of two dice without a 1, each once.
var skunkSums = func() []int {
	var s []int
	for a := 2; a <= 6; a++ {
		for b := 2; b <= 6; b++ {
			s = append(s, a+b)
		}
	}
	return s
}()

var skunkPlans sync.Map // rounds -> *SkunkPlan

// PlanSkunk returns the plan for games of the given number of rounds (1 to
// 26), computed once.
func PlanSkunk(rounds int) *SkunkPlan {
	if p, ok := skunkPlans.Load(rounds); ok {
		return p.(*SkunkPlan)
	}
	p := &SkunkPlan{rounds: rounds, f: make([][]float64, rounds), limit: make([]int, rounds)}
	step := SkunkMaxTotal + 12
	for r := range rounds {
		p.limit[r] = SkunkMaxScore + r*step
		p.f[r] = make([]float64, p.limit[r]+1)
	}
	v := make([]float64, SkunkMaxTotal+13)
	for r := rounds - 1; r >= 0; r-- {
		for S := 0; S <= p.limit[r]; S++ {
			p.round(r, S, v)
			p.f[r][S] = v[0]
		}
	}
	actual, _ := skunkPlans.LoadOrStore(rounds, p)
	return actual.(*SkunkPlan)
}

// next is F(r+1, S).
func (p *SkunkPlan) next(r, S int) float64 {
	if r+1 >= p.rounds {
		return float64(S)
	}
	return p.f[r+1][S]
}

// round fills v[T] = V(r, S, T) for T from SkunkMaxTotal+12 down to 0.
func (p *SkunkPlan) round(r, S int, v []float64) {
	for T := len(v) - 1; T >= 0; T-- {
		sit := p.next(r, S+T)
		if T > SkunkMaxTotal {
			v[T] = sit
			continue
		}
		v[T] = max(sit, p.standWith(r, S, T, v))
	}
}

// standWith is standing's value at (r, S, T) given V(r, S, ·) above T.
func (p *SkunkPlan) standWith(r, S, T int, v []float64) float64 {
	stand := 10.0/36*p.next(r, S) + 1.0/36*p.next(r, 0)
	for _, s := range skunkSums {
		stand += v[T+s] / 36
	}
	return stand
}

// Values returns the expected final points of standing and of sitting in
// round r (from 0) with S banked and round total T, and whether the plan
// covers that moment (T up to SkunkMaxTotal, S up to its round's limit).
func (p *SkunkPlan) Values(r, S, T int) (stand, sit float64, ok bool) {
	if r < 0 || r >= p.rounds || S < 0 || S > p.limit[r] || T < 0 || T > SkunkMaxTotal {
		return 0, 0, false
	}
	v := make([]float64, SkunkMaxTotal+13)
	p.round(r, S, v)
	return p.standWith(r, S, T, v), p.next(r, S+T), true
}

// Start is the expected final score of perfect play from the start of a
// game.
func (p *SkunkPlan) Start() float64 { return p.f[0][0] }
