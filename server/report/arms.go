package report

import (
	"context"
	"slices"

	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
)

// ArmsShuffles is how many times the randomization test of "Decide
// before you roll" reshuffles the arms' labels.
const ArmsShuffles = 10000

// An ArmsTest is the class's experiment "Decide before you roll" (issue
// 62) compared: each arm's students and games, the mean cost per game of
// the arm (the mean of its students' own means, as a share of the
// chance to win given away: 0.05 is 5 percentage points; exact), the difference committed minus free, and
// the randomization test of it: the students' labels reshuffled Shuffles
// times by the stream numbered Seed (sim.NewStream), each reshuffle's
// difference, and how many were at least as far from 0 as the class's.
type ArmsTest struct {
	Students, Games [2]int     // free, committed
	Mean            [2]float64 // free, committed
	Diff            float64    // Mean[1] - Mean[0]
	Shuffles        int
	Seed            uint64
	Diffs           []float64
	AtLeast         int
	P               float64 // AtLeast / Shuffles
}

// armIndex is an arm's place in ArmsTest's pairs.
func armIndex(committed bool) int {
	if committed {
		return 1
	}
	return 0
}

// StudentCosts are each student's mean cost per game in the experiment,
// and their arm, in order of the students' IDs; n counts each arm's
// games.
func StudentCosts(games []store.ArmGame) (costs []float64, committed []bool, n [2]int) {
	type sum struct {
		cost  float64
		games int
		arm   play.Arm
	}
	by := map[int64]*sum{}
	var ids []int64
	for _, g := range games {
		s := by[g.StudentID]
		if s == nil {
			s = &sum{arm: g.Arm}
			by[g.StudentID] = s
			ids = append(ids, g.StudentID)
		}
		s.cost += g.Cost
		s.games++
		n[armIndex(g.Arm == play.Committed)]++
	}
	slices.Sort(ids)
	for _, id := range ids {
		s := by[id]
		costs = append(costs, s.cost/float64(s.games))
		committed = append(committed, s.arm == play.Committed)
	}
	return costs, committed, n
}

// armMeans are each arm's students and the mean of their costs, free
// then committed, the students labelled by committed.
func armMeans(costs []float64, committed []bool) (n [2]int, mean [2]float64) {
	for i, c := range costs {
		k := armIndex(committed[i])
		n[k]++
		mean[k] += c
	}
	for k := range mean {
		mean[k] /= float64(n[k])
	}
	return n, mean
}

// ArmsDiff is the mean of the committed students' costs minus the mean of
// the free students'.
func ArmsDiff(costs []float64, committed []bool) float64 {
	_, mean := armMeans(costs, committed)
	return mean[1] - mean[0]
}

// CompareArms compares the arms of the experiment's games and runs the
// randomization test with shuffles reshuffles of the stream numbered
// seed; false while either arm has no game played to its end.
func CompareArms(games []store.ArmGame, shuffles int, seed uint64) (ArmsTest, bool) {
	costs, committed, n := StudentCosts(games)
	t := ArmsTest{Games: n, Shuffles: shuffles, Seed: seed}
	if t.Students, t.Mean = armMeans(costs, committed); t.Students[0] == 0 || t.Students[1] == 0 {
		return t, false
	}
	t.Diff = t.Mean[1] - t.Mean[0]
	ch := sim.NewStream(seed)
	labels := slices.Clone(committed)
	t.Diffs = make([]float64, shuffles)
	for i := range shuffles {
		sim.Shuffle(ch, labels)
		t.Diffs[i] = ArmsDiff(costs, labels)
		if sim.AsFar(t.Diffs[i], t.Diff) {
			t.AtLeast++
		}
	}
	t.P = float64(t.AtLeast) / float64(shuffles)
	return t, true
}

// ArmsSeed is the stream a class's randomization test reshuffles by: its
// ID, so that anyone with the class's decisions.csv replays it.
func ArmsSeed(classID int64) uint64 { return uint64(classID) }

// Arms is the class's experiment "Decide before you roll" compared, for
// its members: false while either arm has no game played to the end.
func (r *Reports) Arms(ctx context.Context, v classroom.Viewer) (ArmsTest, bool, error) {
	c, err := member(v)
	if err != nil {
		return ArmsTest{}, false, err
	}
	games, err := r.st.ArmGames(ctx, c.ID)
	if err != nil {
		return ArmsTest{}, false, err
	}
	t, ok := CompareArms(games, ArmsShuffles, ArmsSeed(c.ID))
	return t, ok, nil
}
