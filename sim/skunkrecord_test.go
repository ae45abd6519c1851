package sim

import (
	"encoding/json"
	"errors"
	"testing"
	"time"
)

// skunkGame plays a game of Skunk for four: participant p sits once the
// round total reaches 6·(p+1).
func skunkGame(t *testing.T) *Skunk {
	t.Helper()
	g, err := NewSkunk(exampleSeed(), 4, DefaultSkunkRounds)
	if err != nil {
		t.Fatal(err)
	}
	for guard := 0; !g.Over() && guard < 1000; guard++ {
		for p := range 4 {
			if g.Standing(p) && g.RoundTotal() >= 6*(p+1) {
				if _, err := g.Sit(p); err != nil {
					t.Fatal(err)
				}
			}
		}
		if !g.Over() {
			g.Roll()
		}
	}
	return g
}

func stampedSkunk(g *Skunk) SkunkRecord {
	r := g.Record()
	t0 := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	for i := range r.Events {
		r.Events[i].At = t0.Add(time.Duration(i) * time.Second)
	}
	return r
}

// TestSkunkRecordVerifies: a signed record of a game of Skunk checks out
// (its rolls, sits and scores, and the signature); changing a sit, a die,
// a banked total, a score or cutting an event is refused on the dice or
// the rules, and a change the rules allow (a sit's time) is refused by the
// signature.
func TestSkunkRecordVerifies(t *testing.T) {
	g := skunkGame(t)
	rec, err := stampedSkunk(g).Sign(testKey)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.MarshalIndent(rec, "", "  ")
	if !IsSkunkRecord(b) {
		t.Fatal("a Skunk record is not told from a match's")
	}
	got, err := VerifySkunkJSON(b)
	if err != nil || !got.Signature.Valid() || !got.Over || got.Rolls == 0 || got.Sits == 0 {
		t.Fatalf("the record: %v, %+v", err, got)
	}
	sit := -1
	for i, e := range rec.Events {
		if e.Action == Hold && e.Banked > 0 {
			sit = i
			break
		}
	}
	roll := 0
	for rec.Events[roll].Action != Roll {
		roll++
	}
	for _, c := range []struct {
		name   string
		change func(r *SkunkRecord)
		want   string
	}{
		{"a die", func(r *SkunkRecord) { f := r.Events[roll].Faces; f.d[0] = f.d[0]%6 + 1; r.Events[roll].Faces = f }, ProblemFaces},
		{"banked", func(r *SkunkRecord) { r.Events[sit].Banked += 5 }, ProblemPoints},
		{"a score", func(r *SkunkRecord) { r.Scores[0]++ }, ProblemResult},
		{"cut short", func(r *SkunkRecord) { r.Events = r.Events[:len(r.Events)-1] }, ProblemResult},
		{"commitment", func(r *SkunkRecord) { r.Commitment = Seed{}.Commitment() }, ProblemCommitment},
	} {
		r := rec
		r.Events = append([]SkunkEvent(nil), rec.Events...)
		r.Scores = append([]int(nil), rec.Scores...)
		c.change(&r)
		data, _ := json.Marshal(r)
		_, err := VerifySkunkJSON(data)
		var ve *VerifyError
		if !errors.As(err, &ve) || ve.Problem != c.want {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
	}
	// A change the rules allow (another time for a sit): dice and rules
	// check; the signature does not.
	forged := rec
	forged.Events = append([]SkunkEvent(nil), rec.Events...)
	forged.Events[sit].At = forged.Events[sit].At.Add(time.Second)
	data, _ := json.Marshal(forged)
	if v, err := VerifySkunkJSON(data); err != nil || !v.Signature.Signed || !errors.Is(v.Signature.Err, ErrSignatureMismatch) {
		t.Errorf("another time: %v, %+v", err, v.Signature)
	}
}
