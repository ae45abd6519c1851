package report

import (
	"strconv"
	"strings"
	"time"

	"pigclass/sim"
)

// The CSV files a teacher downloads, Column by Column. The files' headers
// are made from these lists and a test reads every file against them, so
// the glossary page cannot drift from the files.

// Kind is what a Column holds, as a spreadsheet or pandas reads it.
type Kind int

const (
	KindText    Kind = iota // any text
	KindInteger             // a whole number
	KindNumber              // a decimal number, dot decimals
	KindBoolean             // true or false
	KindTime                // ISO 8601 with the server's UTC offset
	KindLocal               // local date and time, as spreadsheets read dates
	KindChoice              // one of a few words
	KindDate                // a date, YYYY-MM-DD
)

// ID is the kind's catalog message.
func (k Kind) ID() string {
	return "csv.kind." + [...]string{"text", "integer", "number", "boolean", "time", "local", "choice", "date"}[k]
}

// Column is one Column of a file. What it means is the catalog's
// "csv.FILE.COLUMN" (or "csv.col.COLUMN" for the columns every file
// shares): the glossary page, in the reader's language.
type Column struct {
	Name     string
	Kind     Kind
	Optional bool     // may be empty (the glossary says when)
	Choices  []string // for KindChoice
}

// File is one downloadable file; "csv.NAME.about" says what it holds.
type File struct {
	Name    string // decisions, matches, match_players, students
	Columns []Column
	index   map[string]int
}

func newFile(name string, cols ...Column) *File {
	f := &File{Name: name, Columns: cols, index: map[string]int{}}
	for i, c := range cols {
		f.index[c.Name] = i
	}
	return f
}

// Has reports whether the file has a column of that name.
func (f *File) Has(name string) bool { _, ok := f.index[name]; return ok }

// Header is the file's first row: its columns' names.
func (f *File) Header() []string {
	h := make([]string, len(f.Columns))
	for i, c := range f.Columns {
		h[i] = c.Name
	}
	return h
}

// row starts a row of the file; set fills it by Column name.
func (f *File) row() csvRow { return csvRow{f: f, cells: make([]string, len(f.Columns))} }

type csvRow struct {
	f     *File
	cells []string
}

// set puts v in the named Column; a name not in the file is a bug, caught
// by the tests that write every file.
func (r csvRow) set(name, v string) csvRow {
	i, ok := r.f.index[name]
	if !ok {
		panic("csv: " + r.f.Name + " has no column " + name)
	}
	r.cells[i] = v
	return r
}

// games are the values of the game column: every game sim registers, and
// whole-class Skunk.
var games = gameChoices()

func gameChoices() []string {
	var out []string
	for _, g := range sim.Games {
		out = append(out, g.String())
	}
	return append(out, "skunk")
}

// The shared columns.
var (
	colClass = Column{"class", KindText, false, nil}
	colMatch = Column{"match", KindText, false, nil}
	colRound = Column{"round", KindInteger, true, nil}
	// colKind says what a match was (MatchKind); skunk for a game of Skunk.
	colKind = Column{"kind", KindChoice, false, []string{"round", "homework", "table", "practice", "skunk"}}
	colDay  = Column{"day", KindDate, false, nil}
	colGame = Column{"game", KindChoice, false, games}
	colSeat = Column{"seat", KindInteger, false, nil}
	// colBotID is a bot's strategy as pigclass names it (hold:20,
	// optimal), empty for a student: the machine's id beside the name a
	// person reads (issue 79).
	colBotID = Column{"bot_id", KindText, true, nil}
)

// DecisionsFile is one row per decision.
var DecisionsFile = newFile("decisions",
	colClass, colMatch, colRound, colKind, colDay, colGame,
	Column{"target", KindInteger, true, nil},
	Column{"seats", KindInteger, false, nil},
	Column{"student", KindText, false, nil},
	colBotID,
	colSeat,
	Column{"turn", KindInteger, false, nil},
	Column{"roll_in_turn", KindInteger, false, nil},
	Column{"score", KindInteger, false, nil},
	Column{"leader_score", KindInteger, true, nil},
	Column{"turn_total", KindInteger, false, nil},
	Column{"action", KindText, false, nil},
	Column{"dice", KindInteger, false, nil},
	Column{"faces", KindText, false, nil},
	Column{"source", KindChoice, true, []string{"seed", "entered"}},
	Column{"analysis", KindChoice, false, []string{"exact", "approximate", "expected-points", "pending", "none"}},
	Column{"win_if_roll_pct", KindNumber, true, nil},
	Column{"win_if_hold_pct", KindNumber, true, nil},
	Column{"win_if_chosen_pct", KindNumber, true, nil},
	Column{"best_action", KindText, true, nil},
	Column{"ev_action", KindText, true, nil},
	Column{"cost_pct_points", KindNumber, true, nil},
	Column{"points_if_stand", KindNumber, true, nil},
	Column{"points_if_sit", KindNumber, true, nil},
	Column{"cost_points", KindNumber, true, nil},
	Column{"agrees_with_optimal", KindBoolean, true, nil},
	Column{"agrees_with_ev", KindBoolean, true, nil},
	Column{"mystery_agrees", KindText, true, nil},
	Column{"by", KindChoice, false, []string{"student", "bot", "timeout"}},
	Column{"arm", KindChoice, true, []string{"free", "committed"}},
	Column{"plan", KindInteger, true, nil},
	Column{"at", KindTime, false, nil},
	Column{"local_time", KindLocal, false, nil},
)

