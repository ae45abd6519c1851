package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"pigclass/server/play"
	"pigclass/sim"
)

// SkunkAction is one event of a game of Skunk.
type SkunkAction string

// The events of Skunk.
const (
	SkunkRoll  SkunkAction = "roll"  // the shared dice thrown
	SkunkStand SkunkAction = "stand" // a student stayed standing for the roll
	SkunkSit   SkunkAction = "sit"   // a student sat down, banking the round
	SkunkLeave SkunkAction = "leave" // a student removed from the class left the game, keeping what they banked
)

// SkunkGame is a stored game of whole-class Skunk.
type SkunkGame struct {
	ID       int64
	ClassID  int64
	Seed     sim.Seed
	Rounds   int
	Status   play.Status
	Students []int64 // by participant number
	Names    []string
	Anon     []string
	Day      string // the day of the class it was started on (play.Round.Day)
}

// SkunkEvent is one row of a Skunk log. Participant is -1 for a roll.
type SkunkEvent struct {
	GameID      int64
	Seq         int
	Action      SkunkAction
	Participant int
	Round, Roll int
	Faces       sim.Faces // the roll's dice (also on the stand rows it answers)
	RoundTotal  int
	Score       int
	EV          SkunkAction // stand or sit ("" for a roll)
	At          time.Time
}

// CreateSkunk stores a new game of Skunk for the given students; lesson
// is the lesson plan whose phase it plays ("" for the teacher's own).
func (s *Store) CreateSkunk(ctx context.Context, classID int64, seed sim.Seed, rounds int, students []int64, lesson string) (int64, error) {
	var id int64
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		now := s.now()
		day := s.day(now)
		var err error
		id, err = insertID(ctx, tx, `INSERT INTO skunk_games (class_id, seed, commitment, rounds, status, created_at, day) VALUES (?, ?, ?, ?, 'playing', ?, ?)`,
			classID, seed.String(), seed.Commitment(), rounds, now.Format(time.RFC3339Nano), day)
		if err != nil {
			return err
		}
		if err := markDay(ctx, tx, classID, day, lesson); err != nil {
			return err
		}
		for p, st := range students {
			if _, err := tx.ExecContext(ctx, `INSERT INTO skunk_players (game_id, participant, student_id) VALUES (?, ?, ?)`, id, p, st); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("store: create skunk: %w", err)
	}
	return id, nil
}

// AppendSkunk adds rows to a Skunk log, and with over marks the game over,
// in one transaction.
func (s *Store) AppendSkunk(ctx context.Context, gameID int64, rows []SkunkEvent, over bool) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		for _, e := range rows {
			if _, err := tx.ExecContext(ctx, `INSERT INTO skunk_events (game_id, seq, action, participant, round, roll, faces, round_total, score, ev_action, at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, gameID, e.Seq, e.Action, e.Participant, e.Round, e.Roll, e.Faces.String(), e.RoundTotal, e.Score, e.EV,
				e.At.UTC().Format(time.RFC3339Nano)); err != nil {
				return err
			}
		}
		if over {
			if _, err := tx.ExecContext(ctx, `UPDATE skunk_games SET status = 'over' WHERE id = ?`, gameID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: append skunk events: %w", err)
	}
	return nil
}

// EndSkunk marks a class's Skunk games still playing as ended.
func (s *Store) EndSkunk(ctx context.Context, classID int64) error {
	if _, err := s.exec(ctx, `UPDATE skunk_games SET status = 'ended' WHERE class_id = ? AND status = 'playing'`, classID); err != nil {
		return fmt.Errorf("store: end skunk: %w", err)
	}
	return nil
}

// SkunkGames returns the Skunk games of a class (classID 0: of every
// class) with the given status ("" for any), oldest first.
func (s *Store) SkunkGames(ctx context.Context, classID int64, status play.Status) ([]SkunkGame, error) {
	var out []SkunkGame
	err := s.readTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, class_id, seed, rounds, status, day FROM skunk_games
			WHERE (? = 0 OR class_id = ?) AND (? = '' OR status = ?) ORDER BY id`, classID, classID, status, status)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var g SkunkGame
			var seed string
			if err := rows.Scan(&g.ID, &g.ClassID, &seed, &g.Rounds, &g.Status, &g.Day); err != nil {
				return err
			}
			if g.Seed, err = sim.ParseSeed(seed); err != nil {
				return err
			}
			out = append(out, g)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		rows.Close()
		for i := range out {
			prow, err := tx.QueryContext(ctx, `SELECT p.student_id, st.nickname, st.anon_name FROM skunk_players p JOIN students st ON st.id = p.student_id
				WHERE p.game_id = ? ORDER BY p.participant`, out[i].ID)
			if err != nil {
				return err
			}
			for prow.Next() {
				var id int64
				var name, anon string
				if err := prow.Scan(&id, &name, &anon); err != nil {
					prow.Close()
					return err
				}
				out[i].Students = append(out[i].Students, id)
				out[i].Names = append(out[i].Names, name)
				out[i].Anon = append(out[i].Anon, anon)
			}
			prow.Close()
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: skunk games: %w", err)
	}
	return out, nil
}

