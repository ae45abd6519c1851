package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"pigclass/server/play"
	"pigclass/sim"
)

// CreateRound stores a round and its matches in one transaction and returns
// the round with its ID and the matches' IDs.
func (s *Store) CreateRound(ctx context.Context, r play.Round, matches []play.Match) (play.Round, []int64, error) {
	var ids []int64
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(number), 0) + 1 FROM rounds WHERE class_id = ?`, r.ClassID).Scan(&r.Number); err != nil {
			return err
		}
		v, _ := json.Marshal(r.Variant)
		r.StartedAt = s.now()
		r.Day = s.day(r.StartedAt)
		var err error
		r.ID, err = insertID(ctx, tx, `INSERT INTO rounds (class_id, number, variant, mode, bot, same_seed, started_at, day, arms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			r.ClassID, r.Number, string(v), r.Mode, r.Bot, r.SameSeed, r.StartedAt.Format(time.RFC3339Nano), r.Day, r.Arms)
		if err != nil {
			return err
		}
		if err := markDay(ctx, tx, r.ClassID, r.Day, r.Lesson); err != nil {
			return err
		}
		for _, m := range matches {
			m.RoundID = r.ID
			id, err := s.insertMatch(ctx, tx, m)
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		return r, nil, fmt.Errorf("store: create round: %w", err)
	}
	return r, ids, nil
}

// CreateMatch stores a match (a practice match, or one outside rounds).
func (s *Store) CreateMatch(ctx context.Context, m play.Match) (int64, error) {
	var id int64
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) (err error) {
		id, err = s.insertMatch(ctx, tx, m)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: create match: %w", err)
	}
	return id, nil
}

// correctThrow stores e, a throw entered again, over the entered throw
// of the same seq; there must be one.
func correctThrow(ctx context.Context, tx *sql.Tx, matchID int64, e *play.Event) error {
	res, err := tx.ExecContext(ctx, correctThrowSQL, e.Faces.String(), e.Dice, matchID, e.Seq)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("event %d/%d: no throw entered by hand to correct (%v)", matchID, e.Seq, err)
	}
	return nil
}

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

