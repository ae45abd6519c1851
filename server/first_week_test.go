package server

import (
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"testing"
	"time"

	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// TestPagesThatStandFollowTheClass (issue 81, item 3): the lab, the
// strategy editor and the privacy page, left open on a phone, go to the
// student's board when a round starts (and not while the student's own
// game goes on), as a waiting page does.
func TestPagesThatStandFollowTheClass(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	if got := ana.get(paths.Student.For(code)).Find(`[data-testid="privacy-link"]`).AttrOr("href", ""); got != paths.ClassPrivacy.For(code) {
		t.Errorf("a student's footer links the privacy page %q, want the class's %q", got, paths.ClassPrivacy.For(code))
	}
	pages := []string{paths.StudentLab.For(code), paths.StudentPlan.For(code), paths.ClassPrivacy.For(code)}
	follows := map[string]string{}
	for _, p := range pages {
		doc := ana.get(p)
		f := doc.Find(`[data-testid="follow"]`).AttrOr("hx-get", "")
		if ana.status() != http.StatusOK || f == "" {
			t.Fatalf("%s: %d, follow %q: the page does not hear the class", p, ana.status(), f)
		}
		if ana.get(f); ana.status() != http.StatusNoContent {
			t.Errorf("%s: its follow answers %d before anything began, want 204", p, ana.status())
		}
		follows[p] = f
	}
	if n := a.browser().get(paths.Privacy.String()).Find(`[data-testid="follow"]`).Length(); n != 0 {
		t.Errorf("the privacy page of no class follows a class")
	}

	startRound(t, teacher, code, url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}})
	for _, p := range pages {
		if ana.get(follows[p]); ana.status() != http.StatusOK || ana.last.Header.Get("HX-Redirect") != paths.Student.For(code) {
			t.Errorf("%s after the round started: %d, HX-Redirect %q, want the class page", p, ana.status(), ana.last.Header.Get("HX-Redirect"))
		}
	}
	if _, ok := readBoard(ana.get(paths.Student.For(code))); !ok {
		t.Fatal("the class page shows no board once the round started")
	}
	// Opened during her game, the lab stays: her game began before it.
	f := ana.get(paths.StudentLab.For(code)).Find(`[data-testid="follow"]`).AttrOr("hx-get", "")
	if ana.get(f); ana.status() != http.StatusNoContent {
		t.Errorf("the lab opened during her game: its follow answers %d (to %q), want 204", ana.status(), ana.last.Header.Get("HX-Redirect"))
	}
}

