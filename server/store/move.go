package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Move copies a school's SQLite file into a district's Postgres database
// (pigclass migrate): every class with its students, rounds, matches and
// their moves, games of Skunk, homework, days, plans, tournaments, runs
// of the lab and the links of a learning platform (LTI) to its classes and
// students, in one transaction (all of it or nothing). The platforms
// themselves are the server's, not a school's: the district registers
// them again (pigclass lti), and a moved class's link finds its platform
// by issuer and client id. The district's database may
// hold other schools' classes already: every row gets a new id there, and
// every reference to one (a column, a tournament's entries) follows it.
// A match's record names no id, so it replays and verifies as before.
// The file is opened as a server would open it (migrated first if an
// older pigclass wrote it); nothing of its data changes.

// MoveReport counts what Move copied.
type MoveReport struct {
	Classes, Students, Matches, Events int
}

// moveTable is a table Move copies: whether it has its own id (then every
// row gets a new one, RETURNING id), and which columns hold the id of a
// row of another table.
type moveTable struct {
	name string
	id   bool
	refs map[string]string // column -> the table whose id it holds
}

// moveTables are every table of a school's data, each after those its
// rows refer to.
var moveTables = []moveTable{
	{"classes", true, nil},
	{"students", true, map[string]string{"class_id": "classes"}},
	{"rounds", true, map[string]string{"class_id": "classes"}},
	{"assignments", true, map[string]string{"class_id": "classes"}},
	{"matches", true, map[string]string{"class_id": "classes", "round_id": "rounds", "assignment_id": "assignments"}},
	{"seats", false, map[string]string{"match_id": "matches", "student_id": "students"}},
	{"events", false, map[string]string{"match_id": "matches"}},
	{"skunk_games", true, map[string]string{"class_id": "classes"}},
	{"skunk_players", false, map[string]string{"game_id": "skunk_games", "student_id": "students"}},
	{"skunk_events", false, map[string]string{"game_id": "skunk_games"}},
	{"mystery_guesses", false, map[string]string{"match_id": "matches", "student_id": "students"}},
	{"class_days", false, map[string]string{"class_id": "classes"}},
	{"moved_tokens", false, map[string]string{"class_id": "classes", "student_id": "students"}},
	{"plans", false, map[string]string{"class_id": "classes", "student_id": "students"}},
	{"tournaments", true, map[string]string{"class_id": "classes"}},
	{"experiments", true, map[string]string{"class_id": "classes", "student_id": "students"}},
	{"lti_links", false, map[string]string{"class_id": "classes"}},
	{"lti_members", false, map[string]string{"class_id": "classes", "student_id": "students"}},
	{"lti_scores", false, map[string]string{"class_id": "classes", "student_id": "students"}},
}

// Move copies the SQLite file from into the Postgres database to.
func Move(ctx context.Context, from, to string) (MoveReport, error) {
	var rep MoveReport
	if IsPostgres(from) || !IsPostgres(to) {
		return rep, errors.New("migrate: --from is a school's SQLite file, --to the district's postgres:// database")
	}
	src, err := Open(ctx, from)
	if err != nil {
		return rep, err
	}
	defer src.Close()
	dst, err := Open(ctx, to)
	if err != nil {
		return rep, err
	}
	defer dst.Close()
	ids := map[string]map[int64]int64{} // table -> old id -> new id
	err = dst.w.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		for _, t := range moveTables {
			n, err := moveRows(ctx, src.rd, tx, t, ids)
			if err != nil {
				return fmt.Errorf("migrate: %s: %w", t.name, err)
			}
			switch t.name {
			case "classes":
				rep.Classes = n
			case "students":
				rep.Students = n
			case "matches":
				rep.Matches = n
			case "events":
				rep.Events = n
			}
		}
		return nil
	})
	return rep, err
}

// moveRows copies one table's rows, ids mapped, and returns how many.
// It names the columns it copies from the district's own schema, and
// refuses a file whose table has other columns: a file written by another
// program, whose column names would otherwise go into the SQL.
func moveRows(ctx context.Context, from *sql.DB, tx *sql.Tx, t moveTable, ids map[string]map[int64]int64) (int, error) {
	cols, err := sameColumns(ctx, from, tx, t.name)
	if err != nil {
		return 0, err
	}
	quoted := make([]string, len(cols))
	for i, c := range cols {
		quoted[i] = quoteIdent(c)
	}
	rows, err := from.QueryContext(ctx, `SELECT `+strings.Join(quoted, ", ")+` FROM `+quoteIdent(t.name)+` ORDER BY 1`)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var names, marks []string
	for i, c := range cols {
		if t.id && c == "id" {
			continue
		}
		names, marks = append(names, quoted[i]), append(marks, "?")
	}
	insert := `INSERT INTO ` + quoteIdent(t.name) + ` (` + strings.Join(names, ", ") + `) VALUES (` + strings.Join(marks, ", ") + `)`
	if t.id {
		insert += ` RETURNING id`
		ids[t.name] = map[int64]int64{}
	}
	st, err := tx.PrepareContext(ctx, insert)
	if err != nil {
		return 0, err
	}
	defer st.Close()
	n := 0
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return n, err
		}
		var old int64
		args := make([]any, 0, len(names))
		for i, c := range cols {
			if t.id && c == "id" {
				old = vals[i].(int64)
				continue
			}
			v, err := movedValue(t, c, vals[i], ids)
			if err != nil {
				return n, fmt.Errorf("row %d: %w", n+1, err)
			}
			args = append(args, v)
		}
		if t.id {
			var id int64
			if err := st.QueryRowContext(ctx, args...).Scan(&id); err != nil {
				return n, explainMove(t, cols, vals, err)
			}
			ids[t.name][old] = id
		} else if _, err := st.ExecContext(ctx, args...); err != nil {
			return n, err
		}
		n++
	}
	return n, rows.Err()
}

