package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// day is the date of t in the server's time zone (YYYY-MM-DD): the day of
// a class a round or a game of Skunk started then belongs to.
func (c *conn) day(t time.Time) string { return t.In(time.Local).Format(time.DateOnly) }

// Today is the date now in the server's time zone, as days are written.
func (s *Store) Today() string { return s.day(s.now()) }

// markDay keeps day among the class's days, with lesson, the lesson plan
// a phase of which was played ("" for the teacher's own round or game); a
// day keeps the first lesson it was given.
func markDay(ctx context.Context, tx *sql.Tx, classID int64, day, lesson string) error {
	// A day keeps every plan it played, in order, comma-separated.
	_, err := tx.ExecContext(ctx, `INSERT INTO class_days (class_id, day, lesson) VALUES (?, ?, ?)
		ON CONFLICT (class_id, day) DO UPDATE SET lesson = CASE WHEN class_days.lesson = '' THEN excluded.lesson ELSE class_days.lesson || ',' || excluded.lesson END
		WHERE excluded.lesson <> '' AND instr(',' || class_days.lesson || ',', ',' || excluded.lesson || ',') = 0`, classID, day, lesson)
	return err
}

// ClassDay is one day a class played: its date, the lesson plans it used
// (comma-separated in the order first played, "" for none), and how many
// rounds, games of Skunk, games of homework and games at tables were
// started.
type ClassDay struct {
	Day      string
	Lesson   string
	Rounds   int
	Skunks   int
	Homework int
	Tables   int
}

// ClassDays are the days of a class, oldest first.
func (s *Store) ClassDays(ctx context.Context, classID int64) ([]ClassDay, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT d.day, d.lesson,
		(SELECT COUNT(*) FROM rounds r WHERE r.class_id = d.class_id AND r.day = d.day),
		(SELECT COUNT(*) FROM skunk_games g WHERE g.class_id = d.class_id AND g.day = d.day),
		(SELECT COUNT(*) FROM matches m WHERE m.class_id = d.class_id AND m.day = d.day AND m.assignment_id IS NOT NULL),
		(SELECT COUNT(*) FROM matches m WHERE m.class_id = d.class_id AND m.day = d.day AND m.at_table <> 0)
		FROM class_days d WHERE d.class_id = ? ORDER BY d.day`, classID)
	if err != nil {
		return nil, fmt.Errorf("store: class days: %w", err)
	}
	defer rows.Close()
	var out []ClassDay
	for rows.Next() {
		var d ClassDay
		if err := rows.Scan(&d.Day, &d.Lesson, &d.Rounds, &d.Skunks, &d.Homework, &d.Tables); err != nil {
			return nil, fmt.Errorf("store: class days: %w", err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// PlayedOn reports whether the class did anything on day (a round, a
// game of Skunk or of homework, a guess).
func (s *Store) PlayedOn(ctx context.Context, classID int64, day string) (bool, error) {
	var played bool
	err := s.rd.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM class_days WHERE class_id = ? AND day = ?)`, classID, day).Scan(&played)
	if err != nil {
		return false, fmt.Errorf("store: played on: %w", err)
	}
	return played, nil
}

// DayCost is what one day's analysed decisions cost, for one student or
// the class, counted by games (a game is one student's seat in one match:
// what their choices in it gave away, the sum of its decisions' costs, as
// chances of winning: 0.01 is one percentage point): how many decisions,
// in how many games, the sum of the games' costs and of their squares,
// and how many different game costs there were (to a billionth), from
// which a mean per game and its interval follow.
type DayCost struct {
	Day             string
	Homework        bool // the day's homework games, apart from its rounds
	Decisions       int
	Games           int
	Cost, GameCost2 float64
	Distinct        int
}

// DayCosts are the costs of the analysed decisions of a class's students
// day by day, oldest first, each day's homework apart from its rounds: of
// one student, or of every student (0). A game is one student's match.
func (s *Store) DayCosts(ctx context.Context, classID, studentID int64) ([]DayCost, error) {
	// One student's are read from their seats (the index on seats'
	// students), not by filtering the whole class's moves: a student's
	// page shows them.
	who, args := "m.class_id = ?", []any{classID}
	if studentID != 0 {
		who, args = "st.student_id = ? AND m.class_id = ?", []any{studentID, classID}
	}
	rows, err := s.rd.QueryContext(ctx, `SELECT d, hw, SUM(n), COUNT(*), SUM(g), SUM(g * g), COUNT(DISTINCT CAST(ROUND(g * 1e9) AS INTEGER))
		FROM (SELECT COALESCE(r.day, m.day) d, m.assignment_id IS NOT NULL hw, COUNT(*) n, SUM(e.cost) g
			FROM events e JOIN matches m ON m.id = e.match_id LEFT JOIN rounds r ON r.id = m.round_id
			JOIN seats st ON st.match_id = e.match_id AND st.seat = e.seat
			WHERE `+who+` AND e.by = 'student' AND e.cost IS NOT NULL
			GROUP BY m.id, r.id, e.seat) per_game
		GROUP BY d, hw ORDER BY d, hw`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: day costs: %w", err)
	}
	defer rows.Close()
	var out []DayCost
	for rows.Next() {
		var d DayCost
		if err := rows.Scan(&d.Day, &d.Homework, &d.Decisions, &d.Games, &d.Cost, &d.GameCost2, &d.Distinct); err != nil {
			return nil, fmt.Errorf("store: day costs: %w", err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}