// TestAResultStaysUntilTheStudentLeavesIt (issue 81, item 4): a homework
// game finished while the lesson is at a phase without a game keeps its
// result and the way to its review, with what the phase asks beside it;
// when the lesson moves on the board is drawn again where it is; only
// the student's next game takes the phone away from it.
func TestAResultStaysUntilTheStudentLeavesIt(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStartLesson(t, teacher, "8-design-a-strategy")
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	teacher.post(paths.LessonStart.For(code), url.Values{"confirm": {"yes"}}) // Play first
	teacher.post(paths.LessonNext.For(code), url.Values{"confirm": {"yes"}})  // Design: no game
	due := a.clock.now().In(time.Local).Add(72 * time.Hour).Format("2006-01-02T15:04")
	teacher.post(paths.Homework.For(code), url.Values{"game": {"pig"}, "target": {"20"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}, "games": {"2"}, "due": {due}})
	ana.b.post(paths.PlayHomework.With(code, 1), nil)
	game := ana.b.path()
	id, err := strconv.ParseInt(path.Base(game), 10, 64)
	if err != nil {
		t.Fatalf("the homework game is at %q, not a match's page", game)
	}
	ana.playAt(t, game)

	// The board as her last move left it (the board's own address draws
	// it as that answer did).
	boardAt := paths.ClassBoard.With(code, id)
	board := ana.b.get(boardAt)
	if st, ok := readBoard(board); !ok || !st.over {
		t.Fatalf("the finished homework game at %s shows no result: %d", boardAt, ana.b.status())
	}
	result := board.Find(`[data-testid="result"]`).Text()
	if got := board.Find(`[data-testid="phase-asks"]`).Text(); got != "Phase 2: Design. Design your strategy now:" {
		t.Errorf("beside the result: %q, want what Design asks", got)
	}
	if got := board.Find(`[data-testid="what-next"] [data-testid="plan-now"]`).AttrOr("href", ""); got != paths.StudentPlan.For(code) {
		t.Errorf("beside the result the editor is %q, want %q", got, paths.StudentPlan.For(code))
	}
	if got := board.Find(`[data-testid="what-next"] a.button`).First().AttrOr("href", ""); got != game {
		t.Errorf("the result's way to its review is %q, want %q", got, game)
	}
	next := board.Find(`[data-testid="next-poll"]`).AttrOr("hx-get", "")
	for range 3 {
		if ana.b.get(next); ana.b.status() != http.StatusNoContent {
			t.Fatalf("the finished board's poll %q answers %d, HX-Redirect %q: the result leaves", next, ana.b.status(), ana.b.last.Header.Get("HX-Redirect"))
		}
	}
	// Its review stays too, whatever the lesson does.
	review := ana.b.get(game).Find(`[data-testid="next-poll"]`).AttrOr("hx-get", "")

	teacher.post(paths.LessonNext.For(code), url.Values{"confirm": {"yes"}}) // Discuss: no game either
	again := ana.b.get(next)
	if ana.b.status() != http.StatusOK || ana.b.last.Header.Get("HX-Redirect") != "" || ana.b.last.Header.Get("HX-Retarget") != "#board" {
		t.Fatalf("the lesson moved: the finished board's poll answers %d, HX-Redirect %q, HX-Retarget %q; want the board in its place",
			ana.b.status(), ana.b.last.Header.Get("HX-Redirect"), ana.b.last.Header.Get("HX-Retarget"))
	}
	if st, ok := readBoard(again); !ok || !st.over || again.Find(`[data-testid="result"]`).Text() != result {
		t.Errorf("drawn again, the board says %q, want its result %q", again.Find(`[data-testid="result"]`).Text(), result)
	}
	if got, was := again.Find(`[data-testid="phase-asks"]`).Text(), "Phase 2: Design. Design your strategy now:"; got == was || got == "" {
		t.Errorf("drawn again, the board says %q beside its result, want the new phase's words", got)
	}
	if ana.b.get(review); ana.b.status() != http.StatusNoContent {
		t.Errorf("the review's poll after the lesson moved: %d, want 204", ana.b.status())
	}
	// A round (issue 81, item 3): the finished board and its review,
	// left open, both go to her board.
	next = again.Find(`[data-testid="next-poll"]`).AttrOr("hx-get", "")
	startRound(t, teacher, code, url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}})
	for what, poll := range map[string]string{"the finished board": next, "its review": review} {
		if ana.b.get(poll); ana.b.last.Header.Get("HX-Redirect") != paths.Student.For(code) {
			t.Errorf("a round started: %s's poll answers %d, HX-Redirect %q, want her class page", what, ana.b.status(), ana.b.last.Header.Get("HX-Redirect"))
		}
	}
}

// TestAPhaseNamedWithAQuestionEndsOnce (issue 81, item 8): a lesson's
// phase whose name is a question ("Is it luck?") is said without a full
// stop after its question mark.
func TestAPhaseNamedWithAQuestionEndsOnce(t *testing.T) {
	for _, lang := range []string{"en", "es", "fr", "de", "pt-BR"} {
		l := i18n.For(lang)
		for _, id := range []string{"student.waiting_phase", "student.waiting_plan", "student.waiting_lab", "notice.phase"} {
			said := l.T(id, "N", l.Int(4), "Name", i18n.Sentence("Is it luck?"))
			if strings.Contains(said, "?.") || strings.Contains(said, "? .") {
				t.Errorf("%s %s: %q", lang, id, said)
			}
			if plain := l.T(id, "N", l.Int(2), "Name", i18n.Sentence("Design")); !strings.Contains(plain, "Design.") {
				t.Errorf("%s %s: %q, want the name's full stop", lang, id, plain)
			}
		}
	}
}

