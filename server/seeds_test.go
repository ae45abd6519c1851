package server

import (
	"slices"
	"strconv"
	"testing"

	"pigclass/sim"
	"pigclass/templates/paths"
)

// Choosing the dice. Every draw a test app makes (a match's seed, a
// round's pairing, a join code, a generated name) comes from its chance
// (app.chance, a sim.Stream of the test's own; Config.Chance). A test
// that needs the dice to fall a certain way says so as a condition on a
// seed, read with sim's own draws as the match will read them
// (Seed.ThrowFor, Seed.FirstSeat, Seed.Mystery, RollFaces for Skunk),
// and deals the first seed that meets it:
//
//	a.deal(t, "Ana moves first and her first throw is a 1", func(s *sim.Seed) bool { ... })
//
// The next match the app starts plays with that seed (a round deals its
// seeds to the students in the order it pairs them: one student, or one
// seed for all, is what a test can rely on). The test then plays exactly
// its moves: no loop until the dice cooperate, no "another round". If it
// fails, the log names the seed, and sim.Replay or the record replays it.

// seedTries bounds the search: a condition met by one seed in 10,000 is
// found well within it.
const seedTries = 1_000_000

// seedWhere returns the first seed of a stream for which ok holds, and
// logs it (with what) when the test fails. It fails the test at once if
// none of seedTries seeds does.
func seedWhere(t testing.TB, what string, ok func(*sim.Seed) bool) sim.Seed {
	t.Helper()
	seed, tried, err := sim.FindSeed(27, seedTries, ok)
	if err != nil {
		t.Fatalf("no seed where %s: %v", what, err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the seed chosen where %s: %v (seed %d of stream 27)", what, seed, tried)
		}
	})
	return seed
}

// deal finds the seed where ok holds (seedWhere) and deals it to the
// app's chance: the next match the app starts plays with it.
func (a *app) deal(t testing.TB, what string, ok func(*sim.Seed) bool) sim.Seed {
	t.Helper()
	return a.dealEach(t, 1, what, ok)[0]
}

// dealEach deals n different seeds where ok holds, for the next n
// matches (a round of n students, who take them in the order the round
// pairs them: so the same condition for all).
func (a *app) dealEach(t testing.TB, n int, what string, ok func(*sim.Seed) bool) []sim.Seed {
	t.Helper()
	var seeds []sim.Seed
	for range n {
		seeds = append(seeds, seedWhere(t, what, func(s *sim.Seed) bool { return ok(s) && !slices.Contains(seeds, *s) }))
	}
	a.chance.Deal(seeds...)
	return seeds
}

// skunkRounds reports whether Skunk's shared dice on seed end each round
// u of rolls on its rolls[u]-th roll (a 1 thrown; the rolls before it
// score), if nobody's sitting ends it first (sim.Skunk.Roll).
func skunkRounds(s *sim.Seed, rolls ...int) bool {
	for u, n := range rolls {
		for r := range n {
			f := s.RollFaces(0, u, r, 2)
			if (f.Ones() > 0) != (r == n-1) {
				return false
			}
		}
	}
	return true
}

// skunkRolls is how many rolls a Skunk game of rounds rounds takes on
// seed when nobody sits: each round ends on its first 1.
func skunkRolls(s *sim.Seed, rounds int) int {
	n := 0
	for u := range rounds {
		for r := 0; ; r++ {
			n++
			if f := s.RollFaces(0, u, r, 2); f.Ones() > 0 {
				break
			}
		}
	}
	return n
}

// rollSkunkOut rolls the class's new game of Skunk to its end with nobody
// sitting: exactly as many rolls as its seed's rounds take (skunkRolls),
// then the game must be over.
func rollSkunkOut(t *testing.T, a *app, teacher *browser, code string) {
	t.Helper()
	k := (operator(t, a, code)).Skunk()
	if k == nil || k.Rolls != 0 {
		t.Fatalf("no new game of Skunk to roll out: %+v", k)
	}
	n := skunkRolls(&k.Game.Seed, k.Rounds)
	for range n {
		teacher.post(paths.SkunkRoll.For(code), nil)
	}
	if k = (operator(t, a, code)).Skunk(); !k.Over {
		t.Fatalf("Skunk on seed %v not over after the %d rolls its %d rounds take (round %d)", k.Game.Seed, n, k.Rounds, k.Round)
	}
}

// pigsFirstThrowScores: seat 0 moves first in a match of two, and its
// first throw of the pigs scores (no Pig Out).
func pigsFirstThrowScores(s *sim.Seed) bool {
	f := s.ThrowFor(sim.PassPigs, 0, 0, 0, sim.PassPigs.Dice())
	_, bust, _ := sim.RollPoints(sim.PassPigs, &f)
	return s.FirstSeat(2) == 0 && !bust
}

// rollTo is a student's rule in a test's script: roll while the turn
// total is below it, then hold (as the tests click; unlike sim.HoldAt it
// does not hold early on reaching the target).
type rollTo int

func (r rollTo) Decide(p sim.Position) sim.Action {
	if p.TurnTotal < int(r) {
		return sim.Roll
	}
	return sim.Hold
}

func (r rollTo) String() string { return "roll to " + strconv.Itoa(int(r)) }

// playOut plays a match of v on seed to its end as the server would, the
// seat i deciding by rules[i], and returns the match (nil if a rule made
// a move the rules refuse).
func playOut(v sim.Variant, seed sim.Seed, rules ...sim.Strategy) *sim.Match {
	m, err := sim.NewMatch(v, seed)
	if err != nil {
		return nil
	}
	for st := m.State(); !st.Over; st = m.State() {
		if _, err := m.Apply(st.Seat, rules[st.Seat].Decide(st.Position())); err != nil {
			return nil
		}
	}
	return m
}

// thrown is the names of seat's throws in match m (Game.ThrowName: a Pig
// Out, a Sider), counted.
func thrown(m *sim.Match, seat int) map[string]int {
	out := map[string]int{}
	g := m.Variant().Game
	for _, e := range m.Events() {
		if e.Seat == seat && e.Action == sim.Roll {
			out[g.ThrowName(&e.Faces)]++
		}
	}
	return out
}
