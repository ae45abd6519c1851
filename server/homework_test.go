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

// playAt plays the match at path for the student to its end, holding at
// their hold point; it returns how many moves they made.
func (s *student) playAt(t *testing.T, path string) int {
	t.Helper()
	moves := 0
	for range 2000 {
		st, ok := readBoard(s.b.get(path))
		if !ok || st.over {
			return moves
		}
		if !st.yourTurn {
			continue
		}
		action := "hold"
		if st.turnTot < s.holdAt {
			action = "roll"
		}
		if s.b.post(st.act, url.Values{"seq": {strconv.Itoa(st.seq)}, "action": {action}}); s.b.status() != http.StatusOK {
			t.Fatalf("%s %s at %s: %d", s.nick, action, path, s.b.status())
		}
		moves++
	}
	t.Fatalf("%s's match at %s did not end", s.nick, path)
	return moves
}

// TestHomework (issue 33, item 2): the teacher sets a game against a bot
// as homework (a bad number of games or due time comes back on the form,
// saying what to type); students see it on their class page and play it
// whenever they like, a game a match of the class with its review; a
// game started after the due time counts as late; the dashboard says who
// did what; the teacher moves the due time and closes it (no new game
// starts, and the student is told why); matches.csv lists the games with
// their day.
func TestHomework(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	join(t, a, code, "Bo")
	due := a.clock.now().In(time.Local).Add(48 * time.Hour).Format("2006-01-02T15:04")
	form := url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}, "games": {"0"}, "due": {due}}
	page := teacher.post(paths.Homework.For(code), form)
	if teacher.status() != http.StatusUnprocessableEntity || page.Find("#hw-games-error").Text() != "A number of games from 1 to 20." {
		t.Errorf("0 games: %d %q", teacher.status(), page.Find("#hw-games-error").Text())
	}
	form.Set("games", "2")
	form.Set("due", "")
	if page = teacher.post(paths.Homework.For(code), form); !strings.HasPrefix(page.Find("#hw-due-error").Text(), "Say when it is due") {
		t.Errorf("no due time: %q", page.Find("#hw-due-error").Text())
	}
	form.Set("due", due)
	page = teacher.post(paths.Homework.For(code), form)
	if got := page.Find(".notice").Text(); !strings.HasPrefix(got, "Homework set: Pig to 30 against rule of thumb, hold at 20: 2 games, due ") {
		t.Fatalf("setting homework: %q", got)
	}
	done := func() map[string]string {
		out := map[string]string{}
		teacher.get(paths.Teacher.For(code)).Find(`[data-testid="homework-student"]`).Each(func(_ int, s *goquery.Selection) {
			name := s.Find("span").Text()
			out[name] = strings.TrimPrefix(s.Text(), name+": ")
		})
		return out
	}
	if got := done(); got["Ana"] != "0 of 2 played" || got["Bo"] != "0 of 2 played" {
		t.Errorf("before any game: %v", got)
	}
	play := func() string {
		t.Helper()
		home := ana.b.get(paths.Student.For(code))
		button := home.Find(`[data-testid="student-assignment"] form`)
		ana.b.post(button.AttrOr("action", ""), nil)
		if !strings.HasPrefix(ana.b.path(), "/c/"+code+"/m/") {
			t.Fatalf("playing homework went to %s (%d)", ana.b.path(), ana.b.status())
		}
		return ana.b.path()
	}
	first := play()
	ana.playAt(t, first)
	if review := ana.b.get(first); review.Find(`[data-testid="result"]`).Length() == 0 {
		t.Error("the homework game has no review")
	}
	a.clock.add(72 * time.Hour) // past the due time
	ana.playAt(t, play())
	if got := done(); got["Ana"] != "2 of 2 played, 1 late" || got["Bo"] != "0 of 2 played" {
		t.Errorf("after two games, one late: %v", got)
	}
	if got := ana.b.get(paths.Student.For(code)).Find(`[data-testid="student-assignment-done"]`).Text(); got != "Homework done: 2 of 2 played, 1 late." { // issue 43: done says so
		t.Errorf("Ana's page: %q", got)
	}
	rows := 0
	for _, r := range teacher.csvRows(paths.MatchesCSV.For(code)) {
		if r["round"] == "" && r["kind"] == "homework" && r["game"] == "pig" && r["day"] != "" { // issue 81: no round, said homework
			rows++
		}
	}
	if rows != 2 {
		t.Errorf("matches.csv lists %d homework games with their day, want 2", rows)
	}
	assignment := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="assignment"]`)
	moved := a.clock.now().In(time.Local).Add(24 * time.Hour).Format("2006-01-02T15:04")
	if got := teacher.post(assignment.Find(`form:has([data-testid="homework-move"])`).AttrOr("action", ""), url.Values{"due": {moved}}).Find(".notice").Text(); !strings.Contains(got, "Homework now due") {
		t.Errorf("moving the due time: %q", got)
	}
	teacher.post(assignment.Find(`form:has([data-testid="homework-close"])`).AttrOr("action", ""), nil)
	home := ana.b.get(paths.Student.For(code))
	if home.Find(`[data-testid="play-homework"]`).Length() != 0 {
		t.Error("a closed homework offers a game")
	}
	ana.b.post(paths.PlayHomework.With(code, 1), nil)
	if ana.b.status() != http.StatusConflict || !strings.Contains(ana.b.body, "Your teacher closed this homework") {
		t.Errorf("a game of a closed homework: %d", ana.b.status())
	}
}

// TestHomeworkFromALessonPhase (issue 33, item 2): a class following a
// lesson can set one of its phases that play a game as homework: the
// phase's game and bot, whatever the round form says; a phase that plays
// none is refused, saying what to pick.
func TestHomeworkFromALessonPhase(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStartLesson(t, teacher, "1-roll-or-hold")
	var phases []string
	teacher.get(paths.Teacher.For(code)).Find(`[data-testid="homework-phase"] option`).Each(func(_ int, o *goquery.Selection) {
		phases = append(phases, o.AttrOr("value", "")+" "+o.Text())
	})
	if strings.Join(phases, "; ") != " the form's game and bot, above; 1 phase 1 of the lesson, Learn the rules against a beginner (Pig to 50); 2 phase 2 of the lesson, Play the rule of thumb (Pig to 100)" {
		t.Errorf("the phases offered: %q", phases)
	}
	due := a.clock.now().In(time.Local).Add(24 * time.Hour).Format("2006-01-02T15:04")
	form := url.Values{"game": {"hog"}, "target": {"100"}, "max_dice": {"10"}, "mode": {"bot"}, "bot": {"dice:5"}, "games": {"2"}, "due": {due}, "phase": {"3"}}
	if page := teacher.post(paths.Homework.For(code), form); teacher.status() != http.StatusUnprocessableEntity || !strings.Contains(page.Text(), "Pick a phase of the class's lesson that plays a game.") {
		t.Errorf("a phase that plays no game: %d", teacher.status())
	}
	form.Set("phase", "2")
	if got := teacher.post(paths.Homework.For(code), form).Find(".notice").Text(); !strings.HasPrefix(got, "Homework set: Pig to 100 against rule of thumb, hold at 20: 2 games") {
		t.Errorf("phase 2 as homework: %q", got)
	}
}

// TestAHomeworkDayIsADay (issue 43, item 2): a day on which the class
// only played homework is one of its days: the dashboard lists it (what
// was played: its games of homework), marks it today, and links today's
// files, which hold that day's homework.
func TestAHomeworkDayIsADay(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}})
	playRound(t, code, []*student{ana})
	due := a.clock.now().In(time.Local).Add(72 * time.Hour).Format("2006-01-02T15:04")
	teacher.post(paths.Homework.For(code), url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}, "games": {"2"}, "due": {due}})
	teacher.post(paths.RoundsEnd.For(code), url.Values{"confirm": {"yes"}})
	a.clock.add(24 * time.Hour)
	second := a.clock.now().In(time.Local).Format(time.DateOnly)
	ana.b.post(paths.PlayHomework.With(code, 1), nil)
	ana.playAt(t, ana.b.path())

	dash := teacher.get(paths.Teacher.For(code))
	var days []string
	dash.Find(`[data-testid="day"]`).Each(func(_ int, d *goquery.Selection) {
		days = append(days, strings.Join(strings.Fields(d.Text()), " "))
	})
	if len(days) != 2 || days[1] != second+" today · 1 game of homework" {
		t.Errorf("the days: %q, want a second, today's, of homework", days)
	}
	if got := dash.Find(`[data-testid="export-decisions.csv"]`).AttrOr("href", ""); got != paths.DecisionsCSV.For(code)+"?day="+second {
		t.Errorf("the dashboard's decisions.csv: %q, want today's", got)
	}
	rows := teacher.csvRows(paths.DecisionsCSV.For(code) + "?day=" + second)
	if len(rows) == 0 {
		t.Fatal("today's decisions.csv holds no homework")
	}
	for _, r := range rows {
		if r["round"] != "" || r["kind"] != "homework" || r["day"] != second {
			t.Errorf("today's row: round %q, kind %q, day %s", r["round"], r["kind"], r["day"])
		}
	}
}

// TestHomeworkSaysWhenItIsDone (issue 43, item 3): once a student has
// played what is due, their page says the homework is done and offers
// more only as practice, counted apart on the teacher's list; a page left
// open learns of a new assignment at its next poll.
func TestHomeworkSaysWhenItIsDone(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	due := a.clock.now().In(time.Local).Add(72 * time.Hour).Format("2006-01-02T15:04")
	form := url.Values{"game": {"pig"}, "target": {"20"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}, "games": {"2"}, "due": {due}}
	teacher.post(paths.Homework.For(code), form)
	for range 2 {
		ana.b.post(paths.PlayHomework.With(code, 1), nil)
		ana.playAt(t, ana.b.path())
	}
	home := ana.b.get(paths.Student.For(code))
	if got := home.Find(`[data-testid="student-assignment-done"]`).Text(); got != "Homework done: 2 of 2 played." {
		t.Errorf("after 2 of 2: %q", got)
	}
	if got := home.Find(`[data-testid="play-homework"]`).Text(); got != "Play again for practice" {
		t.Errorf("the button after 2 of 2: %q", got)
	}
	ana.b.post(paths.PlayHomework.With(code, 1), nil)
	ana.playAt(t, ana.b.path())
	var listed string
	teacher.get(paths.Teacher.For(code)).Find(`[data-testid="homework-student"]`).Each(func(_ int, s *goquery.Selection) {
		listed = s.Text()
	})
	if listed != "Ana: 2 of 2 played (and 1 more for practice)" {
		t.Errorf("the teacher's list: %q", listed)
	}

	// A page left open: its poll says nothing new, until an assignment
	// is set.
	poll := ana.b.get(paths.Student.For(code)).Find(`[data-testid="waiting"]`).AttrOr("hx-get", "")
	if ana.b.get(poll); ana.b.status() != http.StatusNoContent {
		t.Fatalf("the waiting page's poll %s: %d before anything changed", poll, ana.b.status())
	}
	teacher.post(paths.Homework.For(code), form)
	if ana.b.get(poll); ana.b.status() != http.StatusOK || ana.b.last.Header.Get("HX-Redirect") != paths.Student.For(code) {
		t.Errorf("the poll after a new assignment: %d, to %q", ana.b.status(), ana.b.last.Header.Get("HX-Redirect"))
	}
	if n := ana.b.get(paths.Student.For(code)).Find(`[data-testid="student-assignment"]`).Length(); n != 2 {
		t.Errorf("%d assignments on the page, want 2", n)
	}
}
