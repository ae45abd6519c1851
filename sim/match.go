package sim

import (
	"fmt"
	"time"
)

// ErrorCode names what is wrong with an action.
type ErrorCode string

// The reasons an action is refused.
const (
	CodeMatchOver    ErrorCode = "match_over"
	CodeBadSeat      ErrorCode = "bad_seat"
	CodeSeatOut      ErrorCode = "seat_out"
	CodeNotYourTurn  ErrorCode = "not_your_turn"
	CodeWrongGame    ErrorCode = "wrong_game"
	CodeDiceRange    ErrorCode = "dice_out_of_range"
	CodeNoDeadline   ErrorCode = "no_deadline"
	CodeUnknown      ErrorCode = "unknown_action"
	CodeWrongFaces   ErrorCode = "wrong_faces"
	CodeWrongCounter ErrorCode = "wrong_counter"
	// CodeBadPieces: pieces entered by hand (Match.Enter) that are not a
	// throw of the game: too few or too many, or a mark none shows.
	CodeBadPieces ErrorCode = "bad_pieces"
)

// ActionError is a refused action. It says what is wrong; the match is left
// exactly as it was.
type ActionError struct {
	Code   ErrorCode
	Seat   int
	Action Action
	Reason string
}

// Error reads like "seat 1 cannot hold: it is seat 0's turn".
func (e *ActionError) Error() string {
	return fmt.Sprintf("seat %d cannot %s: %s", e.Seat, e.Action, e.Reason)
}

// Is matches another ActionError with the same code, so that
// errors.Is(err, sim.ErrNotYourTurn) works.
func (e *ActionError) Is(target error) bool {
	t, ok := target.(*ActionError)
	return ok && t.Code == e.Code
}

// Sentinels for errors.Is, one per code.
var (
	ErrMatchOver   = &ActionError{Code: CodeMatchOver}
	ErrBadSeat     = &ActionError{Code: CodeBadSeat}
	ErrSeatOut     = &ActionError{Code: CodeSeatOut}
	ErrNotYourTurn = &ActionError{Code: CodeNotYourTurn}
	ErrWrongGame   = &ActionError{Code: CodeWrongGame}
	ErrDiceRange   = &ActionError{Code: CodeDiceRange}
	ErrNoDeadline  = &ActionError{Code: CodeNoDeadline}
	ErrUnknown     = &ActionError{Code: CodeUnknown}
	ErrWrongFaces  = &ActionError{Code: CodeWrongFaces}
)

// Check reports why seat may not take action a now, or nil if it may.
func (s *State) Check(seat int, a Action) error {
	refuse := func(code ErrorCode, format string, args ...any) error {
		return &ActionError{Code: code, Seat: seat, Action: a, Reason: fmt.Sprintf(format, args...)}
	}
	v := &s.Variant
	switch {
	case s.Over:
		return refuse(CodeMatchOver, "the match is over")
	case seat < 0 || seat >= v.Seats:
		return refuse(CodeBadSeat, "seats are 0 to %d", v.Seats-1)
	case s.Out[seat]:
		return refuse(CodeSeatOut, "seat %d has resigned", seat)
	}
	switch a.Kind {
	case ResignKind:
		return nil // at any time, in turn or not
	case RollKind, HoldKind, DiceKind, TimeoutKind:
	default:
		return refuse(CodeUnknown, "use roll, hold, dice:N, resign or timeout")
	}
	if seat != s.Seat {
		return refuse(CodeNotYourTurn, "it is seat %d's turn", s.Seat)
	}
	switch a.Kind {
	case RollKind, HoldKind:
		if v.Game.ChoosesDice() {
			return refuse(CodeWrongGame, "%s has one throw a turn: choose dice:1 to dice:%d", v.Game.Title(), v.MaxDice)
		}
	case DiceKind:
		if !v.Game.ChoosesDice() {
			return refuse(CodeWrongGame, "choosing dice is for a game of one throw; %s plays roll or hold", v.Game.Title())
		}
		if a.Dice < 1 || int(a.Dice) > v.MaxDice {
			return refuse(CodeDiceRange, "throw from 1 to %d dice", v.MaxDice)
		}
	case TimeoutKind:
		if v.Deadline == 0 {
			return refuse(CodeNoDeadline, "this match has no move deadline")
		}
	}
	return nil
}

// Event is one entry of a match's append-only log: who did what, and for a
// roll the turn and roll counters and the dice, all derived from the seed.
type Event struct {
	Seat   int    `json:"seat"`
	Action Action `json:"action"`
	Turn   int    `json:"turn"`             // the seat's turn, from 0
	Roll   int    `json:"roll"`             // the roll in the turn, from 0
	Faces  Faces  `json:"faces,omitzero"`   // for roll and dice:N
	Points int    `json:"points,omitempty"` // Hog: the throw's score
	// Entered says the pieces were thrown at a table and entered by hand
	// (Match.Enter): the seed did not throw them, and a record's check
	// takes them as entered (sim/dice.md).
	Entered bool `json:"entered,omitempty"`
	// At is when the server stored the event (records of format 2); the
	// engine leaves it zero.
	At time.Time `json:"at,omitzero"`
}

// IsZero reports whether no dice are set (for JSON's omitzero).
func (f Faces) IsZero() bool { return f.n == 0 }

// Match is one game being played: its variant, its seed and the log of every
// action. Its state is a pure function of the three.
type Match struct {
	seed   Seed
	state  State
	events []Event
}