func (s *Store) insertMatch(ctx context.Context, tx *sql.Tx, m play.Match) (int64, error) {
	v, _ := json.Marshal(m.Variant)
	now := s.now()
	id, err := insertID(ctx, tx, `INSERT INTO matches (class_id, round_id, assignment_id, variant, seed, commitment, first_seat, status, created_at, day, at_table)
		VALUES (?, ?, ?, ?, ?, ?, ?, 'playing', ?, ?, ?)`,
		nullID(m.ClassID), nullID(m.RoundID), nullID(m.AssignmentID), string(v), m.Seed.String(), m.Seed.Commitment(), m.FirstSeat, now.Format(time.RFC3339Nano), s.day(now), m.AtTable)
	if err != nil {
		return 0, err
	}
	if m.ClassID != 0 && m.RoundID == 0 {
		// A game of homework or at a table: its day is a day of the class
		// (a round's marks its own), with the lesson a table plays.
		if err := markDay(ctx, tx, m.ClassID, s.day(now), m.Lesson); err != nil {
			return 0, err
		}
	}
	for _, seat := range m.Seats {
		var bot any
		if seat.Bot != "" {
			bot = seat.Bot
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO seats (match_id, seat, student_id, bot, arm) VALUES (?, ?, ?, ?, ?)`, id, seat.Seat, nullID(seat.StudentID), bot, string(seat.Arm)); err != nil {
			return 0, err
		}
	}
	return id, nil
}

// The hot statements of the decision path, prepared once (Store.prepare).
const (
	insertEventSQL = `INSERT INTO events (match_id, seq, seat, action, turn, roll, faces, by, at,
		score, scores, opponent_score, turn_total, dice, win_if_roll, win_if_hold, win_if_chosen, options, best_action, ev_action, cost, approximate, agrees, pending, entered, plan)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	// correctThrowSQL stores a throw entered again over the one it
	// corrects: the same decision, its pieces read anew (play.Event.Corrects).
	correctThrowSQL = `UPDATE events SET faces = ?, dice = ? WHERE match_id = ? AND seq = ? AND entered = 1`
	markOverSQL     = `UPDATE matches SET status = 'over', winner = ?, result = ?, ended_at = ? WHERE id = ?`
)

// AppendEvents adds events to a match's log and, with a result, marks it
// over, as one job of the writer: when it returns nil they are on disk.
// Many matches' calls at once share one transaction (group commit). An
// error wrapping ErrNotSaved means nothing of it was stored.
func (s *Store) AppendEvents(ctx context.Context, matchID int64, events []play.Event, result *sim.Result) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := s.fenceMatch(ctx, tx, matchID); err != nil {
			return err
		}
		ins := tx.StmtContext(ctx, s.insertEvent)
		for _, e := range events {
			if e.Corrects {
				if err := correctThrow(ctx, tx, matchID, &e); err != nil {
					return err
				}
				continue
			}
			scores, _ := json.Marshal(e.Scores)
			a := analysisCells(e.Analysis)
			if _, err := ins.ExecContext(ctx, matchID, e.Seq, e.Seat, e.Action.String(), e.Turn, e.Roll, e.Faces.String(), e.By, e.At.UTC().Format(time.RFC3339Nano),
				e.Score, string(scores), e.OpponentScore, e.TurnTotal, e.Dice, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], e.Pending, e.Entered, e.Plan); err != nil {
				return err
			}
		}
		if result != nil {
			b, _ := json.Marshal(result)
			if _, err := tx.StmtContext(ctx, s.markOver).ExecContext(ctx, result.Winner, string(b), s.stamp(), matchID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: append events to match %d: %w", matchID, err)
	}
	return nil
}

// analysisCells returns the columns win_if_roll, win_if_hold,
// win_if_chosen, options, best_action, ev_action, cost, approximate and
// agrees of an analysis (NULL but approximate for none).
func analysisCells(a *play.Analysis) [9]any {
	if a == nil {
		return [9]any{7: false}
	}
	b, _ := json.Marshal(a.Options)
	var agrees any
	if a.Agrees != nil {
		agrees = strings.Join(a.Agrees, ",")
	}
	return [9]any{floatOrNil(a.WinIfRoll), floatOrNil(a.WinIfHold), a.WinIfChosen, string(b), a.Best.String(), a.EV.String(), a.Cost, a.Approximate, agrees}
}

// FillAnalyses stores the analyses of decisions stored pending (each
// event's match, sequence number and Analysis; nil for none) and clears
// their pending mark, as one job of the writer.
func (s *Store) FillAnalyses(ctx context.Context, events []play.Event) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		st, err := tx.PrepareContext(ctx, `UPDATE events SET win_if_roll = ?, win_if_hold = ?, win_if_chosen = ?, options = ?,
			best_action = ?, ev_action = ?, cost = ?, approximate = ?, agrees = ?, pending = 0 WHERE match_id = ? AND seq = ? AND pending = 1`)
		if err != nil {
			return err
		}
		defer st.Close()
		for _, e := range events {
			a := analysisCells(e.Analysis)
			if _, err := st.ExecContext(ctx, append(a[:], e.MatchID, e.Seq)...); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: fill in analyses: %w", err)
	}
	return nil
}

// PendingMatches returns the matches with decisions whose analysis is
// pending, in ID order.
func (s *Store) PendingMatches(ctx context.Context, classID int64) ([]int64, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT DISTINCT match_id FROM events WHERE pending = 1
		AND (? = 0 OR match_id IN (SELECT id FROM matches WHERE class_id = ?)) ORDER BY match_id`, classID, classID)
	if err != nil {
		return nil, fmt.Errorf("store: pending analyses: %w", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("store: pending analyses: %w", err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

func floatOrNil(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// EndMatch marks a match still playing as ended by the teacher.
func (s *Store) EndMatch(ctx context.Context, id int64) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := s.fenceMatch(ctx, tx, id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE matches SET status = 'ended', ended_at = ? WHERE id = ? AND status = 'playing'`, s.stamp(), id)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: end match: %w", err)
	}
	return nil
}

// EndRound marks a round ended, and its matches still playing.
func (s *Store) EndRound(ctx context.Context, roundID int64) error {
	return s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE rounds SET ended_at = ? WHERE id = ? AND ended_at IS NULL`, s.stamp(), roundID); err != nil {
			return fmt.Errorf("store: end round: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE matches SET status = 'ended', ended_at = ? WHERE round_id = ? AND status = 'playing'`, s.stamp(), roundID); err != nil {
			return fmt.Errorf("store: end round: %w", err)
		}
		return nil
	})
}

