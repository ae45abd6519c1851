package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
)

// MarshalJSON writes an event with exactly the fields it has: faces for a
// roll or a throw, points for a Hog throw (0 included), neither otherwise;
// the time it was stored, in UTC, when it has one.
func (e Event) MarshalJSON() ([]byte, error) {
	type plain struct {
		Seat   int        `json:"seat"`
		Action Action     `json:"action"`
		Turn   int        `json:"turn"`
		Roll   int        `json:"roll"`
		Faces  *Faces     `json:"faces,omitempty"`
		Points *int       `json:"points,omitempty"`
		At     *time.Time `json:"at,omitempty"`
		// Entered: the pieces were entered by hand at a table.
		Entered bool `json:"entered,omitempty"`
	}
	p := plain{Seat: e.Seat, Action: e.Action, Turn: e.Turn, Roll: e.Roll, Entered: e.Entered}
	if !e.At.IsZero() {
		at := e.At.UTC()
		p.At = &at
	}
	if e.Faces.Len() > 0 {
		f := e.Faces
		p.Faces = &f
	}
	if e.Action.Kind == DiceKind {
		pts := e.Points
		p.Points = &pts
	}
	return json.Marshal(p)
}

// recordFields is a record as written, each field present or not.
type recordFields struct {
	Format     *int           `json:"format"`
	Signature  *Signature     `json:"signature"`
	Variant    *Variant       `json:"variant"`
	Seed       *Seed          `json:"seed"`
	Commitment *string        `json:"commitment"`
	Events     *[]eventFields `json:"events"`
	Result     *Result        `json:"result"`
	Mystery    *[]MysterySeat `json:"mystery"`
}

type eventFields struct {
	Seat   *int       `json:"seat"`
	Action *Action    `json:"action"`
	Turn   *int       `json:"turn"`
	Roll   *int       `json:"roll"`
	Faces  *Faces     `json:"faces"`
	Points *int       `json:"points"`
	At     *time.Time `json:"at"`
	// Entered: the pieces were entered by hand; the seed did not throw
	// them, so they are checked as the game's pieces can land, not
	// against the seed.
	Entered bool `json:"entered"`
}

// VerifyError is what a match record does not check out on: the event
// (from 1; 0 for the record as a whole), the field, the problem (a stable
// name a program or a translation can key on) and the values involved, by
// name. Error is the English sentence pigclass verify prints.
type VerifyError struct {
	Event   int
	Field   string
	Problem string
	Args    map[string]string
	text    string
	wrapped error
}

func (e *VerifyError) Error() string { return e.text }
func (e *VerifyError) Unwrap() error { return e.wrapped }

// The problems a VerifyError names.
const (
	ProblemNotRecord  = "not_record"  // not JSON, or unknown fields: Args["Detail"]
	ProblemMissing    = "missing"     // Field is missing
	ProblemCommitment = "commitment"  // Args Recorded, Seed: the seed's SHA-256
	ProblemVariant    = "variant"     // the rules are not ones pigclass plays: Args["Detail"]
	ProblemRefused    = "refused"     // the rules refuse the action: Args Seat, Action, Code (an ErrorCode)
	ProblemTurn       = "turn"        // Args Recorded, Actual
	ProblemRoll       = "roll"        // Args Recorded, Actual
	ProblemNoFaces    = "no_faces"    // a throw without its dice: Args Action, Seed
	ProblemExtraFaces = "extra_faces" // dice on a move that throws none: Args Action, Recorded
	ProblemFaces      = "faces"       // Args Recorded, Seed
	ProblemNoPoints   = "no_points"   // a Hog throw without its points: Args Actual
	ProblemPoints     = "points"      // Args Recorded, Faces, Actual
	ProblemExtraPts   = "extra_points"
	ProblemNotOver    = "not_over"  // a result, but the match is not over: Args Winner, Events
	ProblemNoResult   = "no_result" // no result, but the match is over: Args Winner, Events
	ProblemResult     = "result"    // the result differs: Args Winner, Scores, Places, Actual...
	ProblemFormat     = "format"    // a format this release does not read: Args Recorded, Known
	ProblemTime       = "time"      // an event stored before the one before it: Args Recorded, Before
	ProblemMystery    = "mystery"   // a mystery bot's strength the seed does not draw: Args Seat, Recorded, Seed
)

// Dice says the problem is with the dice (the seed's commitment or the
// faces the seed gives) rather than with the moves.
func (e *VerifyError) Dice() bool {
	switch e.Problem {
	case ProblemCommitment, ProblemFaces, ProblemNoFaces:
		return true
	}
	return false
}

