package main

import (
	"fmt"
	"strings"
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
	Seats          int     `json:"seats"`
	FirstPlayerWin float64 `json:"first_player_win"`
	// PlayersWin is every player's chance, in the order they move.
	PlayersWin []float64 `json:"players_win"`
	// Residual is the most a mover could gain by deviating (more than two
	// players: see sim/published.md); 0 for two.
	Residual float64 `json:"residual"`
	States   int     `json:"states"`
	Seconds  float64 `json:"seconds"` // the solve's
	// CheckSeconds is the residual's (more than two players): every turn
	// start's turn worked out afresh against the table.
	CheckSeconds float64 `json:"check_seconds,omitempty"`
}

func runSolve(e env, args []string) error {
	fs := newFlags(e, "solve", "--game G [--target T] [--max-dice D] [--equal-turns] [--seats N] [--json]")
	var vf variantFlags
	vf.register(fs)
	seats := fs.Int("seats", 2, fmt.Sprintf("players, from 2 to %d (more than two: perfect play for every player)", sim.MaxSeats))
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *seats != 2 {
		return solveSeats(e, vf, *seats, *asJSON)
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
	out := solveOutput{Game: v.Game.String(), Target: v.Target, MaxDice: v.MaxDice, EqualTurns: v.EqualTurns, Seats: 2,
		FirstPlayerWin: t.FirstPlayerWin(), PlayersWin: []float64{t.FirstPlayerWin(), 1 - t.FirstPlayerWin()},
		States: t.States(), Seconds: time.Since(start).Seconds()}
	if *asJSON {
		return writeJSON(e.stdout, out)
	}
	fmt.Fprintf(e.stdout, "%s\n", v)
	fmt.Fprintf(e.stdout, "first player wins %.12f under perfect play by both (%.2f%%)\n", out.FirstPlayerWin, 100*out.FirstPlayerWin)
	fmt.Fprintf(e.stdout, "%d states solved in %.3fs\n", out.States, out.Seconds)
	return nil
}

// solveSeats solves a game of more than two players and prints every
// player's chance from the start.
func solveSeats(e env, vf variantFlags, seats int, asJSON bool) error {
	v, err := vf.multiVariant(seats)
	if err != nil {
		return err
	}
	start := time.Now()
	m, err := tables.MultiWait(v)
	if err != nil {
		return err
	}
	solved := time.Since(start).Seconds()
	win := m.FirstPlayerWin()
	states := 1
	for range seats {
		states *= v.Target
	}
	out := solveOutput{Game: v.Game.String(), Target: v.Target, MaxDice: v.MaxDice, Seats: seats, FirstPlayerWin: win[0], PlayersWin: win,
		Residual: m.Residual(), States: states, Seconds: solved}
	out.CheckSeconds = time.Since(start).Seconds() - solved
	if asJSON {
		return writeJSON(e.stdout, out)
	}
	fmt.Fprintf(e.stdout, "%s\n", v)
	for r, w := range win {
		fmt.Fprintf(e.stdout, "player %d (moving %s) wins %.12f under perfect play by all (%.2f%%)\n", r+1, ordinal(r+1), w, 100*w)
	}
	fmt.Fprintf(e.stdout, "%d turn starts solved in %.3fs; %d orbits cycled (%d settled by a mixed choice); residual %.2g (checked in %.3fs)\n",
		states, out.Seconds, m.Cycling, m.Mixed, out.Residual, out.CheckSeconds)
	return nil
}

// ordinal writes 1 as "first", 2 as "second", and so on.
func ordinal(n int) string {
	words := []string{"first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"}
	if n >= 1 && n <= len(words) {
		return words[n-1]
	}
	return fmt.Sprintf("%dth", n)
}

// multiVariant is the variant of more than two players the solver takes.
func (vf *variantFlags) multiVariant(seats int) (sim.Variant, error) {
	if seats < sim.MinSeats || seats > sim.MaxSeats {
		return sim.Variant{}, usagef("--seats %d: from %d to %d", seats, sim.MinSeats, sim.MaxSeats)
	}
	v, err := vf.variant(seats)
	if err != nil {
		return v, err
	}
	switch {
	case v.Target > solve.MaxTarget:
		return v, usagef("--target %d: the solver takes targets from %d to %d", v.Target, sim.MinTarget, solve.MaxTarget)
	case v.EqualTurns:
		return v, usagef("--equal-turns: solved for two players only")
	case solve.MultiBytes(v) > solve.MaxMultiBytes:
		return v, usagef("--seats %d --target %d: the table would take %d MB (the process about %d MB), more than the %d MB a table is allowed; choose a lower target", seats, v.Target, solve.MultiBytes(v)>>20, solve.MultiProcessBytes(v)>>20, solve.MaxMultiBytes>>20)
	}
	return v, nil
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
	if v.EqualTurns && !v.Game.Rules().EqualTurns {
		var names []string
		for _, g := range sim.Games {
			if g.Rules().EqualTurns {
				names = append(names, g.String())
			}
		}
		return v, usagef("--equal-turns: solved for %s, not %s", strings.Join(names, " and "), v.Game)
	}
	return v, nil
}