// SkunkEvents returns a game's log in order.
func (s *Store) SkunkEvents(ctx context.Context, gameID int64) ([]SkunkEvent, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT game_id, seq, action, participant, round, roll, faces, round_total, score, ev_action, at
		FROM skunk_events WHERE game_id = ? ORDER BY seq`, gameID)
	if err != nil {
		return nil, fmt.Errorf("store: skunk events: %w", err)
	}
	defer rows.Close()
	var out []SkunkEvent
	for rows.Next() {
		var e SkunkEvent
		var at, faces string
		if err := rows.Scan(&e.GameID, &e.Seq, &e.Action, &e.Participant, &e.Round, &e.Roll, &faces, &e.RoundTotal, &e.Score, &e.EV, &at); err != nil {
			return nil, fmt.Errorf("store: skunk events: %w", err)
		}
		if e.Faces, err = ParseFaces(faces); err != nil {
			return nil, fmt.Errorf("store: skunk event %d/%d: %w", e.GameID, e.Seq, err)
		}
		e.At = parseTime(at)
		out = append(out, e)
	}
	return out, rows.Err()
}

// ReplaySkunk rebuilds a game of Skunk from its stored log: its rolls and
// sits (stand rows are decisions, not moves of the game).
func ReplaySkunk(game SkunkGame, rows []SkunkEvent) (*sim.Skunk, error) {
	var evs []sim.SkunkEvent
	for _, r := range rows {
		switch r.Action {
		case SkunkRoll:
			evs = append(evs, sim.SkunkEvent{Action: sim.Roll})
		case SkunkSit:
			evs = append(evs, sim.SkunkEvent{Action: sim.Hold, Participant: r.Participant})
		case SkunkLeave:
			evs = append(evs, sim.SkunkEvent{Action: sim.Resign, Participant: r.Participant})
		}
	}
	return sim.ReplaySkunk(game.Seed, len(game.Students), game.Rounds, evs)
}

// SkunkDecision is one stand or sit of a game of Skunk, with the game's
// number of rounds: what the Skunk chart reads.
type SkunkDecision struct {
	SkunkEvent
	Rounds int
}

// SkunkWinners are a finished game's winners: every participant tied on
// the most points, none if no one scored.
func SkunkWinners(g *sim.Skunk) []int {
	w := g.Winners()
	if len(w) > 0 && g.Score(w[0]) == 0 {
		return nil
	}
	return w
}

// AddSkunkStats adds the class's games of whole-class Skunk (of one day,
// or every day: "") to its
// students' totals, as any game counts: each finished game played, each
// win, each stand or sit decision.
func (s *Store) AddSkunkStats(ctx context.Context, classID int64, day string, stats map[int64]StudentStats) error {
	games, err := s.SkunkGames(ctx, classID, "")
	if err != nil {
		return err
	}
	for _, game := range games {
		if day != "" && game.Day != day {
			continue
		}
		log, err := s.SkunkEvents(ctx, game.ID)
		if err != nil {
			return err
		}
		g, err := ReplaySkunk(game, log)
		if err != nil {
			return fmt.Errorf("store: skunk game %d: %w", game.ID, err)
		}
		AddSkunkGame(stats, game, g, log)
	}
	return nil
}

// AddSkunkGame adds moves of a game of Skunk (log) to students' totals:
// their decisions, and, when over is the finished game, the game and its
// wins (nil while it goes on).
func AddSkunkGame(stats map[int64]StudentStats, game SkunkGame, over *sim.Skunk, log []SkunkEvent) {
	add := func(p int, f func(*StudentStats)) {
		if p < 0 || p >= len(game.Students) {
			return
		}
		st := stats[game.Students[p]]
		f(&st)
		stats[game.Students[p]] = st
	}
	for _, e := range log {
		if e.Action == SkunkStand || e.Action == SkunkSit {
			add(e.Participant, func(st *StudentStats) { st.Decisions++ })
		}
	}
	if over == nil || !over.Over() {
		return
	}
	for p := range game.Students {
		add(p, func(st *StudentStats) { st.Games++ })
	}
	for _, w := range SkunkWinners(over) {
		add(w, func(st *StudentStats) { st.Wins++ })
	}
}
