package sim

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
)

// edit changes a record's JSON as a map, the way a person editing the file
// would, and returns it.
func edit(t *testing.T, rec Record, change func(r map[string]any, events []any)) []byte {
	t.Helper()
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	var r map[string]any
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	change(r, r["events"].([]any))
	out, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// firstEvent returns the index of the first event with the action kind.
func firstEvent(t *testing.T, rec Record, kind ActionKind, want func(Event) bool) int {
	t.Helper()
	for i, e := range rec.Events {
		if e.Action.Kind == kind && (want == nil || want(e)) {
			return i
		}
	}
	t.Fatalf("no %v event in the match", kind)
	return -1
}

// TestVerifyEveryField: each field of each event, and of the record, is
// checked; a missing one is an error; the error names the event and the
// field.
func TestVerifyEveryField(t *testing.T) {
	current := func(m *Match) Record {
		r := stamped(m)
		r.Format = RecordFormat
		return r
	}
	pig := current(botMatch(t, Standard(Pig), exampleSeed()))
	hog := current(botMatch(t, Standard(Hog), exampleSeed()))
	for _, rec := range []Record{pig, hog} {
		if _, err := VerifyJSON(edit(t, rec, func(map[string]any, []any) {})); err != nil {
			t.Fatalf("an untouched %v record: %v", rec.Variant, err)
		}
	}
	roll := firstEvent(t, pig, RollKind, nil)
	hold := firstEvent(t, pig, HoldKind, nil)
	scoring := firstEvent(t, hog, DiceKind, func(e Event) bool { return e.Points > 0 })
	bust := firstEvent(t, hog, DiceKind, func(e Event) bool { return e.Points == 0 })
	ev := func(events []any, i int) map[string]any { return events[i].(map[string]any) }
	n := func(i int) string { return "event " + strconv.Itoa(i+1) + ": " }
	cases := []struct {
		name   string
		rec    Record
		change func(r map[string]any, events []any)
		says   string
	}{
		{"faces deleted", pig, func(_ map[string]any, e []any) { delete(ev(e, roll), "faces") }, n(roll) + "faces: missing"},
		{"faces changed", pig, func(_ map[string]any, e []any) {
			ev(e, roll)["faces"] = []int{7 - int(ev(e, roll)["faces"].([]any)[0].(float64))}
		}, n(roll) + "faces: recorded"},
		{"faces added to a hold", pig, func(_ map[string]any, e []any) { ev(e, hold)["faces"] = []int{3} }, n(hold) + "faces: a hold throws no dice"},
		{"hold made a roll", pig, func(_ map[string]any, e []any) { ev(e, hold)["action"] = "roll" }, n(hold) + "faces: missing"},
		{"seat changed", pig, func(_ map[string]any, e []any) { ev(e, roll)["seat"] = 1 - ev(e, roll)["seat"].(float64) }, n(roll)},
		{"seat missing", pig, func(_ map[string]any, e []any) { delete(ev(e, roll), "seat") }, n(roll) + "seat: missing"},
		{"action missing", pig, func(_ map[string]any, e []any) { delete(ev(e, hold), "action") }, n(hold) + "action: missing"},
		{"turn changed", pig, func(_ map[string]any, e []any) { ev(e, hold)["turn"] = 7.0 }, n(hold) + "turn: recorded 7"},
		{"turn missing", pig, func(_ map[string]any, e []any) { delete(ev(e, hold), "turn") }, n(hold) + "turn: missing"},
		{"roll changed", pig, func(_ map[string]any, e []any) { ev(e, roll)["roll"] = 9.0 }, n(roll) + "roll: recorded 9"},
		{"time missing", pig, func(_ map[string]any, e []any) { delete(ev(e, roll), "at") }, n(roll) + "at: missing"},
		{"roll missing", pig, func(_ map[string]any, e []any) { delete(ev(e, roll), "roll") }, n(roll) + "roll: missing"},
		{"points changed", hog, func(_ map[string]any, e []any) { ev(e, scoring)["points"] = 30.0 }, n(scoring) + "points: recorded 30"},
		{"points missing", hog, func(_ map[string]any, e []any) { delete(ev(e, scoring), "points") }, n(scoring) + "points: missing"},
		{"zero points missing", hog, func(_ map[string]any, e []any) { delete(ev(e, bust), "points") }, n(bust) + "points: missing"},
		{"points on a Pig roll", pig, func(_ map[string]any, e []any) { ev(e, roll)["points"] = 4.0 }, n(roll) + "points: only a Hog throw"},
		{"unknown field", pig, func(_ map[string]any, e []any) { ev(e, roll)["bonus"] = 1.0 }, "unknown field"},
		{"result changed", pig, func(r map[string]any, _ []any) {
			r["result"].(map[string]any)["winner"] = 1 - r["result"].(map[string]any)["winner"].(float64)
		}, "result: the record says"},
		{"result missing", pig, func(r map[string]any, _ []any) { delete(r, "result") }, "result: missing"},
		{"commitment missing", pig, func(r map[string]any, _ []any) { delete(r, "commitment") }, "commitment: missing"},
		{"commitment wrong", pig, func(r map[string]any, _ []any) { r["commitment"] = strings.Repeat("0", 64) }, "is not SHA-256 of the seed"},
		{"seed missing", pig, func(r map[string]any, _ []any) { delete(r, "seed") }, "seed: missing"},
		{"variant missing", pig, func(r map[string]any, _ []any) { delete(r, "variant") }, "variant: missing"},
		{"events missing", pig, func(r map[string]any, _ []any) { delete(r, "events") }, "events: missing"},
		{"an event deleted", pig, func(r map[string]any, e []any) { r["events"] = append(append([]any{}, e[:hold]...), e[hold+1:]...) }, "event " + strconv.Itoa(hold+1) + ":"},
	}
	// Each is a VerifyError whose problem a page can say in its language.
	problems := map[string]string{"faces deleted": ProblemNoFaces, "faces changed": ProblemFaces, "faces added to a hold": ProblemExtraFaces,
		"hold made a roll": ProblemNoFaces, "seat changed": ProblemRefused, "seat missing": ProblemMissing, "action missing": ProblemMissing,
		"turn changed": ProblemTurn, "turn missing": ProblemMissing, "roll changed": ProblemRoll, "roll missing": ProblemMissing,
		"points changed": ProblemPoints, "points missing": ProblemNoPoints, "zero points missing": ProblemNoPoints,
		"points on a Pig roll": ProblemExtraPts, "unknown field": ProblemNotRecord, "result changed": ProblemResult,
		"result missing": ProblemNoResult, "commitment missing": ProblemMissing, "commitment wrong": ProblemCommitment,
		"seed missing": ProblemMissing, "variant missing": ProblemMissing, "events missing": ProblemMissing}
	for _, c := range cases {
		_, err := VerifyJSON(edit(t, c.rec, c.change))
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.says)
		}
		var ve *VerifyError
		if !errors.As(err, &ve) {
			t.Errorf("%s: %T is not a VerifyError", c.name, err)
			continue
		}
		if want, ok := problems[c.name]; ok && ve.Problem != want {
			t.Errorf("%s: problem %q, want %q", c.name, ve.Problem, want)
		}
		if strings.HasPrefix(c.says, "event ") && ve.Event == 0 {
			t.Errorf("%s: no event number", c.name)
		}
	}
}
