package server

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/sim/solve"
	"pigclass/templates/paths"
)

// homeworkForm is the dashboard's homework form for Pig to target,
// against bot, due in two days.
func homeworkForm(a *app, target int, bot string) url.Values {
	due := a.clock.now().In(time.Local).Add(48 * time.Hour).Format("2006-01-02T15:04")
	return url.Values{"game": {"pig"}, "target": {strconv.Itoa(target)}, "mode": {"bot"}, "bot": {bot}, "seats": {"2"}, "games": {"2"}, "due": {due}}
}

// startHomework has s start a game of the class's assignment id and
// returns the status and the page's text.
func startHomework(s *browser, code string, id int) (int, string) {
	s.post(paths.PlayHomework.With(code, int64(id)), nil)
	return s.status(), s.body
}

// TestEveryOriginPassesTheDoor (issue 40, item 2; issue 41, items 1
// and 2): a round, a practice match and a game of homework are held to
// the same limits (the server's live matches; the class's allowance of
// new kinds), each refusal names its limit and changes nothing.
func TestEveryOriginPassesTheDoor(t *testing.T) {
	limits := play.DefaultLimits
	limits.Live, limits.KindsClass = 3, 1
	a := newAppConfig(t, func(c *Config) { c.Tables = &solve.Cache{}; c.Limits = limits })
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana, bo := join(t, a, code, "Ana"), join(t, a, code, "Bo")

	// Homework of a new kind spends the class's allowance as a round
	// would: the second new kind in the minute is refused, for homework
	// as for a round. (Its bot holds at 20: it cannot win Pig to 31 in
	// the one turn it has before the student's, so the game stays live.)
	if got := teacher.post(paths.Homework.For(code), homeworkForm(a, 31, "hold:20")).Find(".notice").Text(); !strings.HasPrefix(got, "Homework set") {
		t.Fatalf("the first new kind as homework: %q", got)
	}
	spent := a.srv.room.Hall().KindsSpent(code)
	teacher.post(paths.Homework.For(code), homeworkForm(a, 37, "hold:20"))
	if teacher.status() != http.StatusUnprocessableEntity || !strings.Contains(teacher.body, "new kinds of round") || spent != 1 {
		t.Errorf("a second new kind as homework: %d, %d spent before", teacher.status(), spent)
	}
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"41"}, "mode": {"bot"}, "bot": {"hold:20"}})
	if teacher.status() != http.StatusUnprocessableEntity || !strings.Contains(teacher.body, "new kinds of round") {
		t.Errorf("a new kind as a round after homework spent the allowance: %d", teacher.status())
	}
	if n := len(a.srv.room.Hall().Matches()); n != 0 {
		t.Fatalf("%d matches after refusals", n)
	}

	// The server takes three live matches: a round of two (two
	// matches against the bot), then one game of homework; a practice
	// match, another game of homework, and a round of a second class
	// are each refused, naming the limit.
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	if teacher.status() != http.StatusOK {
		t.Fatalf("the round: %d", teacher.status())
	}
	if status, _ := startHomework(ana, code, 1); status != http.StatusOK {
		t.Fatalf("Ana's homework: %d", status)
	}
	const full = "The server is playing 3 matches at once"
	if status, body := startHomework(bo, code, 1); status != http.StatusTooManyRequests || !strings.Contains(body, full) {
		t.Errorf("Bo's homework on a full server: %d", status)
	}
	p := a.browser()
	if p.post("/practice", url.Values{"game": {"pig"}, "bot": {"hold:20"}}); p.status() != http.StatusTooManyRequests || !strings.Contains(p.body, full) {
		t.Errorf("practice on a full server: %d", p.status())
	}
	other := teacherStart(t, teacher)
	join(t, a, other, "Cy")
	teacher.post(paths.Rounds.For(other), url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	if teacher.status() != http.StatusUnprocessableEntity || !strings.Contains(teacher.body, full) {
		t.Errorf("another class's round on a full server: %d", teacher.status())
	}
	if n := len(a.srv.room.Hall().Matches()); n != 3 {
		t.Errorf("%d matches in the hall, want 3", n)
	}
	// A round again replaces the class's own: its two places count as
	// free.
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	if teacher.status() != http.StatusOK {
		t.Errorf("the class's round again: %d", teacher.status())
	}
}

// TestHomeworkIsLimited (issue 41, item 1): a class holds a dozen open
// assignments at most; a student has at most three games of homework open
// at once; a class starts a bounded number of games a minute outside
// rounds. Each refusal says which limit, and nothing is started.
func TestHomeworkIsLimited(t *testing.T) {
	limits := play.DefaultLimits
	limits.ClassStarts = 5
	a := newAppConfig(t, func(c *Config) { c.Limits = limits })
	teacher := a.browser()
	code := teacherStart(t, teacher)
	var students []*browser
	for _, nick := range []string{"Ana", "Bo", "Cy"} {
		students = append(students, join(t, a, code, nick))
	}
	for i := range classroom.MaxOpenAssignments {
		if got := teacher.post(paths.Homework.For(code), homeworkForm(a, 100, "hold:20")).Find(".notice").Text(); !strings.HasPrefix(got, "Homework set") {
			t.Fatalf("assignment %d: %q", i+1, got)
		}
	}
	teacher.post(paths.Homework.For(code), homeworkForm(a, 100, "hold:20"))
	if teacher.status() != http.StatusUnprocessableEntity || !strings.Contains(teacher.body, "12 open assignments") {
		t.Errorf("assignment 13: %d", teacher.status())
	}

	live := func() int { return len(a.srv.room.Hall().Matches()) }
	for id := 1; id <= 3; id++ {
		if status, _ := startHomework(students[0], code, id); status != http.StatusOK {
			t.Fatalf("Ana's game of assignment %d: %d", id, status)
		}
	}
	// The same assignment again is the game open, not a new one.
	if status, _ := startHomework(students[0], code, 3); status != http.StatusOK || live() != 3 {
		t.Errorf("Ana's open game again: %d, %d games", status, live())
	}
	if status, body := startHomework(students[0], code, 4); status != http.StatusTooManyRequests || !strings.Contains(body, "You have 3 games open already") {
		t.Errorf("Ana's fourth game at once: %d", status)
	}
	for id := 1; id <= 2; id++ {
		if status, _ := startHomework(students[1], code, id); status != http.StatusOK {
			t.Fatalf("Bo's game of assignment %d: %d", id, status)
		}
	}
	if status, body := startHomework(students[2], code, 1); status != http.StatusTooManyRequests || !strings.Contains(body, "started 5 games outside rounds in the last minute") {
		t.Errorf("the class's sixth game in a minute: %d", status)
	}
	if live() != 5 {
		t.Errorf("%d games in the hall, want 5", live())
	}
	a.clock.add(time.Minute + time.Second)
	if status, _ := startHomework(students[2], code, 1); status != http.StatusOK {
		t.Errorf("a game a minute later: %d", status)
	}
}
