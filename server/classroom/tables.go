package classroom

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
)

// TableSpec is a table the teacher opens: a game played with real dice or
// pigs on one device, by students of the class (in their order of play,
// the first first) and at most one bot, which plays last and throws its
// own seeded dice.
type TableSpec struct {
	Variant  sim.Variant // its Seats are the table's players
	Students []int64
	Bot      string // "" for none
	// Lesson is the lesson plan whose phase the table plays ("" for the
	// teacher's own table): the class's day names it.
	Lesson string
}

// ErrTableSize refuses a table of fewer than two players, or more than
// the rules allow; ErrTableStudent one whose student is not in the class
// (or sits twice).
var (
	ErrTableSize    = fmt.Errorf("a table seats %d to %d players, at least one of them a student", sim.MinSeats, sim.MaxSeats)
	ErrTableStudent = errors.New("a player of the table is not a student of the class, or sits twice")
)

// OpenTable opens a table for the class's teacher: a match at a table
// (play.Match.AtTable), started through the door every match starts
// through (its limits, and its check that the bot plays the game), shown on the class page of each of its students (any of
// their devices enters for the player to move). It returns the match.
func (r *Room) OpenTable(ctx context.Context, v Viewer, spec TableSpec) (*play.Match, error) {
	c, err := v.teaching()
	if err != nil {
		return nil, err
	}
	n := len(spec.Students)
	if spec.Bot != "" {
		n++
	}
	if len(spec.Students) == 0 || n < sim.MinSeats || n > sim.MaxSeats {
		return nil, ErrTableSize
	}
	spec.Variant.Seats = n
	if err := spec.Variant.Validate(); err != nil {
		return nil, err
	}
	snap := c.snap.Load()
	// The players play in the order given, the first one first (as the
	// group sits, or as its paper sheet has them): the seed deals the
	// first seat, and the players are seated from it round the table.
	seed := r.chance.Seed()
	first := seed.FirstSeat(n)
	seats := make([]play.Seat, n)
	for i, id := range spec.Students {
		j := slices.IndexFunc(snap.Students, func(s store.Student) bool { return s.ID == id })
		if j < 0 || slices.Index(spec.Students[:i], id) >= 0 {
			return nil, ErrTableStudent
		}
		seat := (first + i) % n
		seats[seat] = seatOf(snap.Students[j], seat)
	}
	if spec.Bot != "" {
		seat := (first + n - 1) % n
		seats[seat] = play.Seat{Seat: seat, Bot: spec.Bot}
	}
	row := play.NewMatch(spec.Variant, seed, seats)
	row.ClassID, row.AtTable, row.Lesson = c.id, true, spec.Lesson
	lms, err := r.hall.Start(ctx, play.Request{Origin: play.FromTable, Host: c, Class: snap.Code, Matches: []play.Match{row}})
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	index(c, lms)
	c.mu.Unlock()
	return lms[0].Match(), nil
}
