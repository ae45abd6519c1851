package solve

import (
	"context"
	"math"
	"testing"

	"pigclass/sim"
)

// TestStandingsSoFar: the standings of a tournament's duels so far
// (Rank with some duels unplayed) average each entry over the seats and
// opponents it has met; with every duel played they are the tournament's.
func TestStandingsSoFar(t *testing.T) {
	v := sim.Standard(sim.Pig)
	v.Target = 30
	tour, err := PlayTournament(context.Background(), v, []Entry{{"hold:10", sim.HoldAt(10)}, {"hold:15", sim.HoldAt(15)}, {"hold:25", sim.HoldAt(25)}}, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := tour.First
	all := Rank(f, [][]bool{{false, true, true}, {true, false, true}, {true, true, false}})
	for i, s := range all {
		if s != tour.Standings[i] {
			t.Errorf("every duel known: %+v, the tournament's %+v", s, tour.Standings[i])
		}
	}
	// Played: 0 against 1 both ways, 0 first against 2.
	known := [][]bool{{false, true, true}, {true, false, false}, {false, false, false}}
	want := map[int]float64{
		0: ((f[0][1]+1-f[1][0])/2 + f[0][2]) / 2,
		1: (f[1][0] + 1 - f[0][1]) / 2,
		2: 1 - f[0][2],
	}
	for _, s := range Rank(f, known) {
		if math.Abs(s.Average-want[s.Entry]) > 1e-12 {
			t.Errorf("entry %d so far: %.12f, want %.12f", s.Entry, s.Average, want[s.Entry])
		}
	}
}

// TestTurnCost: a turn of perfect play gives nothing away anywhere;
// holding at 20 gives away most where perfect play races (far behind near
// the end) and costs a turn from the start only a little.
func TestTurnCost(t *testing.T) {
	v := sim.Standard(sim.Pig)
	tab, err := Solve(v)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range [][2]int{{0, 0}, {50, 50}, {95, 5}, {5, 95}} {
		if got := tab.TurnCost(Optimal{tab}, v, c[0], c[1]); math.Abs(got) > 1e-12 {
			t.Errorf("perfect play from %v gives away %.3g", c, got)
		}
	}
	start, race := tab.TurnCost(sim.HoldAt(20), v, 0, 0), tab.TurnCost(sim.HoldAt(20), v, 55, 95)
	if start <= 0 || start > 0.01 || race < 10*start {
		t.Errorf("hold at 20: a turn from the start costs %.4f, far behind near the end %.4f", start, race)
	}
}

// TestTournamentsOfEveryHoldGame: a tournament plays in every game of
// rolls and holds; perfect play, in its own game, is never beaten on
// average by a plan.
func TestTournamentsOfEveryHoldGame(t *testing.T) {
	for _, g := range []sim.Game{sim.TwoDice, sim.BigPig, sim.PassPigs} {
		v := sim.Standard(g)
		v.Target = 40
		tab, err := Solve(v)
		if err != nil {
			t.Fatal(err)
		}
		rule := sim.KeepPacePlan(v)
		entries := []Entry{
			{"hold", &sim.Plan{Form: sim.PlanHold, Game: g.String(), Target: 40, Hold: 15}},
			{"rule", rule},
			{"map", sim.MapOf(sim.HoldAt(g.Rules().HoldAt), v, "")},
			{"optimal", Optimal{tab}},
		}
		for _, e := range entries[:3] {
			if err := e.Strategy.(*sim.Plan).Check(v); err != nil {
				t.Fatalf("%s: %v", g, err)
			}
		}
		tour, err := PlayTournament(context.Background(), v, entries, 2, nil)
		if err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		if tour.Standings[0].Entry != 3 {
			t.Errorf("%s: %s first, perfect play %+v", g, entries[tour.Standings[0].Entry].Name, tour.Standings)
		}
	}
}