func verifyErr(event int, field, problem, text string, args ...any) *VerifyError {
	e := &VerifyError{Event: event, Field: field, Problem: problem, text: text, Args: map[string]string{}}
	for i := 0; i+1 < len(args); i += 2 {
		e.Args[fmt.Sprint(args[i])] = fmt.Sprint(args[i+1])
	}
	return e
}

// wrap makes err the cause of e, and returns e.
func (e *VerifyError) wrap(err error) *VerifyError {
	e.wrapped = err
	return e
}

// notRecord is the error of data that is not a record (what says which).
func notRecord(what string, err error) *VerifyError {
	return verifyErr(0, "", ProblemNotRecord, what+": "+err.Error(), "Detail", err.Error()).wrap(err)
}

// badRules is the error of rules (field) the engine refuses to play.
func badRules(field string, err error) *VerifyError {
	return verifyErr(0, field, ProblemVariant, err.Error(), "Detail", err.Error()).wrap(err)
}

// checkCommitment is the error of a recorded commitment that is not the
// seed's SHA-256, or nil.
func checkCommitment(recorded string, seed Seed) error {
	if recorded == seed.Commitment() {
		return nil
	}
	return verifyErr(0, "commitment", ProblemCommitment,
		fmt.Sprintf("commitment %s is not SHA-256 of the seed (%s)", recorded, seed.Commitment()),
		"Recorded", recorded, "Seed", seed.Commitment())
}

// VerifyJSON checks a match record as published (JSON): every field of
// every event against the dice the seed gives and the rules, a missing
// field as an error, an unknown one too. The error names the first event,
// and the field, that does not check out.
func VerifyJSON(data []byte) (Verified, error) {
	var r recordFields
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return Verified{}, notRecord("not a match record", err)
	}
	format := 0
	if r.Format != nil {
		format = *r.Format
	}
	if format < 0 || format == 1 || format > RecordFormat {
		return Verified{}, verifyErr(0, "format", ProblemFormat,
			fmt.Sprintf("format: %d is not a record format this pigclass reads (none, for the earliest records, or %d)", format, RecordFormat),
			"Recorded", format, "Known", RecordFormat)
	}
	sig := checkSignature(data, r.Signature)
	switch {
	case r.Variant == nil:
		return Verified{Format: format, Signature: sig}, verifyErr(0, "variant", ProblemMissing, "variant: missing (the game and its rules)")
	case r.Seed == nil:
		return Verified{Format: format, Signature: sig}, verifyErr(0, "seed", ProblemMissing, "seed: missing (published when the match ends)")
	case r.Commitment == nil:
		return Verified{Format: format, Signature: sig}, verifyErr(0, "commitment", ProblemMissing, "commitment: missing (the seed's SHA-256, shown when the match started)")
	case r.Events == nil:
		return Verified{Format: format, Signature: sig}, verifyErr(0, "events", ProblemMissing, "events: missing")
	}
	v := Verified{Events: len(*r.Events), Format: format, Signature: sig}
	if err := checkCommitment(*r.Commitment, *r.Seed); err != nil {
		return v, err
	}
	m, err := NewMatch(*r.Variant, *r.Seed)
	if err != nil {
		return v, badRules("variant", err)
	}
	if r.Mystery != nil {
		if err := checkMystery(*r.Variant, r.Seed, *r.Mystery); err != nil {
			return v, err
		}
	}
	var before time.Time
	for i, want := range *r.Events {
		if err := checkEvent(m, format, i+1, want); err != nil {
			return v, err
		}
		if want.At != nil {
			if want.At.Before(before) {
				return v, verifyErr(i+1, "at", ProblemTime,
					fmt.Sprintf("event %d: at: %s is before the event before it (%s)", i+1, want.At.Format(time.RFC3339Nano), before.Format(time.RFC3339Nano)),
					"Recorded", want.At.Format(time.RFC3339Nano), "Before", before.Format(time.RFC3339Nano))
			}
			before = *want.At
		}
		switch {
		case want.Faces != nil && want.Entered:
			v.Entered++
		case want.Faces != nil:
			v.Rolls++
		}
	}
	v.State = m.State()
	if err := checkResult(r.Result, v.State.Result(), v.Events); err != nil {
		return v, err
	}
	return v, nil
}

