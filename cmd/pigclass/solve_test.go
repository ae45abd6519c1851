package main

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pigclass/sim"
)

func runJSON(t *testing.T, v any, args ...string) {
	t.Helper()
	out, _, err := runCmd(t, args...)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
}

func TestSolveJSON(t *testing.T) {
	var got map[string]any
	runJSON(t, &got, "solve", "--game", "pig", "--json")
	for _, key := range []string{"game", "target", "first_player_win", "states", "seconds"} {
		if _, ok := got[key]; !ok {
			t.Errorf("solve --json has no %q: %v", key, got)
		}
	}
	if got["game"] != "pig" || got["target"] != 100.0 || got["states"] != 505000.0 || math.Abs(got["first_player_win"].(float64)-0.5306) > 0.00005 {
		t.Errorf("solve --json: %v", got)
	}
	runJSON(t, &got, "solve", "--game", "pig", "--equal-turns", "--json")
	if p := got["first_player_win"].(float64); p >= 0.5 || got["equal_turns"] != true {
		t.Errorf("equal turns: %v", got)
	}
}

func TestAdviseJSON(t *testing.T) {
	var got struct {
		Best    string             `json:"best"`
		EV      string             `json:"ev"`
		Options map[string]float64 `json:"options"`
	}
	// Far behind near the end: the rule of thumb holds at 20, perfect play
	// keeps rolling (seed 000: "a player who needs thirty should keep
	// rolling").
	runJSON(t, &got, "advise", "--game", "pig", "--score", "60", "--opponent", "95", "--turn-total", "22", "--json")
	if got.Best != "roll" || got.EV != "hold" || len(got.Options) != 2 || got.Options["roll"] <= got.Options["hold"] {
		t.Errorf("advise at (60, 95, 22): %+v", got)
	}
	got.Options = nil
	runJSON(t, &got, "advise", "--game", "hog", "--score", "0", "--opponent", "0", "--json")
	if got.EV != "dice:5" || len(got.Options) != 10 || !strings.HasPrefix(got.Best, "dice:") {
		t.Errorf("advise in Hog: %+v", got)
	}
	best := 0.0
	for _, p := range got.Options {
		best = max(best, p)
	}
	if got.Options[got.Best] != best {
		t.Errorf("best %s is not the highest option: %v", got.Best, got.Options)
	}
}

func TestDuelJSON(t *testing.T) {
	var got struct {
		FirstWins float64 `json:"first_wins"`
		Exact     bool    `json:"exact"`
	}
	runJSON(t, &got, "duel", "--game", "pig", "--first", "hold:20", "--second", "hold:20", "--json")
	if !got.Exact || math.Abs(got.FirstWins-0.5347) > 0.00005 {
		t.Errorf("duel hold:20 hold:20: %+v", got)
	}
}

// TestEqualTurnsDuel: under equal turns the exact duel of optimal against
// itself is the solved value.
func TestEqualTurnsDuel(t *testing.T) {
	var d struct {
		FirstWins  float64 `json:"first_wins"`
		EqualTurns bool    `json:"equal_turns"`
	}
	runJSON(t, &d, "duel", "--game", "pig", "--target", "50", "--equal-turns", "--first", "optimal", "--second", "optimal", "--json")
	var s struct {
		First float64 `json:"first_player_win"`
	}
	runJSON(t, &s, "solve", "--game", "pig", "--target", "50", "--equal-turns", "--json")
	if !d.EqualTurns || math.Abs(d.FirstWins-s.First) > 1e-12 {
		t.Errorf("duel %+v, solve %v", d, s.First)
	}
}

// TestDuelAgreesWithSimulate: the exact duel lies in the simulator's
// confidence interval, for strategies of every kind.
func TestDuelAgreesWithSimulate(t *testing.T) {
	for _, c := range [][3]string{{"pig", "optimal", "kper"}, {"big-pig", "ev", "hold:30"}, {"hog", "optimal", "dice:6"}, {"two-dice", "hold:15", "optimal"}} {
		var d struct {
			FirstWins float64 `json:"first_wins"`
		}
		runJSON(t, &d, "duel", "--game", c[0], "--first", c[1], "--second", c[2], "--json")
		var s struct {
			Players []struct {
				CI95 [2]float64 `json:"ci95"`
			} `json:"players"`
		}
		runJSON(t, &s, "simulate", "--game", c[0], "--players", c[1]+","+c[2], "--games", "100000", "--seed", "agree", "--json")
		if ci := s.Players[0].CI95; d.FirstWins < ci[0] || d.FirstWins > ci[1] {
			t.Errorf("%v: exact %.4f outside the simulated [%.4f, %.4f]", c, d.FirstWins, ci[0], ci[1])
		}
	}
}

