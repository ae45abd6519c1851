package server

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"pigclass/templates/paths"
)

// TestAStudentsExtraTimeHoldsTheirDeadline (issue 59, item 14): the
// teacher gives a student extra time on each per-roll deadline (an
// accommodation, WCAG 2.2.1) from the student's page: the server holds
// for her only when the round's deadline and her extra time have both
// passed; her board counts down to that, and its words and how-to say
// her own seconds; students.csv and her data file hold it; taken away,
// the round's deadline holds again. A value that is not a whole number
// of seconds from 0 to 600 is refused, says what to type, and changes
// nothing.
func TestAStudentsExtraTimeHoldsTheirDeadline(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	id := studentID(t, a, code, "Ana")
	set := paths.ExtraTime.With(code, id)

	for _, bad := range []string{"lots", "-5", "601", "2.5", ""} {
		doc := teacher.post(set, url.Values{"seconds": {bad}})
		if teacher.status() != http.StatusBadRequest || !strings.Contains(doc.Text(), "Extra time for Ana is a whole number of seconds from 0 to 600") {
			t.Errorf("extra time %q: %d %q", bad, teacher.status(), doc.Find("main").Text())
		}
	}
	if got := teacher.get(paths.TeacherStudent.With(code, id)).Find(`#extra-seconds`).AttrOr("value", ""); got != "0" {
		t.Fatalf("after refused values the student's extra time reads %q, want 0", got)
	}
	doc := teacher.post(set, url.Values{"seconds": {" 20 "}})
	if notice := doc.Find(`[data-testid="student-admin"] .notice`).Text(); !strings.Contains(notice, "Ana now has 20 extra seconds on each roll's deadline") {
		t.Fatalf("after setting 20 s: %d %q", teacher.status(), notice)
	}
	if got := doc.Find(`#extra-seconds`).AttrOr("value", ""); got != "20" {
		t.Errorf("the student's page reads %q s of extra time, want 20", got)
	}

	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}, "deadline": {"10"}})
	timeouts := func() int { return countBy(teacher.csvRows(paths.DecisionsCSV.For(code)), "timeout") }
	// Her board, first shown now, counts 10 + 20 s.
	waitFor(t, func() bool { st, ok := readBoard(ana.get(paths.Student.For(code))); return ok && st.yourTurn })
	shown := a.clock.now()
	board := ana.get(paths.Student.For(code))
	if got, want := board.Find(`[data-testid="deadline"]`).AttrOr("data-deadline", ""), strconv.FormatInt(shown.Add(30*time.Second).UnixMilli(), 10); got != want {
		t.Errorf("her deadline is at %s, want 30 s after her board was shown (%s)", got, want)
	}
	if words := board.Find(`[data-testid="deadline"]`).Text(); !strings.Contains(words, "30 s per roll") {
		t.Errorf("her deadline says %q", words)
	}
	if howto := board.Find(`[data-testid="howto"]`).Text(); !strings.Contains(howto, "You have 30 seconds for each move") {
		t.Errorf("how to play says %q", howto)
	}
	hall := a.srv.room.Hall()
	a.clock.add(15 * time.Second) // past the round's 10 s, not her 30
	hall.CheckDeadlines(t.Context())
	if n := timeouts(); n != 0 {
		t.Fatalf("15 s into her 30 the server held for her (%d time-outs)", n)
	}
	a.clock.add(16 * time.Second) // 31 s
	hall.CheckDeadlines(t.Context())
	waitFor(t, func() bool { return timeouts() == 1 })

	if rows := teacher.csvRows(paths.StudentsCSV.For(code)); len(rows) != 1 || rows[0]["extra_seconds"] != "20" {
		t.Errorf("students.csv: %v", rows)
	}
	if data := teacher.get(paths.StudentData.With(code, id)); !strings.Contains(teacher.body, `"extra_seconds": "20"`) {
		t.Errorf("her data file does not hold her extra time: %s", data.Text())
	}

	// Taken away: her next deadline is the round's.
	doc = teacher.post(set, url.Values{"seconds": {"0"}})
	if notice := doc.Find(`[data-testid="student-admin"] .notice`).Text(); !strings.Contains(notice, "Ana has no extra time now") {
		t.Errorf("after taking it away: %q", notice)
	}
	waitFor(t, func() bool { st, ok := readBoard(ana.get(paths.Student.For(code))); return ok && st.yourTurn })
	shown = a.clock.now()
	board = ana.get(paths.Student.For(code))
	if got, want := board.Find(`[data-testid="deadline"]`).AttrOr("data-deadline", ""), strconv.FormatInt(shown.Add(10*time.Second).UnixMilli(), 10); got != want || !strings.Contains(board.Find(`[data-testid="deadline"]`).Text(), "10 s per roll") {
		t.Errorf("without extra time her deadline is at %s (%q), want %s", got, board.Find(`[data-testid="deadline"]`).Text(), want)
	}
	a.clock.add(11 * time.Second)
	hall.CheckDeadlines(t.Context())
	waitFor(t, func() bool { return timeouts() == 2 })
}