// Rounds lists a class's rounds, the newest last.
func (s *Store) Rounds(ctx context.Context, classID int64) ([]play.Round, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT id, class_id, number, variant, mode, bot, same_seed, started_at, ended_at IS NOT NULL, day, arms
		FROM rounds WHERE class_id = ? ORDER BY number`, classID)
	if err != nil {
		return nil, fmt.Errorf("store: rounds: %w", err)
	}
	defer rows.Close()
	var out []play.Round
	for rows.Next() {
		var r play.Round
		var v, started string
		if err := rows.Scan(&r.ID, &r.ClassID, &r.Number, &v, &r.Mode, &r.Bot, &r.SameSeed, &started, &r.Ended, &r.Day, &r.Arms); err != nil {
			return nil, fmt.Errorf("store: rounds: %w", err)
		}
		if err := json.Unmarshal([]byte(v), &r.Variant); err != nil {
			return nil, fmt.Errorf("store: round %d variant: %w", r.ID, err)
		}
		r.StartedAt = parseTime(started)
		out = append(out, r)
	}
	return out, rows.Err()
}

const matchColumns = `m.id, COALESCE(m.class_id, 0), COALESCE(m.round_id, 0), COALESCE(r.number, 0), m.variant, m.seed, m.first_seat,
	m.status, COALESCE(m.winner, -1), COALESCE(m.result, ''), m.created_at, COALESCE(r.day, NULLIF(m.day, ''), ''), COALESCE(m.assignment_id, 0), m.at_table`

// MatchFilter chooses matches.
type MatchFilter struct {
	ID        int64
	ClassID   int64
	RoundID   int64
	StudentID int64
	Status    play.Status
}

// Matches returns the matches that pass the filter, oldest first, with their
// seats.
func (s *Store) Matches(ctx context.Context, f MatchFilter) ([]play.Match, error) {
	where, args := "1 = 1", []any{}
	if f.ID != 0 {
		where += " AND m.id = ?"
		args = append(args, f.ID)
	}
	if f.ClassID != 0 {
		where += " AND m.class_id = ?"
		args = append(args, f.ClassID)
	}
	if f.RoundID != 0 {
		where += " AND m.round_id = ?"
		args = append(args, f.RoundID)
	}
	if f.StudentID != 0 {
		where += " AND m.id IN (SELECT match_id FROM seats WHERE student_id = ?)"
		args = append(args, f.StudentID)
	}
	if f.Status != "" {
		where += " AND m.status = ?"
		args = append(args, f.Status)
	}
	var out []play.Match
	err := s.readTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+matchColumns+` FROM matches m LEFT JOIN rounds r ON r.id = m.round_id WHERE `+where+` ORDER BY m.id`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var m play.Match
			var v, seed, result, created string
			if err := rows.Scan(&m.ID, &m.ClassID, &m.RoundID, &m.RoundIndex, &v, &seed, &m.FirstSeat, &m.Status, &m.Winner, &result, &created, &m.Day, &m.AssignmentID, &m.AtTable); err != nil {
				return err
			}
			if err := json.Unmarshal([]byte(v), &m.Variant); err != nil {
				return fmt.Errorf("match %d variant: %w", m.ID, err)
			}
			if m.Seed, err = sim.ParseSeed(seed); err != nil {
				return fmt.Errorf("match %d: %w", m.ID, err)
			}
			if result != "" {
				m.Result = &sim.Result{}
				if err := json.Unmarshal([]byte(result), m.Result); err != nil {
					return fmt.Errorf("match %d result: %w", m.ID, err)
				}
			}
			m.CreatedAt = parseTime(created)
			out = append(out, m)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		rows.Close()
		if len(out) == 1 {
			out[0].Seats, err = seatsOf(ctx, tx, out[0].ID)
			return err
		}
		return allSeats(ctx, tx, out, where, args)
	})
	if err != nil {
		return nil, fmt.Errorf("store: matches: %w", err)
	}
	return out, nil
}

// MatchByID returns one match with its seats.
func (s *Store) MatchByID(ctx context.Context, id int64) (play.Match, error) {
	ms, err := s.Matches(ctx, MatchFilter{ID: id})
	if err != nil {
		return play.Match{}, err
	}
	if len(ms) == 0 {
		return play.Match{}, fmt.Errorf("%w: %w", ErrNotFound, play.ErrNoMatch)
	}
	return ms[0], nil
}

// allSeats fills the seats of matches (chosen by where and args, as read
// in the same transaction) with one query.
func allSeats(ctx context.Context, tx *sql.Tx, out []play.Match, where string, args []any) error {
	index := make(map[int64]int, len(out))
	for i, m := range out {
		index[m.ID] = i
	}
	rows, err := tx.QueryContext(ctx, `SELECT s.match_id, `+seatColumns+`
		FROM seats s LEFT JOIN students st ON st.id = s.student_id
		WHERE s.match_id IN (SELECT m.id FROM matches m WHERE `+where+`) ORDER BY s.match_id, s.seat`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var st play.Seat
		if err := rows.Scan(&id, &st.Seat, &st.StudentID, &st.Bot, &st.Nickname, &st.AnonName, &st.TokenHash, &st.Arm); err != nil {
			return err
		}
		if i, ok := index[id]; ok {
			out[i].Seats = append(out[i].Seats, st)
		}
	}
	return rows.Err()
}

const seatColumns = `s.seat, COALESCE(s.student_id, 0), COALESCE(s.bot, ''), COALESCE(st.nickname, ''), COALESCE(st.anon_name, ''), COALESCE(st.token_hash, ''), s.arm`

func seatsOf(ctx context.Context, tx *sql.Tx, matchID int64) ([]play.Seat, error) {
	rows, err := tx.QueryContext(ctx, `SELECT `+seatColumns+`
		FROM seats s LEFT JOIN students st ON st.id = s.student_id WHERE s.match_id = ? ORDER BY s.seat`, matchID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []play.Seat
	for rows.Next() {
		var st play.Seat
		if err := rows.Scan(&st.Seat, &st.StudentID, &st.Bot, &st.Nickname, &st.AnonName, &st.TokenHash, &st.Arm); err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, rows.Err()
}

// EventFilter chooses events: of one match, of every match of a class, or
// of every match still being played.
type EventFilter struct {
	MatchID int64
	ClassID int64
	Playing bool
}

// PlayingEvents returns the logs of every match still being played, by
// match, in one query: what a restart replays.
func (s *Store) PlayingEvents(ctx context.Context, classID int64) (map[int64][]play.Event, error) {
	events, err := s.Events(ctx, EventFilter{Playing: true, ClassID: classID})
	if err != nil {
		return nil, err
	}
	out := map[int64][]play.Event{}
	for _, e := range events {
		out[e.MatchID] = append(out[e.MatchID], e)
	}
	return out, nil
}

// Events returns events in match and sequence order.
func (s *Store) Events(ctx context.Context, f EventFilter) ([]play.Event, error) {
	var out []play.Event
	err := s.EachEvent(ctx, f, func(e *play.Event) error {
		out = append(out, *e)
		return nil
	})
	return out, err
}

// EachEvent calls fn with each event in match and sequence order, read one
// row at a time: an export of a school's day holds one event in memory,
// not all of them. fn must not keep e; an error from fn stops the reading.
func (s *Store) EachEvent(ctx context.Context, f EventFilter, fn func(e *play.Event) error) error {
	where, args := "e.match_id = ?", []any{f.MatchID}
	switch {
	case f.Playing && f.ClassID != 0:
		where, args = "m.status = ? AND m.class_id = ?", []any{play.Playing, f.ClassID}
	case f.Playing:
		where, args = "m.status = ?", []any{play.Playing}
	case f.MatchID == 0:
		where, args = "m.class_id = ?", []any{f.ClassID}
	}
	rows, err := s.rd.QueryContext(ctx, `SELECT e.match_id, e.seq, e.seat, e.action, e.turn, e.roll, e.faces, e.by, e.at,
		e.score, e.scores, e.opponent_score, e.turn_total, e.dice, e.win_if_roll, e.win_if_hold, e.win_if_chosen,
		COALESCE(e.options, ''), COALESCE(e.best_action, ''), COALESCE(e.ev_action, ''), e.cost, e.approximate, e.agrees, e.pending, e.entered, e.plan
		FROM events e JOIN matches m ON m.id = e.match_id WHERE `+where+` ORDER BY e.match_id, e.seq`, args...)
	if err != nil {
		return fmt.Errorf("store: events: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var e play.Event
		var at, scores, options, action, faces string
		var best, ev sim.Action
		var approximate bool
		var roll, hold, chosen, cost sql.NullFloat64
		var agrees sql.NullString
		if err := rows.Scan(&e.MatchID, &e.Seq, &e.Seat, &action, &e.Turn, &e.Roll, &faces, &e.By, &at,
			&e.Score, &scores, &e.OpponentScore, &e.TurnTotal, &e.Dice, &roll, &hold, &chosen, &options, actionCell{&best}, actionCell{&ev}, &cost, &approximate, &agrees, &e.Pending, &e.Entered, &e.Plan); err != nil {
			return fmt.Errorf("store: events: %w", err)
		}
		e.At = parseTime(at)
		if e.Action, err = sim.ParseAction(action); err != nil {
			return fmt.Errorf("store: event %d/%d: %w", e.MatchID, e.Seq, err)
		}
		if e.Faces, err = ParseFaces(faces); err != nil {
			return fmt.Errorf("store: event %d/%d: %w", e.MatchID, e.Seq, err)
		}
		if err := json.Unmarshal([]byte(scores), &e.Scores); err != nil {
			return fmt.Errorf("store: event %d/%d scores: %w", e.MatchID, e.Seq, err)
		}
		if chosen.Valid {
			a := &play.Analysis{WinIfChosen: chosen.Float64, Best: best, EV: ev, Cost: cost.Float64, Approximate: approximate}
			if roll.Valid {
				a.WinIfRoll = &roll.Float64
			}
			if hold.Valid {
				a.WinIfHold = &hold.Float64
			}
			if agrees.Valid {
				a.Agrees = strings.Split(agrees.String, ",")
				if agrees.String == "" {
					a.Agrees = []string{}
				}
			}
			if options != "" {
				if err := json.Unmarshal([]byte(options), &a.Options); err != nil {
					return fmt.Errorf("store: event %d/%d options: %w", e.MatchID, e.Seq, err)
				}
			}
			e.Analysis = a
		}
		if err := fn(&e); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: events: %w", err)
	}
	return nil
}

// ParseFaces reads faces as stored: "3 5", or "" for none.
func ParseFaces(s string) (sim.Faces, error) {
	var dice []int
	for _, f := range strings.Fields(s) {
		n, err := strconv.Atoi(f)
		if err != nil {
			return sim.Faces{}, fmt.Errorf("faces %q: %w", s, err)
		}
		dice = append(dice, n)
	}
	return sim.FacesOf(dice...)
}

// DeletePractice deletes the practice matches (no class) that ended
// before cut, with their events, and then the practice players (no class)
// who joined before cut and have no match left. It returns how many
// matches went.
func (s *Store) DeletePractice(ctx context.Context, cut time.Time) (int64, error) {
	var n int64
	at := cut.UTC().Format(time.RFC3339Nano)
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM matches WHERE class_id IS NULL AND status <> 'playing' AND ended_at < ?`, at)
		if err != nil {
			return err
		}
		if n, err = res.RowsAffected(); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM students WHERE class_id IS NULL AND joined_at < ?
			AND NOT EXISTS (SELECT 1 FROM seats WHERE seats.student_id = students.id)`, at)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: delete practice: %w", err)
	}
	return n, nil
}

// EndIdlePractice ends the practice matches (no class) still playing whose
// last move, or start, came before cut, and returns how many.
func (s *Store) EndIdlePractice(ctx context.Context, cut time.Time) (int64, error) {
	res, err := s.exec(ctx, `UPDATE matches SET status = 'ended', ended_at = ? WHERE class_id IS NULL AND status = 'playing'
		AND COALESCE((SELECT MAX(at) FROM events WHERE events.match_id = matches.id), created_at) < ?`, s.stamp(), cut.UTC().Format(time.RFC3339Nano))
	if err != nil {
		return 0, fmt.Errorf("store: end idle practice: %w", err)
	}
	return res.RowsAffected()
}

// MatchEvents returns the log of one match, in order.
func (s *Store) MatchEvents(ctx context.Context, id int64) ([]play.Event, error) {
	return s.Events(ctx, EventFilter{MatchID: id})
}

// PlayingMatches returns every match still being played, with its seats.
func (s *Store) PlayingMatches(ctx context.Context, classID int64) ([]play.Match, error) {
	return s.Matches(ctx, MatchFilter{Status: play.Playing, ClassID: classID})
}

// The store is where the live matches are written.
var _ play.Log = (*Store)(nil)
