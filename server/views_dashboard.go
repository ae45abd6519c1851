package server

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/server/report"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// roundBots are the bots that can play game g, for its round form.
func (w *views) roundBots(l *i18n.Localizer, game, selected string) []templates.Choice {
	g, err := sim.ParseGame(game)
	if err != nil {
		g = sim.Pig
	}
	var out []templates.Choice
	for _, b := range botChoicesHolding(l, selected, g.Rules().HoldAt) {
		if err := solve.CheckStrategy(b.Value, sim.Standard(g)); err == nil {
			out = append(out, b)
		}
	}
	return out
}

// dashLive is the roster and the matches in progress, from memory alone:
// the class's snapshot, its students' totals and its matches' snapshots.
func (w *views) dashLive(ctx context.Context, l *i18n.Localizer, who classroom.Viewer, shown rosterView) (templates.DashLive, error) {
	class := who.Class()
	activity := who.Activity()
	stats, total := who.Stats()
	joins, joinCap := w.room.JoinsLastMinute(class)
	students := 0
	for _, st := range stats {
		students += st.Decisions
	}
	v := templates.DashLive{Code: class.Code, Paused: class.Paused, Locked: class.Locked, Round: roundLabel(l, class.Round), Decisions: students, OtherMoves: total - students,
		PollURL: paths.Poll(paths.TeacherLive.For(class.Code), activity) + shown.query(), JoinsLastMinute: joins, JoinCap: joinCap,
		JoinsUnlimited: class.JoinsUnlimited}
	playing := map[int64]string{}
	forfeited := map[int64]bool{}
	kinds := map[int64]string{} // the pacing view's, waiting where none
	done := 0
	for i, m := range who.Matches() {
		yieldAt(i)
		if m.Over() {
			done++
			// A forfeit on time-outs is named as such, not as waiting.
			for _, seat := range m.Seats {
				if seat.StudentID != 0 && m.State.Out[seat.Seat] && m.State.Timeouts[seat.Seat] >= sim.TimeoutsResign {
					forfeited[seat.StudentID] = true
				}
				if seat.StudentID != 0 && kinds[seat.StudentID] == "" {
					kinds[seat.StudentID] = pick(forfeited[seat.StudentID], "forfeited", "done")
				}
			}
			continue
		}
		st := m.State
		decisions := 0
		for _, e := range m.Events {
			if report.IsDecision(e) {
				decisions++
			}
		}
		names := seatNames(l, *m, -1, false, "") // the teacher sees the nicknames
		for _, seat := range m.Seats {
			names[seat.Seat] += " " + l.Int(st.Scores[seat.Seat])
			if seat.StudentID != 0 {
				playing[seat.StudentID] = l.T("status.playing", "Score", l.Int(st.Scores[seat.Seat]), "Other", l.Int(st.Leader(seat.Seat)))
				kinds[seat.StudentID] = pick(st.Timeouts[seat.Seat] > 0, "stuck", "playing")
			}
		}
		if len(v.Matches) < maxMatchRows {
			v.Matches = append(v.Matches, templates.MatchRow{ID: m.ID, Players: strings.Join(names, " – "), Status: l.T("status.match_playing"), Decisions: decisions})
		} else {
			v.MoreMatches++
		}
	}
	going := len(v.Matches) + v.MoreMatches // the matches still played
	v.RoundActive = class.Round != nil && going > 0
	if class.Round != nil {
		v.Progress = l.T("live.progress", "Round", l.Int(class.Round.Number), "Playing", l.N("projector.playing", going), "Finished", l.N("projector.finished", done))
	}
	v.Students = roster(l, class, shown.most(), w.rosterStats(l, who, stats, shown.unit, &v), playing, forfeited, who.SharedDevices())
	if v.MoreStudents = len(class.Students) - len(v.Students); v.MoreStudents > 0 {
		v.AllStudentsURL = paths.Teacher.For(class.Code) + "?" + rosterView{unit: shown.unit, all: true}.query()[1:]
	}
	v.Pace = paceOf(l, v.Students, class.Students, kinds)
	for _, st := range class.Removed {
		v.Removed = append(v.Removed, templates.StudentRow{ID: st.ID, Name: st.Nickname, Anon: anonIn(l, st.AnonName), Status: l.T(pick(st.Erased, "status.erased", "status.removed")), Erased: st.Erased})
	}
	return v, nil
}

