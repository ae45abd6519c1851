package server

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"pigclass/server/classroom"
	"pigclass/server/contest"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// TestAStrategyTournament (issue 46): the teacher opens a tournament of
// Pig to 50 with the three bots; five students enter plans of the three
// forms from their pages (a number out of range comes back said, as
// typed); each sees their plan's exact chances; the teacher closes the
// entries and the standings come in, each average the duels' (checked
// here with solve.Duel on the same strategies), in order; a student reads
// their own row and downloads their plan as pigclass duel reads it.
func TestAStrategyTournament(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	v := sim.Standard(sim.Pig)
	v.Target = 50
	teacher.post(paths.Tournament.For(code), url.Values{"game": {"pig"}, "target": {"50"}, "bot": {"rule", "kper", "optimal"}})
	if got := teacher.get(paths.Tournament.For(code)).Find(`[data-testid="tournament-status"]`).Text(); got != "Open for entries: Pig to 50. 0 strategies saved for it so far." {
		t.Fatalf("the open tournament: %q", got)
	}
	tab, err := a.srv.tables.Get(v)
	if err != nil {
		t.Fatal(err)
	}
	painted := sim.MapOf(sim.HoldAt(18), v, "")
	for i := range painted.Cells {
		painted.Cells[i][4] = 50
	}
	plans := map[string]*sim.Plan{
		"Ana": {Form: sim.PlanHold, Hold: 20},
		"Bo":  {Form: sim.PlanHold, Hold: 30},
		"Cy":  sim.KeepPacePlan(v),
		"Di":  sim.MapOf(solve.Optimal{T: tab}, v, ""),
		"Ed":  painted,
	}
	names := []string{"Ana", "Bo", "Cy", "Di", "Ed"}
	students := map[string]*browser{}
	for _, n := range names {
		students[n] = join(t, a, code, n)
		pl := plans[n]
		pl.Game, pl.Target, pl.Name = "pig", 50, ""
		students[n].post(paths.StudentPlan.For(code), planForm(pl))
		if students[n].status() != http.StatusOK || !strings.Contains(students[n].body, "Saved.") {
			t.Fatalf("%s's plan: %d", n, students[n].status())
		}
	}
	// A number out of range is said, and the form keeps it.
	bo := students["Bo"]
	page := bo.post(paths.StudentPlan.For(code), url.Values{"form": {"hold"}, "hold": {"0"}})
	if bo.status() != http.StatusUnprocessableEntity || page.Find(`[data-testid="plan-error"]`).Text() != "Hold once the turn total reaches: a whole number from 1 to 50." || page.Find(`#plan-hold-n`).AttrOr("value", "") != "0" {
		t.Errorf("a hold of 0: %d %q", bo.status(), page.Find(`[data-testid="plan-error"]`).Text())
	}
	// Ana's chances against the rule of thumb (hold at 20), exact.
	l := i18n.For("en")
	first, _ := solve.Duel(v, plans["Ana"], sim.HoldAt(20))
	second, _ := solve.Duel(v, sim.HoldAt(20), plans["Ana"])
	want := fmt.Sprintf("Against Hold-20 bot: %s moving first, %s moving second, %s on average.", l.Pct(first, 1), l.Pct(1-second, 1), l.Pct((first+1-second)/2, 1))
	if got := eventuallyText(t, students["Ana"], paths.PlanChances.For(code), "Against"); !strings.Contains(got, want) {
		t.Errorf("Ana's chances: %q, want %q", got, want)
	}
	if got := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="dash-tournament"]`).Text(); got != "Open for entries: Pig to 50. 5 strategies saved for it so far." {
		t.Errorf("the dashboard says of the tournament %q", got)
	}
	teacher.post(paths.TournamentClose.For(code), url.Values{"id": {tournamentID(t, teacher, code)}})
	standings := waitForStandings(t, teacher, code)
	// The standings by the duels, worked out here.
	entries := append([]string{}, names...)
	strategies := []sim.Strategy{plans["Ana"], plans["Bo"], plans["Cy"], plans["Di"], plans["Ed"], sim.HoldAt(20), sim.KeepPace{}, solve.Optimal{T: tab}}
	entries = append(entries, "Hold-20 bot", "Pace bot", "Perfect bot")
	avg := make([]float64, len(entries))
	for x := range entries {
		for y := range entries {
			if x != y {
				p, _ := solve.Duel(v, strategies[x], strategies[y])
				q, _ := solve.Duel(v, strategies[y], strategies[x])
				avg[x] += (p + 1 - q) / 2 / float64(len(entries)-1)
			}
		}
	}
	order := []int{0, 1, 2, 3, 4, 5, 6, 7}
	sort.SliceStable(order, func(i, j int) bool { return avg[order[i]] > avg[order[j]] })
	if len(standings) != len(entries) {
		t.Fatalf("%d standings: %v", len(standings), standings)
	}
	for i, row := range standings {
		e := order[i]
		if row[1] != entries[e] || row[2] != l.Pct(avg[e], 1) {
			t.Errorf("standing %d: %v, want %s with %s", i+1, row, entries[e], l.Pct(avg[e], 1))
		}
	}
	// The shared screen shows the standings, until the next round starts.
	key := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="projector-link"]`).AttrOr("href", "")
	screen := a.browser()
	page = screen.get(strings.TrimPrefix(key, a.url))
	shown := page.Find(`[data-testid="projector-standings"] li`)
	if page.Find(`[data-testid="projector"]`).AttrOr("data-state", "") != "tournament" || shown.Length() != 8 || !strings.Contains(shown.First().Text(), entries[order[0]]) {
		t.Errorf("the projector: state %q, %d standings, first %q", page.Find(`[data-testid="projector"]`).AttrOr("data-state", ""), shown.Length(), shown.First().Text())
	}
	// The files: each plan's numbers (a map a row per cell), and the
	// standings with the exact averages.
	rows := teacher.csvRows(paths.StrategiesCSV.For(code))
	count := map[string]int{}
	for _, r := range rows {
		count[r["student"]+" "+r["form"]]++
		if r["student"] == "Cy" && (r["behind_hold"] != strconv.Itoa(plans["Cy"].BehindHold) || r["end_race"] != strconv.Itoa(plans["Cy"].EndRace)) {
			t.Errorf("Cy's rule in strategies.csv: %v", r)
		}
	}
	if count["Ana hold"] != 1 || count["Cy rule"] != 1 || count["Di map"] != 25 || count["Ed map"] != 25 || len(rows) != 53 {
		t.Errorf("strategies.csv: %v", count)
	}
	for i, r := range teacher.csvRows(paths.TournamentCSV.For(code)) {
		e := order[i]
		got, _ := strconv.ParseFloat(r["average_pct"], 64)
		// A bot by the name the pages give it, its machine id apart
		// (issue 79).
		if r["entry"] != []string{"Ana", "Bo", "Cy", "Di", "Ed", "Hold-20 bot", "Pace bot", "Perfect bot"}[e] || math.Abs(got-100*avg[e]) > 1e-7 || r["bot"] != strconv.FormatBool(e >= 5) ||
			r["bot_id"] != []string{"", "", "", "", "", "hold:20", "kper", "optimal"}[e] {
			t.Errorf("tournament.csv row %d: %v, want entry %d with %.9f%%", i+1, r, e, 100*avg[e])
		}
	}
	// Ana's own row, and her plan as pigclass duel reads it.
	rank := 0
	for i, e := range order {
		if e == 0 {
			rank = i + 1
		}
	}
	row := students["Ana"].get(paths.StudentPlan.For(code)).Find(`[data-testid="plan-row"] li`).First().Text()
	if want := fmt.Sprintf("You came %d of 8, winning %s of the time on average.", rank, l.Pct(avg[0], 1)); row != want {
		t.Errorf("Ana's row: %q, want %q", row, want)
	}
	var mine struct {
		Strategies []map[string]string `json:"strategies"`
	}
	if err := json.Unmarshal([]byte(students["Di"].getBody(paths.MyData.For(code))), &mine); err != nil || len(mine.Strategies) != 25 || mine.Strategies[0]["form"] != "map" {
		t.Errorf("Di's own data holds %d rows of her strategy (%v)", len(mine.Strategies), err)
	}
	students["Ana"].get(paths.PlanJSON.For(code))
	got, err := sim.ReadPlan([]byte(students["Ana"].body), v)
	if err != nil || got.Hold != 20 || got.Name != "Ana" {
		t.Errorf("Ana's plan downloaded: %+v, %v", got, err)
	}
}

