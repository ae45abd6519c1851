package main

import (
	"fmt"
	"time"

	"pigclass/sim"
	"pigclass/sim/solve"
)

// solveOutput is the contract of "solve --json".
type solveOutput struct {
	Game           string  `json:"game"`
	Target         int     `json:"target"`
	MaxDice        int     `json:"max_dice,omitempty"`
	EqualTurns     bool    `json:"equal_turns"`
	FirstPlayerWin float64 `json:"first_player_win"`
	States         int     `json:"states"`
	Seconds        float64 `json:"seconds"`
}

func runSolve(e env, args []string) error {
	fs := newFlags(e, "solve", "--game G [--target T] [--max-dice D] [--equal-turns] [--json]")
	var vf variantFlags
	vf.register(fs)
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := parse(fs, args); err != nil {
		return err
	}
	v, err := vf.solverVariant()
	if err != nil {
		return err
	}
	start := time.Now()
	t, err := solveTable(v)
	if err != nil {
		return err
	}
	out := solveOutput{Game: v.Game.String(), Target: v.Target, MaxDice: v.MaxDice, EqualTurns: v.EqualTurns,
		FirstPlayerWin: t.FirstPlayerWin(), States: t.States(), Seconds: time.Since(start).Seconds()}
	if *asJSON {
		return writeJSON(e.stdout, out)
	}
	fmt.Fprintf(e.stdout, "%s\n", v)
	fmt.Fprintf(e.stdout, "first player wins %.12f under perfect play by both (%.2f%%)\n", out.FirstPlayerWin, 100*out.FirstPlayerWin)
	fmt.Fprintf(e.stdout, "%d states solved in %.3fs\n", out.States, out.Seconds)
	return nil
}

// solvedTable is what solve and advise need of a table, for either rule.
type solvedTable interface {
	FirstPlayerWin() float64
	States() int
}

// solveTable solves v under its rules (standard or equal turns).
func solveTable(v sim.Variant) (solvedTable, error) {
	if v.EqualTurns {
		return solve.SolveEqualTurns(v)
	}
	return tables.Get(v)
}

// solverVariant is the two-player variant the solver takes.
func (vf *variantFlags) solverVariant() (sim.Variant, error) {
	v, err := vf.variant(2)
	if err != nil {
		return v, err
	}
	if v.Target > solve.MaxTarget {
		return v, usagef("--target %d: the solver takes targets from %d to %d", v.Target, sim.MinTarget, solve.MaxTarget)
	}
	if v.EqualTurns && v.Game != sim.Pig && v.Game != sim.BigPig {
		return v, usagef("--equal-turns: solved for pig and big-pig, not %s", v.Game)
	}
	return v, nil
}
