package store

import (
	"context"
	"fmt"

	"pigclass/server/play"
)

// ClassArms are the arms of "Decide before you roll" (issue 62) the
// class's students were drawn into, by student: a student keeps their arm
// in every round of the experiment.
func (s *Store) ClassArms(ctx context.Context, classID int64) (map[int64]play.Arm, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT s.student_id, MIN(s.arm) FROM seats s JOIN matches m ON m.id = s.match_id
		WHERE m.class_id = ? AND s.arm <> '' AND s.student_id IS NOT NULL GROUP BY s.student_id`, classID)
	if err != nil {
		return nil, fmt.Errorf("store: the class's arms: %w", err)
	}
	defer rows.Close()
	out := map[int64]play.Arm{}
	for rows.Next() {
		var id int64
		var a string
		if err := rows.Scan(&id, &a); err != nil {
			return nil, fmt.Errorf("store: the class's arms: %w", err)
		}
		out[id] = play.Arm(a)
	}
	return out, rows.Err()
}

// ArmGame is one game of the experiment a student played to its end, in
// their arm: the cost of their own decisions in it (the share of the
// chance to win they gave away, as events.cost: 0.05 is 5 percentage
// points; exact; a time-out is not theirs) and how many there were.
type ArmGame struct {
	StudentID, MatchID int64
	Arm                play.Arm
	Cost               float64
	Decisions          int
}

// ArmGames are the class's games of the experiment played to the end
// (status over), one a student's seat, in match order.
func (s *Store) ArmGames(ctx context.Context, classID int64) ([]ArmGame, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT s.student_id, m.id, s.arm, COALESCE(SUM(e.cost), 0), COUNT(e.seq)
		FROM seats s JOIN matches m ON m.id = s.match_id
		LEFT JOIN events e ON e.match_id = s.match_id AND e.seat = s.seat AND e.by = 'student' AND e.cost IS NOT NULL
		WHERE m.class_id = ? AND m.status = 'over' AND s.arm <> '' AND s.student_id IS NOT NULL
		GROUP BY s.student_id, m.id, s.arm ORDER BY m.id, s.student_id`, classID)
	if err != nil {
		return nil, fmt.Errorf("store: the experiment's games: %w", err)
	}
	defer rows.Close()
	var out []ArmGame
	for rows.Next() {
		var g ArmGame
		var a string
		if err := rows.Scan(&g.StudentID, &g.MatchID, &a, &g.Cost, &g.Decisions); err != nil {
			return nil, fmt.Errorf("store: the experiment's games: %w", err)
		}
		g.Arm = play.Arm(a)
		out = append(out, g)
	}
	return out, rows.Err()
}
