package play

import (
	"time"

	"pigclass/sim"
)

// Round is a round a teacher started: every student in a match of one
// variant, against a bot or paired with each other.
type Round struct {
	ID       int64
	ClassID  int64
	Number   int
	Variant  sim.Variant
	Mode     Mode
	Bot      string // the bot's strategy (also the partner of an odd student)
	SameSeed bool
	// Arms: a round of the experiment "Decide before you roll": each
	// student plays in their arm (Seat.Arm).
	Arms      bool
	StartedAt time.Time
	Ended     bool
	// Day is the date it was started on, in the server's time zone
	// (YYYY-MM-DD): the class's day it belongs to.
	Day string
	// Lesson, for a round to create, is the lesson plan whose phase it
	// plays ("" for the teacher's own): its day keeps it.
	Lesson string
}

// Match is a match: who plays it, under which rules and seed, where it
// is; and, once it is played, its log and its position. It is the one
// shape of a match, from the door that starts it (Hall.Start) through
// the store to the views: the store fills in what is stored (everything
// but State, Last and Version, and Events only where asked), the hall
// publishes a live match's whole as it is after each committed change.
// A published Match is immutable: do not modify it (Events is shared).
type Match struct {
	ID         int64
	ClassID    int64 // 0: practice
	RoundID    int64 // 0: no round (practice, homework)
	Variant    sim.Variant
	Seed       sim.Seed
	FirstSeat  int
	Status     Status
	Winner     int // -1 until it is over
	Result     *sim.Result
	CreatedAt  time.Time
	Seats      []Seat
	RoundIndex int    // the round's number, 0 for practice
	Day        string // the day it belongs to, "" for practice
	// AssignmentID is the homework the match was played for (no round),
	// 0 for none.
	AssignmentID int64
	// AtTable: the match is played at a table, on one device, with real
	// dice or pigs: its players' throws are entered by hand (Hall.Enter),
	// and any of its players may enter for the one to move.
	AtTable bool
	// Lesson is the lesson plan a phase of which a table plays, named by
	// its day ("" for none). Not kept with the match.
	Lesson string

	// State is the position after the last event (of a live match).
	State sim.State
	// Events is the log so far, with the analysis of each decision.
	Events []Event
	// Last is when the deadline of the player to move runs from: the last
	// event, or the first showing of its board to them.
	Last time.Time
	// Version moves with every change of a live match.
	Version int64
}

// NewMatch describes a new match before it is stored.
func NewMatch(v sim.Variant, seed sim.Seed, seats []Seat) Match {
	return Match{Variant: v, Seed: seed, FirstSeat: seed.FirstSeat(v.Seats), Status: Playing, Winner: -1, Seats: seats}
}

// Seq is the number of events so far: a move answers the Seq it saw.
func (m *Match) Seq() int { return len(m.Events) }

// Over reports whether the match is no longer played: finished or ended.
func (m *Match) Over() bool { return m.State.Over || m.Status != Playing }

// SeatOf returns the seat of a student, or -1.
func (m *Match) SeatOf(studentID int64) int {
	for _, s := range m.Seats {
		if s.StudentID == studentID && studentID != 0 {
			return s.Seat
		}
	}
	return -1
}

// SeatOfToken returns the seat of the browser with token hash h, or -1.
func (m *Match) SeatOfToken(h string) int {
	for _, s := range m.Seats {
		if s.StudentID != 0 && s.TokenHash == h {
			return s.Seat
		}
	}
	return -1
}

// Status is where a match (or a game of Skunk) is, as stored and
// exported.
type Status string

// The statuses.
const (
	Playing Status = "playing" // being played
	Over    Status = "over"    // played to the end
	Ended   Status = "ended"   // stopped by the teacher
)

// Mode is whom a round's students play.
type Mode string

// The modes of a round.
const (
	AgainstBots Mode = "bot"   // every student against the bot
	InPairs     Mode = "pairs" // students together; seats left over go to the bot
)

// Decider is who made a match's event, as stored and exported.
type Decider string

// The deciders.
const (
	ByStudent Decider = "student" // a student's own decision
	ByBot     Decider = "bot"     // a bot's, made by the server
	ByTimeout Decider = "timeout" // the deadline passed: the server held for the student
)

// Seat is who plays a seat: a student or a bot.
type Seat struct {
	Seat      int
	StudentID int64  // 0 for a bot
	Bot       string // the bot's strategy, "" for a student
	Nickname  string // filled when read
	AnonName  string
	TokenHash string
	// Arm is the arm of "Decide before you roll" the seat's student
	// plays in, in a round of the experiment ("" for any other seat).
	Arm Arm
}

// Arm is an arm of the experiment "Decide before you roll" (issue 62):
// a student of a round of it plays free or committed, drawn at random
// once for the class.
type Arm string

// The arms.
const (
	Free      Arm = "free"      // rolls and holds as they like
	Committed Arm = "committed" // sets how far to roll at each turn's start; the turn plays itself out
)

// Analysis is the solver's view of one decision.
type Analysis struct {
	WinIfRoll   *float64 // Pig games
	WinIfHold   *float64
	WinIfChosen float64
	Options     map[sim.Action]float64
	Best, EV    sim.Action
	Cost        float64
	// Approximate: three or more players read from the two-player table
	// against the leading opponent (their exact table was not solved
	// yet, or is not solved for that many); else exact.
	Approximate bool
	// Agrees, for a mystery bot's decision, are the strengths
	// (sim.MysteryStrengths) that would have made the same one; nil for
	// every other decision.
	Agrees []string
}

// Event is one row of a match's log: the action, its dice, who made it, and
// for a decision the state before it and its analysis.
type Event struct {
	MatchID       int64
	Seq           int // from 1
	Seat          int
	Action        sim.Action
	Turn, Roll    int
	Faces         sim.Faces // none for a hold, a timeout or a resignation
	By            Decider
	At            time.Time
	Score         int
	Scores        []int
	OpponentScore int
	TurnTotal     int
	Dice          int
	Analysis      *Analysis // nil for resignations and unsolved variants
	// Pending: a decision whose analysis is on its way (its table was
	// being solved when it was made); Analysis is nil until it is filled
	// in.
	Pending bool
	// Entered: the throw's pieces were entered by hand at a table, not
	// thrown from the seed.
	Entered bool
	// Corrects: stored over the event of the same Seq (the last throw
	// entered again, Hall.Enter), not beside it.
	Corrects bool
	// Plan is the number a committed player of "Decide before you roll"
	// set at the turn's start, on each decision the turn made by it
	// (Hall.Plan); 0 for any other decision.
	Plan int
}

// SimEvents turns a match's log into the sim log, for replay.
func SimEvents(events []Event) []sim.Event {
	out := make([]sim.Event, len(events))
	for i, e := range events {
		out[i] = sim.Event{Seat: e.Seat, Action: e.Action, Turn: e.Turn, Roll: e.Roll, Faces: e.Faces, Entered: e.Entered}
	}
	return out
}
