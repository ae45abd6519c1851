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
	run(t, ctx, chromedp.Navigate(a.url+paths.Privacy.String()))
	for _, c := range s.b.c.Jar.Cookies(u) {
		if c.Name == playerCookie {
			value(t, ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.cookie = %q`, c.Name+"="+c.Value+"; path=/")))
		}
	}
	run(t, ctx, chromedp.Navigate(a.url+paths.Student.For(code)))
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
		if r["round"] == "0" && r["game"] == "pig" && r["day"] == day1 {
			homework++
		}
	}
	if homework != 1 {
		t.Errorf("matches.csv: %d homework games on day one, want 1", homework)
	}

	// The podium: today's and the unit's.
	for scope, want := range map[string]string{"today": "Today's podium (" + day2 + ")", "unit": "The podium of the whole unit"} {
		run(t, laptop, chromedp.Navigate(a.url+paths.TeacherProjector.Results.For(code)+"?scope="+scope))
		eventually(t, laptop, fmt.Sprintf(`(document.querySelector("h1") || {}).textContent === %q && document.querySelectorAll('[data-testid="award"]').length > 0`, want), "the podium of "+scope)
		shot(t, laptop, "podium-"+scope)
	}
}
