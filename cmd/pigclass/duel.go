package main

import (
	"fmt"
	"strings"

	"pigclass/sim"
	"pigclass/sim/solve"
)

// duelOutput is the contract of "duel --json". With more than two players
// (--players) First and Second are empty and Players holds every seat.
type duelOutput struct {
	First      string       `json:"first,omitempty"`
	Second     string       `json:"second,omitempty"`
	EqualTurns bool         `json:"equal_turns"`
	FirstWins  float64      `json:"first_wins"`
	Exact      bool         `json:"exact"`
	Players    []duelPlayer `json:"players"`
}

// duelPlayer is one seat of a duel: its strategy and chance of winning.
type duelPlayer struct {
	Seat     int     `json:"seat"`
	Strategy string  `json:"strategy"`
	Wins     float64 `json:"wins"`
}

func runDuel(e env, args []string) error {
	fs := newFlags(e, "duel", "--game G [--target T] [--equal-turns] [--seats N] (--first S1 --second S2 | --players S1,S2,S3[,...]) [--json]")
	var vf variantFlags
	vf.register(fs)
	first := fs.String("first", "", "the strategy that moves first: "+strategyNames)
	second := fs.String("second", "", "the strategy that moves second")
	players := fs.String("players", "", "instead of --first and --second: comma-separated strategies, one a seat, seat 0 moving first (2 to 10 players; more than two: each player's exact chance)")
	seats := fs.Int("seats", 0, fmt.Sprintf("players, %d to %d: with --first and --second, seat 0 plays the first and every other seat the second (default 2, or as many as --players)", sim.MinSeats, sim.MaxSeats))
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := parse(fs, args); err != nil {
		return err
	}
	names, err := duelNames(*first, *second, *players, *seats)
	if err != nil {
		return err
	}
	v, err := vf.solverVariant()
	if err != nil {
		return err
	}
	v.Seats = len(names)
	if v.Seats > 2 {
		if err := solve.CheckDuelMulti(v); err != nil {
			return usageError{err.Error()} // before a strategy solves its table
		}
	}
	strategies, err := duelStrategies(names, v, *players != "")
	if err != nil {
		return err
	}
	var wins []float64
	if v.Seats == 2 {
		var p float64
		if p, err = solve.Duel(v, strategies[0], strategies[1]); err == nil {
			wins = []float64{p, 1 - p}
		}
	} else {
		wins, err = solve.DuelMulti(v, strategies)
	}
	if err != nil {
		return usageError{err.Error()}
	}
	out := duelOutput{EqualTurns: v.EqualTurns, FirstWins: wins[0], Exact: true}
	for seat, st := range strategies {
		out.Players = append(out.Players, duelPlayer{Seat: seat, Strategy: st.String(), Wins: wins[seat]})
	}
	if v.Seats == 2 {
		out.First, out.Second = strategies[0].String(), strategies[1].String()
	}
	if *asJSON {
		return writeJSON(e.stdout, out)
	}
	if v.Seats == 2 {
		fmt.Fprintf(e.stdout, "%s: %s (first) beats %s with probability %.12f (exact)\n", v, out.First, out.Second, wins[0])
		return nil
	}
	fmt.Fprintf(e.stdout, "%s, seat 0 moving first (exact, by policy evaluation):\n", v)
	fmt.Fprintf(e.stdout, "%-5s %-10s %s\n", "seat", "strategy", "wins")
	for _, p := range out.Players {
		fmt.Fprintf(e.stdout, "%-5d %-10s %.12f\n", p.Seat, p.Strategy, p.Wins)
	}
	return nil
}

// duelStrategies reads the strategies of a duel, each for its seat; an
// error names the flag that gave it (--players, or --first and --second).
func duelStrategies(names []string, v sim.Variant, fromPlayers bool) ([]sim.Strategy, error) {
	strategies := make([]sim.Strategy, len(names))
	for i, name := range names {
		var err error
		if strategies[i], err = parseStrategy(strings.TrimSpace(name), v); err != nil {
			flag := "--players"
			if !fromPlayers {
				flag = [2]string{"--first", "--second"}[min(i, 1)]
			}
			return nil, usageError{flag + ": " + err.Error()}
		}
	}
	return strategies, nil
}

// duelNames are the strategies' names a seat, from --first and --second
// (seat 0 the first, every other seat the second) or --players.
func duelNames(first, second, players string, seats int) ([]string, error) {
	var names []string
	switch {
	case players != "" && (first != "" || second != ""):
		return nil, usagef("duel: give --first and --second, or --players, not both")
	case players != "":
		names = strings.Split(players, ",")
	case first == "" || second == "":
		return nil, usagef("duel: give both --first and --second (%s), or --players", strategyNames)
	default:
		names = []string{first, second}
		for len(names) < seats {
			names = append(names, second)
		}
	}
	if seats != 0 && seats != len(names) {
		return nil, usagef("--seats %d: %d strategies in --players; give one a seat", seats, len(names))
	}
	if len(names) < sim.MinSeats || len(names) > sim.MaxSeats {
		return nil, usagef("--players: %d strategies; a match has %d to %d players", len(names), sim.MinSeats, sim.MaxSeats)
	}
	return names, nil
}