// NewMatch starts a match of variant v; the seed deals the first player.
func NewMatch(v Variant, seed Seed) (*Match, error) {
	if err := v.Validate(); err != nil {
		return nil, err
	}
	return &Match{seed: seed, state: NewState(v, seed.FirstSeat(v.Seats))}, nil
}

// Apply validates action a by seat, throws the dice it needs from the seed,
// updates the state and appends the event, which it returns. A refused action
// returns an *ActionError and changes nothing.
func (m *Match) Apply(seat int, a Action) (Event, error) {
	s := &m.state
	if err := s.Check(seat, a); err != nil {
		return Event{}, err
	}
	e := Event{Seat: seat, Action: a, Turn: s.Turns[seat], Roll: s.Rolls}
	switch a.Kind {
	case RollKind:
		e.Faces = m.seed.ThrowFor(s.Variant.Game, seat, e.Turn, e.Roll, s.Variant.Game.Dice())
	case DiceKind:
		e.Faces = m.seed.ThrowFor(s.Variant.Game, seat, e.Turn, e.Roll, int(a.Dice))
		e.Points, _, _ = RollPoints(s.Variant.Game, &e.Faces)
	}
	s.Do(seat, a, &e.Faces)
	m.events = append(m.events, e)
	return e, nil
}

// Enter is Apply for a throw made with real pieces at a table: a roll, or
// dice:N in a game of one throw, whose pieces f were read off the table
// and entered by hand. f must hold the pieces the action throws (the
// game's roll, or N), each showing a mark the piece has (or every piece
// the mishap's); a refused entry returns an *ActionError and changes
// nothing. The event is marked Entered.
func (m *Match) Enter(seat int, a Action, f Faces) (Event, error) {
	s := &m.state
	if err := s.Check(seat, a); err != nil {
		return Event{}, err
	}
	refuse := func(code ErrorCode, format string, args ...any) (Event, error) {
		return Event{}, &ActionError{Code: code, Seat: seat, Action: a, Reason: fmt.Sprintf(format, args...)}
	}
	g := s.Variant.Game
	n := g.Dice()
	switch a.Kind {
	case RollKind:
	case DiceKind:
		n = int(a.Dice)
	default:
		return refuse(CodeUnknown, "only a throw is entered by hand (roll, or dice:N)")
	}
	if f.Len() != n {
		return refuse(CodeBadPieces, "%d pieces entered, but the throw has %d", f.Len(), n)
	}
	if err := g.Rules().CanShow(&f); err != nil {
		return refuse(CodeBadPieces, "%v", err)
	}
	e := Event{Seat: seat, Action: a, Turn: s.Turns[seat], Roll: s.Rolls, Faces: f, Entered: true}
	if a.Kind == DiceKind {
		e.Points, _, _ = RollPoints(g, &e.Faces)
	}
	s.Do(seat, a, &e.Faces)
	m.events = append(m.events, e)
	return e, nil
}

// redo applies a logged event again: an entered throw with its pieces,
// any other as Apply does.
func (m *Match) redo(e Event) (Event, error) {
	if e.Entered {
		return m.Enter(e.Seat, e.Action, e.Faces)
	}
	return m.Apply(e.Seat, e.Action)
}

// State returns a copy of the current position.
func (m *Match) State() State { return m.state }

// Variant returns the match's rules.
func (m *Match) Variant() Variant { return m.state.Variant }

// Seed returns the match's secret seed.
func (m *Match) Seed() Seed { return m.seed }

// Events returns a copy of the log.
func (m *Match) Events() []Event { return append([]Event(nil), m.events...) }

// Len returns the number of events so far.
func (m *Match) Len() int { return len(m.events) }

// Replay rebuilds a match from its variant, seed and log. Each event is
// applied again (an entered throw with its recorded pieces); if one is
// refused, or its recorded counters or dice differ from what the seed
// gives, the error names it (counting from 1) and the match returned holds
// the events before it.
func Replay(v Variant, seed Seed, events []Event) (*Match, error) {
	m, err := NewMatch(v, seed)
	if err != nil {
		return nil, err
	}
	for i, want := range events {
		got, err := m.redo(want)
		if err != nil {
			return m, fmt.Errorf("event %d: %w", i+1, err)
		}
		if got.Turn != want.Turn || got.Roll != want.Roll {
			m.undoLast()
			return m, fmt.Errorf("event %d: %w", i+1, &ActionError{Code: CodeWrongCounter, Seat: want.Seat, Action: want.Action,
				Reason: fmt.Sprintf("recorded as turn %d roll %d, but it is turn %d roll %d", want.Turn, want.Roll, got.Turn, got.Roll)})
		}
		if want.Faces.Len() > 0 && want.Faces != got.Faces {
			m.undoLast()
			return m, fmt.Errorf("event %d: %w", i+1, &ActionError{Code: CodeWrongFaces, Seat: want.Seat, Action: want.Action,
				Reason: fmt.Sprintf("recorded dice [%s], but the seed gives [%s]", want.Faces, got.Faces)})
		}
	}
	return m, nil
}

// undoLast drops the last event by replaying the ones before it.
func (m *Match) undoLast() {
	events := m.events[:len(m.events)-1]
	m.state = NewState(m.state.Variant, m.seed.FirstSeat(m.state.Variant.Seats))
	m.events = nil
	for _, e := range events {
		m.redo(e)
	}
}