// rosterMost is how many of a class's students the live part draws (a
// row and a pace chip each) unless the teacher asks for them all; the
// others are counted, and in students.csv.
// A class of a thousand's whole roster was 900 KB, drawn in 13 ms and
// more up to twice a second beside the class's moves: their p99 was 16
// to 20 ms where with a roster of 100 it was 9 (`pigclass loadtest
// --students 1000 --teachers 5`, DEVELOPING.md).
const rosterMost = 100

// rosterView is what the teacher asked of the roster: the whole unit's
// figures (?roster=unit) rather than today's, every student
// (?students=all) rather than the first rosterMost.
type rosterView struct{ unit, all bool }

// query is the view's part of the live part's poll address.
func (r rosterView) query() string {
	return pick(r.unit, "&roster=unit", "") + pick(r.all, "&students=all", "")
}

// most is how many students the view draws.
func (r rosterView) most() int {
	if r.all {
		return math.MaxInt
	}
	return rosterMost
}

// roster is a row for each of the class's first most students: playing
// (with the score playing gives), forfeited or waiting, their figures,
// and the other names of their device (shared).
func roster(l *i18n.Localizer, class *classroom.Class, most int, stats map[int64]store.StudentStats, playing map[int64]string, forfeited map[int64]bool, shared map[int64][]int64) []templates.StudentRow {
	var rows []templates.StudentRow
	for i, st := range class.Students[:min(len(class.Students), most)] {
		yieldAt(i)
		status, isPlaying := playing[st.ID]
		switch {
		case classroom.Unclaimed(st):
			status = l.T("status.absent") // of the class list, not in their seat yet
		case !isPlaying:
			status = pick(forfeited[st.ID], l.T("status.forfeited"), l.T("status.waiting"))
		}
		row := studentRow(l, class.Code, st, stats[st.ID], status, isPlaying)
		row.SameDevice = sameDevice(l, class, shared[st.ID])
		rows = append(rows, row)
	}
	return rows
}

// rosterStats are the figures the roster shows: today's once the class
// has played today (the whole unit a link away), else the unit's; v gets
// the two links.
func (w *views) rosterStats(l *i18n.Localizer, who classroom.Viewer, unitStats map[int64]store.StudentStats, unit bool, v *templates.DashLive) map[int64]store.StudentStats {
	today := who.DayStats()
	if len(today) == 0 {
		return unitStats
	}
	code := who.Class().Code
	v.RosterScopes = []templates.Choice{{Value: paths.Teacher.For(code), Label: l.T("live.roster.today", "Date", w.reports.Today()), Selected: !unit},
		{Value: paths.Query(paths.Teacher.For(code), "roster", "unit"), Label: l.T("live.roster.unit"), Selected: unit}}
	if unit {
		return unitStats
	}
	return today
}

