package server

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"pigclass/server/store"
	"pigclass/templates/paths"
)

// TestRetentionErasesIdleClasses (issue 33, item 4): with classes kept
// 180 days after their last activity, the dashboard says on which day the
// class is erased and from which activity; a class last active 181 days
// ago is erased by the sweep (its matches being played ended) and one
// active 81 days ago is kept; the erasure is "Delete the class"'s, so
// that no nickname of the erased class is left in the database file.
func TestRetentionErasesIdleClasses(t *testing.T) {
	a := newAppConfig(t, func(c *Config) { c.Retain = 180 * 24 * time.Hour })
	teacher := a.browser()
	old := teacherStart(t, teacher)
	const nick = "Quetzalcoatl"
	s := &student{b: join(t, a, old, nick), nick: nick, holdAt: 20}
	teacher.post(paths.Rounds.For(old), url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	s.step(t, old)
	a.clock.add(100 * 24 * time.Hour)
	if got, want := teacher.get(paths.Teacher.For(old)).Find(`[data-testid="retention"]`).Text(),
		"This class and everything in it is erased on 2027-05-28, 180 days after its last activity (2026-11-29)"; len(got) < len(want) || got[:len(want)] != want {
		t.Errorf("the dashboard says %q, want %q...", got, want)
	}
	kept := teacherStart(t, a.browser())
	join(t, a, kept, "Ana")
	a.clock.add(81 * 24 * time.Hour)
	if err := a.srv.room.Sweep(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := a.store.ClassByCode(t.Context(), old); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the class idle 181 days is still there: %v", err)
	}
	if _, err := a.store.ClassByCode(t.Context(), kept); err != nil {
		t.Errorf("the class idle 81 days is gone: %v", err)
	}
	for _, table := range []string{"students WHERE nickname = '" + nick + "'", "matches WHERE class_id IS NOT NULL AND class_id NOT IN (SELECT id FROM classes)"} {
		var n int
		if err := a.store.DB().QueryRow("SELECT COUNT(*) FROM " + table).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s: %d rows left (%v)", table, n, err)
		}
	}
	if s.b.get(paths.Student.For(old)); s.b.path() != paths.JoinCode.For(old) {
		t.Errorf("the erased class's student page went to %s", s.b.path())
	}
	a.stop()
	for _, f := range []string{a.path, a.path + "-wal"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // the clean close took the WAL
		}
		if bytes.Contains(b, []byte(nick)) {
			t.Errorf("%s still holds the erased class's nickname", f)
		}
	}
}