// getBody reads path and returns the body as it came.
func (b *browser) getBody(path string) string {
	b.get(path)
	return b.body
}

// planForm is a plan as its form posts it.
func planForm(pl *sim.Plan) url.Values {
	f := url.Values{"form": {pl.Form}}
	switch pl.Form {
	case sim.PlanHold:
		f.Set("hold", strconv.Itoa(pl.Hold))
	case sim.PlanRule:
		for k, n := range map[string]int{"hold": pl.Hold, "behind_by": pl.BehindBy, "behind_hold": pl.BehindHold, "ahead_by": pl.AheadBy, "ahead_hold": pl.AheadHold, "end_race": pl.EndRace} {
			f.Set(k, strconv.Itoa(n))
		}
	case sim.PlanMap:
		for a, row := range pl.Cells {
			for b, h := range row {
				f.Set(fmt.Sprintf("cell-%d-%d", a, b), strconv.Itoa(h))
			}
		}
	}
	return f
}

// eventuallyText reads path until its text holds want (a bounded wait).
func eventuallyText(t *testing.T, b *browser, path, want string) string {
	t.Helper()
	for end := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		text := strings.Join(strings.Fields(b.get(path).Text()), " ")
		if strings.Contains(text, want) || time.Now().After(end) {
			return text
		}
	}
}

