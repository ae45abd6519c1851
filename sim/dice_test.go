package sim

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
)

func exampleSeed() Seed {
	var s Seed
	for i := range s {
		s[i] = byte(i)
	}
	return s
}

// TestDiceWorkedExample checks the table in dice.md, which an independent
// Python program reproduces.
func TestDiceWorkedExample(t *testing.T) {
	s := exampleSeed()
	if got, want := s.Commitment(), "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"; got != want {
		t.Errorf("commitment %s, want %s", got, want)
	}
	for seats, want := range map[int]int{2: 1, 3: 1, 4: 3} {
		if got := s.FirstSeat(seats); got != want {
			t.Errorf("first seat of %d: %d, want %d", seats, got, want)
		}
	}
	cases := []struct {
		seat, turn, roll, n int
		want                string
	}{
		{0, 0, 0, 1, "2"},
		{0, 0, 1, 1, "1"},
		{0, 0, 2, 1, "4"},
		{1, 0, 0, 1, "4"},
		{1, 3, 2, 2, "5 6"},
		{0, 5, 0, 10, "2 4 4 5 3 1 4 3 4 1"},
		{0, 0, 0, 30, "2 1 6 6 3 4 2 2 4 2 1 5 5 5 2 5 2 6 6 4 2 3 5 1 2 5 3 2 2 3"},
	}
	doc, err := os.ReadFile("dice.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		got := s.RollFaces(c.seat, c.turn, c.roll, c.n)
		if got.String() != c.want {
			t.Errorf("RollFaces(%d, %d, %d, %d) = %s, want %s", c.seat, c.turn, c.roll, c.n, got, c.want)
		}
		if c.n < 30 && !strings.Contains(string(doc), "| "+c.want+" |") {
			t.Errorf("dice.md does not show the faces %s", c.want)
		}
	}
}

// TestDiceAreFair counts a million faces: each must be within 5 standard
// deviations of 1/6, and the chi-square statistic (5 degrees of freedom)
// below 25 (p < 0.0002 for a fair die).
func TestDiceAreFair(t *testing.T) {
	s := exampleSeed()
	var counts [7]int
	n := 0
	for turn := 0; n < 600000; turn++ {
		f := s.RollFaces(turn%4, turn, 0, 30)
		for i := range f.Len() {
			counts[f.At(i)]++
			n++
		}
	}
	chi := 0.0
	e := float64(n) / 6
	for face := 1; face <= 6; face++ {
		d := float64(counts[face]) - e
		chi += d * d / e
		if math.Abs(d) > 5*math.Sqrt(e*5/6) {
			t.Errorf("face %d: %d of %d", face, counts[face], n)
		}
	}
	if chi > 25 {
		t.Errorf("chi-square %.1f over 25: counts %v (seed %s)", chi, counts[1:], s)
	}
}

func TestFirstSeatIsFair(t *testing.T) {
	var counts [3]int
	for i := 0; i < 30000; i++ {
		var s Seed
		binary.BigEndian.PutUint64(s[:], uint64(i))
		counts[s.FirstSeat(3)]++
	}
	for seat, c := range counts {
		if math.Abs(float64(c)-10000) > 5*math.Sqrt(30000*2.0/9) {
			t.Errorf("seat %d moved first %d times of 30000", seat, c)
		}
	}
}

func TestSeedText(t *testing.T) {
	s := NewSeed()
	back, err := ParseSeed(s.String())
	if err != nil || back != s {
		t.Errorf("round trip: %v %v", back, err)
	}
	for _, bad := range []string{"", "abc", strings.Repeat("zz", 32), strings.Repeat("00", 31)} {
		if _, err := ParseSeed(bad); err == nil || !strings.Contains(err.Error(), "64 hex digits") {
			t.Errorf("ParseSeed(%q): %v", bad, err)
		}
	}
}

func TestFastDiceAreFair(t *testing.T) {
	d := NewFastDice(SimKey("fair"), 0)
	var counts [7]int
	const n = 600000
	for range n {
		counts[d.Face()]++
	}
	chi := 0.0
	for face := 1; face <= 6; face++ {
		x := float64(counts[face]) - n/6.0
		chi += x * x / (n / 6.0)
	}
	if chi > 25 {
		t.Errorf("chi-square %.1f: %v", chi, counts[1:])
	}
}

