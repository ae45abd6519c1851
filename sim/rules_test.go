package sim

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// step is one action in a rules test, with the dice it throws.
type step struct {
	seat int
	a    Action
	dice []int
}

func roll(seat int, dice ...int) step { return step{seat, Roll, dice} }
func hold(seat int) step              { return step{seat, Hold, nil} }
func throw(seat int, dice ...int) step {
	return step{seat, Dice(len(dice)), dice}
}

// play applies steps to s with the given dice, failing on any refusal.
func play(t *testing.T, s *State, steps ...step) {
	t.Helper()
	for i, st := range steps {
		if err := s.Check(st.seat, st.a); err != nil {
			t.Fatalf("step %d (%v): %v", i+1, st.a, err)
		}
		f, err := FacesOf(st.dice...)
		if err != nil {
			t.Fatal(err)
		}
		s.Do(st.seat, st.a, &f)
	}
}

func newState(g Game, seats int, scores ...int) State {
	v := Standard(g)
	v.Seats = seats
	s := NewState(v, 0)
	copy(s.Scores[:], scores)
	return s
}

func wantScores(t *testing.T, s *State, want ...int) {
	t.Helper()
	for i, w := range want {
		if s.Scores[i] != w {
			t.Errorf("scores = %v, want %v", s.Scores[:len(want)], want)
			return
		}
	}
}

func TestPigRules(t *testing.T) {
	t.Run("2 to 6 add to the turn total and the turn goes on", func(t *testing.T) {
		s := newState(Pig, 2)
		play(t, &s, roll(0, 2), roll(0, 6), roll(0, 5))
		if s.TurnTotal != 13 || s.Seat != 0 || s.Rolls != 3 {
			t.Errorf("turn total %d, seat %d, rolls %d; want 13, 0, 3", s.TurnTotal, s.Seat, s.Rolls)
		}
	})
	t.Run("a 1 wipes the turn total and the turn passes at once", func(t *testing.T) {
		s := newState(Pig, 2, 30, 40)
		play(t, &s, roll(0, 6), roll(0, 6), roll(0, 1))
		wantScores(t, &s, 30, 40)
		if s.TurnTotal != 0 || s.Seat != 1 || s.Turns[0] != 1 {
			t.Errorf("turn total %d, seat %d, turns %d; want 0, 1, 1", s.TurnTotal, s.Seat, s.Turns[0])
		}
	})
	t.Run("hold adds the turn total to the score and passes", func(t *testing.T) {
		s := newState(Pig, 2, 30, 40)
		play(t, &s, roll(0, 4), roll(0, 3), hold(0))
		wantScores(t, &s, 37, 40)
		if s.Seat != 1 || s.TurnTotal != 0 {
			t.Errorf("seat %d, turn total %d; want 1, 0", s.Seat, s.TurnTotal)
		}
	})
	t.Run("holding on a turn total of 0 is allowed and passes", func(t *testing.T) {
		s := newState(Pig, 2, 30, 40)
		play(t, &s, hold(0))
		wantScores(t, &s, 30, 40)
		if s.Seat != 1 || s.Turns[0] != 1 {
			t.Errorf("seat %d, turns %d; want 1, 1", s.Seat, s.Turns[0])
		}
	})
	t.Run("the win arrives on the roll: nothing to hold", func(t *testing.T) {
		s := newState(Pig, 2, 90, 40)
		play(t, &s, roll(0, 6), roll(0, 4))
		if !s.Over || s.Winner != 0 {
			t.Fatalf("over %v winner %d; want the roll to win", s.Over, s.Winner)
		}
		wantScores(t, &s, 100, 40)
		if err := s.Check(0, Hold); !errors.Is(err, ErrMatchOver) {
			t.Errorf("hold after the win: %v, want ErrMatchOver", err)
		}
	})
	t.Run("a winning score is not rounded down: 102 stays 102", func(t *testing.T) {
		s := newState(Pig, 2, 98, 40)
		play(t, &s, roll(0, 4))
		wantScores(t, &s, 102, 40)
		if r := s.Result(); r.Scores[0] != 102 || r.Places[0] != 1 || r.Places[1] != 2 {
			t.Errorf("result %+v", r)
		}
	})
	t.Run("the others are placed by score", func(t *testing.T) {
		s := newState(Pig, 4, 97, 50, 80, 50)
		play(t, &s, roll(0, 3))
		want := [MaxSeats]int{1, 3, 2, 3}
		if got := s.Places(); got != want {
			t.Errorf("places %v, want %v", got, want)
		}
	})
	t.Run("a target of 50 is honoured", func(t *testing.T) {
		s := newState(Pig, 2, 45)
		s.Variant.Target = 50
		play(t, &s, roll(0, 5))
		if !s.Over || s.Scores[0] != 50 {
			t.Errorf("over %v score %d; want a win at 50", s.Over, s.Scores[0])
		}
	})
}