// tournamentID is the open tournament's id, from its close button.
func tournamentID(t *testing.T, teacher *browser, code string) string {
	t.Helper()
	id := teacher.get(paths.Tournament.For(code)).Find(`input[name="id"]`).AttrOr("value", "")
	if id == "" {
		t.Fatal("no open tournament to close")
	}
	return id
}

// waitForStandings reads the tournament's standings once every duel is
// played (a bounded wait; they fill in before), row by row.
func waitForStandings(t *testing.T, teacher *browser, code string) [][]string {
	t.Helper()
	for end := time.Now().Add(120 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		doc := teacher.get(paths.TournamentLive.For(code))
		var rows [][]string
		doc.Find(`[data-testid="standings"] tbody tr`).Each(func(_ int, tr *goquery.Selection) {
			var row []string
			tr.Find("td").Each(func(_ int, td *goquery.Selection) { row = append(row, td.Text()) })
			rows = append(rows, row)
		})
		if len(rows) > 0 && strings.HasPrefix(doc.Find(`[data-testid="tournament-status"]`).Text(), "Played:") {
			return rows
		}
	}
	t.Fatal("no standings within 120 s")
	return nil
}

// TestEntriesCloseOnTime (issue 46): a tournament whose entries close
// after a number of minutes says when, to the teacher and to a student,
// closes by itself when the time comes and is played; minutes out of range
// are refused on the form, as typed.
func TestEntriesCloseOnTime(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	page := teacher.post(paths.Tournament.For(code), url.Values{"game": {"pig"}, "target": {"30"}, "bot": {"rule", "optimal"}, "minutes": {"0"}})
	if teacher.status() != http.StatusUnprocessableEntity || page.Find(`[data-testid="tournament-error"]`).Text() != "Minutes: a whole number from 1 to 180, or empty to close the entries on the button." || page.Find(`#tournament-minutes`).AttrOr("value", "") != "0" {
		t.Errorf("0 minutes: %d %q", teacher.status(), page.Find(`[data-testid="tournament-error"]`).Text())
	}
	teacher.post(paths.Tournament.For(code), url.Values{"game": {"pig"}, "target": {"30"}, "bot": {"rule", "optimal"}, "minutes": {"10"}})
	at := a.clock.now().Add(10 * time.Minute).Local().Format("15:04")
	if got := teacher.get(paths.Tournament.For(code)).Find(`[data-testid="tournament-status"]`).Text(); !strings.HasSuffix(got, "The entries close by themselves at "+at+".") {
		t.Errorf("the teacher reads %q", got)
	}
	ana := join(t, a, code, "Ana")
	ana.post(paths.StudentPlan.For(code), url.Values{"form": {"hold"}, "hold": {"12"}})
	if got := ana.get(paths.StudentPlan.For(code)).Find(`[data-testid="plan-tournament"]`).Text(); !strings.HasSuffix(got, "The entries close at "+at+".") {
		t.Errorf("Ana reads %q", got)
	}
	a.clock.add(9 * time.Minute)
	if teacher.get(paths.Tournament.For(code)).Find(`[data-testid="tournament-close"]`).Length() != 1 {
		t.Error("the entries closed before their time")
	}
	a.clock.add(time.Minute)
	if rows := waitForStandings(t, teacher, code); len(rows) != 3 {
		t.Errorf("after the time: %d entries played", len(rows))
	}
}

