package server

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"pigclass/server/report"
	"pigclass/sim"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// TestAClassFollowsAUnit (issue 43, item 1): one class goes from lesson
// to lesson. On day 1 it plays "Roll or hold?"; on day 2 the teacher
// picks "Are pigs fair dice?" on the dashboard, then "Why 20?": the same
// code, roster and student pages go on, the bar starts each plan's first
// phase, and the days list keeps what each day played. A plan that is
// not offered is refused by name and changes nothing; "no lesson" leaves
// the class to the teacher's own rounds.
func TestAClassFollowsAUnit(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStartLesson(t, teacher, "1-roll-or-hold")
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	teacher.post(paths.LessonStart.For(code), nil)
	playRound(t, code, []*student{ana})
	first := a.clock.now().In(time.Local).Format(time.DateOnly)
	a.clock.add(24 * time.Hour)
	second := a.clock.now().In(time.Local).Format(time.DateOnly)

	plan := func(slug string) *goquery.Document {
		t.Helper()
		form := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="lesson-plan"]`)
		if form.Find(`option[value="`+slug+`"]`).Length() != 1 {
			t.Fatalf("the dashboard does not offer the plan %q", slug)
		}
		return teacher.post(form.AttrOr("action", ""), url.Values{"lesson": {slug}})
	}
	dash := plan("7-are-pigs-fair-dice")
	if got := dash.Find(`[data-testid="lesson-plan"] option[selected]`).AttrOr("value", ""); got != "7-are-pigs-fair-dice" {
		t.Errorf("the plan selected after the change: %q", got)
	}
	if got := dash.Find(`[data-testid="lesson-start"]`).Text(); !strings.Contains(got, "Start phase 1: Throw the pigs") {
		t.Errorf("the bar after the change: %q", got)
	}
	if got := dash.Find(`[data-testid="join-code"]`).Text(); got != code {
		t.Errorf("the join code after the change: %q, want %q", got, code)
	}
	teacher.post(paths.LessonStart.For(code), nil)
	if board := ana.b.get(paths.Student.For(code)); !strings.Contains(board.Find("#board h1").Text(), "Pass the Pigs") {
		t.Errorf("Ana's page in the new plan's round: %q", board.Find("#board h1").Text())
	}
	playRound(t, code, []*student{ana})
	plan("2-why-20")
	teacher.post(paths.LessonStart.For(code), nil)
	playRound(t, code, []*student{ana})

	// A plan that is not offered: refused by name, nothing changed.
	teacher.post(paths.LessonPlan.For(code), url.Values{"lesson": {"8-no-such-lesson"}})
	if teacher.status() != http.StatusUnprocessableEntity || !strings.Contains(teacher.body, "Lesson plan: choose one of Roll or hold?;") {
		t.Errorf("an unknown plan: %d %s", teacher.status(), teacher.body)
	}
	if c := mustClass(t, a, code); c.Lesson != "2-why-20" {
		t.Errorf("an unknown plan changed the class's to %q", c.Lesson)
	}
	var days []string
	teacher.get(paths.Teacher.For(code)).Find(`[data-testid="day"]`).Each(func(_ int, s *goquery.Selection) {
		days = append(days, strings.Join(strings.Fields(s.Text()), " "))
	})
	want := []string{first + " · Roll or hold? · 1 round", second + " today · Are pigs fair dice?; Why 20? · 2 rounds"}
	if !slices.Equal(days, want) {
		t.Errorf("the days: %q, want %q", days, want)
	}
	// No lesson: the lesson's panel goes, the rounds are the teacher's.
	if dash := plan(""); dash.Find(`[data-testid="lesson"]`).Length() != 0 || mustClass(t, a, code).Lesson != "" {
		t.Error("no lesson: the class still follows one")
	}
}

// TestTheTeachersLookSpeaksOfTheStudent (issue 43, item 5): the teacher's
// page of a student's match says what the student did in the third
// person, in all five languages: the result names the winner, the game's
// cost and the table name the student; in English no "you" or "your" is
// left on the review.
func TestTheTeachersLookSpeaksOfTheStudent(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 25}
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}})
	playRound(t, code, []*student{ana})
	look := paths.TeacherStudent.With(code, studentID(t, a, code, "Ana"))
	waitFor(t, func() bool { return teacher.get(look).Find(`[data-testid="game-cost"]`).Length() == 1 })
	for _, lang := range []string{"en", "de", "es", "fr", "pt-BR"} {
		teacher.post("/lang", url.Values{"lang": {lang}, "back": {"/"}})
		page := teacher.get(look)
		if got := page.Find(`[data-testid="result"]`).Text(); !strings.Contains(got, "Ana") && !strings.Contains(strings.ToLower(got), "bot") {
			t.Errorf("%s: the result names no winner: %q", lang, got)
		}
		if got := page.Find(`[data-testid="game-cost"]`).Text(); !strings.Contains(got, "Ana") {
			t.Errorf("%s: the game's cost is not said of Ana: %q", lang, got)
		}
		if got := page.Find(`[data-testid="review"] caption`).Text(); !strings.Contains(got, "Ana") {
			t.Errorf("%s: the table's caption: %q", lang, got)
		}
		if lang == "en" {
			page.Find(`main p, main li, main caption, main th, main h2, main strong`).Each(func(_ int, s *goquery.Selection) {
				if words := strings.Fields(strings.ToLower(s.Text())); slices.Contains(words, "you") || slices.Contains(words, "your") {
					h, _ := goquery.OuterHtml(s.Parent())
					t.Errorf("the teacher's look says %q in %s", s.Text(), h)
				}
			})
		}
	}
}

// TestProgressSaysNoChange (issue 43, item 6): a change of exactly 0 is
// "no change", never "your choices give away less"; a change between days
// that tell nothing makes no verdict; a range below 0 says it is cut.
func TestProgressSaysNoChange(t *testing.T) {
	l := i18n.For("en")
	told := report.DayProgress{Day: "2026-11-29", Games: 4, PerGame: 0.02, Lo: 0.01, Hi: 0.03, Told: true}
	same := progressWords(l, report.Progress{Days: []report.DayProgress{told, told}, Compared: true, Judged: true, ChangeFrom: told, ChangeTo: told}, "")
	if !strings.HasSuffix(same.Change, "No change.") || same.Better {
		t.Errorf("a change of 0: %q (better %v)", same.Change, same.Better)
	}
	few := told
	few.Told = false
	untold := progressWords(l, report.Progress{Days: []report.DayProgress{few, told}, Compared: true, Change: -0.01, ChangeFrom: few, ChangeTo: told}, "Ana")
	if !strings.Contains(untold.Change, "too few different games") || strings.Contains(untold.Change, "more than luck would explain") {
		t.Errorf("a change from a day that tells nothing: %q", untold.Change)
	}
	if !strings.Contains(untold.Days[0], "Too few different games to tell") {
		t.Errorf("a day that tells nothing: %q", untold.Days[0])
	}
	cut := told
	cut.Lo, cut.Cut = 0, true
	if got := progressWords(l, report.Progress{Days: []report.DayProgress{cut}}, "").Sure[0]; !strings.Contains(got, "between 0 and 3.0%") || !strings.Contains(got, "the range stops at 0") {
		t.Errorf("a range cut at 0: %q", got)
	}
	// The student reads the day in one plain sentence: 2% a game is about
	// one game in 50; the range only on asking (Sure).
	if got := progressWords(l, report.Progress{Days: []report.DayProgress{told}}, ""); got.Days[0] != "2026-11-29: your choices cost you about 1 game in 50 (4 games)." || len(got.Sure) != 1 {
		t.Errorf("a student's day: %q, sure %q", got.Days[0], got.Sure)
	}
	tiny := told
	tiny.PerGame = 0.0004
	if got := progressWords(l, report.Progress{Days: []report.DayProgress{tiny}}, "").Days[0]; got != "2026-11-29: your choices cost you hardly any game (4 games)." {
		t.Errorf("a student's day with almost nothing given away: %q", got)
	}
}

// TestAPodiumNamesATie (issue 42): a tie is named, in order, five at most,
// then "and N more".
func TestAPodiumNamesATie(t *testing.T) {
	l := i18n.For("en")
	if names, more := namedTie(l, []string{"Cy", "Ana", "Bo"}); !slices.Equal(names, []string{"Ana", "Bo", "Cy"}) || more != "" {
		t.Errorf("three tied: %v %q", names, more)
	}
	names, more := namedTie(l, []string{"G", "F", "E", "D", "C", "B", "A", "H", "I"})
	if !slices.Equal(names, []string{"A", "B", "C", "D", "E"}) || more != "and 4 more" {
		t.Errorf("nine tied: %v %q", names, more)
	}
}

// TestTheLiveRegionTellsTheEnd (issue 44): the move that ends a match is
// answered (htmx) with a live region that says how it ended, not only the
// last throw, in English and in French.
func TestTheLiveRegionTellsTheEnd(t *testing.T) {
	a := newApp(t)
	for _, lang := range []string{"en", "fr"} {
		p := a.browser()
		p.post("/lang", url.Values{"lang": {lang}, "back": {"/"}})
		p.post(paths.Practice.String(), url.Values{"game": {"pig"}, "bot": {"hold:20"}, "target": {"10"}})
		page := p.path()
		var last *goquery.Document
		for range 400 {
			st, ok := readBoard(p.get(page))
			if !ok || st.over {
				break
			}
			if !st.yourTurn {
				continue
			}
			last = p.post(st.act, url.Values{"seq": {strconv.Itoa(st.seq)}, "action": {"roll"}}, "HX-Request", "true")
		}
		if last == nil {
			t.Fatalf("%s: no move made", lang)
		}
		heard := last.Find("#live").Text()
		result := last.Find(`[data-testid="result"]`).Text()
		if result == "" || !strings.HasSuffix(heard, result) {
			t.Errorf("%s: the last move's live region says %q, the board %q", lang, heard, result)
		}
	}
}

// TestTheSwitcherComesAfterTheContent (issue 44): on a student's page the
// skip link comes first and the language switcher after the content.
func TestTheSwitcherComesAfterTheContent(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	page := ana.get(paths.Student.For(code))
	var order []string
	page.Find(`[data-testid="skip"], main, [data-testid="lang-switch"]`).Each(func(_ int, s *goquery.Selection) {
		order = append(order, goquery.NodeName(s))
	})
	if !slices.Equal(order, []string{"a", "main", "form"}) {
		t.Errorf("the page's order: %v, want the skip link, the content, the switcher", order)
	}
}

// TestEachMoveSaidOnce (issue 44): the board's visible words of the last
// moves are hidden from the screen reader, which hears them once from the
// live region; the waiting page's words are a status a screen reader
// announces.
func TestEachMoveSaidOnce(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	if w := ana.b.get(paths.Student.For(code)).Find(`[data-testid="waiting-words"]`); w.AttrOr("role", "") != "status" || w.Text() == "" {
		t.Errorf("the waiting words: role %q, %q", w.AttrOr("role", ""), w.Text())
	}
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	ana.step(t, code)
	page := ana.b.get(paths.Student.For(code))
	seen, heard := page.Find(`[data-testid="announce"]`), page.Find(`#live`)
	if seen.AttrOr("aria-hidden", "") != "true" || heard.AttrOr("aria-live", "") != "polite" || !strings.Contains(heard.Text(), strings.TrimSpace(seen.Text())) {
		t.Errorf("the move seen %q (aria-hidden %q), heard %q", seen.Text(), seen.AttrOr("aria-hidden", ""), heard.Text())
	}
}

