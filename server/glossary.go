package server

import (
	"strconv"
	"strings"
	"time"

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

func (k colKind) String() string {
	return [...]string{"text", "whole number", "number", "true or false", "date and time (ISO 8601)", "date and time", "one of"}[k]
}

// column is one column of a file.
type column struct {
	name     string
	kind     colKind
	optional bool     // may be empty (the glossary says when)
	choices  []string // for kindChoice
	means    string
}

// csvFile is one downloadable file.
type csvFile struct {
	name    string // decisions, matches, players, students
	about   string
	columns []column
	index   map[string]int
}

func newCSVFile(name, about string, cols ...column) *csvFile {
	f := &csvFile{name: name, about: about, columns: cols, index: map[string]int{}}
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
	colClass = column{"class", kindText, false, nil, "The class's join code."}
	colMatch = column{"match", kindText, false, nil, `The match's number in this pigclass; a game of Skunk is "skunk-" and its number.`}
	colRound = column{"round", kindInteger, false, nil, "The round of the class the match was played in, from 1 (Skunk: the round of the game, S K U N K)."}
	colGame  = column{"game", kindChoice, false, games, "The game."}
	colSeat  = column{"seat", kindInteger, false, nil, "The player's seat: 1 moved first, 2 second, and so on (in every file and page). Skunk: the player's number in the game."}
)

// decisionsFile is one row per decision.
var decisionsFile = newCSVFile("decisions", "One row per decision: every roll, hold and dice choice of students, bots and time-outs, with the state before it and the exact chance of winning each option had.",
	colClass, colMatch, colRound, colGame,
	column{"target", kindInteger, true, nil, "The score that wins (empty for Skunk)."},
	column{"seats", kindInteger, false, nil, "How many players the match had (Skunk: the whole class)."},
	column{"student", kindText, false, nil, `Who decided: the nickname (or the generated name in anonymous mode), or "bot" and its strategy.`},
	colSeat,
	column{"turn", kindInteger, false, nil, "The player's turn, from 1 (Skunk: the round)."},
	column{"roll_in_turn", kindInteger, false, nil, "The roll within the turn, from 1."},
	column{"score", kindInteger, false, nil, "The player's banked score before the decision."},
	column{"leader_score", kindInteger, true, nil, "The highest banked score among the other players before the decision (with two players, the opponent's); empty for Skunk."},
	column{"turn_total", kindInteger, false, nil, "Points rolled this turn and not yet banked (Skunk: the round total)."},
	column{"action", kindText, false, nil, `What was chosen: roll, hold, dice:N (Hog: throw N dice), timeout (the deadline passed: the server held), stand or sit (Skunk).`},
	column{"dice", kindInteger, false, nil, "How many dice the action throws (0 for a hold)."},
	column{"faces", kindText, false, nil, `The dice thrown, as text: "4", "3 5"; "none" when nothing was thrown.`},
	column{"analysis", kindChoice, false, []string{"exact", "approximate", "none"}, "exact: the chances come from the solved two-player game; approximate: three or four players, read from the two-player table against the leader; none: no table (Skunk, resignations, targets the solver does not cover)."},
	column{"win_if_roll_pct", kindNumber, true, nil, "The chance of winning, in percent, if the player rolls and plays perfectly after (Pig games)."},
	column{"win_if_hold_pct", kindNumber, true, nil, "The chance of winning, in percent, if the player holds (Pig games)."},
	column{"win_if_chosen_pct", kindNumber, true, nil, "The chance of winning, in percent, of the option chosen."},
	column{"best_action", kindText, true, nil, "The option perfect play chooses (ties: hold, fewer dice)."},
	column{"ev_action", kindText, true, nil, "The option expected-value play chooses: the most points on average this turn (hold at 20 in Pig, 5 dice in Hog)."},
	column{"cost_pct_points", kindNumber, true, nil, "The chance of winning lost by the choice, in percentage points: the best option's chance minus the chosen one's (0 when perfect)."},
	column{"agrees_with_optimal", kindBoolean, true, nil, "Whether the choice is perfect play's."},
	column{"agrees_with_ev", kindBoolean, true, nil, "Whether the choice is expected-value play's."},
	column{"by", kindChoice, false, []string{"student", "bot", "timeout"}, "Who made the decision: a student, a bot, or the server when the deadline passed (a time-out is not the student's decision)."},
	column{"at", kindTime, false, nil, "When, in ISO 8601 with the server's offset from UTC."},
	column{"local_time", kindLocal, false, nil, "When, in the server's local time, as a spreadsheet reads dates."},
)

// matchesFile is one row per match.
var matchesFile = newCSVFile("matches", "One row per match, its players listed in seat order; match_players.csv has the same, one row per player.",
	colClass, colMatch, colRound, colGame,
	column{"target", kindInteger, false, nil, "The score that wins."},
	column{"equal_turns", kindBoolean, false, nil, "Whether the round was played out so that everyone had the same number of turns."},
	column{"seats", kindInteger, false, nil, "How many players."},
	column{"status", kindChoice, false, []string{"playing", "over", "ended"}, "over: played to the end; ended: stopped by the teacher; playing: still going on."},
	column{"seed", kindText, true, nil, "The dice's secret seed, published once the match is no longer played (check it with pigclass verify)."},
	column{"commitment", kindText, false, nil, "The seed's SHA-256, shown when the match started."},
	column{"players", kindText, false, nil, "The players, by seat, separated by \"; \"."},
	column{"places", kindText, true, nil, "Their places (1 = winner), by seat, separated by \"; \"; empty while not over."},
	column{"scores", kindText, false, nil, "Their final (or current) scores, by seat, separated by \"; \"."},
	column{"turns", kindInteger, false, nil, "Turns played, all players together."},
	column{"winner", kindText, true, nil, "The winner, empty while not over."},
)

// playersFile is one row per player of a match: the long form of
// matches.csv, for pivot tables.
var playersFile = newCSVFile("match_players", "One row per player of each match: the long form of matches.csv, for pivot tables.",
	colClass, colMatch, colRound, colGame, colSeat,
	column{"player", kindText, false, nil, `The nickname (or generated name), or "bot" and its strategy.`},
	column{"place", kindInteger, true, nil, "1 for the winner, then by score; empty while not over."},
	column{"final_score", kindInteger, false, nil, "The player's score at the end (or now)."},
	column{"won", kindBoolean, false, nil, "Whether this player won."},
)

// studentsFile is one row per student.
var studentsFile = newCSVFile("students", "One row per student who joined, removed students included.",
	colClass,
	column{"student", kindText, false, nil, "The nickname (or generated name in anonymous mode)."},
	column{"removed", kindBoolean, false, nil, "Whether the teacher removed the student; their decisions stay in decisions.csv."},
	column{"games", kindInteger, false, nil, "Matches played to the end."},
	column{"wins", kindInteger, false, nil, "Matches won."},
	column{"decisions", kindInteger, false, nil, "The student's own decisions (time-outs and bots' moves are not)."},
	column{"analysed", kindInteger, false, nil, "Those with a solved table behind them."},
	column{"agreement_with_optimal_pct", kindNumber, true, nil, "The share of analysed decisions that were perfect play's, in percent."},
	column{"agreement_with_ev_pct", kindNumber, true, nil, "The share of analysed decisions that were expected-value play's (hold at 20 in Pig, 5 dice in Hog), in percent."},
	column{"total_cost_pct_points", kindNumber, true, nil, "The chance of winning lost by all the student's decisions, in percentage points, added up."},
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

// glossaryView is the glossary page's view of the files.
func glossaryView() templates.Glossary {
	var v templates.Glossary
	for _, f := range csvFiles {
		gf := templates.GlossaryFile{Name: f.name + ".csv", About: f.about}
		for _, c := range f.columns {
			kind := c.kind.String()
			if c.kind == kindChoice {
				kind += " " + strings.Join(c.choices, ", ")
			}
			if c.optional {
				kind += "; may be empty"
			}
			gf.Columns = append(gf.Columns, templates.GlossaryColumn{Name: c.name, Kind: kind, Means: c.means})
		}
		v.Files = append(v.Files, gf)
	}
	return v
}