// TestATournamentOutlivesARestart (issue 46): a tournament whose entries
// closed but whose duels were not all played when the server stopped is
// played again, from the start, by the server that opens the database
// next, and its standings come in.
func TestATournamentOutlivesARestart(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	teacher.post(paths.Tournament.For(code), url.Values{"game": {"pig"}, "target": {"30"}, "bot": {"rule", "optimal"}})
	join(t, a, code, "Ana").post(paths.StudentPlan.For(code), url.Values{"form": {"hold"}, "hold": {"12"}})
	id, _ := strconv.ParseInt(tournamentID(t, teacher, code), 10, 64)
	// Closed in the store, as a server stopped before its duels end
	// leaves it: closed, no standings, no one playing it.
	if err := a.store.Plans().CloseTournament(t.Context(), mustClass(t, a, code).ID, id); err != nil {
		t.Fatal(err)
	}
	a.stop()
	b := openApp(t, a.path, a.clock)
	teacher.moveTo(b)
	if rows := waitForStandings(t, teacher, code); len(rows) != 3 {
		t.Errorf("after the restart: %d entries played", len(rows))
	}
}

// TestUnplayedEntriesShowNoChance (issue 59, item 3): while a
// tournament's duels are played, an entry that has met no opponent yet
// shows "-" for its rank and chance on the teacher's page and the shared
// screen, not 0.0% as if it had lost every duel; entries that have met
// show theirs.
func TestUnplayedEntriesShowNoChance(t *testing.T) {
	l := i18n.For("en")
	v := sim.Standard(sim.Pig)
	first := [][]float64{{0, 0.6, 0}, {0.45, 0, 0}, {0, 0, 0}}
	known := [][]bool{{false, true, false}, {true, false, false}, {false, false, false}}
	res := &contest.Result{Entries: []contest.Entrant{{Bot: "hold:20"}, {Bot: "hold:25"}, {Bot: "kper"}}, Standings: solve.Rank(first, known)}
	var pg templates.TournamentPage
	standingsTable(l, nil, v, res, &pg)
	screen := projectorStandings(l, &classroom.Class{}, contest.Status{Tournament: store.Tournament{Variant: v}, Partial: res})
	if len(pg.Standings) != 3 || len(screen) != 3 {
		t.Fatalf("%d rows on the page, %d on the screen", len(pg.Standings), len(screen))
	}
	for i, row := range res.Standings {
		page, shown := pg.Standings[i], screen[i]
		if row.Entry == 2 {
			if page[0] != "-" || page[2] != "-" || shown.Rank != "-" || shown.Average != "-" {
				t.Errorf("the unplayed entry: page %q, screen %+v", page, shown)
			}
			continue
		}
		if want := l.Pct(row.Average, 1); page[2] != want || shown.Average != want || page[0] == "-" {
			t.Errorf("entry %d: page %q, screen %+v, want %s", row.Entry, page, shown, want)
		}
	}
}

