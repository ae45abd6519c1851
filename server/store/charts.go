package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"pigclass/server/play"
	"pigclass/sim"
)

// ChartFilter chooses the decisions a chart is drawn from: a class, one
// student (0: all), and one variant (game and target; equal turns apart).
type ChartFilter struct {
	ClassID    int64
	StudentID  int64
	Game       GameFilter
	Target     int
	EqualTurns bool
	MatchID    int64
	RoundID    int64
	// Day keeps the matches of the rounds of one day of the class
	// (play.Round.Day); "" keeps every day.
	Day string
}

// GameFilter picks the matches of one game; the zero value picks every
// game.
type GameFilter struct {
	g   sim.Game
	set bool
}

// OnlyGame picks the matches of g.
func OnlyGame(g sim.Game) GameFilter { return GameFilter{g: g, set: true} }

func (f GameFilter) game() (sim.Game, bool) { return f.g, f.set }

// where builds the WHERE clause shared by the chart queries over events e
// joined to matches m and seats s.
func (f ChartFilter) where(s *conn) (string, []any) {
	var conds []string
	var args []any
	add := func(c string, a ...any) { conds = append(conds, c); args = append(args, a...) }
	if f.ClassID != 0 {
		add("m.class_id = ?", f.ClassID)
	}
	if f.MatchID != 0 {
		add("m.id = ?", f.MatchID)
	}
	if f.RoundID != 0 {
		add("m.round_id = ?", f.RoundID)
	}
	if f.Day != "" {
		add(dayCond, f.Day, f.Day)
	}
	if f.StudentID != 0 {
		add("s.student_id = ?", f.StudentID)
	}
	if g, ok := f.Game.game(); ok {
		add(s.jsonText("m.variant", "game")+" = ?", g.String())
	}
	if f.Target != 0 {
		add(s.jsonInt("m.variant", "target")+" = ?", f.Target)
	}
	if _, ok := f.Game.game(); ok {
		add(s.jsonFlag("m.variant", "equal_turns")+" = ?", f.EqualTurns)
	}
	if len(conds) == 0 {
		return "1 = 1", nil
	}
	return strings.Join(conds, " AND "), args
}

// dayCond keeps the matches of a match m played on one day of its class
// (its round's day, or its own for homework); two arguments, the day.
const dayCond = `(m.day = ? OR m.round_id IN (SELECT id FROM rounds WHERE day = ?))`

const chartJoin = ` FROM events e JOIN matches m ON m.id = e.match_id JOIN seats s ON s.match_id = e.match_id AND s.seat = e.seat `

// Decision is one decision as the charts read it.
type Decision struct {
	MatchID   int64
	Seq       int
	Seat      int
	StudentID int64
	Student   string // nickname, or the bot's strategy
	Anon      string
	By        play.Decider
	Action    sim.Action
	Score     int
	Opponent  int
	TurnTotal int
	Roll      int // the roll in the turn, from 0
	Faces     sim.Faces
	Best, EV  sim.Action
	Cost      float64
	Analysed  bool
	// Approximate: read from the two-player table against the leader
	// (three or more players before their exact table was solved).
	Approximate bool
	BestWin     float64 // the win probability of the best option (the state's value)
	ChosenWin   float64
	FirstSeat   int
	MatchSeats  int
	// Luck, for a throw (HasLuck), is how much its dice changed the
	// mover's chance of winning: the chance after them (the next
	// position's value, or 1 if the throw won) minus the throw's own
	// chance before them (sim/solve's Table.Luck). Two-player matches
	// whose next move is analysed only.
	Luck    float64
	HasLuck bool
}

