package sim

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// SkunkRecord is a game of whole-class Skunk as it is published and
// checked, like a match's Record: its seed (published when the game is no
// longer played) and commitment, the number of participants and rounds,
// every roll and sit with its time, the final scores, and the server's
// signature over all of it. sim/dice.md documents the format.
type SkunkRecord struct {
	Format     int          `json:"format"`
	Skunk      SkunkRules   `json:"skunk"`
	Seed       Seed         `json:"seed"`
	Commitment string       `json:"commitment"`
	Events     []SkunkEvent `json:"events"`
	Scores     []int        `json:"scores"`
	Signature  *Signature   `json:"signature,omitempty"`
}

// SkunkRules are a game of Skunk's participants and rounds.
type SkunkRules struct {
	Participants int `json:"participants"`
	Rounds       int `json:"rounds"`
}

// Sign returns r in the current format, signed with key. Every event must
// have its time.
func (r SkunkRecord) Sign(key ed25519.PrivateKey) (SkunkRecord, error) {
	r.Format, r.Signature = RecordFormat, nil
	sig, err := signRecord(r, len(r.Events), func(i int) time.Time { return r.Events[i].At }, key)
	r.Signature = sig
	return r, err
}

// IsSkunkRecord reports whether record data is a game of Skunk's (it has
// a "skunk" member) rather than a match's.
func IsSkunkRecord(data []byte) bool {
	var probe map[string]json.RawMessage
	if json.Unmarshal(data, &probe) != nil {
		return false
	}
	_, ok := probe["skunk"]
	return ok
}

// VerifiedSkunk is what VerifySkunkJSON found.
type VerifiedSkunk struct {
	Commitment  string
	Rolls, Sits int
	Scores      []int
	Over        bool
	Signature   SignatureCheck
}

// VerifySkunkJSON checks a game of Skunk's record: the commitment is the
// seed's, every roll's dice are the ones the seed gives, every sit is of a
// participant standing then and banks the round total, and the scores are
// the ones the events lead to; and, apart, the signature. The error names
// the first thing that does not check out (a VerifyError, as for matches).
func VerifySkunkJSON(data []byte) (VerifiedSkunk, error) {
	var r SkunkRecord
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return VerifiedSkunk{}, notRecord("not a record of Skunk", err)
	}
	v := VerifiedSkunk{Commitment: r.Commitment, Signature: checkSignature(data, r.Signature)}
	if r.Format != RecordFormat {
		return v, verifyErr(0, "format", ProblemFormat, fmt.Sprintf("format: %d is not a record format this pigclass reads (%d)", r.Format, RecordFormat),
			"Recorded", r.Format, "Known", RecordFormat)
	}
	if err := checkCommitment(r.Commitment, r.Seed); err != nil {
		return v, err
	}
	g, err := NewSkunk(r.Seed, r.Skunk.Participants, r.Skunk.Rounds)
	if err != nil {
		return v, badRules("skunk", err)
	}
	for i, want := range r.Events {
		n := i + 1
		got, err := g.Play(want.Action, want.Participant)
		if err != nil {
			return v, verifyErr(n, "action", ProblemRefused, fmt.Sprintf("event %d: %v", n, err), "Seat", want.Participant+1, "Action", want.Action).wrap(err)
		}
		bad := func(field, problem string, args []any, format string, fargs ...any) error {
			return verifyErr(n, field, problem, fmt.Sprintf("event %d: %s: %s", n, field, fmt.Sprintf(format, fargs...)), args...)
		}
		switch {
		case want.Round != got.Round:
			return v, bad("round", ProblemTurn, []any{"Recorded", want.Round, "Actual", got.Round}, "recorded %d, but it is round %d", want.Round, got.Round)
		case want.Roll != got.Roll:
			return v, bad("roll", ProblemRoll, []any{"Recorded", want.Roll, "Actual", got.Roll}, "recorded %d, but it is roll %d of the round", want.Roll, got.Roll)
		case want.Faces != got.Faces:
			return v, bad("faces", ProblemFaces, []any{"Recorded", want.Faces, "Seed", got.Faces}, "recorded [%s], but the seed gives [%s]", want.Faces, got.Faces)
		case want.Banked != got.Banked:
			return v, bad("banked", ProblemPoints, []any{"Recorded", want.Banked, "Faces", "", "Actual", got.Banked}, "recorded %d, but the round total was %d", want.Banked, got.Banked)
		case want.At.IsZero():
			return v, bad("at", ProblemMissing, nil, "missing")
		}
		if got.Action == Roll {
			v.Rolls++
		} else {
			v.Sits++
		}
	}
	v.Scores, v.Over = g.Scores(), g.Over()
	if !slices.Equal(v.Scores, r.Scores) {
		return v, verifyErr(0, "scores", ProblemResult,
			fmt.Sprintf("scores: the record says %v; the events give %v", r.Scores, v.Scores),
			"Winner", "", "Scores", fmt.Sprint(r.Scores), "ActualWinner", "", "ActualScores", fmt.Sprint(v.Scores))
	}
	return v, nil
}

// Record returns the game as a record (with the seed: publish it only once
// the game is no longer played), without times or signature.
func (g *Skunk) Record() SkunkRecord {
	return SkunkRecord{Format: RecordFormat, Skunk: SkunkRules{Participants: len(g.scores), Rounds: g.rounds},
		Seed: g.seed, Commitment: g.seed.Commitment(), Events: g.Events(), Scores: g.Scores()}
}
