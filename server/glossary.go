package server

import (
	"strconv"
	"strings"
	"time"

	"pigclass/server/i18n"
	"pigclass/templates"
)

// The CSV files a teacher downloads, column by column. The files' headers
// are made from these lists and a test reads every file against them, so
// the glossary page (and the README's copy) cannot drift from the files.

// colKind is what a column holds, as a spreadsheet or pandas reads it.
type colKind int

const (
	kindText    colKind = iota // any text
	kindInteger                // a whole number
	kindNumber                 // a decimal number, dot decimals
	kindBoolean                // true or false
	kindTime                   // ISO 8601 with the server's UTC offset
	kindLocal                  // local date and time, as spreadsheets read dates
	kindChoice                 // one of a few words
)

// id is the kind's catalog message.
func (k colKind) id() string {
	return "csv.kind." + [...]string{"text", "integer", "number", "boolean", "time", "local", "choice"}[k]
}

// column is one column of a file. What it means is the catalog's
// "csv.FILE.COLUMN" (or "csv.col.COLUMN" for the columns every file
// shares): the glossary page in the reader's language, the README in
// English.
type column struct {
	name     string
	kind     colKind
	optional bool     // may be empty (the glossary says when)
	choices  []string // for kindChoice
}

// csvFile is one downloadable file; "csv.NAME.about" says what it holds.
type csvFile struct {
	name    string // decisions, matches, players, students
	columns []column
	index   map[string]int
}

func newCSVFile(name string, cols ...column) *csvFile {
	f := &csvFile{name: name, columns: cols, index: map[string]int{}}
	for i, c := range cols {
		f.index[c.name] = i
	}
	return f
}

func (f *csvFile) header() []string {
	h := make([]string, len(f.columns))
	for i, c := range f.columns {
		h[i] = c.name
	}
	return h
}

// row starts a row of the file; set fills it by column name.
func (f *csvFile) row() csvRow { return csvRow{f: f, cells: make([]string, len(f.columns))} }

type csvRow struct {
	f     *csvFile
	cells []string
}

// set puts v in the named column; a name not in the file is a bug, caught
// by the tests that write every file.
func (r csvRow) set(name, v string) csvRow {
	i, ok := r.f.index[name]
	if !ok {
		panic("csv: " + r.f.name + " has no column " + name)
	}
	r.cells[i] = v
	return r
}

var games = []string{"pig", "two-dice", "big-pig", "hog", "skunk"}

// The shared columns.
var (
	colClass = column{"class", kindText, false, nil}
	colMatch = column{"match", kindText, false, nil}
	colRound = column{"round", kindInteger, false, nil}
	colGame  = column{"game", kindChoice, false, games}
	colSeat  = column{"seat", kindInteger, false, nil}
)

// decisionsFile is one row per decision.
var decisionsFile = newCSVFile("decisions",
	colClass, colMatch, colRound, colGame,
	column{"target", kindInteger, true, nil},
	column{"seats", kindInteger, false, nil},
	column{"student", kindText, false, nil},
	colSeat,
	column{"turn", kindInteger, false, nil},
	column{"roll_in_turn", kindInteger, false, nil},
	column{"score", kindInteger, false, nil},
	column{"leader_score", kindInteger, true, nil},
	column{"turn_total", kindInteger, false, nil},
	column{"action", kindText, false, nil},
	column{"dice", kindInteger, false, nil},
	column{"faces", kindText, false, nil},
	column{"analysis", kindChoice, false, []string{"exact", "approximate", "none"}},
	column{"win_if_roll_pct", kindNumber, true, nil},
	column{"win_if_hold_pct", kindNumber, true, nil},
	column{"win_if_chosen_pct", kindNumber, true, nil},
	column{"best_action", kindText, true, nil},
	column{"ev_action", kindText, true, nil},
	column{"cost_pct_points", kindNumber, true, nil},
	column{"agrees_with_optimal", kindBoolean, true, nil},
	column{"agrees_with_ev", kindBoolean, true, nil},
	column{"by", kindChoice, false, []string{"student", "bot", "timeout"}},
	column{"at", kindTime, false, nil},
	column{"local_time", kindLocal, false, nil},
)

// matchesFile is one row per match.
var matchesFile = newCSVFile("matches",
	colClass, colMatch, colRound, colGame,
	column{"target", kindInteger, false, nil},
	column{"equal_turns", kindBoolean, false, nil},
	column{"seats", kindInteger, false, nil},
	column{"status", kindChoice, false, []string{"playing", "over", "ended"}},
	column{"seed", kindText, true, nil},
	column{"commitment", kindText, false, nil},
	column{"players", kindText, false, nil},
	column{"places", kindText, true, nil},
	column{"scores", kindText, false, nil},
	column{"turns", kindInteger, false, nil},
	column{"winner", kindText, true, nil},
)

// playersFile is one row per player of a match: the long form of
// matches.csv, for pivot tables.
var playersFile = newCSVFile("match_players",
	colClass, colMatch, colRound, colGame, colSeat,
	column{"player", kindText, false, nil},
	column{"place", kindInteger, true, nil},
	column{"final_score", kindInteger, false, nil},
	column{"won", kindBoolean, false, nil},
)

// studentsFile is one row per student.
var studentsFile = newCSVFile("students",
	colClass,
	column{"student", kindText, false, nil},
	column{"removed", kindBoolean, false, nil},
	column{"games", kindInteger, false, nil},
	column{"wins", kindInteger, false, nil},
	column{"decisions", kindInteger, false, nil},
	column{"analysed", kindInteger, false, nil},
	column{"agreement_with_optimal_pct", kindNumber, true, nil},
	column{"agreement_with_ev_pct", kindNumber, true, nil},
	column{"total_cost_pct_points", kindNumber, true, nil},
)

// csvFiles are the files in the order the dashboard lists them.
var csvFiles = []*csvFile{decisionsFile, matchesFile, playersFile, studentsFile}

// pctCell writes a probability as a percentage, 12 decimals at most.
func pctCell(p float64) string { return num(100 * p) }

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
var sharedColumns = map[string]bool{colClass.name: true, colMatch.name: true, colRound.name: true, colGame.name: true, colSeat.name: true}

// meansID is the catalog message of what a column of f means.
func (f *csvFile) meansID(c column) string {
	if sharedColumns[c.name] {
		return "csv.col." + c.name
	}
	return "csv." + f.name + "." + c.name
}

// glossaryView is the glossary page's view of the files, in the reader's
// language; the files themselves (names, values) stay as they are.
func glossaryView(l *i18n.Localizer) templates.Glossary {
	var v templates.Glossary
	for _, f := range csvFiles {
		gf := templates.GlossaryFile{Name: f.name + ".csv", About: l.T("csv." + f.name + ".about")}
		for _, c := range f.columns {
			gc := templates.GlossaryColumn{Name: c.name, Kind: l.T(c.kind.id()), Choices: strings.Join(c.choices, ", "), Means: l.T(f.meansID(c))}
			if c.optional {
				gc.Optional = l.T("csv.optional")
			}
			gf.Columns = append(gf.Columns, gc)
		}
		v.Files = append(v.Files, gf)
	}
	return v
}
