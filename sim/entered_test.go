package sim

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// faces is FacesOf for a test: the marks, or the test stops.
func faces(t *testing.T, marks ...int) Faces {
	t.Helper()
	f, err := FacesOf(marks...)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestEnterChecksThePieces (issue 45): a throw entered by hand must be
// the pieces the action throws, each showing a mark its piece has (or
// every pig the mishap's); a refusal changes nothing.
func TestEnterChecksThePieces(t *testing.T) {
	hog := Standard(Hog)
	for _, c := range []struct {
		v      Variant
		a      Action
		marks  []int
		ok     bool
		reason string
	}{
		{Standard(Pig), Roll, []int{4}, true, ""},
		{Standard(Pig), Roll, []int{7}, false, "shows 1 to 6"},
		{Standard(Pig), Roll, []int{3, 4}, false, "2 pieces entered, but the throw has 1"},
		{Standard(Pig), Hold, nil, false, "only a throw"},
		{Standard(TwoDice), Roll, []int{6, 1}, true, ""},
		{Standard(TwoDice), Roll, []int{6}, false, "1 pieces entered, but the throw has 2"},
		{hog, Dice(3), []int{2, 5, 6}, true, ""},
		{hog, Dice(3), []int{2, 5}, false, "the throw has 3"},
		{Standard(PassPigs), Roll, []int{1, 6}, true, ""},
		{Standard(PassPigs), Roll, []int{7, 7}, true, ""},
		{Standard(PassPigs), Roll, []int{7, 1}, false, "or every piece 7"},
	} {
		m, err := NewMatch(c.v, Seed{})
		if err != nil {
			t.Fatal(err)
		}
		seat := m.State().Seat
		e, err := m.Enter(seat, c.a, faces(t, c.marks...))
		if c.ok != (err == nil) || err != nil && !strings.Contains(err.Error(), c.reason) {
			t.Errorf("%s %s %v: %v, want ok %v (%q)", c.v.Game, c.a, c.marks, err, c.ok, c.reason)
		}
		if !c.ok && (m.Len() != 0 || m.State() != NewState(c.v, seat)) {
			t.Errorf("%s %s %v: a refused entry changed the match", c.v.Game, c.a, c.marks)
		}
		if c.ok && (!e.Entered || e.Faces != faces(t, c.marks...)) {
			t.Errorf("%s %s %v: the event %+v", c.v.Game, c.a, c.marks, e)
		}
	}
	m, _ := NewMatch(hog, Seed{})
	e, _ := m.Enter(m.State().Seat, Dice(3), faces(t, 2, 5, 6))
	if e.Points != 13 || m.State().Scores[e.Seat] != 13 {
		t.Errorf("Hog's throw of 2 5 6 scores %d (banked %d), want 13", e.Points, m.State().Scores[e.Seat])
	}
}

// TestEnteredRecordsVerify (issue 45): a match whose human seat entered
// its throws and whose bot threw from the seed replays to the same
// position, and its record verifies: the entered pieces as the game's
// pieces can land and by the sums they make, the bot's against the seed.
func TestEnteredRecordsVerify(t *testing.T) {
	v := Standard(Pig)
	v.Target = 20
	seed := Seed{7}
	m, err := NewMatch(v, seed)
	if err != nil {
		t.Fatal(err)
	}
	human := 0
	bot := HoldAt(10)
	entered := []int{6, 5, 4, 6, 3, 2, 6, 6, 5, 4, 6, 6}
	for i := 0; !m.State().Over && i < 200; i++ {
		st := m.State()
		if st.Seat != human {
			if _, err := m.Apply(st.Seat, bot.Decide(st.Position())); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if st.TurnTotal >= 10 {
			m.Apply(human, Hold)
			continue
		}
		face := entered[0]
		entered = append(entered[1:], face)
		if _, err := m.Enter(human, Roll, faces(t, face)); err != nil {
			t.Fatal(err)
		}
	}
	if !m.State().Over {
		t.Fatal("the match did not end")
	}
	again, err := Replay(v, seed, m.Events())
	if err != nil || again.State() != m.State() {
		t.Fatalf("replayed: %v; %+v, want %+v", err, again.State(), m.State())
	}
	rec := m.Record()
	data, _ := json.Marshal(rec)
	if !strings.Contains(string(data), `"entered":true`) {
		t.Fatalf("the record does not say its throws were entered: %s", data)
	}
	got, err := VerifyJSON(data)
	if err != nil {
		t.Fatalf("an entered match's record: %v", err)
	}
	byHand, seeded := 0, 0
	for _, e := range rec.Events {
		switch {
		case e.Entered:
			byHand++
		case e.Faces.Len() > 0:
			seeded++
		}
	}
	if got.Entered != byHand || got.Rolls != seeded || byHand == 0 || seeded == 0 {
		t.Errorf("verified %d entered and %d seeded throws, want %d and %d", got.Entered, got.Rolls, byHand, seeded)
	}
	// An entered 6 made a 1 no longer adds up: the result is not the
	// events'. A bot's die changed is the seed's to refuse, as ever.
	first := -1
	for i, e := range rec.Events {
		if e.Entered && first < 0 {
			first = i
		}
	}
	bad := rec
	bad.Events = append([]Event(nil), rec.Events...)
	bad.Events[first].Faces = faces(t, 1)
	data, _ = json.Marshal(bad)
	if _, err := VerifyJSON(data); err == nil {
		t.Error("an entered throw changed to a 1 still verifies")
	}
	bad.Events[first].Faces = faces(t, 8)
	data, _ = json.Marshal(bad)
	var ve *VerifyError
	if _, err := VerifyJSON(data); !errors.As(err, &ve) || ve.Event != first+1 || !strings.Contains(err.Error(), "shows 1 to 6") {
		t.Errorf("an entered 8: %v, want event %d refused", err, first+1)
	}
	for i, e := range rec.Events {
		if e.Faces.Len() > 0 && !e.Entered {
			bad.Events = append([]Event(nil), rec.Events...)
			bad.Events[i].Faces = faces(t, e.Faces.At(0)%6+1)
			data, _ = json.Marshal(bad)
			if _, err := VerifyJSON(data); !errors.As(err, &ve) || ve.Problem != ProblemFaces {
				t.Errorf("a bot's die changed: %v, want the seed's refusal", err)
			}
			break
		}
	}
}