// TestDaysOfAClass (issue 33, item 1): a class kept over a unit has its
// days: the dashboard lists each with its lesson plan and what was
// played, today marked; every row of decisions.csv, matches.csv and
// match_players.csv says its day; the dashboard's files are today's,
// the whole unit's a link away, and a day's students.csv counts that day.
func TestDaysOfAClass(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStartLesson(t, teacher, "1-roll-or-hold")
	kids := []*student{{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}, {b: join(t, a, code, "Bo"), nick: "Bo", holdAt: 15}}
	teacher.post(paths.LessonStart.For(code), nil)
	playRound(t, code, kids)
	first := a.clock.now().In(time.Local).Format(time.DateOnly)
	// dice is how many dice the class chart counts, of today or the unit.
	dice := func(scope string) int {
		t.Helper()
		n := 0
		page := teacher.get(paths.Query(paths.TeacherCharts.For(code), "chart", "class-dice", "scope", scope))
		page.Find(`[data-testid="chart-class-dice"] tbody tr`).Each(func(_ int, tr *goquery.Selection) {
			c, _ := strconv.Atoi(strings.ReplaceAll(tr.Find("td").Eq(1).Text(), ",", ""))
			n += c
		})
		return n
	}
	day1 := dice("today")
	if day1 == 0 || dice("unit") != day1 {
		t.Fatalf("the first day's dice: %d today, %d in the unit", day1, dice("unit"))
	}
	a.clock.add(7 * 24 * time.Hour)
	second := a.clock.now().In(time.Local).Format(time.DateOnly)
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}})
	playRound(t, code, kids)
	teacher.post(paths.SkunkStart.For(code), url.Values{"rounds": {"1"}})
	var days []string
	teacher.get(paths.Teacher.For(code)).Find(`[data-testid="day"]`).Each(func(_ int, s *goquery.Selection) {
		days = append(days, strings.Join(strings.Fields(s.Text()), " "))
	})
	want := []string{first + " · Roll or hold? · 1 round", second + " today · 1 round, 1 game of Skunk"}
	if !slices.Equal(days, want) {
		t.Errorf("the dashboard's days: %q, want %q", days, want)
	}
	// The dashboard's charts: today's by default, the whole unit asked.
	day2, unit := dice(""), dice("unit")
	if day2 == 0 || unit != day1+day2 {
		t.Errorf("the dice charts: %d on day 1, %d today (the default), %d in the unit", day1, day2, unit)
	}
	if got := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="chart-scope"] [aria-current="page"]`).Text(); got != "Today ("+second+")" {
		t.Errorf("the charts' scope by default: %q", got)
	}
	// The roster's figures: today's by default, the whole unit's a link
	// away (Ana played a match each day).
	games := func(path string) string {
		out := ""
		teacher.get(path).Find(`[data-testid="student-row"]`).Each(func(_ int, r *goquery.Selection) {
			if r.Find(".name").Text() == "Ana" {
				out = strings.Fields(r.Find(".figures").Text())[0]
			}
		})
		return out
	}
	if today, unit := games(paths.Teacher.For(code)), games(paths.Query(paths.Teacher.For(code), "roster", "unit")); today != "1" || unit != "2" {
		t.Errorf("Ana's games on the roster: %s today, %s in the unit; want 1 and 2", today, unit)
	}
	if got := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="roster-scope"] [aria-current="page"]`).Text(); got != "Figures of today ("+second+")" {
		t.Errorf("the roster's scope: %q", got)
	}
	poll := teacher.get(paths.Query(paths.Teacher.For(code), "roster", "unit")).Find(`[data-testid="dash-live"]`).AttrOr("hx-get", "")
	if !strings.Contains(poll, "roster=unit") {
		t.Errorf("the unit's roster polls %q", poll)
	}
	if got := games(strings.Replace(poll, "?v=", "?w=", 1)); got != "2" {
		t.Errorf("the unit's roster poll shows %s games for Ana, want 2", got)
	}
	// The files: the dashboard links today's, and the whole unit's; a
	// day's file holds that day's rows, and students.csv that day's play.
	dash := teacher.get(paths.Teacher.For(code))
	if got := dash.Find(`[data-testid="export-decisions.csv"]`).AttrOr("href", ""); got != paths.DecisionsCSV.For(code)+"?day="+second {
		t.Errorf("the dashboard's decisions.csv: %q, want today's", got)
	}
	if got := dash.Find(`[data-testid="unit-decisions.csv"]`).AttrOr("href", ""); got != paths.DecisionsCSV.For(code) {
		t.Errorf("the dashboard's whole-unit decisions.csv: %q", got)
	}
	unitRows := teacher.csvRows(paths.DecisionsCSV.For(code))
	for _, d := range []string{first, second} {
		want, students := 0, 0
		for _, r := range unitRows {
			if r["day"] == d {
				want++
				if r["by"] == "student" {
					students++
				}
			}
		}
		rows := teacher.csvRows(paths.DecisionsCSV.For(code) + "?day=" + d)
		if len(rows) != want || want == 0 {
			t.Errorf("decisions.csv of %s: %d rows, want %d", d, len(rows), want)
		}
		counted := 0
		for _, r := range teacher.csvRows(paths.StudentsCSV.For(code) + "?day=" + d) {
			n, _ := strconv.Atoi(r["decisions"])
			counted += n
			if r["day"] != d {
				t.Errorf("students.csv of %s: a row of day %q", d, r["day"])
			}
		}
		if counted != students {
			t.Errorf("students.csv of %s counts %d decisions, decisions.csv %d", d, counted, students)
		}
	}
	teacher.get(paths.DecisionsCSV.For(code) + "?day=yesterday")
	if teacher.status() != http.StatusBadRequest || !strings.Contains(teacher.body, "A day is written YYYY-MM-DD, such as "+second) {
		t.Errorf("a bad day: %d", teacher.status())
	}
	byRound := map[string]string{"1": first, "2": second}
	for _, f := range []string{paths.DecisionsCSV.For(code), paths.MatchesCSV.For(code), paths.PlayersCSV.For(code)} {
		for _, r := range teacher.csvRows(f) {
			if w, ok := byRound[r["round"]]; r["game"] != "skunk" && (!ok || r["day"] != w) || r["game"] == "skunk" && r["day"] != second {
				t.Errorf("%s: round %s of %s on day %q", f, r["round"], r["game"], r["day"])
			}
		}
	}
}