// TestTheFilesTellWhatAGameWas (issue 81, item 9): decisions.csv,
// matches.csv and match_players.csv say what each game was (a round, a
// homework game), a homework game has no round number, and students.csv
// says how each student came (a nickname, the class list) and whether
// they started.
func TestTheFilesTellWhatAGameWas(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	preview := teacher.upload(code, nil, "Bruno Silva")
	teacher.addGroup(preview, 0)
	startRound(t, teacher, code, url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}})
	playRound(t, code, []*student{ana})
	due := a.clock.now().In(time.Local).Add(72 * time.Hour).Format("2006-01-02T15:04")
	teacher.post(paths.Homework.For(code), url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}, "games": {"1"}, "due": {due}})
	ana.b.post(paths.PlayHomework.With(code, 1), nil)
	ana.playAt(t, ana.b.path())

	for _, file := range []string{paths.DecisionsCSV.For(code), paths.MatchesCSV.For(code)} {
		kinds := map[string]int{}
		for _, r := range teacher.csvRows(file) {
			kinds[r["kind"]+" round="+r["round"]]++
		}
		if len(kinds) != 2 || kinds["round round=1"] == 0 || kinds["homework round="] == 0 {
			t.Errorf("%s: the games by kind and round: %v, want round 1 and homework of no round", file, kinds)
		}
	}
	came := map[string]string{}
	for _, r := range teacher.csvRows(paths.StudentsCSV.For(code)) {
		came[r["student"]] = r["came"] + " started=" + r["started"]
	}
	if came["Ana"] != "nickname started=true" || came["Bruno Silva"] != "list started=false" {
		t.Errorf("students.csv: %v", came)
	}
}

// TestTheSharedScreenFollowsTheDay (issue 81, item 7): a lesson's phase
// without a game shows the phase, not an earlier round's podium; a
// discussion right after its lesson's round keeps that round's podium.
func TestTheSharedScreenFollowsTheDay(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStartLesson(t, teacher, "10-how-sure-is-a-simulation")
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	startRound(t, teacher, code, url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}})
	playRound(t, code, []*student{ana})
	teacher.post(paths.RoundsEnd.For(code), url.Values{"confirm": {"yes"}})
	if n := teacher.get(paths.TeacherProjector.Page.For(code)).Find(`[data-testid="award"]`).Length(); n == 0 {
		t.Fatal("after the round the shared screen shows no podium")
	}
	teacher.post(paths.LessonStart.For(code), url.Values{"confirm": {"yes"}}) // Guess: the lab's question, no game
	screen := teacher.get(paths.TeacherProjector.Page.For(code))
	if n := screen.Find(`[data-testid="award"]`).Length(); n != 0 {
		t.Errorf("lesson 10's Guess shows the earlier round's podium (%d awards)", n)
	}
	if got := screen.Find(`[data-testid="projector-phase"]`).Text(); !strings.Contains(got, "Guess") {
		t.Errorf("the shared screen says %q, not the phase", got)
	}
}

// TestAFailedExportIsNoShortFile (issue 82, item 6): an export that
// fails (here: the database closed under it) answers an error, not a
// 200 with a short file that looks whole.
func TestAFailedExportIsNoShortFile(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	join(t, a, code, "Ana")
	if teacher.get(paths.StudentsCSV.For(code)); teacher.status() != http.StatusOK {
		t.Fatalf("students.csv: %d", teacher.status())
	}
	a.store.Close()
	teacher.get(paths.StudentsCSV.For(code))
	if teacher.status() == http.StatusOK || strings.HasPrefix(teacher.last.Header.Get("Content-Type"), "text/csv") {
		t.Errorf("a failed export answered %d %s", teacher.status(), teacher.last.Header.Get("Content-Type"))
	}
}