// TestPigsWorkedExample: the pigs of dice.md's worked example, which its
// Python program prints too.
func TestPigsWorkedExample(t *testing.T) {
	var s Seed
	for i := range s {
		s[i] = byte(i)
	}
	doc, err := os.ReadFile("dice.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		seat, turn, roll int
		want             string
	}{
		{0, 0, 0, "2 4"}, {0, 0, 1, "1 4"}, {0, 0, 2, "4 4"}, {1, 0, 0, "1 2"}, {0, 8, 0, "7 7"},
	} {
		got := s.ThrowFor(PassPigs, c.seat, c.turn, c.roll, 2)
		if got.String() != c.want {
			t.Errorf("pigs (%d, %d, %d) = %s, want %s", c.seat, c.turn, c.roll, got, c.want)
		}
		if !strings.Contains(string(doc), "| "+c.want+" |") {
			t.Errorf("dice.md does not show the pigs %s", c.want)
		}
	}
}

// TestMysteryWorkedExample: the mystery bot's strengths of dice.md's
// worked example (its Python gives the same), and the strength a seat is
// given is one of MysteryStrengths.
func TestMysteryWorkedExample(t *testing.T) {
	var s Seed
	for i := range s {
		s[i] = byte(i)
	}
	var got []int
	for seat := range 6 {
		got = append(got, s.Mystery(seat, 3))
	}
	if want := []int{0, 1, 2, 2, 2, 1}; !slices.Equal(got, want) {
		t.Errorf("strengths %v, want %v", got, want)
	}
	if got, want := MysteryStrength(Pig, &s, 2), PerfectBot; got != want {
		t.Errorf("seat 2 plays %q, want %q", got, want)
	}
	if got, want := MysteryStrength(TwoDice, &s, 1), HoldAt(TwoDice.Rules().HoldAt).String(); got != want {
		t.Errorf("seat 1 of Two-Dice Pig plays %q, want %q", got, want)
	}
}

// TestMysteryIsOneInThree: over 30,000 seeds each strength is drawn a
// third of the time (within five standard deviations), at seat 0 and 1
// alike, and a seat's strength does not follow the other's.
func TestMysteryIsOneInThree(t *testing.T) {
	var counts [3][3]int
	for i := range 30000 {
		var s Seed
		binary.BigEndian.PutUint64(s[:], uint64(i))
		counts[s.Mystery(0, 3)][s.Mystery(1, 3)]++
	}
	for a := range 3 {
		row := counts[a][0] + counts[a][1] + counts[a][2]
		if math.Abs(float64(row)-10000) > 5*math.Sqrt(30000*2.0/9) {
			t.Errorf("strength %d at seat 0: %d of 30000", a, row)
		}
		for b := range 3 {
			if math.Abs(float64(counts[a][b])-30000/9.0) > 5*math.Sqrt(30000*8.0/81) {
				t.Errorf("strengths %d and %d at seats 0 and 1: %d of 30000", a, b, counts[a][b])
			}
		}
	}
}

// TestRecordCarriesTheMystery: a record names its mystery bot's strength,
// verify checks it against the seed's draw for the seat (a forged one, a
// seat that does not exist and a mystery bot in Hog are refused, naming
// the problem), whether the record is read as a value or as its JSON.
func TestRecordCarriesTheMystery(t *testing.T) {
	var seed Seed
	for i := range seed {
		seed[i] = byte(i)
	}
	record := func(v Variant, seats ...MysterySeat) Record {
		m, err := NewMatch(v, seed)
		if err != nil {
			t.Fatal(err)
		}
		r := m.Record()
		r.Events = []Event{} // no move yet: an empty list, not a missing one
		r.Mystery = seats
		return r
	}
	check := func(name string, r Record, ok bool) {
		t.Helper()
		_, err := Verify(r)
		data, _ := json.Marshal(r)
		_, errJSON := VerifyJSON(data)
		var ve *VerifyError
		switch {
		case ok && (err != nil || errJSON != nil):
			t.Errorf("%s: refused: %v / %v", name, err, errJSON)
		case !ok && (!errors.As(err, &ve) || ve.Problem != ProblemMystery || !errors.As(errJSON, &ve) || ve.Problem != ProblemMystery):
			t.Errorf("%s: %v / %v, want the mystery's problem", name, err, errJSON)
		}
	}
	pig := Standard(Pig)
	check("the seed's strengths", record(pig, MysterySeat{1, HoldAt(20).String()}, MysterySeat{0, BeginnerBot}), true)
	check("a forged strength", record(pig, MysterySeat{1, PerfectBot}), false)
	check("no such seat", record(pig, MysterySeat{2, PerfectBot}), false)
	check("Hog", record(Standard(Hog), MysterySeat{1, PerfectBot}), false)
}