// Decisions returns the decisions (not resignations) that pass f, in match
// and sequence order: the one query behind the decision charts.
func (s *Store) Decisions(ctx context.Context, f ChartFilter, studentsOnly bool) ([]Decision, error) {
	where, args := f.where(&s.conn)
	if studentsOnly {
		where += " AND e.by = 'student'"
	}
	rows, err := s.rd.QueryContext(ctx, `SELECT e.match_id, e.seq, e.seat, COALESCE(s.student_id, 0),
		COALESCE(st.nickname, s.bot), COALESCE(st.anon_name, s.bot), e.by, e.action, e.score, e.opponent_score, e.turn_total, e.roll, e.faces,
		COALESCE(e.best_action, ''), COALESCE(e.ev_action, ''), COALESCE(e.cost, 0), e.win_if_chosen IS NOT NULL,
		COALESCE(`+s.jsonNumAt("e.options", "e.best_action")+`, 0), COALESCE(e.win_if_chosen, 0),
		m.first_seat, `+s.jsonInt("m.variant", "seats")+`, e.approximate,
		m.winner, n.seat, `+s.jsonNumAt("n.options", "n.best_action")+chartJoin+`LEFT JOIN students st ON st.id = s.student_id
		LEFT JOIN events n ON e.faces <> '' AND n.match_id = e.match_id AND n.seq = e.seq + 1
		WHERE e.action <> 'resign' AND `+where+` ORDER BY e.match_id, e.seq`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: decisions: %w", err)
	}
	defer rows.Close()
	var out []Decision
	for rows.Next() {
		var d Decision
		var action, faces string
		var winner, nextSeat sql.NullInt64
		var nextBest sql.NullFloat64
		if err := rows.Scan(&d.MatchID, &d.Seq, &d.Seat, &d.StudentID, &d.Student, &d.Anon, &d.By, &action, &d.Score, &d.Opponent, &d.TurnTotal,
			&d.Roll, &faces, actionCell{&d.Best}, actionCell{&d.EV}, &d.Cost, &d.Analysed, &d.BestWin, &d.ChosenWin, &d.FirstSeat, &d.MatchSeats, &d.Approximate,
			&winner, &nextSeat, &nextBest); err != nil {
			return nil, fmt.Errorf("store: decisions: %w", err)
		}
		if faces != "" && d.Analysed && d.MatchSeats == 2 {
			switch {
			case nextSeat.Valid && nextBest.Valid && int(nextSeat.Int64) == d.Seat:
				d.Luck, d.HasLuck = nextBest.Float64-d.ChosenWin, true
			case nextSeat.Valid && nextBest.Valid:
				d.Luck, d.HasLuck = 1-nextBest.Float64-d.ChosenWin, true
			case !nextSeat.Valid && winner.Valid && int(winner.Int64) == d.Seat:
				d.Luck, d.HasLuck = 1-d.ChosenWin, true // the throw won
			}
		}
		if d.Action, err = sim.ParseAction(action); err != nil {
			return nil, fmt.Errorf("store: decision %d/%d: %w", d.MatchID, d.Seq, err)
		}
		if d.Faces, err = ParseFaces(faces); err != nil {
			return nil, fmt.Errorf("store: decision %d/%d: %w", d.MatchID, d.Seq, err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// Faces returns every die thrown in a class's matches and its games of
// whole-class Skunk, in the order they were thrown: the query behind the
// class dice charts.
func (s *Store) Faces(ctx context.Context, classID int64) ([]int, error) {
	m, err := s.Marks(ctx, classID, sim.DieName, "")
	return m.All, err
}

// Thrown are the marks a class's pieces of one kind showed, piece by
// piece in the order they were thrown: all of them, and those thrown with
// real pieces at a table and entered by hand (issue 45), apart.
type Thrown struct {
	All, Entered []int
}

// Marks returns the marks shown by the class's pieces of one kind (a
// GameRules' Piece.Name: "die", "pig"), in the order they were thrown, from
// the matches of every game whose pieces they are (and from Skunk, whose
// pieces are dice); of one day of the class, or of every day ("").
func (s *Store) Marks(ctx context.Context, classID int64, piece, day string) (Thrown, error) {
	var out Thrown
	games := []any{classID}
	for _, g := range sim.Games {
		if g.Rules().Piece.Name == piece {
			games = append(games, g.String())
		}
	}
	if len(games) == 1 {
		return out, nil
	}
	skunk := piece == sim.SkunkPiece
	rows, err := s.rd.QueryContext(ctx, `SELECT faces, entered FROM (
		SELECT e.faces, e.entered, e.at, e.match_id AS g, e.seq FROM events e JOIN matches m ON m.id = e.match_id
			WHERE m.class_id = ? AND e.faces <> '' AND `+s.jsonText("m.variant", "game")+` IN (?`+strings.Repeat(", ?", len(games)-2)+`)
			AND (? = '' OR `+dayCond+`)
		UNION ALL
		SELECT k.faces, 0, k.at, -k.game_id AS g, k.seq FROM skunk_events k JOIN skunk_games sg ON sg.id = k.game_id
			WHERE sg.class_id = ? AND ? = 1 AND k.action = 'roll' AND k.faces <> '' AND (? = '' OR sg.day = ?)
	) thrown ORDER BY at, g, seq`, append(games, day, day, day, classID, skunk, day, day)...)
	if err != nil {
		return out, fmt.Errorf("store: faces: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var faces string
		var entered bool
		if err := rows.Scan(&faces, &entered); err != nil {
			return out, fmt.Errorf("store: faces: %w", err)
		}
		f, err := ParseFaces(faces)
		if err != nil {
			return out, fmt.Errorf("store: faces: %w", err)
		}
		out.All = append(out.All, f.Ints()...)
		if entered {
			out.Entered = append(out.Entered, f.Ints()...)
		}
	}
	return out, rows.Err()
}

// FirstPlayerResults counts the finished two-player matches of a variant in
// a class and how many the first player won: the query behind the
// first-player chart.
func (s *Store) FirstPlayerResults(ctx context.Context, f ChartFilter) (games, firstWins int, err error) {
	g, _ := f.Game.game()
	err = s.rd.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN m.winner = m.first_seat THEN 1 ELSE 0 END), 0) FROM matches m
		WHERE m.class_id = ? AND m.status = 'over' AND `+s.jsonInt("m.variant", "seats")+` = 2
		AND `+s.jsonText("m.variant", "game")+` = ? AND `+s.jsonInt("m.variant", "target")+` = ?
		AND `+s.jsonFlag("m.variant", "equal_turns")+` = ?
		AND (? = '' OR `+dayCond+`)`, f.ClassID, g.String(), f.Target, f.EqualTurns, f.Day, f.Day, f.Day).Scan(&games, &firstWins)
	if err != nil && err != sql.ErrNoRows {
		return 0, 0, fmt.Errorf("store: first player results: %w", err)
	}
	return games, firstWins, nil
}

// FirstRules is one set of rules a class's finished two-player matches
// were played under, with how many and how many the first player won.
type FirstRules struct {
	Game       string
	Target     int
	EqualTurns bool
	Games      int
	FirstWins  int
}

// FirstPlayerRules counts a class's finished two-player matches (f's class
// and day) by their rules, whatever the game: the most played first.
func (s *Store) FirstPlayerRules(ctx context.Context, f ChartFilter) ([]FirstRules, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT `+s.jsonText("m.variant", "game")+` g, `+s.jsonInt("m.variant", "target")+` t, `+s.jsonFlag("m.variant", "equal_turns")+` e,
		COUNT(*) n, COALESCE(SUM(CASE WHEN m.winner = m.first_seat THEN 1 ELSE 0 END), 0) w FROM matches m
		WHERE m.class_id = ? AND m.status = 'over' AND `+s.jsonInt("m.variant", "seats")+` = 2
		AND (? = '' OR `+dayCond+`)
		GROUP BY g, t, e ORDER BY n DESC, g, t, e`, f.ClassID, f.Day, f.Day, f.Day)
	if err != nil {
		return nil, fmt.Errorf("store: first player rules: %w", err)
	}
	defer rows.Close()
	var out []FirstRules
	for rows.Next() {
		var r FirstRules
		var equal int
		if err := rows.Scan(&r.Game, &r.Target, &equal, &r.Games, &r.FirstWins); err != nil {
			return nil, fmt.Errorf("store: first player rules: %w", err)
		}
		r.EqualTurns = equal != 0
		out = append(out, r)
	}
	return out, rows.Err()
}

// PigTargets returns the targets of the one-die Pig matches (standard
// rules) of a class, the most played first.
func (s *Store) PigTargets(ctx context.Context, classID int64) ([]int, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT `+s.jsonInt("variant", "target")+` t, COUNT(*) n FROM matches
		WHERE class_id = ? AND `+s.jsonText("variant", "game")+` = 'pig' AND `+s.jsonFlag("variant", "equal_turns")+` = 0
		GROUP BY t ORDER BY n DESC, t DESC`, classID)
	if err != nil {
		return nil, fmt.Errorf("store: pig targets: %w", err)
	}
	defer rows.Close()
	var out []int
	for rows.Next() {
		var t, n int
		if err := rows.Scan(&t, &n); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// StudentStats sums one student's play in a class: finished matches and
// wins, and their own decisions (not bots', not timeouts) with how many had
// an analysis, agreed with perfect play and with expected-value play, and
// their total cost.
type StudentStats struct {
	Games, Wins, Decisions int
	Analysed               int
	Approximate            int // of Analysed, read from the two-player table against the leader
	AgreeOptimal, AgreeEV  int
	Cost                   float64
}

// ClassStats returns every student's totals in a class, by student ID, and
// the number of decisions (of anyone) in the class: two aggregate queries.
func (s *Store) ClassStats(ctx context.Context, classID int64) (map[int64]StudentStats, int, error) {
	return s.ClassStatsOn(ctx, classID, "")
}

// ClassStatsOn is ClassStats of one day of the class ("" every day).
func (s *Store) ClassStatsOn(ctx context.Context, classID int64, day string) (map[int64]StudentStats, int, error) {
	out := map[int64]StudentStats{}
	rows, err := s.rd.QueryContext(ctx, `SELECT s.student_id, COUNT(*), COALESCE(SUM(CASE WHEN m.winner = s.seat THEN 1 ELSE 0 END), 0)
		FROM seats s JOIN matches m ON m.id = s.match_id
		WHERE m.class_id = ? AND m.status = 'over' AND s.student_id IS NOT NULL AND (? = '' OR `+dayCond+`) GROUP BY s.student_id`, classID, day, day, day)
	if err != nil {
		return nil, 0, fmt.Errorf("store: class stats: %w", err)
	}
	for rows.Next() {
		var id int64
		var st StudentStats
		if err := rows.Scan(&id, &st.Games, &st.Wins); err != nil {
			rows.Close()
			return nil, 0, fmt.Errorf("store: class stats: %w", err)
		}
		out[id] = st
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	// Only the student's own decisions count (by = 'student': no bot moves,
	// no timeouts), so a decision's choice is its action.
	rows, err = s.rd.QueryContext(ctx, `SELECT s.student_id, COUNT(*),
		COALESCE(SUM(CASE WHEN e.win_if_chosen IS NOT NULL THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN e.win_if_chosen IS NOT NULL AND e.action = e.best_action THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN e.win_if_chosen IS NOT NULL AND e.action = e.ev_action THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(e.cost), 0), COALESCE(SUM(CASE WHEN e.win_if_chosen IS NOT NULL AND e.approximate = 1 THEN 1 ELSE 0 END), 0)`+chartJoin+`
		WHERE m.class_id = ? AND e.by = 'student' AND e.action <> 'resign' AND s.student_id IS NOT NULL AND (? = '' OR `+dayCond+`) GROUP BY s.student_id`, classID, day, day, day)
	if err != nil {
		return nil, 0, fmt.Errorf("store: class stats: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var d StudentStats
		if err := rows.Scan(&id, &d.Decisions, &d.Analysed, &d.AgreeOptimal, &d.AgreeEV, &d.Cost, &d.Approximate); err != nil {
			return nil, 0, fmt.Errorf("store: class stats: %w", err)
		}
		st := out[id]
		st.Decisions, st.Analysed, st.AgreeOptimal, st.AgreeEV, st.Cost, st.Approximate = d.Decisions, d.Analysed, d.AgreeOptimal, d.AgreeEV, d.Cost, d.Approximate
		out[id] = st
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	var total int
	if err := s.rd.QueryRowContext(ctx, `SELECT COUNT(*) FROM events e JOIN matches m ON m.id = e.match_id
		WHERE m.class_id = ? AND e.action <> 'resign'`, classID).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("store: class stats: %w", err)
	}
	return out, total, nil
}