func TestResign(t *testing.T) {
	t.Run("with two players the other one wins", func(t *testing.T) {
		s := newState(Pig, 2, 10, 60)
		play(t, &s, roll(0, 5), step{1, Resign, nil})
		if !s.Over || s.Winner != 0 {
			t.Fatalf("over %v winner %d; want seat 0 to win", s.Over, s.Winner)
		}
		if p := s.Places(); p[0] != 1 || p[1] != 2 {
			t.Errorf("places %v", p)
		}
	})
	t.Run("with three the match goes on and the resigner is placed last", func(t *testing.T) {
		s := newState(Pig, 3, 10, 60, 20)
		play(t, &s, roll(0, 5), step{0, Resign, nil})
		if s.Over {
			t.Fatal("match over after one of three resigned")
		}
		if s.Seat != 1 || s.TurnTotal != 0 {
			t.Errorf("seat %d, turn total %d; want seat 1 to move with 0", s.Seat, s.TurnTotal)
		}
		if err := s.Check(0, Roll); !errors.Is(err, ErrSeatOut) {
			t.Errorf("resigned seat rolls: %v, want ErrSeatOut", err)
		}
		play(t, &s, hold(1), hold(2)) // seat 0 is skipped
		if s.Seat != 1 {
			t.Errorf("seat %d to move, want 1 (0 resigned)", s.Seat)
		}
		s.Scores[1] = 95
		play(t, &s, roll(1, 6))
		want := [MaxSeats]int{3, 1, 2, 0}
		if got := s.Places(); got != want {
			t.Errorf("places %v, want %v", got, want)
		}
	})
	t.Run("the first to resign is placed lowest", func(t *testing.T) {
		s := newState(Pig, 4, 10, 60, 20, 30)
		play(t, &s, step{2, Resign, nil}, step{3, Resign, nil}, step{0, Resign, nil})
		want := [MaxSeats]int{2, 1, 4, 3}
		if got := s.Places(); !s.Over || s.Winner != 1 || got != want {
			t.Errorf("over %v winner %d places %v, want seat 1 and %v", s.Over, s.Winner, got, want)
		}
	})
}

func TestTimeouts(t *testing.T) {
	v := Standard(Pig)
	v.Deadline = Duration(30e9)
	s := NewState(v, 0)
	play(t, &s, roll(0, 4), step{0, Timeout, nil})
	if s.Scores[0] != 4 || s.Seat != 1 || s.Timeouts[0] != 1 {
		t.Fatalf("a timeout banks the turn total: score %d seat %d timeouts %d", s.Scores[0], s.Seat, s.Timeouts[0])
	}
	play(t, &s, hold(1), step{0, Timeout, nil}, hold(1), roll(0, 3), hold(0), hold(1))
	if s.Timeouts[0] != 0 {
		t.Fatalf("a decision resets the count: %d timeouts", s.Timeouts[0])
	}
	play(t, &s, step{0, Timeout, nil}, hold(1), step{0, Timeout, nil}, hold(1))
	if s.Over {
		t.Fatal("two timeouts in a row resigned")
	}
	play(t, &s, step{0, Timeout, nil})
	if !s.Over || s.Winner != 1 || !s.Out[0] {
		t.Errorf("three timeouts in a row: over %v winner %d out %v; want seat 0 resigned", s.Over, s.Winner, s.Out[0])
	}

	hog := Standard(Hog)
	hog.Deadline = Duration(30e9)
	h := NewState(hog, 0)
	h.Scores[0] = 20
	play(t, &h, step{0, Timeout, nil})
	if h.Scores[0] != 20 || h.Seat != 1 {
		t.Errorf("Hog timeout: score %d seat %d; want the turn to pass scoring nothing", h.Scores[0], h.Seat)
	}

	n := newState(Pig, 2)
	if err := n.Check(0, Timeout); !errors.Is(err, ErrNoDeadline) {
		t.Errorf("timeout without a deadline: %v, want ErrNoDeadline", err)
	}
}

