package sim

import (
	"fmt"
	"slices"
)

// Result is how a match ended.
type Result struct {
	Winner int   `json:"winner"`
	Scores []int `json:"scores"`
	Places []int `json:"places"`
}

// Result returns the result, or nil while the match goes on.
func (s *State) Result() *Result {
	if !s.Over {
		return nil
	}
	places := s.Places()
	return &Result{
		Winner: s.Winner,
		Scores: slices.Clone(s.Scores[:s.Variant.Seats]),
		Places: slices.Clone(places[:s.Variant.Seats]),
	}
}

// Record is a match as it is published and checked: its format, variant,
// seed, the seed's commitment, the log (with each event's time) and the
// result, and the server's signature over all of it. `pigclass verify`
// reads it as JSON; sim/dice.md documents the format.
type Record struct {
	// Format is RecordFormat for the records this release writes; 0 (no
	// field) for the earlier ones, which carry no times or signature.
	Format     int     `json:"format,omitempty"`
	Variant    Variant `json:"variant"`
	Seed       Seed    `json:"seed"`
	Commitment string  `json:"commitment,omitempty"`
	Events     []Event `json:"events"`
	Result     *Result `json:"result,omitempty"`
	// Mystery names the strength of each mystery bot of the match, which
	// the seed draws (MysteryStrength): verify checks it.
	Mystery   []MysterySeat `json:"mystery,omitempty"`
	Signature *Signature    `json:"signature,omitempty"`
}

// MysterySeat is the strength the mystery bot at Seat played at (one of
// MysteryStrengths).
type MysterySeat struct {
	Seat     int    `json:"seat"`
	Strength string `json:"strength"`
}

// checkMystery is the error of a recorded mystery bot's strength that the
// seed does not draw for its seat, or nil.
func checkMystery(v Variant, seed *Seed, seats []MysterySeat) error {
	for _, m := range seats {
		want := ""
		if m.Seat >= 0 && m.Seat < v.Seats && !v.Game.ChoosesDice() {
			want = MysteryStrength(v.Game, seed, m.Seat)
		}
		if m.Strength != want || want == "" {
			return verifyErr(0, "mystery", ProblemMystery,
				fmt.Sprintf("mystery: the mystery bot of seat %d is recorded at %q, but the seed draws %q for that seat", m.Seat, m.Strength, want),
				"Seat", m.Seat, "Recorded", m.Strength, "Seed", want)
		}
	}
	return nil
}

// Record returns the match as a record (with the seed: publish it only once
// the match is over).
func (m *Match) Record() Record {
	return Record{
		Variant:    m.state.Variant,
		Seed:       m.seed,
		Commitment: m.seed.Commitment(),
		Events:     m.Events(),
		Result:     m.state.Result(),
	}
}

// Verified is what Verify found in a record that checks out.
type Verified struct {
	Events int
	Rolls  int // the throws of the seed
	// Entered are the throws entered by hand at a table: checked as the
	// game's pieces can land and by the sums they make, not by the seed.
	Entered int
	State   State
	// Format is the record's format (0 for the earliest, without a format
	// field).
	Format int
	// Signature is what the record's signature says, checked whatever the
	// dice and the moves gave.
	Signature SignatureCheck
}

// Verify replays a record from its seed: the commitment must be the seed's,
// every event must be allowed with the counters and dice the seed gives, and
// the recorded result (if any) must be the one the events lead to. The error
// names the first thing that does not check out.
func Verify(r Record) (Verified, error) {
	if r.Commitment != "" && r.Commitment != r.Seed.Commitment() {
		return Verified{}, fmt.Errorf("commitment %s is not SHA-256 of the seed (%s)", r.Commitment, r.Seed.Commitment())
	}
	if err := checkMystery(r.Variant, &r.Seed, r.Mystery); err != nil {
		return Verified{}, err
	}
	m, err := Replay(r.Variant, r.Seed, r.Events)
	if err != nil {
		return Verified{}, err
	}
	v := Verified{Events: len(r.Events), State: m.State()}
	for _, e := range r.Events {
		if e.Faces.Len() > 0 {
			v.Rolls++
		}
	}
	if r.Result != nil {
		got := v.State.Result()
		if got == nil {
			return v, fmt.Errorf("result: the record says seat %d won, but after %d events the match is not over", r.Result.Winner, len(r.Events))
		}
		if got.Winner != r.Result.Winner || !slices.Equal(got.Scores, r.Result.Scores) || !slices.Equal(got.Places, r.Result.Places) {
			return v, fmt.Errorf("result: the record says winner %d, scores %v, places %v; the events give winner %d, scores %v, places %v",
				r.Result.Winner, r.Result.Scores, r.Result.Places, got.Winner, got.Scores, got.Places)
		}
	}
	return v, nil
}
