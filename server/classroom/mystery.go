package classroom

import (
	"context"
	"errors"
	"slices"

	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
)

// ErrNotMystery refuses a guess of a seat that holds no mystery bot.
var ErrNotMystery = errors.New("that seat of the match is not a mystery bot")

// BadGuessError refuses a guess that names no strength of the mystery bot
// in the match's game; Strengths are the ones it may name.
type BadGuessError struct {
	Game      sim.Game
	Strengths []string
}

func (e *BadGuessError) Error() string {
	return "a guess names one of the mystery bot's strengths"
}

// Guess stores the strength the viewer, a player of match id, guesses the
// mystery bot at seat played at. It is asked for once the seed is
// published (a SeedLaterError before); a student guesses each bot once,
// and a second guess leaves the first as it was (store.ErrGuessed).
func (r *Room) Guess(ctx context.Context, v Viewer, id int64, seat int, strength string) error {
	mv, err := r.SeeMatch(ctx, v, id, false)
	if err != nil {
		return err
	}
	if !mv.Published() {
		return &SeedLaterError{Playing: mv.SharingDice}
	}
	if !slices.ContainsFunc(mv.Seats, func(s play.Seat) bool { return s.Seat == seat && s.Bot == sim.MysteryBot }) {
		return ErrNotMystery
	}
	if strengths := sim.MysteryStrengths(mv.Variant.Game); !slices.Contains(strengths, strength) {
		return &BadGuessError{Game: mv.Variant.Game, Strengths: strengths}
	}
	me := mv.Seats[slices.IndexFunc(mv.Seats, func(s play.Seat) bool { return s.Seat == mv.Seat })]
	return r.st.SaveGuess(ctx, store.MysteryGuess{MatchID: id, Seat: seat, StudentID: me.StudentID, Guess: strength})
}
