package play

import (
	"context"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"time"

	"pigclass/sim"
)

// # Who may see a match
//
// A match is seen by one of its players (a student of its class at the
// class's address, or a practice player at /m/{id}) or, where asked, its
// class's teacher; anyone else, and an id that does not exist, get the
// same answer (ErrNotSeated), decided before anything of the match is
// read but its seats.

// Seer is who asks to see a match, as their class found them: the hash of
// their browser's player token, the class code of the address they asked
// at, the class they are in at that address (as its student, teacher or
// projector; 0 for none) and whether they are its teacher.
type Seer struct {
	Token   string
	Code    string
	ClassID int64
	Teacher bool
}

// View is a match as one viewer may see it.
type View struct {
	*Match
	// Seat is the viewer's seat, -1 for the class's teacher.
	Seat int
	// Live says the match is in memory (being played, or finished in the
	// open round); otherwise it was read from disk.
	Live bool
	// SharingDice counts the other matches still being played with the
	// same dice (a same-dice round): until it is 0 the seed stays secret.
	SharingDice int
	// Guesses are the guesses of the match's mystery bots, once its seed
	// is published (Guess).
	Guesses []Guess
}

// Published reports whether the match's seed is published: it is over
// and no other match still plays with its dice.
func (v *View) Published() bool { return v.Over() && v.SharingDice == 0 }

// MovedError answers one of a class match's players who asked for it at
// its practice address (/m/{id}): the match lives under its class's code.
type MovedError struct{ Code string }

func (e *MovedError) Error() string { return "the match moved to its class's address " + e.Code }

// SeedLaterError refuses a record while the match is played (Playing 0)
// or while Playing other matches still play with its dice.
type SeedLaterError struct{ Playing int }

func (e *SeedLaterError) Error() string {
	if e.Playing == 0 {
		return "the seed is published when the match is over"
	}
	return fmt.Sprintf("the seed is published when the %d other matches using these dice are over", e.Playing)
}

// See returns match id for one of its players; with teacher, its class's
// teacher may see it too. Anyone else, and an id that does not exist, get
// ErrNotSeated. A player who is shown their move starts its deadline
// (Showing).
func (h *Hall) See(ctx context.Context, who Seer, id int64, teacher bool) (*View, error) {
	snap := h.Match(id)
	row := snap
	if row == nil {
		m, err := h.log.MatchByID(ctx, id)
		if errors.Is(err, ErrNoMatch) {
			return nil, ErrNotSeated
		}
		if err != nil {
			return nil, fmt.Errorf("play: see match: %w", err)
		}
		row = &m
	}
	v := &View{Seat: seatOfToken(row, who.Token)}
	if err := h.maySee(ctx, who, row, v.Seat, teacher); err != nil {
		return nil, err
	}
	if snap != nil {
		if v.Seat >= 0 {
			snap = h.Showing(snap, v.Seat)
		}
		v.Match, v.Live = snap, true
	} else if err := h.replay(ctx, row, v); err != nil {
		return nil, err
	}
	if v.Over() {
		v.SharingDice = h.SharingDice(v.Seed, id)
	}
	if v.Published() && slices.ContainsFunc(row.Seats, func(s Seat) bool { return s.Bot == sim.MysteryBot }) {
		guesses, err := h.log.Guesses(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("play: see match: %w", err)
		}
		v.Guesses = guesses
	}
	return v, nil
}

// seatOfToken is the seat of the browser with token hash h, or -1.
func seatOfToken(m *Match, h string) int {
	if h == "" {
		return -1
	}
	return m.SeatOfToken(h)
}

// maySee refuses the match row to who: a practice match is its player's,
// at its own address; a class's, its players' and (teacher) its
// teacher's, at the class's address. One of its players at the practice
// address is told where it moved.
func (h *Hall) maySee(ctx context.Context, who Seer, row *Match, seat int, teacher bool) error {
	switch {
	case row.ClassID == 0 && (seat < 0 || who.Code != ""):
		return ErrNotSeated // practice: its player, at its own address
	case row.ClassID != 0 && who.ClassID != row.ClassID:
		if seat >= 0 && who.Code == "" {
			// One of its players at the practice address.
			code, err := h.classes.Code(ctx, row.ClassID)
			if err != nil {
				return fmt.Errorf("play: see match: %w", err)
			}
			return &MovedError{Code: code}
		}
		return ErrNotSeated
	case row.ClassID != 0 && seat < 0 && !(teacher && who.Teacher):
		return ErrNotSeated
	}
	return nil
}

// replay fills v with the match row, read from disk, as its log replays.
func (h *Hall) replay(ctx context.Context, row *Match, v *View) error {
	rows, err := h.log.MatchEvents(ctx, row.ID)
	if err != nil {
		return fmt.Errorf("play: see match: %w", err)
	}
	m, err := sim.Replay(row.Variant, row.Seed, SimEvents(rows))
	if err != nil {
		return fmt.Errorf("play: replay match %d: %w", row.ID, err)
	}
	whole := *row
	whole.State, whole.Events, whole.Last = m.State(), rows, h.now()
	v.Match = &whole
	return nil
}

// Record returns a finished match's record, with its seed, signed, for
// one of its players or its class's teacher: refused as See refuses, and
// with a SeedLaterError while other matches still play with the same
// dice.
func (h *Hall) Record(ctx context.Context, who Seer, id int64) (sim.Record, *View, error) {
	v, err := h.See(ctx, who, id, true)
	if err != nil {
		return sim.Record{}, nil, err
	}
	if !v.Over() || v.SharingDice > 0 {
		return sim.Record{}, v, &SeedLaterError{Playing: v.SharingDice}
	}
	replayed, err := sim.Replay(v.Variant, v.Seed, SimEvents(v.Events))
	if err != nil {
		return sim.Record{}, v, fmt.Errorf("play: replay match %d: %w", id, err)
	}
	rec := replayed.Record()
	for i := range rec.Events {
		rec.Events[i].At = v.Events[i].At.UTC().Truncate(time.Millisecond)
	}
	for _, seat := range v.Seats {
		if seat.Bot == sim.MysteryBot {
			rec.Mystery = append(rec.Mystery, sim.MysterySeat{Seat: seat.Seat, Strength: sim.MysteryStrength(v.Variant.Game, &v.Seed, seat.Seat)})
		}
	}
	if rec, err = rec.Sign(h.signer); err != nil {
		return sim.Record{}, v, fmt.Errorf("play: sign match %d: %w", id, err)
	}
	return rec, v, nil
}

// RecordSigner is the Ed25519 key that signs records (of matches, and of
// a class's games of Skunk), derived from the server's own key: kept, like
// it, beside the database and nowhere in it, and the same after a
// restart.
func RecordSigner(key []byte) ed25519.PrivateKey {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte("pigclass-record-signing-v1"))
	return ed25519.NewKeyFromSeed(mac.Sum(nil))
}

// RecordKey is the public key this server's records are signed with (see
// sim.Fingerprint), for anyone to check them by.
func (h *Hall) RecordKey() ed25519.PublicKey { return h.signer.Public().(ed25519.PublicKey) }

// Guess is a student's guess of the strength a mystery bot of their match
// played at (sim.MysteryStrengths names them): the review asks for it
// before it tells.
type Guess struct {
	MatchID   int64
	Seat      int // the bot's seat
	StudentID int64
	Guess     string
	At        time.Time
}

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

// SaveGuess stores the strength who, a player of match id, guesses the
// mystery bot at seat played at. It is asked for once the seed is
// published (a SeedLaterError before); a student guesses each bot once,
// and a second guess leaves the first as it was (the log's refusal).
func (h *Hall) SaveGuess(ctx context.Context, who Seer, id int64, seat int, strength string) error {
	v, err := h.See(ctx, who, id, false)
	if err != nil {
		return err
	}
	if !v.Published() {
		return &SeedLaterError{Playing: v.SharingDice}
	}
	if !slices.ContainsFunc(v.Seats, func(s Seat) bool { return s.Seat == seat && s.Bot == sim.MysteryBot }) {
		return ErrNotMystery
	}
	if strengths := sim.MysteryStrengths(v.Variant.Game); !slices.Contains(strengths, strength) {
		return &BadGuessError{Game: v.Variant.Game, Strengths: strengths}
	}
	me := v.Seats[slices.IndexFunc(v.Seats, func(s Seat) bool { return s.Seat == v.Seat })]
	return h.log.SaveGuess(ctx, Guess{MatchID: id, Seat: seat, StudentID: me.StudentID, Guess: strength})
}
