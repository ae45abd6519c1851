package play

import (
	"context"
	"errors"
	"time"

	"pigclass/sim"
)

// Log is where matches are written and read back: the store implements
// it. Every write is on disk when it returns nil; an error leaves
// nothing of it stored.
type Log interface {
	// CreateMatch stores a new match (no round) and returns its ID.
	CreateMatch(ctx context.Context, m Match) (int64, error)
	// AppendEvents adds events to a match's log and, with a result,
	// marks it over.
	AppendEvents(ctx context.Context, matchID int64, events []Event, result *sim.Result) error
	// EndMatch marks a match still playing as ended.
	EndMatch(ctx context.Context, id int64) error
	// FillAnalyses stores the analyses of decisions stored pending.
	FillAnalyses(ctx context.Context, events []Event) error
	// PendingMatches are the matches with decisions whose analysis is
	// pending, in ID order: of one class, or of every class (0).
	PendingMatches(ctx context.Context, classID int64) ([]int64, error)
	// MatchByID reads a match (without its events); an error wrapping
	// ErrNoMatch if there is none.
	MatchByID(ctx context.Context, id int64) (Match, error)
	// MatchEvents reads a match's log.
	MatchEvents(ctx context.Context, id int64) ([]Event, error)
	// PlayingMatches reads every match still being played: of one class,
	// or every match (0).
	PlayingMatches(ctx context.Context, classID int64) ([]Match, error)
	// PlayingEvents reads the logs of every match still being played, by
	// match: of one class, or of every match (0).
	PlayingEvents(ctx context.Context, classID int64) (map[int64][]Event, error)
	// SaveGuess stores a guess of a mystery bot; a student guesses each
	// bot once (a second is refused).
	SaveGuess(ctx context.Context, g Guess) error
	// Guesses reads the guesses made in one match, by seat and student.
	Guesses(ctx context.Context, matchID int64) ([]Guess, error)
}

// ErrNoMatch is the log's answer for a match that does not exist.
var ErrNoMatch = errors.New("play: no such match")

// Classes are the classes matches are played in, as the hall asks for
// them.
type Classes interface {
	// Host is the class of a class ID in memory, or nil if it is not.
	Host(classID int64) Host
	// Code is a class's join code, the class read from disk if need be.
	Code(ctx context.Context, classID int64) (string, error)
}

// Host is the class a match is played in, told of what its matches do.
// Its methods must not take a lock that may be held while a match's lock
// is taken (they are called with Live.mu held).
type Host interface {
	// Paused reports whether the teacher has paused play.
	Paused() bool
	// ExtraTime is the time a student is given on each of their per-roll
	// deadlines beyond the round's (an accommodation; 0 for none).
	ExtraTime(studentID int64) time.Duration
	// Changed notes that something in the class moved (the dashboard's
	// and projector's polls compare a counter).
	Changed()
	// Counted adds committed events of match m to the class's totals:
	// new events, or (filled) decisions whose analysis came later. m is
	// the match as stored, its Status Over once the events finished it.
	Counted(m *Match, events []Event, filled bool)
}
