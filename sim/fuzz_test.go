package sim

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"runtime"
	"testing"
)

// FuzzMatch plays random action sequences on random variants: no panic,
// scores never drop except by a Two-Dice Pig wipe, a refused action changes
// nothing, and replaying the log (also through JSON) gives the same state.
func FuzzMatch(f *testing.F) {
	f.Add(uint8(0), uint8(2), false, []byte{0, 1, 0, 0, 1, 2, 3, 4, 5})
	f.Add(uint8(1), uint8(3), true, []byte{0, 0, 0, 1, 0, 0, 7, 8, 9, 1})
	f.Add(uint8(3), uint8(4), false, []byte{9, 10, 11, 12, 13, 3})
	f.Fuzz(checkScript)
}

// TestRandomScripts runs the fuzz property on a few thousand random scripts
// in every ordinary test run.
func TestRandomScripts(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		script := make([]byte, r.IntN(400))
		for i := range script {
			script[i] = byte(r.Uint32())
		}
		checkScript(t, uint8(r.Uint32()), uint8(r.Uint32()), r.IntN(2) == 0, script)
	}
}

func checkScript(t *testing.T, game, seats uint8, equal bool, script []byte) {
	v := Standard(Game(game % 4))
	v.Seats = 2 + int(seats%3)
	v.EqualTurns = equal
	v.Target = 20 + int(seats)%60
	if game&8 != 0 {
		v.Deadline = Duration(1e9)
	}
	var seed Seed
	copy(seed[:], script)
	m, err := NewMatch(v, seed)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range script {
		before := m.State()
		seat := int(b>>4) % (v.Seats + 1) // sometimes a seat that is not there
		var a Action
		switch b & 15 {
		case 0, 1, 2, 3:
			a = Roll
		case 4, 5:
			a = Hold
		case 6:
			a = Resign
		case 7:
			a = Timeout
		default:
			a = Dice(int(b&15) - 7)
		}
		if b&15 < 6 && before.Seat >= 0 && b&64 == 0 {
			seat = before.Seat // mostly play in turn, so matches get somewhere
		}
		e, err := m.Apply(seat, a)
		after := m.State()
		if err != nil {
			var ae *ActionError
			if !errors.As(err, &ae) {
				t.Fatalf("%v: error %v is not an *ActionError", a, err)
			}
			if after != before {
				t.Fatalf("refused %v by seat %d changed the state", a, seat)
			}
			continue
		}
		for x := range v.Seats {
			if after.Scores[x] < before.Scores[x] && !(v.Game == TwoDice && x == seat && e.Faces.Ones() == 2) {
				t.Fatalf("seat %d's score dropped from %d to %d on %v", x, before.Scores[x], after.Scores[x], e)
			}
		}
	}
	rec := m.Record()
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	var back Record
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	got, err := Verify(back)
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	if got.State != m.State() {
		t.Fatalf("replay gave %+v, want %+v", got.State, m.State())
	}
}

// FuzzRecordAllocation: verifying any record, of a match or of Skunk,
// allocates at most a few MB beyond a small multiple of its own size: a
// number a record claims (participants, seats, target, dice, rounds) is
// bounded before anything is made for it.
func FuzzRecordAllocation(f *testing.F) {
	f.Add([]byte(`{"format":2,"skunk":{"participants":3000000,"rounds":5},"seed":"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f","commitment":"630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd","events":[],"scores":[]}`))
	f.Add([]byte(`{"format":2,"skunk":{"participants":3000000000,"rounds":26},"seed":"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f","commitment":"630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd","events":[],"scores":[]}`))
	f.Add([]byte(`{"variant":{"game":"hog","target":1000,"seats":10,"max_dice":30},"seed":"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f","commitment":"630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd","events":[]}`))
	f.Add([]byte(`{"variant":{"game":"pass-the-pigs","target":100,"seats":2},"seed":"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f","commitment":"630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd","events":[{"seat":0,"action":"roll","turn":0,"roll":0,"faces":[2,4]}]}`))
	f.Add([]byte(`{"variant":{"game":"pig","target":100,"seats":1000000}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if IsSkunkRecord(data) {
			VerifySkunkJSON(data)
		} else {
			VerifyJSON(data)
		}
		runtime.ReadMemStats(&after)
		if got, most := after.TotalAlloc-before.TotalAlloc, uint64(4<<20+64*len(data)); got > most {
			t.Errorf("verifying %d bytes allocated %d bytes (at most %d): %.200s", len(data), got, most, data)
		}
	})
}
