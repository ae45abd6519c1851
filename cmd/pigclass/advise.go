package main

import (
	"fmt"
	"strconv"
	"strings"

	"pigclass/sim/solve"
)

// adviseOutput is the contract of "advise --json".
type adviseOutput struct {
	Best    string             `json:"best"`
	EV      string             `json:"ev"`
	Options map[string]float64 `json:"options"`
}

func runAdvise(e env, args []string) error {
	fs := newFlags(e, "advise", "--game G [--target T] [--max-dice D] --score I (--opponent J | --others J1,J2,...) [--turn-total K] [--json]")
	var vf variantFlags
	vf.registerStandard(fs) // advice is for the standard rules: no --equal-turns
	score := fs.Int("score", -1, "the score of the player to move")
	opponent := fs.Int("opponent", -1, "the opponent's score (two players)")
	others := fs.String("others", "", "more than two players: the others' scores in the order they move after the player, e.g. 60,25")
	turnTotal := fs.Int("turn-total", 0, "the turn total so far (Pig games)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *others != "" {
		return adviseSeats(e, vf, *score, *others, *turnTotal, *asJSON)
	}
	v, err := vf.solverVariant()
	if err != nil {
		return err
	}
	T := v.Target
	switch {
	case *score < 0 || *score >= T:
		return usagef("--score %d: give the mover's score, from 0 to %d", *score, T-1)
	case *opponent < 0 || *opponent >= T:
		return usagef("--opponent %d: give the opponent's score, from 0 to %d", *opponent, T-1)
	case v.Game.ChoosesDice() && *turnTotal != 0:
		return usagef("--turn-total %d: %s has no turn total (one throw a turn)", *turnTotal, v.Game.Title())
	case *turnTotal < 0 || *score+*turnTotal >= T:
		return usagef("--turn-total %d: must be from 0 to %d (at %d the player has already won)", *turnTotal, T-1-*score, T-*score)
	}
	t, err := tables.Get(v)
	if err != nil {
		return err
	}
	a := t.Advise(*score, *opponent, *turnTotal)
	return printAdvice(e, a, fmt.Sprintf("%s: score %d, opponent %d, turn total %d", v, *score, *opponent, *turnTotal), *asJSON)
}

// adviseSeats advises the mover of a game of more than two players.
func adviseSeats(e env, vf variantFlags, score int, othersText string, turnTotal int, asJSON bool) error {
	var others []int
	for _, f := range strings.Split(othersText, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return usagef("--others %q: whole numbers separated by commas, e.g. 60,25", othersText)
		}
		others = append(others, n)
	}
	v, err := vf.multiVariant(len(others) + 1)
	if err != nil {
		return err
	}
	T := v.Target
	p := append([]int{score}, others...)
	for i, s := range p {
		if s < 0 || s >= T {
			return usagef("score %d (player %d): from 0 to %d", s, i+1, T-1)
		}
	}
	switch {
	case v.Game.ChoosesDice() && turnTotal != 0:
		return usagef("--turn-total %d: %s has no turn total (one throw a turn)", turnTotal, v.Game.Title())
	case turnTotal < 0 || score+turnTotal >= T:
		return usagef("--turn-total %d: must be from 0 to %d (at %d the player has already won)", turnTotal, T-1-score, T-score)
	}
	m, err := tables.MultiWait(v)
	if err != nil {
		return err
	}
	return printAdvice(e, m.Advise(p, turnTotal), fmt.Sprintf("%s: score %d, the others %s (in the order they move), turn total %d", v, score, othersText, turnTotal), asJSON)
}

// printAdvice writes the advice as text under a heading, or as JSON.
func printAdvice(e env, a solve.Advice, heading string, asJSON bool) error {
	out := adviseOutput{Best: a.Best.String(), EV: a.EV.String(), Options: map[string]float64{}}
	for _, o := range a.Options() {
		out.Options[o.Action.String()] = o.Win
	}
	if asJSON {
		return writeJSON(e.stdout, out)
	}
	fmt.Fprintln(e.stdout, heading)
	for _, o := range a.Options() {
		cost, _ := a.Cost(o.Action)
		mark := ""
		if o.Action == a.Best {
			mark += "  best"
		}
		if o.Action == a.EV {
			mark += "  expected-value play"
		}
		fmt.Fprintf(e.stdout, "%-8s wins %.6f  cost %.6f%s\n", o.Action, o.Win, cost, mark)
	}
	return nil
}