// TestAPhasesCountdownOnEveryScreen (issue 59, item 14): the teacher
// sets a countdown for a lesson's phase on the lesson panel; the
// dashboard, the shared screen and a student's board show the time left
// by the server's clock, with what app.js needs to count on by the
// device's (the milliseconds left, the words); once over it says so; the
// teacher stops it, or the next phase ends it. A countdown of no phase,
// or of a time that is not 1 to 60 whole minutes, is refused with what
// to do, and changes nothing. A waiting page is drawn again when a
// countdown starts.
func TestAPhasesCountdownOnEveryScreen(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStartLesson(t, teacher, "1-roll-or-hold")
	ana := join(t, a, code, "Ana")
	count := paths.LessonCountdown.For(code)
	teacher.post(count, url.Values{"minutes": {"5"}})
	if teacher.status() != http.StatusConflict || !strings.Contains(teacher.body, "start a phase of the lesson first") {
		t.Errorf("a countdown before the first phase: %d", teacher.status())
	}
	// Ana waits for the phase: her page asks again whether to redraw.
	next := ana.get(paths.Student.For(code)).Find(`[data-testid="waiting"]`).AttrOr("hx-get", "")
	teacher.post(paths.LessonStart.For(code), url.Values{"confirm": {"yes"}})
	for _, bad := range []string{"0", "61", "five", "2.5", ""} {
		teacher.post(count, url.Values{"minutes": {bad}})
		if teacher.status() != http.StatusBadRequest || !strings.Contains(teacher.body, "A countdown is a whole number of minutes from 1 to 60") {
			t.Errorf("a countdown of %q: %d", bad, teacher.status())
		}
	}
	link := strings.TrimPrefix(teacher.get(paths.Teacher.For(code)).Find(`[data-testid="projector-link"]`).AttrOr("href", ""), a.url)
	projector := a.browser()
	clocks := func() map[string]*goquery.Selection {
		return map[string]*goquery.Selection{
			"dashboard": teacher.get(paths.Teacher.For(code)).Find(`[data-testid="lesson-countdown"] [data-testid="phase-clock"]`),
			"projector": projector.get(link).Find(`[data-testid="projector"] [data-testid="phase-clock"]`),
			"board":     ana.get(paths.Student.For(code)).Find(`[data-testid="board"] [data-testid="phase-clock"]`),
		}
	}
	for where, c := range clocks() {
		if c.Length() != 0 {
			t.Errorf("the %s shows a countdown none set: %q", where, c.Text())
		}
	}
	doc := teacher.post(count, url.Values{"minutes": {" 5 "}})
	if notice := doc.Find(".notice").Text(); !strings.Contains(notice, "The countdown runs: 5 minutes") {
		t.Fatalf("after setting 5 minutes: %d %q", teacher.status(), notice)
	}
	check := func(when, text, left string) {
		t.Helper()
		for where, c := range clocks() {
			if c.Length() != 1 || strings.TrimSpace(c.Text()) != text || c.AttrOr("data-clock-left", "") != left ||
				c.AttrOr("data-left", "") != "Time left: {t}" || c.AttrOr("data-over", "") != "Time is up" || c.AttrOr("role", "") != "timer" {
				t.Errorf("%s, the %s shows %d clocks: %q, %s ms left (want %q, %s)", when, where, c.Length(), c.Text(), c.AttrOr("data-clock-left", ""), text, left)
			}
		}
	}
	check("at the start", "Time left: 5:00", "300000")
	a.clock.add(2*time.Minute + 500*time.Millisecond)
	check("2.5 s past two minutes", "Time left: 3:00", "179500")
	a.clock.add(3 * time.Minute)
	check("once over", "Time is up", "0")
	// Stopped, it goes from every screen; set again, the next phase ends it.
	for _, end := range []struct {
		what string
		post func()
	}{
		{"stopped", func() { teacher.post(count, url.Values{"stop": {"1"}}) }},
		{"the next phase", func() { teacher.post(paths.LessonNext.For(code), url.Values{"confirm": {"yes"}}) }},
	} {
		teacher.post(count, url.Values{"minutes": {"1"}})
		check("before "+end.what, "Time left: 1:00", "60000")
		end.post()
		for where, c := range clocks() {
			if c.Length() != 0 {
				t.Errorf("after %s the %s still shows %q", end.what, where, c.Text())
			}
		}
	}
	// The waiting page of before the phase is drawn again.
	ana.get(next)
	if ana.last.Header.Get("HX-Redirect") == "" {
		t.Errorf("a waiting page is not drawn again once the lesson and its countdown moved (%d)", ana.status())
	}
}