// TestAGameInOneSentence (issue 44): a match's cost in one plain
// sentence: about one game in N, and where most of it was given away (a
// hold or a roll within one ten of turn totals, or a number of dice),
// "above all" when that is less than half; said of the student on the
// teacher's look.
func TestAGameInOneSentence(t *testing.T) {
	l := i18n.For("en")
	costs := []decisionCost{
		{kind: sim.HoldKind, turnTotal: 12, cost: 0.06},
		{kind: sim.HoldKind, turnTotal: 17, cost: 0.05},
		{kind: sim.RollKind, turnTotal: 31, cost: 0.03},
	}
	if got := plainCost(l, "", false, costs, 0.14); got != "This game your choices cost you about 14 in 100 of the chance to win; most of it when you held with 10 to 19 points." {
		t.Errorf("mine: %q", got)
	}
	costs[2].cost = 0.08
	costs = append(costs, decisionCost{kind: sim.RollKind, turnTotal: 45, cost: 0.07})
	if got := plainCost(l, "Ana", false, costs, 0.26); got != "This game Ana's choices cost about 26 in 100 of the chance to win; above all when Ana held with 10 to 19 points." {
		t.Errorf("Ana's: %q", got)
	}
	if got := plainCost(l, "", false, []decisionCost{{kind: sim.DiceKind, dice: 1, cost: 0.04}, {kind: sim.DiceKind, dice: 9, cost: 0.01}}, 0.05); got != "This game your choices cost you about 5 in 100 of the chance to win; most of it when you threw 1 die." {
		t.Errorf("Hog: %q", got)
	}
	if got := plainCost(l, "", false, nil, 0.0002); got != "This game your choices cost you hardly any of the chance to win." {
		t.Errorf("nothing given away: %q", got)
	}
	// A won game's cost is what its choices risked (issue 81), and a
	// cost past a whole chance is no "1 game in 1".
	if got := plainCost(l, "", true, costs, 0.26); got != "You won, though your choices risked about 26 in 100 of the chance to win along the way; above all when you held with 10 to 19 points." {
		t.Errorf("a won game: %q", got)
	}
	if got := plainCost(l, "Ana", true, nil, 0); got != "Ana won, and the choices risked hardly any of the chance to win along the way." {
		t.Errorf("Ana's won game, nothing given away: %q", got)
	}
	if got := plainCost(l, "", false, costs, 1.3); !strings.Contains(got, "more than a whole game's chance to win, added up") {
		t.Errorf("a cost past a whole chance: %q", got)
	}
	if got := gamesLost(l, 0.9); got != "about a whole game each game" {
		t.Errorf("0.9 a game: %q, want no 1 game in 1", got)
	}
}
