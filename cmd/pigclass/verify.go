package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"pigclass/server/report"
	"pigclass/sim"
)

// maxRecordFile is the largest record file verify reads: a match's record
// is a few kilobytes, a long game of Skunk for a school a few megabytes.
const maxRecordFile = 16 << 20

// errVerifyFailed is returned when a record does not check out (exit 1).
var errVerifyFailed = errors.New("the record does not check out")

// runVerify checks a match record and says three things apart: the dice
// against the seed's commitment, the moves against the rules, and the
// signature (with --fingerprint, that it is the named server's key).
func runVerify(e env, args []string) error {
	fs := newFlags(e, "verify", "[--fingerprint FP] FILE   (a match record: JSON with variant, seed, events, result)")
	fingerprint := fs.String("fingerprint", "", "the fingerprint of the server's record key, as its verify page shows it: the record must be signed with that key")
	if err := parseWithArgs(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("verify: give one FILE, the match record to check")
	}
	name := fs.Arg(0)
	if fi, err := os.Stat(name); err == nil && fi.Size() > maxRecordFile {
		return fmt.Errorf("verify: %s has %d MB: a record pigclass writes is far smaller, and at most %d MB is read", name, fi.Size()>>20, maxRecordFile>>20)
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	if sim.IsSkunkRecord(b) {
		return verifySkunk(e, name, b, *fingerprint)
	}
	var r sim.Record
	if err := json.Unmarshal(b, &r); err != nil {
		return fmt.Errorf("verify: %s is not a match record: %w", name, err)
	}
	got, err := sim.VerifyJSON(b)
	sig := sigLine(got.Signature, *fingerprint)
	var ve *sim.VerifyError
	if err != nil {
		fmt.Fprintf(e.stdout, "FAIL %s: %v\n", name, err)
		if errors.As(err, &ve) && ve.Dice() {
			fmt.Fprintln(e.stdout, "dice: FAIL, they are not the ones the seed gives, or the seed is not the one committed to")
		} else {
			fmt.Fprintf(e.stdout, "dice: %d throws before the failing move check out against the seed\nmoves: FAIL, %v\n", got.Rolls, err)
		}
		fmt.Fprintln(e.stdout, sig.text)
		return errVerifyFailed
	}
	status := sig.status
	fmt.Fprintf(e.stdout, "%s %s: %s, commitment %s\n", status, name, r.Variant, r.Seed.Commitment())
	fmt.Fprintf(e.stdout, "dice: OK, every die of the %d throws is the one the seed gives\n", got.Rolls)
	if got.Entered > 0 {
		fmt.Fprintf(e.stdout, "entered: %d throws entered by hand at a table: the players' dice, checked as the pieces can land and by the sums they make, not by the seed\n", got.Entered)
	}
	fmt.Fprintf(e.stdout, "moves: OK, the %d events follow the rules\n", got.Events)
	fmt.Fprintln(e.stdout, sig.text)
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
	if status == "FAIL" {
		return errVerifyFailed
	}
	return nil
}

// signatureLine is what a record's signature proves: status OK (signed by
// the server named with --fingerprint, unchanged), UNPROVEN (unsigned, or
// signed by a key no one has named: any pigclass can sign), or FAIL (a
// broken signature, or another key than the one named).
type signatureLine struct {
	status string
	text   string
}

// sigLine says what a record's signature proves, against the fingerprint
// the user gave (if any). It never says OK for a key it cannot attribute.
func sigLine(c sim.SignatureCheck, want string) signatureLine {
	switch {
	case !c.Signed && want != "":
		return signatureLine{"FAIL", fmt.Sprintf("signature: FAIL, none, but the record should be signed with the server's key %s", want)}
	case !c.Signed:
		return signatureLine{"UNPROVEN", "signature: none (records before format 2 are not signed): the decisions are not proven"}
	case c.Err != nil:
		return signatureLine{"FAIL", "signature: FAIL, " + c.Err.Error()}
	}
	fp := sim.Fingerprint(c.Key)
	switch {
	case want == "":
		return signatureLine{"UNPROVEN", fmt.Sprintf("signature: UNPROVEN, signed with the key %s and not changed since; any pigclass signs with a key of its own, so the decisions are proven only if that is the key of the school's server: compare it with the fingerprint on its verify page, or pass --fingerprint", fp)}
	case sim.SameFingerprint(fp, want):
		return signatureLine{"OK", fmt.Sprintf("signature: OK, signed with the server's key %s and not changed since: the decisions are proven", fp)}
	}
	return signatureLine{"FAIL", fmt.Sprintf("signature: FAIL, signed with the key %s, not the server's %s", fp, want)}
}

// verifySkunk checks a game of whole-class Skunk's record, as runVerify a
// match's.
func verifySkunk(e env, name string, b []byte, fingerprint string) error {
	got, err := sim.VerifySkunkJSON(b)
	sig := sigLine(got.Signature, fingerprint)
	if err != nil {
		fmt.Fprintf(e.stdout, "FAIL %s: %v\n%s\n", name, err, sig.text)
		return errVerifyFailed
	}
	status := sig.status
	fmt.Fprintf(e.stdout, "%s %s: a game of whole-class Skunk\n", status, name)
	fmt.Fprintf(e.stdout, "dice: OK, every die of the %d rolls is the one the seed gives\n", got.Rolls)
	fmt.Fprintf(e.stdout, "moves: OK, the %d rolls and %d sits follow the rules\n", got.Rolls, got.Sits)
	fmt.Fprintln(e.stdout, sig.text)
	fmt.Fprintf(e.stdout, "scores: %v (participants from 1, in the order they joined)\n", got.Scores)
	if status == "FAIL" {
		return errVerifyFailed
	}
	return nil
}
