package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"pigclass/sim"
)

// Plans are the class's strategies and tournaments (issue 46): the
// students' plans (sim.Plan) and the tournaments that play them.
type Plans struct{ c *conn }

// Plans returns the store's strategies and tournaments.
func (s *Store) Plans() Plans { return Plans{&s.conn} }

// SavedPlan is a student's plan as stored: its game and target are the
// plan's own.
type SavedPlan struct {
	StudentID int64
	Plan      sim.Plan
	SavedAt   time.Time
}

// Save stores a student's plan in their class, in place of the last.
func (p Plans) Save(ctx context.Context, classID, studentID int64, pl sim.Plan) error {
	pl.Name = "" // a plan names no one: the standings name its student
	b, err := json.Marshal(pl)
	if err != nil {
		return fmt.Errorf("store: save plan: %w", err)
	}
	_, err = p.c.exec(ctx, `INSERT INTO plans (class_id, student_id, plan, saved_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (class_id, student_id) DO UPDATE SET plan = excluded.plan, saved_at = excluded.saved_at`,
		classID, studentID, string(b), p.c.stamp())
	if err != nil {
		return fmt.Errorf("store: save plan: %w", err)
	}
	return nil
}

// Of is the class's plans, one a student who saved one, by student id;
// studentID > 0 reads that student's alone.
func (p Plans) Of(ctx context.Context, classID, studentID int64) ([]SavedPlan, error) {
	rows, err := p.c.rd.QueryContext(ctx, `SELECT student_id, plan, saved_at FROM plans
		WHERE class_id = ? AND (? = 0 OR student_id = ?) ORDER BY student_id`, classID, studentID, studentID)
	if err != nil {
		return nil, fmt.Errorf("store: plans: %w", err)
	}
	defer rows.Close()
	var out []SavedPlan
	for rows.Next() {
		var sp SavedPlan
		var plan, saved string
		if err := rows.Scan(&sp.StudentID, &plan, &saved); err != nil {
			return nil, fmt.Errorf("store: plans: %w", err)
		}
		if err := json.Unmarshal([]byte(plan), &sp.Plan); err != nil {
			return nil, fmt.Errorf("store: plan of student %d: %w", sp.StudentID, err)
		}
		sp.SavedAt = parseTime(saved)
		out = append(out, sp)
	}
	return out, rows.Err()
}

// Tournament is a class's tournament: its game, the bots the teacher
// added, when entries close by themselves and closed (zero while open),
// and its standings (as
// JSON, nil until every duel is played).
type Tournament struct {
	ID        int64
	ClassID   int64
	Variant   sim.Variant
	Bots      []string
	CreatedAt time.Time
	ClosesAt  time.Time // when the entries close by themselves (zero: on the teacher's button)
	ClosedAt  time.Time
	Standings []byte
	// Entries are the students' plans as they were when the entries
	// closed (CloseTournament), the ones the duels play; Fixed is false
	// for a tournament closed before pigclass fixed them, or still open.
	Entries []SavedPlan
	Fixed   bool
}

// entry is one of a tournament's fixed entries as stored (JSON).
type entry struct {
	Student int64    `json:"student"`
	Plan    sim.Plan `json:"plan"`
}

// OpenTournament stores a class's new tournament, open for entries.
func (p Plans) OpenTournament(ctx context.Context, t Tournament) (Tournament, error) {
	v, _ := json.Marshal(t.Variant)
	t.CreatedAt = p.c.now()
	var closes any
	if !t.ClosesAt.IsZero() {
		closes = t.ClosesAt.UTC().Format(time.RFC3339Nano)
	}
	err := p.c.inTx(ctx, func(ctx context.Context, tx *sql.Tx) (err error) {
		t.ID, err = insertID(ctx, tx, `INSERT INTO tournaments (class_id, variant, bots, created_at, closes_at) VALUES (?, ?, ?, ?, ?)`,
			t.ClassID, string(v), strings.Join(t.Bots, ","), t.CreatedAt.Format(time.RFC3339Nano), closes)
		return err
	})
	if err != nil {
		return t, fmt.Errorf("store: open tournament: %w", err)
	}
	return t, nil
}