// TestProgressDayByDay (issue 33, item 3; issue 43, item 6): a student's
// page, and the teacher's page of the student, say day by day the chance
// of winning the student's games gave away on average, with its t
// interval from the games' spread (recomputed here from decisions.csv,
// game by game), and the change since the first day; the class chart of
// the unit has a row a day with all the class's games, and says the
// change by the same rule.
func TestProgressDayByDay(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 8}
	bo := &student{b: join(t, a, code, "Bo"), nick: "Bo", holdAt: 25}
	round := url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}}
	for day := range 2 {
		if day == 1 {
			a.clock.add(2 * 24 * time.Hour)
			ana.holdAt = 20
		}
		for range 3 { // three games a day: enough to claim something
			teacher.post(paths.Rounds.For(code), round)
			playRound(t, code, []*student{ana, bo})
		}
	}

	// The games, recomputed from decisions.csv: a game is a student's
	// decisions in one match, its cost their sum.
	games := map[string]map[string]map[string]float64{} // student, day, match: cost in points
	var order []string
	for _, r := range teacher.csvRows(paths.DecisionsCSV.For(code)) {
		if r["by"] != "student" || r["cost_pct_points"] == "" {
			continue
		}
		c, _ := strconv.ParseFloat(r["cost_pct_points"], 64)
		for _, who := range []string{r["student"], "class"} {
			if games[who] == nil {
				games[who] = map[string]map[string]float64{}
			}
			if games[who][r["day"]] == nil {
				games[who][r["day"]] = map[string]float64{}
				if who == "class" {
					order = append(order, r["day"])
				}
			}
			games[who][r["day"]][r["match"]+" "+r["student"]] += c
		}
	}
	if len(order) != 2 {
		t.Fatalf("decisions on %d days: %v", len(order), order)
	}
	// want is a day's line as the rule says it: the mean per game, and its
	// t interval (t = 4.303 for three games) when the games differ.
	want := func(day string) (string, string) {
		var g []float64
		for _, c := range games["Ana"][day] {
			g = append(g, c)
		}
		mean, ss := 0.0, 0.0
		for _, c := range g {
			mean += c / float64(len(g))
		}
		for _, c := range g {
			ss += (c - mean) * (c - mean)
		}
		if len(g) != 3 || ss == 0 {
			return fmt.Sprintf("about %.1f%% in chances to win, added up over the game's decisions (%d games)", mean, len(g)), "Too few different games"
		}
		half := 4.303 * math.Sqrt(ss/2) / math.Sqrt(3)
		if mean-half < 0 {
			return fmt.Sprintf("about %.1f%% in chances to win, added up over the game's decisions (3 games)", mean), fmt.Sprintf("between 0 and %.1f%%", mean+half)
		}
		return fmt.Sprintf("about %.1f%% in chances to win, added up over the game's decisions (3 games)", mean), fmt.Sprintf("between %.1f%% and %.1f%%", mean-half, mean+half)
	}
	// studentFigure is a day's figure as the student reads it: "about
	// 5.1% in chances to win, added up over the game's decisions (3 games)" is "cost you about 1 game in 20
	// (3 games)".
	// The figure is rounded to a tenth of a per cent and the page's N
	// comes from the exact mean: any N of the tenth's width is the page's.
	studentFigure := func(figure, line string) string {
		var pct float64
		var games string
		if _, err := fmt.Sscanf(figure, "about %f%% in chances to win, added up over the game's decisions (%s", &pct, &games); err != nil {
			t.Fatalf("reading %q: %v", figure, err)
		}
		if pct < 0.1 {
			return "cost you hardly any game (" + games
		}
		want := ""
		for _, p := range []float64{pct + 0.05, pct, pct - 0.05} {
			want = fmt.Sprintf("cost you about 1 game in %d (%s", int(math.Round(100/p)), games)
			if strings.Contains(line, want) {
				break
			}
		}
		return want
	}
	check := func(who string, page *goquery.Document, heading string) {
		t.Helper()
		card := page.Find(`[data-testid="progress"]`)
		if got := card.Find("h2").Text(); got != heading {
			t.Errorf("%s: the heading %q, want %q", who, got, heading)
		}
		lines := card.Find(`[data-testid="progress-day"]`)
		if lines.Length() != 2 {
			t.Fatalf("%s: %d days", who, lines.Length())
		}
		for i, d := range order {
			line := lines.Eq(i).Text()
			figure, sure := want(d)
			if who == "Ana" {
				// The student reads one plain sentence (1 game in N lost),
				// and how sure it is on asking.
				figure, line = studentFigure(figure, line), line+" "+card.Find(`[data-testid="progress-sure"] li`).Eq(i).Text()
			}
			if !strings.HasPrefix(line, d+":") || !strings.Contains(line, figure) || !sameInterval(line, sure) {
				t.Errorf("%s, %s: %q, want %q and %q", who, d, line, figure, sure)
			}
		}
		if change := card.Find(`[data-testid="progress-change"]`).Text(); !strings.Contains(change, "first day") || !strings.Contains(change, pick(who == "Ana", "now.", "a game then")) {
			t.Errorf("%s: the change %q", who, change)
		}
		t.Logf("%s: %s", who, strings.Join(strings.Fields(card.Text()), " "))
	}
	check("Ana", ana.b.get(paths.Student.For(code)), "How your choices went, day by day")
	check("the teacher", teacher.get(paths.TeacherStudent.With(code, studentID(t, a, code, "Ana"))), "How Ana's choices went, day by day")
	// The class chart: a row a day with every game of the class, and the
	// change said by the same rule in its caption.
	var rows []string
	chart := teacher.get(paths.Query(paths.TeacherCharts.For(code), "chart", "progress")).Find(`[data-testid="chart-progress"]`)
	chart.Find(`tbody tr`).Each(func(_ int, tr *goquery.Selection) {
		rows = append(rows, tr.Find("td").Eq(0).Text()+" "+tr.Find("td").Eq(1).Text())
	})
	wantRows := []string{order[0] + " " + strconv.Itoa(len(games["class"][order[0]])), order[1] + " " + strconv.Itoa(len(games["class"][order[1]]))}
	if !slices.Equal(rows, wantRows) {
		t.Errorf("the class chart of the unit: %v, want %v", rows, wantRows)
	}
	if caption := chart.Find("figcaption").Text(); !strings.Contains(caption, "Since the first day") || !strings.Contains(caption, "the class") {
		t.Errorf("the class chart says no change by the rule: %q", caption)
	}
}