// movedValue is a column's value as the district holds it: an id of
// another table's row its new id there, a tournament's standings with
// their students' ids moved.
func movedValue(t moveTable, col string, v any, ids map[string]map[int64]int64) (any, error) {
	switch {
	case v == nil:
		return nil, nil
	case t.refs[col] != "":
		id, ok := ids[t.refs[col]][v.(int64)]
		if !ok {
			return nil, fmt.Errorf("%s %d is in no %s", col, v, t.refs[col])
		}
		return id, nil
	case t.name == "tournaments" && col == "standings":
		return movedStandings(v, ids["students"])
	case t.name == "tournaments" && col == "entries":
		return movedEntries(v, ids["students"])
	}
	return v, nil
}

// movedStandings is a tournament's standings (contest.Result's JSON) with
// its entrants' student ids moved.
func movedStandings(v any, students map[int64]int64) (any, error) {
	text, ok := textOf(v)
	if !ok {
		return v, nil
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(text), &res); err != nil {
		return nil, fmt.Errorf("standings: %w", err)
	}
	entries, _ := res["entries"].([]any)
	for _, e := range entries {
		if m, ok := e.(map[string]any); ok {
			if id, ok := m["student"].(float64); ok {
				m["student"] = students[int64(id)]
			}
		}
	}
	b, err := json.Marshal(res)
	return string(b), err
}

// movedEntries is a tournament's fixed entries (Tournament.Entries' JSON)
// with their student ids moved.
func movedEntries(v any, students map[int64]int64) (any, error) {
	text, ok := textOf(v)
	if !ok {
		return v, nil
	}
	var es []map[string]any
	if err := json.Unmarshal([]byte(text), &es); err != nil {
		return nil, fmt.Errorf("entries: %w", err)
	}
	for _, e := range es {
		if id, ok := e["student"].(float64); ok {
			e["student"] = students[int64(id)]
		}
	}
	b, err := json.Marshal(es)
	return string(b), err
}

// textOf is a text column's value as the file's driver gives it.
func textOf(v any) (string, bool) {
	switch s := v.(type) {
	case string:
		return s, true
	case []byte:
		return string(s), true
	}
	return "", false
}

// explainMove says what to do about a row that cannot be moved: a class
// code the district already has is the school's to change.
func explainMove(t moveTable, cols []string, vals []any, err error) error {
	if t.name == "classes" && isUnique(err) {
		return fmt.Errorf("the class code %v is the district's already (another school's class): nothing was moved. Delete or export that class first, or move this school into a database of its own", vals[slices.Index(cols, "code")])
	}
	return err
}

// sameColumns returns the columns of table as the district's schema has
// them, in its order, once the school file's table is found to have
// exactly those; else an error naming the difference.
func sameColumns(ctx context.Context, from *sql.DB, tx *sql.Tx, table string) ([]string, error) {
	known, err := columnsOf(ctx, tx, `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position`, table)
	if err != nil {
		return nil, err
	}
	have, err := columnsOf(ctx, from, `SELECT name FROM pragma_table_info(?) ORDER BY cid`, table)
	if err != nil {
		return nil, err
	}
	var extra, missing []string
	for _, c := range have {
		if !slices.Contains(known, c) {
			extra = append(extra, fmt.Sprintf("%q", c))
		}
	}
	for _, c := range known {
		if !slices.Contains(have, c) {
			missing = append(missing, c)
		}
	}
	switch {
	case len(known) == 0:
		return nil, fmt.Errorf("the district's database has no table %s: is it pigclass's?", table)
	case len(extra) > 0 || len(missing) > 0:
		return nil, fmt.Errorf("the school file's table %s is not pigclass's (columns it has that pigclass's has not: %s; columns it lacks: %s): nothing was moved; move a file pigclass wrote", table, orNone(extra), orNone(missing))
	}
	return known, nil
}

// querier is what sameColumns reads a schema through: the school's file
// or the district's transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// columnsOf runs a query of one text column (names) and returns its rows.
func columnsOf(ctx context.Context, db querier, query string, args ...any) ([]string, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}

// quoteIdent quotes a table's or a column's name for SQL, on both
// engines.
func quoteIdent(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }
