package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"pigclass/sim"
)

// An Experiment is a student's run of the class's lab (issue 62): games
// simulated games of First (moving first) against Second in Variant, with
// the dice of Seed (sim.Experiment replays it), of which First won Wins.
type Experiment struct {
	ID, ClassID, StudentID int64
	Variant                sim.Variant
	First, Second          string
	Games, Wins            int
	Seed                   string
	CreatedAt              time.Time
	Day                    string
}

// AddExperiment stores a run of the lab and returns it with its ID, time
// and day.
func (s *Store) AddExperiment(ctx context.Context, e Experiment) (Experiment, error) {
	v, err := json.Marshal(e.Variant)
	if err != nil {
		return e, err
	}
	e.CreatedAt = s.now()
	e.Day = s.day(e.CreatedAt)
	err = s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		e.ID, err = insertID(ctx, tx, `INSERT INTO experiments (class_id, student_id, variant, first, second, games, seed, wins, created_at, day) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			e.ClassID, e.StudentID, string(v), e.First, e.Second, e.Games, e.Seed, e.Wins, e.CreatedAt.Format(time.RFC3339Nano), e.Day)
		return err
	})
	if err != nil {
		return e, fmt.Errorf("store: add an experiment: %w", err)
	}
	return e, nil
}

// StudentExperiments counts a student's runs of a class's lab.
func (s *Store) StudentExperiments(ctx context.Context, classID, studentID int64) (int, error) {
	var n int
	if err := s.rd.QueryRowContext(ctx, `SELECT COUNT(*) FROM experiments WHERE class_id = ? AND student_id = ?`, classID, studentID).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: a student's experiments: %w", err)
	}
	return n, nil
}

// Experiments are a class's runs of the lab, in the order they were run.
func (s *Store) Experiments(ctx context.Context, classID int64) ([]Experiment, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT id, class_id, student_id, variant, first, second, games, seed, wins, created_at, day FROM experiments WHERE class_id = ? ORDER BY id`, classID)
	if err != nil {
		return nil, fmt.Errorf("store: experiments: %w", err)
	}
	defer rows.Close()
	var out []Experiment
	for rows.Next() {
		var e Experiment
		var v, at string
		if err := rows.Scan(&e.ID, &e.ClassID, &e.StudentID, &v, &e.First, &e.Second, &e.Games, &e.Seed, &e.Wins, &at, &e.Day); err != nil {
			return nil, fmt.Errorf("store: experiments: %w", err)
		}
		if err := json.Unmarshal([]byte(v), &e.Variant); err != nil {
			return nil, fmt.Errorf("store: experiment %d's variant: %w", e.ID, err)
		}
		e.CreatedAt = parseTime(at)
		out = append(out, e)
	}
	return out, rows.Err()
}

// SetLab sets the question the teacher poses the class's lab (JSON, ""
// for none) and whether its exact answer is shown.
func (s *Store) SetLab(ctx context.Context, classID int64, lab string, revealed bool) error {
	if _, err := s.exec(ctx, `UPDATE classes SET lab = ?, lab_revealed = ? WHERE id = ?`, lab, revealed, classID); err != nil {
		return fmt.Errorf("store: set the lab: %w", err)
	}
	return nil
}