// TestDuelOfThree: duel --players gives each of three players' exact
// chance: with every player on perfect play, the solver's own figures
// (sim/published.md: 38.06%, 33.00%, 28.94% at 50), and with a mix of
// strategies chances within the simulator's intervals.
func TestDuelOfThree(t *testing.T) {
	t.Parallel() // it waits on its processes, or fills a core the waiting ones leave
	var d struct {
		Players []struct {
			Strategy string  `json:"strategy"`
			Wins     float64 `json:"wins"`
		} `json:"players"`
	}
	runJSON(t, &d, "duel", "--game", "pig", "--target", "50", "--players", "optimal,optimal,optimal", "--json")
	for r, want := range []float64{0.3806, 0.3300, 0.2894} {
		if len(d.Players) != 3 || math.Abs(d.Players[r].Wins-want) > 0.00005 {
			t.Errorf("perfect play by all three: %+v, want %.4f for seat %d", d.Players, want, r)
		}
	}
	// "Hold at 20 against two perfect players moving after me".
	var seats struct {
		Players []struct {
			Wins float64 `json:"wins"`
		} `json:"players"`
	}
	runJSON(t, &seats, "duel", "--game", "pig", "--target", "50", "--seats", "3", "--first", "hold:20", "--second", "optimal", "--json")
	runJSON(t, &d, "duel", "--game", "pig", "--target", "50", "--players", "hold:20,optimal,optimal", "--json")
	for r := range 3 {
		if len(seats.Players) != 3 || seats.Players[r].Wins != d.Players[r].Wins {
			t.Errorf("--seats 3 --first hold:20 --second optimal: %+v; --players: %+v", seats.Players, d.Players)
		}
	}
	runJSON(t, &d, "duel", "--game", "pig", "--target", "50", "--players", "hold:20,optimal,kper", "--json")
	var sim struct {
		Players []struct {
			CI95 [2]float64 `json:"ci95"`
		} `json:"players"`
	}
	runJSON(t, &sim, "simulate", "--game", "pig", "--target", "50", "--players", "hold:20,optimal,kper", "--games", "40000", "--seed", "three", "--json")
	for r, p := range d.Players {
		if ci := sim.Players[r].CI95; p.Wins < ci[0] || p.Wins > ci[1] {
			t.Errorf("seat %d (%s): exact %.4f outside the simulated [%.4f, %.4f]", r, p.Strategy, p.Wins, ci[0], ci[1])
		}
	}
}

func TestSolverUsageErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"solve", "--game", "chess"}, "pig, two-dice, big-pig, hog"},
		{[]string{"solve", "--target", "500"}, "from 10 to 200"},
		{[]string{"solve", "--game", "hog", "--max-dice", "31"}, "from 1 to 30"},
		{[]string{"solve", "--game", "two-dice", "--equal-turns"}, "solved for pig and big-pig"},
		{[]string{"duel", "--game", "hog", "--equal-turns", "--first", "dice:5", "--second", "dice:6"}, "solved for pig and big-pig"},
		{[]string{"advise", "--score", "100", "--opponent", "0"}, "--score"},
		{[]string{"advise", "--score", "10"}, "--opponent"},
		{[]string{"advise", "--game", "hog", "--score", "1", "--opponent", "0", "--turn-total", "3"}, "Hog has no turn total"},
		{[]string{"duel", "--first", "optimal"}, "--second"},
		{[]string{"duel", "--first", "optimal", "--second", "dice:3"}, "dice:N is for Hog"},
		{[]string{"duel", "--first", "hold:20", "--second", "yolo"}, "optimal, ev"},
		{[]string{"duel", "--first", "hold:20", "--players", "hold:20,hold:20"}, "not both"},
		{[]string{"duel", "--players", "hold:20,hold:20,hold:20,hold:20"}, "take 12207 MB to evaluate"},
		{[]string{"duel", "--players", "hold:20,hold:20,hold:20", "--equal-turns"}, "two players only"},
		{[]string{"duel", "--seats", "3", "--players", "hold:20,hold:20"}, "give one a seat"},
		{[]string{"duel", "--seats", "11", "--first", "hold:20", "--second", "kper"}, "2 to 10 players"},
		{[]string{"simulate", "--seats", "3", "--players", "hold:20,kper"}, "give one, or one a seat"},
	}
	for _, c := range cases {
		_, _, err := runCmd(t, c.args...)
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want a usage error containing %q", c.args, err, c.want)
		}
	}
}