func TestTwoDicePig(t *testing.T) {
	s := newState(TwoDice, 2, 50, 20)
	play(t, &s, roll(0, 3, 4))
	if s.TurnTotal != 7 {
		t.Errorf("the sum adds: turn total %d, want 7", s.TurnTotal)
	}
	play(t, &s, roll(0, 1, 6))
	wantScores(t, &s, 50, 20)
	if s.Seat != 1 {
		t.Errorf("a single 1 ends the turn: seat %d to move", s.Seat)
	}
	play(t, &s, roll(1, 5, 5), roll(1, 1, 1))
	wantScores(t, &s, 50, 0)
	if s.Seat != 0 || s.TurnTotal != 0 {
		t.Errorf("double 1s end the turn: seat %d, turn total %d", s.Seat, s.TurnTotal)
	}
	s2 := newState(TwoDice, 2, 50, 20)
	play(t, &s2, roll(0, 1, 1))
	wantScores(t, &s2, 0, 20) // two 1s wipe the whole score
}

func TestBigPig(t *testing.T) {
	s := newState(BigPig, 2, 10, 20)
	play(t, &s, roll(0, 1, 1))
	if s.TurnTotal != 25 || s.Seat != 0 {
		t.Errorf("double 1s add 25 and the turn goes on: turn total %d seat %d", s.TurnTotal, s.Seat)
	}
	play(t, &s, roll(0, 4, 4))
	if s.TurnTotal != 25+16 {
		t.Errorf("another double adds twice the dice total: turn total %d, want 41", s.TurnTotal)
	}
	play(t, &s, roll(0, 2, 5))
	if s.TurnTotal != 48 {
		t.Errorf("otherwise the sum: turn total %d, want 48", s.TurnTotal)
	}
	play(t, &s, roll(0, 6, 1))
	wantScores(t, &s, 10, 20)
	if s.Seat != 1 {
		t.Errorf("a single 1 ends the turn at zero: seat %d", s.Seat)
	}
}

func TestHog(t *testing.T) {
	s := newState(Hog, 2, 10, 20)
	play(t, &s, throw(0, 6, 5, 4))
	wantScores(t, &s, 25, 20)
	play(t, &s, throw(1, 6, 6, 6, 6, 1))
	wantScores(t, &s, 25, 20) // any 1 scores zero
	if s.Seat != 0 {
		t.Errorf("one roll per turn: seat %d to move", s.Seat)
	}
	for _, a := range []Action{Roll, Hold} {
		if err := s.Check(0, a); !errors.Is(err, ErrWrongGame) {
			t.Errorf("%v in Hog: %v, want ErrWrongGame", a, err)
		}
	}
	for _, n := range []int{0, 11} {
		if err := s.Check(0, Dice(n)); !errors.Is(err, ErrDiceRange) {
			t.Errorf("dice:%d of 10: %v, want ErrDiceRange", n, err)
		}
	}
	s.Scores[0] = 90
	play(t, &s, throw(0, 5, 6))
	if !s.Over || s.Winner != 0 || s.Scores[0] != 101 {
		t.Errorf("first to the target wins: over %v winner %d score %d", s.Over, s.Winner, s.Scores[0])
	}
	p := newState(Pig, 2)
	if err := p.Check(0, Dice(3)); !errors.Is(err, ErrWrongGame) {
		t.Errorf("dice:3 in Pig: %v, want ErrWrongGame", err)
	}
}

