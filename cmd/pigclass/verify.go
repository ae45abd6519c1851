package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"pigclass/server/report"
	"pigclass/sim"
)

// errVerifyFailed is returned when a record does not check out (exit 1).
var errVerifyFailed = errors.New("the record does not check out")

func runVerify(e env, args []string) error {
	fs := newFlags(e, "verify", "FILE   (a match record: JSON with variant, seed, events, result)")
	if err := parseWithArgs(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("verify: give one FILE, the match record to check")
	}
	name := fs.Arg(0)
	b, err := os.ReadFile(name)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	var r sim.Record
	if err := json.Unmarshal(b, &r); err != nil {
		return fmt.Errorf("verify: %s is not a match record: %w", name, err)
	}
	got, err := sim.VerifyJSON(b)
	if err != nil {
		fmt.Fprintf(e.stdout, "FAIL %s: %v\n", name, err)
		return errVerifyFailed
	}
	fmt.Fprintf(e.stdout, "OK %s: %s, commitment %s\n", name, r.Variant, r.Seed.Commitment())
	fmt.Fprintf(e.stdout, "%d events and %d rolls check out against the seed\n", got.Events, got.Rolls)
	// Seats count from 1, the player who moved first, as every file and
	// page counts them.
	st := got.State
	n := st.Variant.Seats
	seat := func(s int) int { return report.ExportSeat(s, st.First, n) }
	if res := st.Result(); res != nil {
		scores, places := make([]int, n), make([]int, n)
		for s := range n {
			scores[seat(s)-1], places[seat(s)-1] = res.Scores[s], res.Places[s]
		}
		fmt.Fprintf(e.stdout, "result: seat %d won; scores %v; places %v (seats from 1, the first to move)\n", seat(res.Winner), scores, places)
	} else {
		fmt.Fprintf(e.stdout, "the match is not over: seat %d to move (seats from 1, the first to move)\n", seat(st.Seat))
	}
	return nil
}