// TestATournamentWaitingSaysSo (issue 59, item 9): a closed tournament
// whose duels have not started (it waits for the server's duel slot)
// says it waits, not "playing every duel, 0 of 0"; once counted, it says
// how many of how many.
func TestATournamentWaitingSaysSo(t *testing.T) {
	l := i18n.For("en")
	st := contest.Status{Tournament: store.Tournament{Variant: sim.Standard(sim.Pig)}}
	if got := tournamentLine(l, st); strings.Contains(got, "0 of 0") || !strings.Contains(got, "wait") {
		t.Errorf("waiting: %q", got)
	}
	st.Of = 20
	if got := tournamentLine(l, st); !strings.Contains(got, "0 of 20") {
		t.Errorf("started: %q", got)
	}
}

// TestAStrategysFieldsTakeWhatTheServerTakes (issue 59, item 8): the
// strategy editor's and the tournament's number fields bound what the
// server takes (a rule's holds from 1, its gaps from 0 to one under the
// target, a tournament's target to 100), and a gap of the target is
// refused in the form's own words, naming the field as the form does.
func TestAStrategysFieldsTakeWhatTheServerTakes(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	page := ana.get(paths.StudentPlan.For(code))
	want := map[string]string{"hold": "1-100", "behind_by": "0-99", "behind_hold": "1-100", "ahead_by": "0-99", "ahead_hold": "1-100", "end_race": "0-99"}
	for name, bounds := range want {
		in := page.Find(`form.plan-rule input[name="` + name + `"]`)
		if got := in.AttrOr("min", "?") + "-" + in.AttrOr("max", "?"); got != bounds {
			t.Errorf("the rule's %s field takes %s, the server %s", name, got, bounds)
		}
	}
	in := teacher.get(paths.Tournament.For(code)).Find(`#tournament-target`)
	if got := in.AttrOr("min", "?") + "-" + in.AttrOr("max", "?"); got != fmt.Sprintf("%d-%d", sim.MinTarget, tournamentMaxTarget) {
		t.Errorf("the tournament's target field takes %s, the server %d to %d", got, sim.MinTarget, tournamentMaxTarget)
	}
	form := url.Values{"form": {"rule"}, "hold": {"20"}, "behind_by": {"100"}, "behind_hold": {"25"}, "ahead_by": {"0"}, "ahead_hold": {"20"}, "end_race": {"0"}}
	msg := ana.post(paths.StudentPlan.For(code), form).Find(`[data-testid="plan-error"]`).Text()
	label := page.Find(`label[for="plan-behind_by"]`).Text()
	if !strings.Contains(msg, label) || !strings.Contains(msg, "from 0 to 99") || strings.Contains(msg, "behind_by") {
		t.Errorf("a gap of 100 is refused with %q, want the field %q and \"from 0 to 99\"", msg, label)
	}
}

// TestATournamentsBotsGoByOneName (issue 59, item 9): the tournament's
// form names each bot as its standings will ("Hold-20 bot" in Pig, not
// "Rule-of-thumb bot").
func TestATournamentsBotsGoByOneName(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	var got []string
	teacher.get(paths.Tournament.For(code)).Find(`input[name="bot"]`).Each(func(_ int, in *goquery.Selection) {
		got = append(got, strings.TrimSpace(in.Parent().Text()))
	})
	l := i18n.For("en")
	var want []string
	for _, b := range contest.Bots(sim.Pig) {
		want = append(want, entrantName(l, nil, contest.Entrant{Bot: b}, sim.Standard(sim.Pig), false))
	}
	if !slices.Equal(got, want) || want[0] != "Hold-20 bot" {
		t.Errorf("the form's bots are %q, the standings' names %q", got, want)
	}
}

// TestAFileIsNamedByADayOnlyIfItKeepsIt (issue 59, item 14): asked for a
// day, a file that keeps one day (decisions.csv) is named by it; one that
// keeps the class's whole (strategies.csv, tournament.csv) is not.
func TestAFileIsNamedByADayOnlyIfItKeepsIt(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	for what, want := range map[string]string{
		"decisions":  code + "-decisions-2026-11-29.csv",
		"strategies": code + "-strategies.csv",
		"tournament": code + "-tournament.csv",
	} {
		teacher.get(paths.CSV(code, what) + "?day=2026-11-29")
		if got := teacher.last.Header.Get("Content-Disposition"); got != `attachment; filename="`+want+`"` {
			t.Errorf("%s.csv of a day: %s, want %s", what, got, want)
		}
	}
}
