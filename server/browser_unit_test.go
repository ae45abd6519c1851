package server

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pigclass/templates/paths"
)

// asStudent opens a browser as the student s (their player cookie), at
// their class page.
func asStudent(t *testing.T, ctx context.Context, a *app, s *student, code string) {
	t.Helper()
	u, _ := url.Parse(a.url)
	navigate(t, ctx, a.url+paths.Privacy.String())
	for _, c := range s.b.c.Jar.Cookies(u) {
		if c.Name == playerCookie {
			value(t, ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.cookie = %q`, c.Name+"="+c.Value+"; path=/")))
		}
	}
	navigate(t, ctx, a.url+paths.Student.For(code))
}

// TestBrowserTwoDaysOfAClass (issue 33, "Done when"): two days of a class,
// the clock moved between them, with the same students and homework
// between them that Ana plays and Bo and Cy do not. On the second day the
// dashboard lists both days (today marked) and the homework (who played
// what), its charts show today and the unit on request; Ana's page says
// her play day by day; the CSV files say each row's day (the homework's
// game on the first); the podium shows today's and the unit's.
func TestBrowserTwoDaysOfAClass(t *testing.T) {
	t.Parallel()
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStartLesson(t, teacher, "1-roll-or-hold")
	kids := []*student{{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 18}, {b: join(t, a, code, "Bo"), nick: "Bo", holdAt: 24}, {b: join(t, a, code, "Cy"), nick: "Cy", holdAt: 12}}
	laptop := person()
	link := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="teacher-link"]`).AttrOr("href", "")
	run(t, laptop, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(link), chromedp.WaitVisible(q(`[data-testid="dash-bar"]`)))

	// Day one: the lesson's first phase, then homework set from the form.
	day1 := a.clock.now().In(time.Local).Format(time.DateOnly)
	clickJS(t, laptop, `[data-testid="bar-next-step"]`)
	eventually(t, laptop, `(document.querySelector('.notice') || {}).textContent.includes("Round 1 started")`, "phase 1's round starts")
	playRound(t, code, kids)
	run(t, laptop, chromedp.Reload())
	eventually(t, laptop, `!!document.querySelector('#hw-games')`, "the homework fields")
	value(t, laptop, chromedp.Evaluate[string](`document.querySelector("#hw-games").value = "1"`))
	clickJS(t, laptop, `[data-testid="set-homework"]`)
	eventually(t, laptop, `(document.querySelector('.notice') || {}).textContent.startsWith("Homework set")`, "the homework set")
	home := kids[0].b.get(paths.Student.For(code))
	kids[0].b.post(home.Find(`[data-testid="student-assignment"] form`).AttrOr("action", ""), nil)
	kids[0].playAt(t, kids[0].b.path())

	// Day two.
	a.clock.add(24 * time.Hour)
	day2 := a.clock.now().In(time.Local).Format(time.DateOnly)
	run(t, laptop, chromedp.Reload())
	eventually(t, laptop, `!!document.querySelector('[data-testid="bar-next-step"]')`, "the dashboard on day two")
	clickJS(t, laptop, `[data-testid="bar-next-step"]`)
	eventually(t, laptop, `(document.querySelector('.notice') || {}).textContent.includes("Round 2 started")`, "phase 2's round starts")
	playRound(t, code, kids)
	run(t, laptop, chromedp.Reload())
	eventually(t, laptop, `document.querySelectorAll('[data-testid="day"]').length === 2`, "the two days on the dashboard")
	days := value(t, laptop, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('[data-testid="day"]')).map(function (d) { return d.textContent.replace(/\s+/g, " ").trim() })`))
	if !strings.HasPrefix(days[0], day1+" · Roll or hold?") || !strings.HasPrefix(days[1], day2+" today · Roll or hold?") {
		t.Errorf("the days: %q", days)
	}
	done := value(t, laptop, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('[data-testid="homework-student"]')).map(function (d) { return d.textContent.replace(/\s+/g, " ").trim() })`))
	if strings.Join(done, "; ") != "Ana: 1 of 1 played; Bo: 0 of 1 played; Cy: 0 of 1 played" {
		t.Errorf("the homework on the dashboard: %q", done)
	}
	dice := func() int {
		return value(t, laptop, chromedp.Evaluate[int](`Array.from(document.querySelectorAll('[data-testid="chart-class-dice"] tbody tr td:nth-child(2)')).reduce(function (n, td) { return n + Number(td.textContent.replace(/,/g, "")) }, 0)`))
	}
	clickJS(t, laptop, `[data-testid="tab-class-dice"]`)
	eventually(t, laptop, `!!document.querySelector('[data-testid="chart-class-dice"]') && (document.querySelector('[data-testid="scope-today"]') || {}).getAttribute("aria-current") === "page"`, "the dice of today")
	today := dice()
	clickJS(t, laptop, `[data-testid="scope-unit"]`)
	eventually(t, laptop, `(document.querySelector('[data-testid="scope-unit"]') || {}).getAttribute("aria-current") === "page"`, "the dice of the unit")
	if unit := dice(); today == 0 || unit <= today {
		t.Errorf("the class's dice: %d today, %d in the unit", today, unit)
	}
	shot(t, laptop, "dashboard-two-days")

	// Ana's page: her play day by day.
	phone := person()
	run(t, phone, chromedp.EmulateViewport(390, 844))
	asStudent(t, phone, a, kids[0], code)
	eventually(t, phone, `document.querySelectorAll('[data-testid="progress-day"]').length === 3`, "Ana's progress, day by day and her homework")
	lines := value(t, phone, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('[data-testid="progress-day"]')).map(function (d) { return d.textContent })`))
	if !strings.HasPrefix(lines[0], day1+":") || !strings.HasPrefix(lines[1], day1+", homework:") || !strings.HasPrefix(lines[2], day2+":") {
		t.Errorf("Ana's progress: %q", lines)
	}
	if change := textOf(t, phone, `[data-testid="progress-change"]`); !strings.Contains(change, "Since your first day") {
		t.Errorf("Ana's change since the first day: %q", change)
	}
	if got := textOf(t, phone, `[data-testid="student-assignment-done"]`); got != "Homework done: 1 of 1 played." { // issue 43: done says so
		t.Errorf("Ana's homework on her page: %q", got)
	}
	if !strings.Contains(textOf(t, phone, "main"), "Homework: Pig to 50") {
		t.Error("Ana's matches do not name her homework game")
	}
	shot(t, phone, "student-progress")

	// The files say each row's day; the homework's game is on day one.
	homework := 0
	for _, r := range teacher.csvRows(paths.MatchesCSV.For(code)) {
		if r["day"] != day1 && r["day"] != day2 {
			t.Errorf("matches.csv: a row on day %q", r["day"])
		}
		if r["kind"] == "homework" && r["game"] == "pig" && r["day"] == day1 {
			homework++
		}
	}
	if homework != 1 {
		t.Errorf("matches.csv: %d homework games on day one, want 1", homework)
	}

	// The podium: today's and the unit's.
	for scope, want := range map[string]string{"today": "Today's podium (" + day2 + ")", "unit": "The podium of the whole unit"} {
		navigate(t, laptop, a.url+paths.TeacherProjector.Results.For(code)+"?scope="+scope)
		eventually(t, laptop, fmt.Sprintf(`(document.querySelector("h1") || {}).textContent === %q && document.querySelectorAll('[data-testid="award"]').length > 0`, want), "the podium of "+scope)
		shot(t, laptop, "podium-"+scope)
	}
}

// TestBrowserAUnitInOneClass (issue 43, "Done when"): a three-day unit in
// one class, the clock moved between the days. Day 1 plays "Roll or
// hold?" from the bar; on day 2 the teacher picks "Why 20?" on the
// dashboard and its first phase is played, Ana on a second device with
// the rejoin code she wrote down on day 1; day 3 has homework only, Ana
// back on her first device with the same written code (the second is
// told why it is signed out). The days list shows three days, today's
// files hold day 3's homework, Ana's phone says the homework is done,
// and her progress follows the rule (one game a day: too few to tell).
func TestBrowserAUnitInOneClass(t *testing.T) {
	t.Parallel()
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStartLesson(t, teacher, "1-roll-or-hold")
	first := join(t, a, code, "Ana")
	ana := &student{b: first, nick: "Ana", holdAt: 18}
	bo := &student{b: join(t, a, code, "Bo"), nick: "Bo", holdAt: 24}
	written := first.get(paths.Student.For(code)).Find(`[data-testid="rejoin-code"]`).Text()
	laptop := person()
	link := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="teacher-link"]`).AttrOr("href", "")
	run(t, laptop, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(link), chromedp.WaitVisible(q(`[data-testid="dash-bar"]`)))

	// Day 1: lesson A's first phase.
	day1 := a.clock.now().In(time.Local).Format(time.DateOnly)
	clickJS(t, laptop, `[data-testid="bar-next-step"]`)
	eventually(t, laptop, `(document.querySelector('.notice') || {}).textContent.includes("Round 1 started")`, "lesson A's round starts")
	playRound(t, code, []*student{ana, bo})

	// Day 2: lesson B, picked on the dashboard; Ana on a second device.
	a.clock.add(24 * time.Hour)
	day2 := a.clock.now().In(time.Local).Format(time.DateOnly)
	run(t, laptop, chromedp.Reload())
	eventually(t, laptop, `!!document.querySelector('#lesson-plan')`, "the lesson plan on day two")
	value(t, laptop, chromedp.Evaluate[string](`document.querySelector("#lesson-plan").value = "2-why-20"`))
	clickJS(t, laptop, `[data-testid="lesson-plan-set"]`)
	eventually(t, laptop, `(document.querySelector('[data-testid="bar-next-step"]') || {}).textContent === "Start phase 1: Beat the expectation"`, "the bar starts lesson B")
	clickJS(t, laptop, `[data-testid="bar-next-step"]`)
	eventually(t, laptop, `(document.querySelector('.notice') || {}).textContent.includes("Round 2 started")`, "lesson B's round starts")
	second := a.browser()
	if second.post(paths.JoinCode.For(code), url.Values{"nickname": {"Ana"}, "rejoin": {written}}); second.path() != paths.Student.For(code) {
		t.Fatalf("Ana's written code on a second device: at %s", second.path())
	}
	ana.b = second
	playRound(t, code, []*student{ana, bo})

	// Day 3: homework only; Ana back on her first device, same code.
	a.clock.add(24 * time.Hour)
	day3 := a.clock.now().In(time.Local).Format(time.DateOnly)
	run(t, laptop, chromedp.Reload())
	eventually(t, laptop, `!!document.querySelector('#hw-games')`, "the homework fields")
	value(t, laptop, chromedp.Evaluate[string](`document.querySelector("#hw-games").value = "1"`))
	clickJS(t, laptop, `[data-testid="set-homework"]`)
	eventually(t, laptop, `(document.querySelector('.notice') || {}).textContent.startsWith("Homework set")`, "the homework set")
	if first.post(paths.JoinCode.For(code), url.Values{"nickname": {"Ana"}, "rejoin": {written}}); first.path() != paths.Student.For(code) {
		t.Fatalf("the same written code on day three: at %s", first.path())
	}
	if doc := second.get(paths.Student.For(code)); doc.Find(`[data-testid="join-moved"]`).Length() != 1 {
		t.Errorf("the second device is not told why it is signed out: at %s", second.path())
	}
	ana.b = first
	home := first.get(paths.Student.For(code))
	first.post(home.Find(`[data-testid="student-assignment"] form`).AttrOr("action", ""), nil)
	ana.playAt(t, first.path())

	// The dashboard: three days, today's with the homework.
	run(t, laptop, chromedp.Reload())
	eventually(t, laptop, `document.querySelectorAll('[data-testid="day"]').length === 3`, "three days on the dashboard")
	days := value(t, laptop, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('[data-testid="day"]')).map(function (d) { return d.textContent.replace(/\s+/g, " ").trim() })`))
	if !strings.HasPrefix(days[0], day1+" · Roll or hold?") || !strings.HasPrefix(days[1], day2+" · Why 20?") || !strings.HasPrefix(days[2], day3+" today") || !strings.Contains(days[2], "homework") {
		t.Errorf("the days: %q", days)
	}
	homework := 0
	for _, r := range teacher.csvRows(paths.MatchesCSV.For(code) + "?day=" + day3) {
		if r["day"] != day3 {
			t.Errorf("today's matches.csv holds a row of %s", r["day"])
		}
		if r["kind"] == "homework" {
			homework++
		}
	}
	if homework != 1 {
		t.Errorf("today's matches.csv: %d homework games, want 1", homework)
	}
	shot(t, laptop, "unit-three-days")

	// Ana's phone: the homework done, her progress by the rule.
	phone := person()
	run(t, phone, chromedp.EmulateViewport(390, 844))
	asStudent(t, phone, a, ana, code)
	eventually(t, phone, `document.querySelectorAll('[data-testid="progress-day"]').length === 3`, "Ana's progress: two days and her homework")
	if got := textOf(t, phone, `[data-testid="student-assignment-done"]`); got != "Homework done: 1 of 1 played." {
		t.Errorf("Ana's homework on her phone: %q", got)
	}
	lines := value(t, phone, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('[data-testid="progress-day"]')).map(function (d) { return d.textContent })`))
	for i, prefix := range []string{day1 + ":", day2 + ":", day3 + ", homework:"} {
		if !strings.HasPrefix(lines[i], prefix) || !strings.Contains(lines[i], "(1 game)") || strings.Contains(lines[i], "Too few different games to tell") {
			t.Errorf("Ana's progress, line %d: %q", i, lines[i])
		}
	}
	// How sure each day's figure is, on asking (issue 44: one plain
	// sentence a day on the student's page).
	if sure := value(t, phone, chromedp.Evaluate[string](`document.querySelector('[data-testid="progress-sure"]').textContent`)); strings.Count(sure, "Too few different games to tell") != 3 {
		t.Errorf("Ana's progress, how sure: %q", sure)
	}
	if change := textOf(t, phone, `[data-testid="progress-change"]`); !strings.Contains(change, "Too few different games on one of those days") {
		t.Errorf("Ana's change, from one game a day: %q", change)
	}
	shot(t, phone, "unit-three-days-phone")
}