// LatestTournament is the class's newest tournament; ErrNotFound for none.
func (p Plans) LatestTournament(ctx context.Context, classID int64) (Tournament, error) {
	got, err := p.tournaments(ctx, classID, 1)
	if err == nil && len(got) == 0 {
		err = ErrNotFound
	}
	if err != nil {
		return Tournament{}, err
	}
	return got[0], nil
}

// Tournaments are the class's tournaments, newest first.
func (p Plans) Tournaments(ctx context.Context, classID int64) ([]Tournament, error) {
	return p.tournaments(ctx, classID, -1)
}

// tournaments reads the class's tournaments, newest first, limit at most
// (-1: all).
func (p Plans) tournaments(ctx context.Context, classID int64, limit int) ([]Tournament, error) {
	query, args := `SELECT id, class_id, variant, bots, created_at, closes_at, closed_at, standings, entries FROM tournaments
		WHERE class_id = ? ORDER BY id DESC`, []any{classID}
	if limit >= 0 {
		query, args = query+` LIMIT ?`, append(args, limit)
	}
	rows, err := p.c.rd.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: tournaments: %w", err)
	}
	defer rows.Close()
	var out []Tournament
	for rows.Next() {
		t, err := scanTournament(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// scanTournament reads one tournament's row.
func scanTournament(rows *sql.Rows) (Tournament, error) {
	var t Tournament
	var v, bots, created string
	var closes, closed, entries sql.NullString
	if err := rows.Scan(&t.ID, &t.ClassID, &v, &bots, &created, &closes, &closed, &t.Standings, &entries); err != nil {
		return t, fmt.Errorf("store: tournament: %w", err)
	}
	if entries.Valid {
		var es []entry
		if err := json.Unmarshal([]byte(entries.String), &es); err != nil {
			return t, fmt.Errorf("store: tournament %d entries: %w", t.ID, err)
		}
		t.Fixed, t.Entries = true, make([]SavedPlan, len(es))
		for i, e := range es {
			t.Entries[i] = SavedPlan{StudentID: e.Student, Plan: e.Plan}
		}
	}
	if err := json.Unmarshal([]byte(v), &t.Variant); err != nil {
		return t, fmt.Errorf("store: tournament %d variant: %w", t.ID, err)
	}
	if bots != "" {
		t.Bots = strings.Split(bots, ",")
	}
	t.CreatedAt = parseTime(created)
	if closes.Valid {
		t.ClosesAt = parseTime(closes.String)
	}
	if closed.Valid {
		t.ClosedAt = parseTime(closed.String)
	}
	return t, nil
}

// CloseTournament closes a tournament's entries (once), fixing them: the
// plans of the class's students still in it, as they are now, are the
// tournament's entries from then on (Tournament.Entries). ErrNotFound
// when the class has no such tournament open.
func (p Plans) CloseTournament(ctx context.Context, classID, id int64) error {
	err := p.c.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE tournaments SET closed_at = ? WHERE id = ? AND class_id = ? AND closed_at IS NULL`, p.c.stamp(), id, classID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		rows, err := tx.QueryContext(ctx, `SELECT p.student_id, p.plan FROM plans p JOIN students s ON s.id = p.student_id
			WHERE p.class_id = ? AND s.removed = 0 ORDER BY p.student_id`, classID)
		if err != nil {
			return err
		}
		es := []entry{}
		for rows.Next() {
			var e entry
			var plan string
			if err := rows.Scan(&e.Student, &plan); err != nil {
				rows.Close()
				return err
			}
			if err := json.Unmarshal([]byte(plan), &e.Plan); err != nil {
				rows.Close()
				return fmt.Errorf("plan of student %d: %w", e.Student, err)
			}
			es = append(es, e)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		b, err := json.Marshal(es)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE tournaments SET entries = ? WHERE id = ?`, string(b), id)
		return err
	})
	if err != nil && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("store: close tournament: %w", err)
	}
	return err
}

// SaveStandings stores a played tournament's standings.
func (p Plans) SaveStandings(ctx context.Context, id int64, standings []byte) error {
	if _, err := p.c.exec(ctx, `UPDATE tournaments SET standings = ? WHERE id = ?`, string(standings), id); err != nil {
		return fmt.Errorf("store: tournament standings: %w", err)
	}
	return nil
}