func TestEqualTurns(t *testing.T) {
	eq := func(scores ...int) State {
		s := newState(Pig, 2, scores...)
		s.Variant.EqualTurns = true
		return s
	}
	t.Run("reaching the target does not end the turn; the round is played out", func(t *testing.T) {
		s := eq(95, 90)
		play(t, &s, roll(0, 6))
		if s.Over || s.Seat != 0 || s.TurnTotal != 6 {
			t.Fatalf("over %v seat %d turn total %d; want seat 0 to roll on", s.Over, s.Seat, s.TurnTotal)
		}
		play(t, &s, roll(0, 3), hold(0))
		if s.Over || s.Seat != 1 {
			t.Fatalf("over %v seat %d; want seat 1 to have its turn", s.Over, s.Seat)
		}
		play(t, &s, roll(1, 6), roll(1, 6), roll(1, 6), hold(1))
		if !s.Over || s.Winner != 1 {
			t.Errorf("highest score wins: over %v winner %d scores %v", s.Over, s.Winner, s.Scores[:2])
		}
	})
	t.Run("the last player cannot catch up", func(t *testing.T) {
		s := eq(95, 90)
		play(t, &s, roll(0, 6), hold(0), roll(1, 5), hold(1))
		if !s.Over || s.Winner != 0 {
			t.Errorf("over %v winner %d scores %v", s.Over, s.Winner, s.Scores[:2])
		}
	})
	t.Run("leaders tied play one more turn each until the tie breaks", func(t *testing.T) {
		s := eq(95, 90)
		play(t, &s, roll(0, 6), hold(0), roll(1, 6), roll(1, 5), hold(1))
		if s.Over || !s.TieBreak || s.Seat != 0 {
			t.Fatalf("tied at 101: over %v tie-break %v seat %d", s.Over, s.TieBreak, s.Seat)
		}
		play(t, &s, roll(0, 3), hold(0), roll(1, 3), hold(1)) // still tied
		if s.Over || s.Seat != 0 {
			t.Fatalf("still tied at 104: over %v seat %d", s.Over, s.Seat)
		}
		play(t, &s, roll(0, 1), roll(1, 2), hold(1))
		if !s.Over || s.Winner != 1 {
			t.Errorf("tie broken: over %v winner %d scores %v", s.Over, s.Winner, s.Scores[:2])
		}
	})
	t.Run("only the tied leaders play the tie-break", func(t *testing.T) {
		s := eq(95, 90, 20)
		s.Variant.Seats = 3
		play(t, &s, roll(0, 6), hold(0), roll(1, 6), roll(1, 5), hold(1), hold(2))
		if !s.TieBreak || s.Seat != 0 {
			t.Fatalf("tie-break %v seat %d", s.TieBreak, s.Seat)
		}
		play(t, &s, roll(0, 2), hold(0), hold(1))
		if !s.Over || s.Winner != 0 {
			t.Errorf("over %v winner %d; seat 2 must not play", s.Over, s.Winner)
		}
	})
	t.Run("a round starts again with the first player", func(t *testing.T) {
		s := eq(10, 10, 10)
		s.Variant.Seats = 3
		s.First, s.Seat = 1, 1
		play(t, &s, hold(1), hold(2), hold(0))
		if s.Seat != 1 {
			t.Errorf("seat %d to move, want 1", s.Seat)
		}
	})
}

func TestActionErrorsChangeNothing(t *testing.T) {
	m, err := NewMatch(Standard(Pig), exampleSeed())
	if err != nil {
		t.Fatal(err)
	}
	first := m.State().Seat
	other := 1 - first
	before := m.State()
	cases := []struct {
		seat int
		a    Action
		want error
	}{
		{other, Roll, ErrNotYourTurn},
		{other, Hold, ErrNotYourTurn},
		{first, Dice(2), ErrWrongGame},
		{first, Timeout, ErrNoDeadline},
		{first, Action{}, ErrUnknown},
		{2, Roll, ErrBadSeat},
		{-1, Hold, ErrBadSeat},
	}
	for _, c := range cases {
		_, err := m.Apply(c.seat, c.a)
		var ae *ActionError
		if !errors.Is(err, c.want) || !errors.As(err, &ae) {
			t.Errorf("seat %d %v: %v, want %v", c.seat, c.a, err, c.want.(*ActionError).Code)
		}
		if m.State() != before || m.Len() != 0 {
			t.Errorf("seat %d %v changed the match", c.seat, c.a)
		}
	}
	if _, err := m.Apply(other, Resign); err != nil {
		t.Fatalf("resign out of turn: %v", err)
	}
	if _, err := m.Apply(first, Roll); !errors.Is(err, ErrMatchOver) {
		t.Errorf("roll after the end: %v, want ErrMatchOver", err)
	}
}

func TestMatchDiceComeFromTheSeed(t *testing.T) {
	seed := exampleSeed()
	m, _ := NewMatch(Standard(Pig), seed)
	if m.State().Seat != 1 {
		t.Fatalf("first seat %d, want 1 (dice.md)", m.State().Seat)
	}
	// dice.md: seat 1, turn 0, roll 0 is a 4.
	e, err := m.Apply(1, Roll)
	if err != nil {
		t.Fatal(err)
	}
	if e.Faces.String() != "4" || e.Turn != 0 || e.Roll != 0 || m.State().TurnTotal != 4 {
		t.Errorf("event %+v, turn total %d; want a 4", e, m.State().TurnTotal)
	}
}

// TestEveryBotOfTheMenuHasWords: each bot a menu offers, in every game,
// has the words that name it, and the number they take.
func TestEveryBotOfTheMenuHasWords(t *testing.T) {
	for _, g := range Games {
		for _, name := range BotMenu(g.Rules().HoldAt) {
			key, n, _ := BotWords(name, g.Rules().HoldAt)
			if key == "" {
				t.Errorf("%s: bot %q has no words", g, name)
			}
			if _, arg, ok := strings.Cut(name, ":"); ok && name != BeginnerBot && strconv.Itoa(n) != arg {
				t.Errorf("%s: bot %q names the number %d", g, name, n)
			}
		}
	}
	if key, _, _ := BotWords("cautious", 20); key != "" {
		t.Errorf("an unknown bot has words %q", key)
	}
}
