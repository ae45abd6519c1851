package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"pigclass/sim"
)

// Assignment is a class's homework: Games games of Variant against Bot,
// due at Due; Closed once the teacher closes it (no game may start).
type Assignment struct {
	ID        int64
	ClassID   int64
	Variant   sim.Variant
	Bot       string
	Games     int
	Due       time.Time
	CreatedAt time.Time
	Closed    bool
}

// CreateAssignment stores a new assignment and returns it with its ID.
func (s *Store) CreateAssignment(ctx context.Context, a Assignment) (Assignment, error) {
	v, _ := json.Marshal(a.Variant)
	a.CreatedAt = s.now()
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) (err error) {
		a.ID, err = insertID(ctx, tx, `INSERT INTO assignments (class_id, variant, bot, games, due_at, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			a.ClassID, string(v), a.Bot, a.Games, a.Due.UTC().Format(time.RFC3339Nano), a.CreatedAt.Format(time.RFC3339Nano))
		return err
	})
	if err != nil {
		return a, fmt.Errorf("store: create assignment: %w", err)
	}
	return a, nil
}

// Assignments are a class's assignments, newest first.
func (s *Store) Assignments(ctx context.Context, classID int64) ([]Assignment, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT id, class_id, variant, bot, games, due_at, created_at, closed_at IS NOT NULL
		FROM assignments WHERE class_id = ? ORDER BY id DESC`, classID)
	if err != nil {
		return nil, fmt.Errorf("store: assignments: %w", err)
	}
	defer rows.Close()
	var out []Assignment
	for rows.Next() {
		var a Assignment
		var v, due, created string
		if err := rows.Scan(&a.ID, &a.ClassID, &v, &a.Bot, &a.Games, &due, &created, &a.Closed); err != nil {
			return nil, fmt.Errorf("store: assignments: %w", err)
		}
		if err := json.Unmarshal([]byte(v), &a.Variant); err != nil {
			return nil, fmt.Errorf("store: assignment %d variant: %w", a.ID, err)
		}
		a.Due, a.CreatedAt = parseTime(due), parseTime(created)
		out = append(out, a)
	}
	return out, rows.Err()
}

// SetAssignment closes (closed) or reopens an assignment of a class, with
// a new due time when due is not zero. ErrNotFound for none.
func (s *Store) SetAssignment(ctx context.Context, classID, id int64, closed bool, due time.Time) error {
	var closedAt any
	if closed {
		closedAt = s.stamp()
	}
	dueAt := sql.NullString{}
	if !due.IsZero() {
		dueAt = sql.NullString{String: due.UTC().Format(time.RFC3339Nano), Valid: true}
	}
	res, err := s.exec(ctx, `UPDATE assignments SET closed_at = ?, due_at = COALESCE(?, due_at) WHERE id = ? AND class_id = ?`, closedAt, dueAt, id, classID)
	if err != nil {
		return fmt.Errorf("store: set assignment: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// HomeworkDone is what one student did of one assignment: games finished
// (over, not ended), of those how many after it was due, and whether a
// game of it is being played.
type HomeworkDone struct {
	AssignmentID, StudentID int64
	Done, Late              int
	Playing                 int64 // the match being played, 0 for none
}

// Homework is what each student of a class did of each assignment.
func (s *Store) Homework(ctx context.Context, classID int64) ([]HomeworkDone, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT m.assignment_id, st.student_id,
		COALESCE(SUM(CASE WHEN m.status = 'over' THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN m.status = 'over' AND m.created_at > a.due_at THEN 1 ELSE 0 END), 0),
		COALESCE(MAX(CASE WHEN m.status = 'playing' THEN m.id END), 0)
		FROM matches m JOIN assignments a ON a.id = m.assignment_id JOIN seats st ON st.match_id = m.id AND st.student_id IS NOT NULL
		WHERE a.class_id = ? GROUP BY m.assignment_id, st.student_id`, classID)
	if err != nil {
		return nil, fmt.Errorf("store: homework: %w", err)
	}
	defer rows.Close()
	var out []HomeworkDone
	for rows.Next() {
		var h HomeworkDone
		if err := rows.Scan(&h.AssignmentID, &h.StudentID, &h.Done, &h.Late, &h.Playing); err != nil {
			return nil, fmt.Errorf("store: homework: %w", err)
		}
		out = append(out, h)
	}
	return out, rows.Err()
}