// sameDevice names the students of the class among ids, who joined from
// a student's device (classroom's SharedDevices), or "" for none.
func sameDevice(l *i18n.Localizer, class *classroom.Class, ids []int64) string {
	if len(ids) == 0 {
		return "" // the roster's usual case: not a pass over the class a student
	}
	var names []string
	for _, st := range class.Students { // a removed student is not named
		if slices.Contains(ids, st.ID) {
			names = append(names, st.Nickname)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return l.T("live.same_device", "Names", strings.Join(names, ", "))
}

// paceOf is the pacing view of the class's students (everyone), each of
// the kind kinds gives (absent for a class list's student not in their
// seat yet, waiting where it gives none): a chip each for the roster's
// (students), in its order, and how many of each kind of all.
func paceOf(l *i18n.Localizer, students []templates.StudentRow, everyone []store.Student, kinds map[int64]string) templates.Pace {
	absent := map[int64]bool{}
	kindOf := func(id int64) string { return pick(absent[id], "absent", cmp.Or(kinds[id], "waiting")) }
	p := templates.Pace{More: len(everyone) - len(students)}
	count := map[string]int{}
	for _, st := range everyone {
		absent[st.ID] = classroom.Unclaimed(st)
		count[kindOf(st.ID)]++
	}
	for _, s := range students {
		kind := kindOf(s.ID)
		says := l.T("pace." + kind)
		switch kind {
		case "playing":
			says = s.Status // "playing, 12 to 30"
		case "stuck":
			says += " (" + s.Status + ")"
		}
		p.Chips = append(p.Chips, templates.PaceChip{Name: s.Name, Kind: kind, Says: says})
	}
	for _, kind := range templates.PaceKinds {
		p.Counts = append(p.Counts, templates.PaceCount{Kind: kind, Label: l.T("pace." + kind), N: count[kind]})
	}
	return p
}

// defaultRoundForm is the round form of a game with a default that
// plays: the game's rule of thumb (hold at 20 in Pig), or expected-value
// play (5 dice in Hog) where a turn is one throw of chosen dice.
func defaultRoundForm(g sim.Game) templates.RoundForm {
	r := g.Rules()
	bot, dice := "hold:"+strconv.Itoa(r.HoldAt), "10"
	if g.ChoosesDice() {
		bot, dice = sim.EVBot, strconv.Itoa(r.MaxPieces)
	}
	return templates.RoundForm{
		Game: templates.Field{Value: g.String()}, Target: templates.Field{Value: strconv.Itoa(r.Target)}, MaxDice: templates.Field{Value: dice},
		Mode: templates.Field{Value: "bot"}, Bot: templates.Field{Value: bot}, Seats: templates.Field{Value: "2"}, ChoosesDice: g.ChoosesDice(),
		Games: templates.Field{Value: "3"},
	}
}

// roundFormOf is the round form filled in as round r was played: the
// teacher's last choices, for the next round.
func roundFormOf(r play.Round) templates.RoundForm {
	f := defaultRoundForm(r.Variant.Game)
	v := r.Variant
	f.Target.Value, f.Mode.Value, f.Bot.Value, f.Seats.Value = strconv.Itoa(v.Target), string(r.Mode), r.Bot, strconv.Itoa(v.Seats)
	if v.Game.ChoosesDice() {
		f.MaxDice.Value = strconv.Itoa(v.MaxDice)
	}
	if v.Deadline > 0 {
		f.Deadline.Value = strconv.Itoa(int(time.Duration(v.Deadline).Seconds()))
	}
	f.EqualTurns, f.SameSeed, f.Arms = v.EqualTurns, r.SameSeed, r.Arms
	return f
}

// studentRow is one student's line of the roster: their status and their
// figures so far.
func studentRow(l *i18n.Localizer, code string, st store.Student, stat store.StudentStats, status string, playing bool) templates.StudentRow {
	row := templates.StudentRow{ID: st.ID, Name: st.Nickname, Anon: anonIn(l, st.AnonName), Status: status, Playing: playing,
		Games: stat.Games, Wins: stat.Wins, Decisions: stat.Decisions}
	if stat.Analysed > 0 {
		row.AgreeOptimal = percent(l, float64(stat.AgreeOptimal)/float64(stat.Analysed))
		row.Cost = l.Dec(100*stat.Cost, 2)
		if stat.Games > 0 {
			row.CostPerGame = percent(l, stat.Cost/float64(stat.Games))
		}
	}
	row.ReviewURL = paths.TeacherStudent.With(code, st.ID) // their matches, rejoin code and data
	return row
}

// maxMatchRows is how many matches in progress the dashboard lists; the
// roster says who plays whom for the rest.
const maxMatchRows = 40
