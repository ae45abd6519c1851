package store

import (
	"context"
	"fmt"
	"time"
)

// lastActiveSQL is a class c's last activity, as stored: the latest of
// its start, the upgrade that started its clock (retain_from), a
// student's join, a round's start or end, a match's start or end, a game
// of Skunk and its moves, and a guess of a mystery bot. Times are stored
// as RFC 3339 in UTC, so the latest string is the latest time (to the
// second).
func (c *conn) lastActiveSQL() string {
	g := c.greatest()
	return g + `(c.created_at, c.retain_from,
	COALESCE((SELECT MAX(joined_at) FROM students WHERE class_id = c.id), ''),
	COALESCE((SELECT MAX(` + g + `(started_at, COALESCE(ended_at, ''))) FROM rounds WHERE class_id = c.id), ''),
	COALESCE((SELECT MAX(` + g + `(created_at, COALESCE(ended_at, ''))) FROM matches WHERE class_id = c.id), ''),
	COALESCE((SELECT MAX(created_at) FROM skunk_games WHERE class_id = c.id), ''),
	COALESCE((SELECT MAX(e.at) FROM skunk_events e JOIN skunk_games g ON g.id = e.game_id WHERE g.class_id = c.id), ''),
	COALESCE((SELECT MAX(g.at) FROM mystery_guesses g JOIN matches m ON m.id = g.match_id WHERE m.class_id = c.id), ''))`
}

// LastActive is when the class was last active (lastActiveSQL).
func (s *Store) LastActive(ctx context.Context, classID int64) (time.Time, error) {
	var at string
	if err := s.rd.QueryRowContext(ctx, `SELECT `+s.lastActiveSQL()+` FROM classes c WHERE c.id = ?`, classID).Scan(&at); err != nil {
		return time.Time{}, fmt.Errorf("store: last activity: %w", err)
	}
	return parseTime(at), nil
}

// IdleClasses are the classes last active before before, oldest id first.
func (s *Store) IdleClasses(ctx context.Context, before time.Time) ([]int64, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT c.id FROM classes c WHERE `+s.lastActiveSQL()+` < ? ORDER BY c.id`, before.UTC().Format(time.RFC3339Nano))
	if err != nil {
		return nil, fmt.Errorf("store: idle classes: %w", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("store: idle classes: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: idle classes: %w", err)
	}
	return ids, nil
}