// checkResult compares a record's result (nil: none) with the one its
// events lead to (nil: the match is not over).
func checkResult(want, got *Result, events int) error {
	switch {
	case got == nil && want != nil:
		return verifyErr(0, "result", ProblemNotOver,
			fmt.Sprintf("result: the record says seat %d won, but after %d events the match is not over", want.Winner, events),
			"Winner", want.Winner, "Events", events)
	case got != nil && want == nil:
		return verifyErr(0, "result", ProblemNoResult,
			fmt.Sprintf("result: missing, but after %d events seat %d has won", events, got.Winner),
			"Winner", got.Winner, "Events", events)
	case got != nil && (got.Winner != want.Winner || !slices.Equal(got.Scores, want.Scores) || !slices.Equal(got.Places, want.Places)):
		return verifyErr(0, "result", ProblemResult,
			fmt.Sprintf("result: the record says winner %d, scores %v, places %v; the events give winner %d, scores %v, places %v",
				want.Winner, want.Scores, want.Places, got.Winner, got.Scores, got.Places),
			"Winner", want.Winner, "Scores", fmt.Sprint(want.Scores), "ActualWinner", got.Winner, "ActualScores", fmt.Sprint(got.Scores))
	}
	return nil
}

// applyRecorded applies a recorded event: an entered throw with its
// recorded pieces (none recorded is refused as a wrong count), any other
// as the seed throws it.
func applyRecorded(m *Match, want eventFields) (Event, error) {
	if !want.Entered {
		return m.Apply(*want.Seat, *want.Action)
	}
	var f Faces
	if want.Faces != nil {
		f = *want.Faces
	}
	return m.Enter(*want.Seat, *want.Action, f)
}

// checkEvent applies event n as recorded and checks each of its fields.
func checkEvent(m *Match, format, n int, want eventFields) error {
	bad := func(field, problem string, args []any, format string, fargs ...any) error {
		return verifyErr(n, field, problem, fmt.Sprintf("event %d: %s: %s", n, field, fmt.Sprintf(format, fargs...)), args...)
	}
	for _, f := range []struct {
		name    string
		missing bool
	}{{"seat", want.Seat == nil}, {"action", want.Action == nil}, {"turn", want.Turn == nil}, {"roll", want.Roll == nil}, {"at", format >= 2 && want.At == nil}} {
		if f.missing {
			return bad(f.name, ProblemMissing, nil, "missing")
		}
	}
	got, err := applyRecorded(m, want)
	if err != nil {
		e := verifyErr(n, "action", ProblemRefused, fmt.Sprintf("event %d: %v", n, err), "Seat", *want.Seat, "Action", *want.Action)
		var ae *ActionError
		if errors.As(err, &ae) {
			e.Args["Code"] = string(ae.Code)
		}
		return e.wrap(err)
	}
	switch {
	case *want.Turn != got.Turn:
		return bad("turn", ProblemTurn, []any{"Recorded", *want.Turn, "Actual", got.Turn}, "recorded %d, but it is the seat's turn %d", *want.Turn, got.Turn)
	case *want.Roll != got.Roll:
		return bad("roll", ProblemRoll, []any{"Recorded", *want.Roll, "Actual", got.Roll}, "recorded %d, but it is roll %d of the turn", *want.Roll, got.Roll)
	case got.Faces.Len() > 0 && want.Faces == nil:
		return bad("faces", ProblemNoFaces, []any{"Action", got.Action, "Seed", got.Faces}, "missing: a %s records its dice (the seed gives [%s])", got.Action, got.Faces)
	case got.Faces.Len() == 0 && want.Faces != nil:
		return bad("faces", ProblemExtraFaces, []any{"Action", got.Action, "Recorded", *want.Faces}, "a %s throws no dice, but the record has [%s]", got.Action, want.Faces)
	case want.Faces != nil && *want.Faces != got.Faces:
		return bad("faces", ProblemFaces, []any{"Recorded", *want.Faces, "Seed", got.Faces}, "recorded [%s], but the seed gives [%s]", want.Faces, got.Faces)
	case got.Action.Kind == DiceKind && want.Points == nil && format == 0 && got.Points == 0:
		// The earliest records left out a Hog throw's points when they
		// were 0.
		return nil
	case got.Action.Kind == DiceKind && want.Points == nil:
		return bad("points", ProblemNoPoints, []any{"Actual", got.Points}, "missing: a Hog throw records its score (%d)", got.Points)
	case got.Action.Kind != DiceKind && want.Points != nil:
		return bad("points", ProblemExtraPts, []any{"Recorded", *want.Points}, "only a Hog throw has points, but the record has %d", *want.Points)
	case want.Points != nil && *want.Points != got.Points:
		return bad("points", ProblemPoints, []any{"Recorded", *want.Points, "Faces", got.Faces, "Actual", got.Points}, "recorded %d, but [%s] scores %d", *want.Points, got.Faces, got.Points)
	}
	return nil
}