// TestSolveAndAdviseThreeSeats: solve --seats 3 prints every player's
// chance (adding up to 1, the first player's the highest), and advise
// --others reads the same table: the chances of the position at the
// start of the game are the solve's.
func TestSolveAndAdviseThreeSeats(t *testing.T) {
	var s solveOutput
	runJSON(t, &s, "solve", "--game", "pig", "--target", "30", "--seats", "3", "--json")
	if s.Seats != 3 || len(s.PlayersWin) != 3 || math.Abs(s.PlayersWin[0]+s.PlayersWin[1]+s.PlayersWin[2]-1) > 1e-12 ||
		s.PlayersWin[0] <= s.PlayersWin[1] || s.PlayersWin[1] <= s.PlayersWin[2] || s.FirstPlayerWin != s.PlayersWin[0] {
		t.Errorf("solve --seats 3: %+v", s)
	}
	var a adviseOutput
	runJSON(t, &a, "advise", "--game", "pig", "--target", "30", "--score", "0", "--others", "0,0", "--json")
	if best := a.Options[a.Best]; math.Abs(best-s.PlayersWin[0]) > 1e-12 {
		t.Errorf("advise at the start: best %s %.12f, solve %.12f", a.Best, best, s.PlayersWin[0])
	}
	for _, bad := range [][]string{{"solve", "--seats", "4", "--target", "100"}, {"advise", "--score", "10", "--others", "x"}, {"solve", "--seats", "3", "--equal-turns"}} {
		if _, _, err := runCmd(t, bad...); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

// TestSimulateReplaysALabRun (issue 62): the command a lab run's page
// gives (server/lab.go's labReplay) plays the run's games again: the same
// wins as sim.Experiment with the run's seed, whatever the workers.
func TestSimulateReplaysALabRun(t *testing.T) {
	v := sim.Standard(sim.Pig)
	run, err := sim.Experiment(t.Context(), v, sim.HoldAt(25), sim.HoldAt(20), 3000, "81db9739a0c4e2f1")
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := runCmd(t, "simulate", "--game", "pig", "--target", "100", "--players", "hold:25,hold:20", "--games", "3000", "--seed", "81db9739a0c4e2f1", "--json", "--workers", "2")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Players []struct{ Wins int } `json:"players"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Players) != 2 {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Players[0].Wins != run.Wins {
		t.Errorf("pigclass simulate won %d with the run's seed, the run %d", got.Players[0].Wins, run.Wins)
	}
}

// TestSimulateReplaysALabRunOfAPlan: a lab run of a student's plan
// replays by the command its page gives, the plan's JSON in a file.
func TestSimulateReplaysALabRunOfAPlan(t *testing.T) {
	v := sim.Standard(sim.Pig)
	pl := sim.Plan{Form: sim.PlanHold, Game: "pig", Target: 100, Hold: 22}
	kper, err := sim.ParseStrategy("kper", sim.Pig)
	if err != nil {
		t.Fatal(err)
	}
	run, err := sim.Experiment(t.Context(), v, &pl, kper, 2000, "5eed")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "first.json")
	if err := os.WriteFile(file, []byte(sim.PlanName(pl)), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCmd(t, "simulate", "--game", "pig", "--target", "100", "--players", file+",kper", "--games", "2000", "--seed", "5eed", "--json", "--workers", "2")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Players []struct{ Wins int } `json:"players"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Players) != 2 || got.Players[0].Wins != run.Wins {
		t.Errorf("pigclass simulate with the plan's file: %s; the run won %d (%v)", out, run.Wins, err)
	}
}