// intervalRE reads an interval's ends as a progress line words them.
var intervalRE = regexp.MustCompile(`between ([0-9.]+)%? and ([0-9.]+)%`)

// sameInterval reports whether line says the interval want words, each
// end within one step of its rounding (0.1 points): the test's t factor
// (4.303) and its sums, in another order, may round the other way.
func sameInterval(line, want string) bool {
	w, g := intervalRE.FindStringSubmatch(want), intervalRE.FindStringSubmatch(line)
	if w == nil || g == nil {
		return strings.Contains(line, want)
	}
	for i := 1; i <= 2; i++ {
		a, _ := strconv.ParseFloat(w[i], 64)
		b, _ := strconv.ParseFloat(g[i], 64)
		if math.Abs(a-b) > 0.1+1e-9 {
			return false
		}
	}
	return true
}

// TestPodiumOfTheUnit (issue 33, item 1): the teacher's podium page shows
// today's podium, the last round's or the whole unit's on request; the
// most wins of each count the wins of its own matches (as matches.csv
// has them, day by day).
func TestPodiumOfTheUnit(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	kids := []*student{{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}, {b: join(t, a, code, "Bo"), nick: "Bo", holdAt: 25}}
	round := url.Values{"game": {"pig"}, "target": {"20"}, "mode": {"bot"}, "bot": {"hold:10"}}
	for range 2 {
		teacher.post(paths.Rounds.For(code), round)
		playRound(t, code, kids)
	}
	a.clock.add(24 * time.Hour)
	teacher.post(paths.Rounds.For(code), round)
	playRound(t, code, kids)
	today := a.clock.now().In(time.Local).Format(time.DateOnly)
	wins := map[string]map[string]int{"unit": {}, "today": {}}
	for _, r := range teacher.csvRows(paths.MatchesCSV.For(code) + "?names=real") {
		if w := r["winner"]; w == "Ana" || w == "Bo" {
			wins["unit"][w]++
			if r["day"] == today {
				wins["today"][w]++
			}
		}
	}
	for _, scope := range []string{"today", "unit"} {
		page := teacher.get(paths.TeacherProjector.Results.For(code) + "?scope=" + scope)
		want := map[string]string{"today": "Today's podium (" + today + ")", "unit": "The podium of the whole unit"}[scope]
		if got := page.Find("h1").Text(); got != want {
			t.Errorf("%s: the heading %q, want %q", scope, got, want)
		}
		top, names := 0, []string{}
		for _, name := range []string{"Ana", "Bo"} {
			switch n := wins[scope][name]; {
			case n > top:
				top, names = n, []string{name}
			case n == top && n > 0:
				names = append(names, name)
			}
		}
		var most *goquery.Selection
		page.Find(`[data-testid="award"]`).Each(func(_ int, s *goquery.Selection) {
			if s.Find(".award-label").Text() == "Most wins" {
				most = s
			}
		})
		if top == 0 {
			if most != nil {
				t.Errorf("%s: a most wins award with no win", scope)
			}
			continue
		}
		if most == nil || most.Find(".award-name").Text() != strings.Join(names, ", ") || most.Find(".award-value").Text() != winsWords(top, len(names)) {
			t.Errorf("%s: most wins %v with %d, the page says %q", scope, names, top, most.Text())
		}
		t.Logf("%s: %v", scope, wins[scope])
	}
	page := teacher.get(paths.TeacherProjector.Results.For(code))
	if n := page.Find(`[data-testid="podium-scope"] a`).Length(); n != 3 {
		t.Errorf("the podium page links %d scopes, want 3", n)
	}
	if got := page.Find("h1").Text(); got != "Today's podium ("+today+")" {
		t.Errorf("the podium page by default: %q, want today's", got)
	}
	if got := teacher.get(paths.TeacherProjector.Results.For(code) + "?scope=round").Find("h1").Text(); !strings.HasPrefix(got, "Round 3: ") {
		t.Errorf("the last round's podium: %q", got)
	}
}

// winsWords is the most-wins figure of n winners of wins each, in English.
func winsWords(wins, n int) string {
	switch {
	case n > 1 && wins == 1:
		return "1 win each"
	case n > 1:
		return strconv.Itoa(wins) + " wins each"
	}
	return strconv.Itoa(wins) + " won"
}