// MatchesFile is one row per match.
var MatchesFile = newFile("matches",
	colClass, colMatch, colRound, colKind, colDay, colGame,
	Column{"target", KindInteger, true, nil},
	Column{"equal_turns", KindBoolean, false, nil},
	Column{"seats", KindInteger, false, nil},
	Column{"status", KindChoice, false, []string{"playing", "over", "ended"}},
	Column{"seed", KindText, true, nil},
	Column{"commitment", KindText, false, nil},
	Column{"players", KindText, false, nil},
	Column{"places", KindText, true, nil},
	Column{"scores", KindText, false, nil},
	Column{"turns", KindInteger, false, nil},
	Column{"winner", KindText, true, nil},
)

// PlayersFile is one row per player of a match: the long form of
// matches.csv, for pivot tables.
var PlayersFile = newFile("match_players",
	colClass, colMatch, colRound, colKind, colDay, colGame, colSeat,
	Column{"player", KindText, false, nil},
	colBotID,
	Column{"place", KindInteger, true, nil},
	Column{"final_score", KindInteger, false, nil},
	Column{"won", KindBoolean, false, nil},
)

// StudentsFile is one row per student.
var StudentsFile = newFile("students",
	colClass,
	Column{"day", KindDate, true, nil},
	Column{"student", KindText, false, nil},
	// came is how the student came into the class: a nickname typed at
	// the door, a name of the teacher's class list, or a learning
	// platform's launch; started, whether they have taken their seat (a
	// list's or platform's name may wait for its student).
	Column{"came", KindChoice, false, []string{"nickname", "list", "platform"}},
	Column{"started", KindBoolean, false, nil},
	Column{"removed", KindBoolean, false, nil},
	Column{"extra_seconds", KindInteger, false, nil},
	Column{"games", KindInteger, false, nil},
	Column{"wins", KindInteger, false, nil},
	Column{"decisions", KindInteger, false, nil},
	Column{"analysed", KindInteger, false, nil},
	Column{"approximate", KindInteger, false, nil},
	Column{"agreement_with_optimal_pct", KindNumber, true, nil},
	Column{"agreement_with_ev_pct", KindNumber, true, nil},
	Column{"cost_per_game_pct", KindNumber, true, nil},
	Column{"cost_per_decision_pct_points", KindNumber, true, nil},
	Column{"sum_of_costs_pct_points", KindNumber, true, nil},
	Column{"platform_user", KindText, true, nil},
)

// Files are the files in the order the dashboard lists them.
var Files = []*File{DecisionsFile, MatchesFile, PlayersFile, StudentsFile, StrategiesFile, TournamentFile, ExperimentsFile}

// PctCell writes a probability as a percentage, 12 decimals at most.
func PctCell(p float64) string { return num(100 * p) }

// num writes a number with dot decimals and no trailing zeros.
func num(x float64) string {
	s := strconv.FormatFloat(x, 'f', 12, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		s = "0"
	}
	return s
}

// timeCells are the at and local_time cells of a moment.
func timeCells(t time.Time) (iso, local string) {
	l := t.In(time.Local)
	return l.Format("2006-01-02T15:04:05-07:00"), l.Format("2006-01-02 15:04:05")
}

// sharedColumns are the columns every file has, with one meaning.
var sharedColumns = map[string]bool{colClass.Name: true, colMatch.Name: true, colRound.Name: true, colDay.Name: true, colGame.Name: true, colSeat.Name: true, colKind.Name: true}

// MeansID is the catalog message of what a column of f means.
func (f *File) MeansID(c Column) string {
	if sharedColumns[c.Name] {
		return "csv.col." + c.Name
	}
	return "csv." + f.Name + "." + c.Name
}
