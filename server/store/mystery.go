package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"pigclass/server/play"
	"pigclass/sim"
)

// ErrGuessed refuses a second guess of the same bot by the same student.
var ErrGuessed = errors.New("store: this student has guessed this bot already")

// SaveGuess stores a guess; a student guesses each bot once (ErrGuessed).
// A guess's day is a day of its match's class.
func (s *Store) SaveGuess(ctx context.Context, g play.Guess) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := s.fenceMatch(ctx, tx, g.MatchID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO mystery_guesses (match_id, seat, student_id, guess, at) VALUES (?, ?, ?, ?, ?)`,
			g.MatchID, g.Seat, g.StudentID, g.Guess, s.stamp()); err != nil {
			return err
		}
		var classID sql.NullInt64
		if err := tx.QueryRowContext(ctx, `SELECT class_id FROM matches WHERE id = ?`, g.MatchID).Scan(&classID); err != nil || !classID.Valid {
			return err
		}
		return markDay(ctx, tx, classID.Int64, s.Today(), "")
	})
	switch {
	case isUnique(err):
		return ErrGuessed
	case err != nil:
		return fmt.Errorf("store: save guess: %w", err)
	}
	return nil
}

// Guesses are the guesses made in one match, by seat and student.
func (s *Store) Guesses(ctx context.Context, matchID int64) ([]play.Guess, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT match_id, seat, student_id, guess, at FROM mystery_guesses WHERE match_id = ? ORDER BY seat, student_id`, matchID)
	if err != nil {
		return nil, fmt.Errorf("store: guesses: %w", err)
	}
	return scanGuesses(rows)
}

// scanGuesses reads the guesses rows holds, and closes it.
func scanGuesses(rows *sql.Rows) ([]play.Guess, error) {
	defer rows.Close()
	var out []play.Guess
	for rows.Next() {
		var g play.Guess
		var at string
		if err := rows.Scan(&g.MatchID, &g.Seat, &g.StudentID, &g.Guess, &at); err != nil {
			return nil, fmt.Errorf("store: guesses: %w", err)
		}
		g.At = parseTime(at)
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: guesses: %w", err)
	}
	return out, nil
}

// GuessesOf are one student's guesses, in match and seat order.
func (s *Store) GuessesOf(ctx context.Context, studentID int64) ([]play.Guess, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT match_id, seat, student_id, guess, at FROM mystery_guesses WHERE student_id = ? ORDER BY match_id, seat`, studentID)
	if err != nil {
		return nil, fmt.Errorf("store: guesses: %w", err)
	}
	return scanGuesses(rows)
}

// MysterySeat is a mystery bot of a class's match whose seed is
// published (the match is over and no match with its dice is still
// played), with the guesses its players made.
type MysterySeat struct {
	MatchID int64
	Seat    int
	Variant sim.Variant
	Seed    sim.Seed
	Guesses []string
}

// MysterySeats are the class's mystery bots whose seed is published, in
// match and seat order, of one day of the class (or every day, ""): the
// class chart of guesses against the truth reads them.
func (s *Store) MysterySeats(ctx context.Context, classID int64, day string) ([]MysterySeat, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT m.id, s.seat, m.variant, m.seed, COALESCE(g.guess, '')
		FROM seats s JOIN matches m ON m.id = s.match_id
		LEFT JOIN mystery_guesses g ON g.match_id = s.match_id AND g.seat = s.seat
		WHERE m.class_id = ? AND s.bot = ? AND m.status <> 'playing'
		  AND NOT EXISTS (SELECT 1 FROM matches o WHERE o.class_id = m.class_id AND o.seed = m.seed AND o.status = 'playing')
		  AND (? = '' OR `+dayCond+`)
		ORDER BY m.id, s.seat, g.student_id`, classID, sim.MysteryBot, day, day, day)
	if err != nil {
		return nil, fmt.Errorf("store: mystery seats: %w", err)
	}
	defer rows.Close()
	var out []MysterySeat
	for rows.Next() {
		var id int64
		var seat int
		var v, seed, guess string
		if err := rows.Scan(&id, &seat, &v, &seed, &guess); err != nil {
			return nil, fmt.Errorf("store: mystery seats: %w", err)
		}
		if n := len(out); n == 0 || out[n-1].MatchID != id || out[n-1].Seat != seat {
			m := MysterySeat{MatchID: id, Seat: seat}
			if err := json.Unmarshal([]byte(v), &m.Variant); err != nil {
				return nil, fmt.Errorf("store: match %d variant: %w", id, err)
			}
			if m.Seed, err = sim.ParseSeed(seed); err != nil {
				return nil, fmt.Errorf("store: match %d: %w", id, err)
			}
			out = append(out, m)
		}
		if guess != "" {
			out[len(out)-1].Guesses = append(out[len(out)-1].Guesses, guess)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: mystery seats: %w", err)
	}
	return out, nil
}
