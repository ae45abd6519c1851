package main

import (
	"fmt"

	"pigclass/sim/solve"
)

// duelOutput is the contract of "duel --json".
type duelOutput struct {
	First      string  `json:"first"`
	Second     string  `json:"second"`
	EqualTurns bool    `json:"equal_turns"`
	FirstWins  float64 `json:"first_wins"`
	Exact      bool    `json:"exact"`
}

func runDuel(e env, args []string) error {
	fs := newFlags(e, "duel", "--game G [--target T] [--equal-turns] --first S1 --second S2 [--json]")
	var vf variantFlags
	vf.register(fs)
	first := fs.String("first", "", "the strategy that moves first: "+strategyNames)
	second := fs.String("second", "", "the strategy that moves second")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := parse(fs, args); err != nil {
		return err
	}
	v, err := vf.solverVariant()
	if err != nil {
		return err
	}
	if *first == "" || *second == "" {
		return usagef("duel: give both --first and --second (%s)", strategyNames)
	}
	s1, err := parseStrategy(*first, v)
	if err != nil {
		return usageError{"--first: " + err.Error()}
	}
	s2, err := parseStrategy(*second, v)
	if err != nil {
		return usageError{"--second: " + err.Error()}
	}
	p, err := solve.Duel(v, s1, s2)
	if err != nil {
		return usageError{err.Error()}
	}
	out := duelOutput{First: s1.String(), Second: s2.String(), EqualTurns: v.EqualTurns, FirstWins: p, Exact: true}
	if *asJSON {
		return writeJSON(e.stdout, out)
	}
	fmt.Fprintf(e.stdout, "%s: %s (first) beats %s with probability %.12f (exact)\n", v, out.First, out.Second, p)
	return nil
}
