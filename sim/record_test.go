package sim

import (
	"encoding/json"
	"strings"
	"testing"
)

// botMatch plays a whole match of v between hold:20 bots with the seed dice.
func botMatch(t testing.TB, v Variant, seed Seed) *Match {
	t.Helper()
	m, err := NewMatch(v, seed)
	if err != nil {
		t.Fatal(err)
	}
	bots := []Strategy{HoldAt(20), KeepPace{}, HoldAt(15), HoldAt(25)}
	if v.Game == Hog {
		bots = []Strategy{ThrowDice(5), ThrowDice(6), ThrowDice(3), ThrowDice(8)}
	}
	for !m.State().Over {
		s := m.State()
		if _, err := m.Apply(s.Seat, bots[s.Seat%len(bots)].Decide(s.Position())); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

func TestVerifyAcceptsEveryGame(t *testing.T) {
	for _, g := range Games {
		for seats := MinSeats; seats <= MaxSeats; seats++ {
			v := Standard(g)
			v.Seats = seats
			m := botMatch(t, v, testSeeds.Seed())
			b, _ := json.Marshal(m.Record())
			var r Record
			if err := json.Unmarshal(b, &r); err != nil {
				t.Fatal(err)
			}
			got, err := Verify(r)
			if err != nil {
				t.Fatalf("%v: %v", v, err)
			}
			if got.Events != m.Len() || !got.State.Over {
				t.Errorf("%v: verified %d events, over %v", v, got.Events, got.State.Over)
			}
		}
	}
}

func TestVerifyNamesTheFirstBadEvent(t *testing.T) {
	m := botMatch(t, Standard(Pig), exampleSeed())
	good := m.Record()
	firstRoll := 0
	for good.Events[firstRoll].Faces.Len() == 0 {
		firstRoll++
	}
	tamper := func(edit func(r *Record)) error {
		r := good
		r.Events = append([]Event(nil), good.Events...)
		r.Result = &Result{Winner: good.Result.Winner, Scores: good.Result.Scores, Places: good.Result.Places}
		edit(&r)
		_, err := Verify(r)
		return err
	}
	cases := []struct {
		name string
		edit func(r *Record)
		want string
	}{
		{"changed die", func(r *Record) {
			f := r.Events[firstRoll].Faces
			f.d[0] = f.d[0]%6 + 1
			r.Events[firstRoll].Faces = f
		}, "event 1: seat 1 cannot roll: recorded dice"},
		{"other seed", func(r *Record) { r.Seed[0] ^= 1; r.Commitment = "" }, "event "},
		{"wrong commitment", func(r *Record) { r.Commitment = strings.Repeat("0", 64) }, "commitment"},
		{"wrong winner", func(r *Record) { r.Result.Winner = 1 - r.Result.Winner }, "result:"},
		{"event out of turn", func(r *Record) { r.Events[3].Seat = 1 - r.Events[3].Seat }, "event 4:"},
		{"cut short", func(r *Record) { r.Events = r.Events[:len(r.Events)-1] }, "not over"},
	}
	if err := tamper(func(*Record) {}); err != nil {
		t.Fatalf("untouched record: %v", err)
	}
	for _, c := range cases {
		err := tamper(c.edit)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
	}
}

// TestSameSeedSameDice: two players given one seed meet the same dice in
// the same turn and roll, however they played before (duplicate play).
func TestSameSeedSameDice(t *testing.T) {
	seed := exampleSeed()
	a := botMatch(t, Standard(Pig), seed)
	m, _ := NewMatch(Standard(Pig), seed)
	// A different player: holds at 10.
	for !m.State().Over {
		s := m.State()
		m.Apply(s.Seat, HoldAt(10).Decide(s.Position()))
	}
	faces := map[[3]int]Faces{}
	for _, e := range a.Events() {
		faces[[3]int{e.Seat, e.Turn, e.Roll}] = e.Faces
	}
	shared := 0
	for _, e := range m.Events() {
		if f, ok := faces[[3]int{e.Seat, e.Turn, e.Roll}]; ok && e.Faces.Len() > 0 {
			shared++
			if f != e.Faces {
				t.Fatalf("seat %d turn %d roll %d: %s and %s", e.Seat, e.Turn, e.Roll, f, e.Faces)
			}
		}
	}
	if shared < 10 {
		t.Errorf("only %d rolls in common", shared)
	}
}

func BenchmarkMatchAction(b *testing.B) {
	seed := exampleSeed()
	m, _ := NewMatch(Standard(Pig), seed)
	b.ReportAllocs()
	for b.Loop() {
		s := m.State()
		if s.Over {
			m, _ = NewMatch(Standard(Pig), seed)
			continue
		}
		m.Apply(s.Seat, HoldAt(20).Decide(s.Position()))
	}
}

// BenchmarkRollHold is the hot path of the engine: roll and hold on a State
// with given dice. It must not allocate.
func BenchmarkRollHold(b *testing.B) {
	s := NewState(Standard(Pig), 0)
	var d FastDice
	var f Faces
	b.ReportAllocs()
	for b.Loop() {
		if s.Over {
			s = NewState(Standard(Pig), 0)
		}
		a := HoldAt(20).Decide(s.Position())
		if a == Roll {
			d.Throw(&f, 1)
		}
		s.Do(s.Seat, a, &f)
	}
}

func TestRollHoldDoesNotAllocate(t *testing.T) {
	s := NewState(Standard(TwoDice), 0)
	var d FastDice
	var f Faces
	allocs := testing.AllocsPerRun(1000, func() {
		if s.Over {
			s = NewState(Standard(TwoDice), 0)
		}
		a := HoldAt(20).Decide(s.Position())
		if err := s.Check(s.Seat, a); err != nil {
			t.Fatal(err)
		}
		d.Throw(&f, 2)
		s.Do(s.Seat, a, &f)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per roll or hold", allocs)
	}
}
