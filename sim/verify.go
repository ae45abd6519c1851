package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// MarshalJSON writes an event with exactly the fields it has: faces for a
// roll or a throw, points for a Hog throw (0 included), neither otherwise.
func (e Event) MarshalJSON() ([]byte, error) {
	type plain struct {
		Seat   int    `json:"seat"`
		Action Action `json:"action"`
		Turn   int    `json:"turn"`
		Roll   int    `json:"roll"`
		Faces  *Faces `json:"faces,omitempty"`
		Points *int   `json:"points,omitempty"`
	}
	p := plain{Seat: e.Seat, Action: e.Action, Turn: e.Turn, Roll: e.Roll}
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
	Variant    *Variant       `json:"variant"`
	Seed       *Seed          `json:"seed"`
	Commitment *string        `json:"commitment"`
	Events     *[]eventFields `json:"events"`
	Result     *Result        `json:"result"`
}

type eventFields struct {
	Seat   *int    `json:"seat"`
	Action *Action `json:"action"`
	Turn   *int    `json:"turn"`
	Roll   *int    `json:"roll"`
	Faces  *Faces  `json:"faces"`
	Points *int    `json:"points"`
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
		return Verified{}, fmt.Errorf("not a match record: %w", err)
	}
	switch {
	case r.Variant == nil:
		return Verified{}, errors.New("variant: missing (the game and its rules)")
	case r.Seed == nil:
		return Verified{}, errors.New("seed: missing (published when the match ends)")
	case r.Commitment == nil:
		return Verified{}, errors.New("commitment: missing (the seed's SHA-256, shown when the match started)")
	case r.Events == nil:
		return Verified{}, errors.New("events: missing")
	}
	if *r.Commitment != r.Seed.Commitment() {
		return Verified{}, fmt.Errorf("commitment %s is not SHA-256 of the seed (%s)", *r.Commitment, r.Seed.Commitment())
	}
	m, err := NewMatch(*r.Variant, *r.Seed)
	if err != nil {
		return Verified{}, err
	}
	v := Verified{Events: len(*r.Events)}
	for i, want := range *r.Events {
		if err := checkEvent(m, i+1, want); err != nil {
			return v, err
		}
		if want.Faces != nil {
			v.Rolls++
		}
	}
	v.State = m.State()
	got := v.State.Result()
	switch {
	case got == nil && r.Result != nil:
		return v, fmt.Errorf("result: the record says seat %d won, but after %d events the match is not over", r.Result.Winner, v.Events)
	case got != nil && r.Result == nil:
		return v, fmt.Errorf("result: missing, but after %d events seat %d has won", v.Events, got.Winner)
	case got != nil && (got.Winner != r.Result.Winner || !slices.Equal(got.Scores, r.Result.Scores) || !slices.Equal(got.Places, r.Result.Places)):
		return v, fmt.Errorf("result: the record says winner %d, scores %v, places %v; the events give winner %d, scores %v, places %v",
			r.Result.Winner, r.Result.Scores, r.Result.Places, got.Winner, got.Scores, got.Places)
	}
	return v, nil
}

// checkEvent applies event n as recorded and checks each of its fields.
func checkEvent(m *Match, n int, want eventFields) error {
	bad := func(field, format string, args ...any) error {
		return fmt.Errorf("event %d: %s: %s", n, field, fmt.Sprintf(format, args...))
	}
	for _, f := range []struct {
		name    string
		missing bool
	}{{"seat", want.Seat == nil}, {"action", want.Action == nil}, {"turn", want.Turn == nil}, {"roll", want.Roll == nil}} {
		if f.missing {
			return bad(f.name, "missing")
		}
	}
	got, err := m.Apply(*want.Seat, *want.Action)
	if err != nil {
		return fmt.Errorf("event %d: %w", n, err)
	}
	switch {
	case *want.Turn != got.Turn:
		return bad("turn", "recorded %d, but it is the seat's turn %d", *want.Turn, got.Turn)
	case *want.Roll != got.Roll:
		return bad("roll", "recorded %d, but it is roll %d of the turn", *want.Roll, got.Roll)
	case got.Faces.Len() > 0 && want.Faces == nil:
		return bad("faces", "missing: a %s records its dice (the seed gives [%s])", got.Action, got.Faces)
	case got.Faces.Len() == 0 && want.Faces != nil:
		return bad("faces", "a %s throws no dice, but the record has [%s]", got.Action, want.Faces)
	case want.Faces != nil && *want.Faces != got.Faces:
		return bad("faces", "recorded [%s], but the seed gives [%s]", want.Faces, got.Faces)
	case got.Action.Kind == DiceKind && want.Points == nil:
		return bad("points", "missing: a Hog throw records its score (%d)", got.Points)
	case got.Action.Kind != DiceKind && want.Points != nil:
		return bad("points", "only a Hog throw has points, but the record has %d", *want.Points)
	case want.Points != nil && *want.Points != got.Points:
		return bad("points", "recorded %d, but [%s] scores %d", *want.Points, got.Faces, got.Points)
	}
	return nil
}
