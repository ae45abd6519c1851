package sim

import (
	"context"
	"testing"
)

// TestPlannedGamesAreTheSameGames: a game played a turn at a time (every
// player plans its turns) ends in the very state a game played a decision
// at a time with the same dice does, every field, for each game whose
// pieces are fair dice, two to four seats, and the bots that plan; and
// Simulate's totals are the same either way.
func TestPlannedGamesAreTheSameGames(t *testing.T) {
	lineups := [][]Strategy{
		{HoldAt(20), HoldAt(20)},
		{HoldAt(10), KeepPace{}},
		{KeepPace{}, HoldAt(25), HoldAt(15)},
		{HoldAt(30), KeepPace{}, HoldAt(5), KeepPace{}},
		{HoldAt(0), HoldAt(100)}, // one never rolls, one never holds short of winning
	}
	key := SimKey("planned")
	played := 0
	for _, g := range Games {
		outcomes := outcomesOf(g)
		if outcomes == nil {
			continue
		}
		for _, players := range lineups {
			v := Standard(g)
			v.Seats = len(players)
			v.Target = 60
			plans := planners(players)
			if plans == nil {
				t.Fatalf("%v: not every player plans its turns", players)
			}
			var p Position
			for game := range uint64(3000) {
				var slow, fast FastDice
				slow.Reset(key, game)
				fast.Reset(key, game)
				want := PlayFast(v, players, &slow)
				got := playPlanned(v, plans, outcomes, &fast, &p)
				if got != want {
					t.Fatalf("%s, %v, game %d: planned %+v, decided %+v", g, players, game, got, want)
				}
				if slow.Face() != fast.Face() {
					t.Fatalf("%s, %v, game %d: the two drew different dice", g, players, game)
				}
				played++
			}
		}
	}
	if played < 3*len(lineups)*3000 {
		t.Errorf("only %d games compared: Pig, Two-dice Pig and Big Pig were not all planned", played)
	}
	// A bot that does not plan turns the simulation back to a decision at
	// a time; the totals agree.
	v := Standard(Pig)
	planned, err := Simulate(context.Background(), SimConfig{Variant: v, Players: []Strategy{HoldAt(20), KeepPace{}}, Games: 20000, Key: key})
	if err != nil {
		t.Fatal(err)
	}
	decided, err := Simulate(context.Background(), SimConfig{Variant: v, Players: []Strategy{decideOnly{HoldAt(20)}, KeepPace{}}, Games: 20000, Key: key})
	if err != nil {
		t.Fatal(err)
	}
	if planned.Wins[0] != decided.Wins[0] || planned.Turns != decided.Turns || planned.Wins[0] == 0 {
		t.Errorf("planned %+v, decided %+v", planned, decided)
	}
}

// decideOnly hides a strategy's plan: it decides each roll.
type decideOnly struct{ Strategy }

// TestKeepPacePlanIsItsRule: kper's plan for a turn agrees with its
// decisions on every turn total of the turn, at every pair of scores.
func TestKeepPacePlanIsItsRule(t *testing.T) {
	for _, target := range []int{50, 100} {
		v := Standard(Pig)
		v.Target = target
		for score := 0; score < target; score++ {
			for opp := 0; opp < target; opp++ {
				p := Position{Variant: v, Score: score, Opponent: opp, Players: 2}
				hold := KeepPace{}.HoldFrom(&p)
				for tt := 0; score+tt < target; tt++ {
					p.TurnTotal = tt
					got, plan := (KeepPace{}).Decide(p), tt >= hold
					if (got == Hold) != plan {
						t.Fatalf("to %d, %d against %d, turn total %d: decides %v, plans hold=%v", target, score, opp, tt, got, plan)
					}
				}
			}
		}
	}
}
