package report

import (
	"context"
	"slices"
	"strconv"
	"time"

	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/server/store"
)

// StudentData is everything pigclass stores about one student of a class,
// as the CSV files say it (the same columns, the glossary's words): their
// row of students.csv, their matches (matches.csv and match_players.csv,
// games of Skunk included), every decision they made (decisions.csv) and
// their guesses of mystery bots, their strategies and their runs of the
// lab (experiments.csv). The names are the real nicknames for the
// teacher; for the student, others are named as the class shows them (the
// generated names in anonymous mode).
type StudentData struct {
	About        string              `json:"about"`
	Class        string              `json:"class"`
	ExportedAt   string              `json:"exported_at"`
	Nickname     string              `json:"nickname"`
	Student      map[string]string   `json:"student"`
	JoinedAt     string              `json:"joined_at"`
	Matches      []map[string]string `json:"matches"`
	MatchPlayers []map[string]string `json:"match_players"`
	Decisions    []map[string]string `json:"decisions"`
	Guesses      []map[string]string `json:"mystery_guesses"`
	Strategies   []map[string]string `json:"strategies"`
	Experiments  []map[string]string `json:"experiments"`
}

// StudentAbout heads a StudentData.
const StudentAbout = "Everything pigclass stores about one student of a class: the columns are those of its CSV files (the glossary, /glossary)."

// StudentData is everything stored about student studentID of the
// viewer's class: for the class's teacher, or for that student alone. Who
// asks is decided before anything is read: anyone else gets
// classroom.ErrNotTeacher, whether the student exists or not.
func (r *Reports) StudentData(ctx context.Context, v classroom.Viewer, studentID int64, now time.Time) (StudentData, error) {
	c, err := member(v)
	if err != nil {
		return StudentData{}, classroom.ErrNotTeacher
	}
	if me, ok := v.Student(); !v.Teacher() && (!ok || me.ID != studentID) {
		return StudentData{}, classroom.ErrNotTeacher
	}
	people, err := loadStudents(ctx, r.st, c.Class, "")
	if err != nil {
		return StudentData{}, err
	}
	i := slices.IndexFunc(people.students, func(s store.Student) bool { return s.ID == studentID })
	if i < 0 {
		return StudentData{}, store.ErrNotFound
	}
	st := people.students[i]
	d, err := loadClassData(ctx, r.st, c.Class)
	if err != nil {
		return StudentData{}, err
	}
	real := v.Teacher() || !c.Anonymous
	out := StudentData{About: StudentAbout, Class: c.Code, ExportedAt: now.UTC().Format(time.RFC3339), Nickname: st.Nickname, JoinedAt: st.JoinedAt.UTC().Format(time.RFC3339)}
	out.Student = asObject(StudentsFile.Header(), studentRows(&classData{class: c.Class, students: []store.Student{st}, stats: people.stats}, real)[0])
	mine := &classData{class: c.Class, states: d.states, skunks: skunksOf(d.skunks, studentID)}
	byID := map[int64]play.Match{}
	for _, m := range d.matches {
		if slices.ContainsFunc(m.Seats, func(s play.Seat) bool { return s.StudentID == studentID }) {
			mine.matches = append(mine.matches, m)
			byID[m.ID] = m
		}
	}
	out.Matches = asObjects(MatchesFile.Header(), matchRows(mine, real))
	for _, row := range asObjects(PlayersFile.Header(), playerRows(mine, real)) {
		if row["player"] == out.Student["student"] {
			out.MatchPlayers = append(out.MatchPlayers, row)
		}
	}
	for _, e := range d.events {
		if m, ok := byID[e.MatchID]; ok && IsDecision(e) && m.Seats[e.Seat].StudentID == studentID {
			out.Decisions = append(out.Decisions, asObject(DecisionsFile.Header(), decisionRow(c.Code, m, &e, real)))
		}
	}
	out.Decisions = append(out.Decisions, asObjects(DecisionsFile.Header(), skunkDecisionRows(c.Code, mine.skunks, real))...)
	guesses, err := r.st.GuessesOf(ctx, studentID)
	if err != nil {
		return StudentData{}, err
	}
	for _, g := range guesses {
		out.Guesses = append(out.Guesses, map[string]string{"match": strconv.FormatInt(g.MatchID, 10), "bot_seat": strconv.Itoa(g.Seat + 1), "guess": g.Guess, "at": g.At.UTC().Format(time.RFC3339)})
	}
	plans, err := r.st.Plans().Of(ctx, c.ID, studentID)
	if err != nil {
		return StudentData{}, err
	}
	for _, sp := range plans {
		out.Strategies = append(out.Strategies, asObjects(StrategiesFile.Header(), strategyRows(c.Code, out.Student["student"], sp))...)
	}
	exps, err := r.st.Experiments(ctx, c.ID)
	if err != nil {
		return StudentData{}, err
	}
	exps = slices.DeleteFunc(exps, func(e store.Experiment) bool { return e.StudentID != studentID })
	out.Experiments = asObjects(ExperimentsFile.Header(), experimentRows(c.Class, map[int64]string{studentID: out.Student["student"]}, exps, "", r.tables))
	return out, nil
}

// skunksOf is the class's games of Skunk the student played, each log
// holding the rolls and that student's own moves only.
func skunksOf(k skunkData, studentID int64) skunkData {
	out := skunkData{log: map[int64][]store.SkunkEvent{}, played: k.played}
	for _, g := range k.games {
		p := slices.Index(g.Students, studentID)
		if p < 0 {
			continue
		}
		out.games = append(out.games, g)
		for _, e := range k.log[g.ID] {
			if e.Participant == p || e.Action == store.SkunkRoll {
				out.log[g.ID] = append(out.log[g.ID], e)
			}
		}
	}
	return out
}

// asObject names a row's cells by its file's header.
func asObject(header, row []string) map[string]string {
	out := make(map[string]string, len(header))
	for i, h := range header {
		out[h] = row[i]
	}
	return out
}

// asObjects is asObject for each row.
func asObjects(header []string, rows [][]string) []map[string]string {
	var out []map[string]string
	for _, r := range rows {
		out = append(out, asObject(header, r))
	}
	return out
}
