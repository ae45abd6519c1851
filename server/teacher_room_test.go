package server

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// TestNoticesShowOnce: a notice after an action shows once; a reload shows
// nothing old, and words put in the address are never shown.
func TestNoticesShowOnce(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	doc := teacher.post("/t/"+code+"/pause", nil)
	if got := doc.Find(".notice").Text(); !strings.Contains(got, "All play is paused.") {
		t.Fatalf("after pausing: %q", got)
	}
	if got := teacher.get("/t/" + code).Find(".notice").Text(); got != "" {
		t.Errorf("a reload shows %q", got)
	}
	teacher.post("/t/"+code+"/resume", nil)
	if got := teacher.get("/t/" + code + "?done=" + url.QueryEscape("The school is closed")).Text(); strings.Contains(got, "The school is closed") || strings.Contains(got, "Play resumed.") {
		t.Errorf("?done= or an old notice on the page")
	}
}

// TestEveryGamesDefaultFormPlays: the round form of each game offers only
// the bots that play it, with a default that does; sent as it stands, it
// starts a round that plays (Hog once answered 422: hold:20 has no hold).
func TestEveryGamesDefaultFormPlays(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	join(t, a, code, "Ana")
	for _, g := range []string{"pig", "two-dice", "big-pig", "hog"} {
		doc := teacher.get("/t/" + code + "?game=" + g)
		form := doc.Find(`[data-testid="round-form"]`)
		values := url.Values{}
		form.Find("input, select").Each(func(_ int, s *goquery.Selection) {
			name, _ := s.Attr("name")
			switch {
			case name == "":
			case s.Is("select"):
				values.Set(name, s.Find("option[selected]").AttrOr("value", s.Find("option").First().AttrOr("value", "")))
			case s.AttrOr("type", "") == "checkbox" || s.AttrOr("type", "") == "radio":
				if _, on := s.Attr("checked"); on {
					values.Set(name, s.AttrOr("value", "on"))
				}
			default:
				values.Set(name, s.AttrOr("value", ""))
			}
		})
		form.Find("#round-bot option").Each(func(_ int, o *goquery.Selection) {
			if v := o.AttrOr("value", ""); g == "hog" && strings.HasPrefix(v, "hold:") || g != "hog" && strings.HasPrefix(v, "dice:") {
				t.Errorf("%s offers the bot %s", g, v)
			}
		})
		if values.Get("game") != g || form.Find(`input[type="number"]`).Length() < 2 {
			t.Errorf("%s form: %v", g, values)
		}
		teacher.post("/t/"+code+"/rounds", values)
		if teacher.status() != 200 || teacher.path() != "/t/"+code || len((operator(t, a, code)).Matches()) != 1 {
			t.Fatalf("%s with the form's defaults: %d at %s\n%s", g, teacher.status(), teacher.path(), teacher.body)
		}
		m := (operator(t, a, code)).Matches()[0]
		if m.Variant.Game.String() != g {
			t.Errorf("the round plays %v, want %s", m.Variant.Game, g)
		}
	}
}

// TestActionsThatCannotBeUndoneAsk: removing a student, ending the round
// and deleting the class go through a page that asks, without JavaScript;
// a single click changes nothing.
func TestActionsThatCannotBeUndoneAsk(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	join(t, a, code, "Ana")
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}})
	id := studentID(t, a, code, "Ana")
	for _, c := range []struct{ post, page string }{
		{fmt.Sprintf("/t/%s/students/%d/remove", code, id), fmt.Sprintf("/t/%s/confirm/remove/%d", code, id)},
		{"/t/" + code + "/rounds/end", "/t/" + code + "/confirm/end-round"},
		{"/t/" + code + "/delete", "/t/" + code + "/confirm/delete"},
	} {
		doc := teacher.post(c.post, nil)
		if teacher.path() != c.page || doc.Find(`[data-testid="confirm-yes"]`).Length() != 1 {
			t.Errorf("one click on %s: at %s", c.post, teacher.path())
		}
	}
	class, _ := a.srv.room.Class(t.Context(), code)
	if len(class.Students) != 1 || class.Round == nil {
		t.Fatal("a single click changed the class")
	}
	// The page's own form does it.
	doc := teacher.get(fmt.Sprintf("/t/%s/confirm/remove/%d", code, id))
	form := doc.Find(`[data-testid="confirm"] form`)
	teacher.post(form.AttrOr("action", ""), url.Values{"confirm": {form.Find(`input[name="confirm"]`).AttrOr("value", "")}})
	if class, _ := a.srv.room.Class(t.Context(), code); len(class.Students) != 0 {
		t.Error("confirmed, the student was not removed")
	}
}

// TestReadOnlyProjectorLink: the projector link opens the projector on
// another computer and grants nothing else; a teacher's page opened there
// says what to do.
func TestReadOnlyProjectorLink(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	join(t, a, code, "Ana")
	link := teacher.get("/t/"+code).Find(`[data-testid="projector-link"]`).AttrOr("href", "")
	u, err := url.Parse(link)
	if err != nil || u.Query().Get("key") == "" {
		t.Fatalf("projector link %q", link)
	}
	pc := a.browser()
	doc := pc.get(u.RequestURI())
	if pc.status() != 200 || pc.path() != "/p/"+code || doc.Find(`[data-testid="projector-code"]`).Text() != code {
		t.Fatalf("the projector link: %d at %s", pc.status(), pc.path())
	}
	if doc.Find(`[data-testid="projector-qr"]`).Length() != 1 || doc.Find(`[data-testid="skunk-roll"]`).Length() != 0 {
		t.Error("the read-only projector: no QR code, or a teacher's control")
	}
	for _, p := range []string{"", "/live", "/decisions.csv", "/students.csv", "/projector", "/confirm/delete"} {
		pc.get("/t/" + code + p)
		if pc.status() != 404 || !strings.Contains(pc.body, "open the projector link") {
			t.Errorf("the projector's computer reaches /t/%s%s: %d", code, p, pc.status())
		}
	}
	for _, p := range []string{"/pause", "/lock", "/rounds", "/delete", "/skunk/roll"} {
		pc.post("/t/"+code+p, url.Values{"confirm": {"yes"}})
		if pc.status() != 404 {
			t.Errorf("the projector's computer posts /t/%s%s: %d", code, p, pc.status())
		}
	}
	if c, _ := a.srv.room.Class(t.Context(), code); c.Paused || c.Locked {
		t.Error("the projector key changed the class")
	}
	bad := a.browser()
	bad.get("/p/" + code + "?key=" + strings.Repeat("0", 32))
	if bad.status() != 404 {
		t.Errorf("a wrong projector key: %d", bad.status())
	}
}

// TestJoinQRCode: the projector's QR code is an SVG drawn by the server.
func TestJoinQRCode(t *testing.T) {
	a := newApp(t)
	b := a.browser()
	b.get("/join/K7RXM4/qr.svg")
	if b.status() != 200 || b.last.Header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(b.body, "<svg") || strings.Count(b.body, "<") < 2 {
		t.Errorf("QR: %d %q %.80s", b.status(), b.last.Header.Get("Content-Type"), b.body)
	}
	b.get("/join/not-a-code/qr.svg")
	if b.status() != 404 {
		t.Errorf("QR of a malformed code: %d", b.status())
	}
}

// TestResultsAndPlayAgain: after a round the projector shows a podium,
// with generated names in anonymous mode; "Play again" starts a round like
// the last.
func TestResultsAndPlayAgain(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	students := []*student{{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}, {b: join(t, a, code, "Bo"), nick: "Bo", holdAt: 25}}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"40"}, "mode": {"pairs"}, "bot": {"hold:20"}, "seats": {"2"}})
	playRound(t, code, students)
	doc := teacher.get("/t/" + code + "/projector/results")
	awards := doc.Find(`[data-testid="award"]`)
	if awards.Length() < 3 || !strings.Contains(awards.Text(), "Most wins") || !strings.Contains(awards.Text(), "Boldest hold") {
		t.Fatalf("the podium: %q", awards.Text())
	}
	if !strings.Contains(awards.Text(), "Ana") && !strings.Contains(awards.Text(), "Bo") {
		t.Errorf("no student on the podium: %q", awards.Text())
	}
	teacher.post("/t/"+code+"/anonymous-on", nil)
	if text := teacher.get("/t/" + code + "/projector/results").Find(`[data-testid="award"]`).Text(); strings.Contains(text, "Ana") || strings.Contains(text, "Bo ") {
		t.Errorf("anonymous mode shows nicknames on the podium: %q", text)
	}
	teacher.post("/t/"+code+"/rounds/again", nil)
	ms := (operator(t, a, code)).Matches()
	if len(ms) != 1 || ms[0].Variant.Target != 40 || ms[0].Seats[1].StudentID == 0 {
		t.Errorf("play again: %d matches, %+v", len(ms), ms)
	}
}

// TestSkunkFromTheProjector: the teacher's projector has the roll and the
// end controls, which come back to it; ended, the game shows its final
// scores and winners.
func TestSkunkFromTheProjector(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	join(t, a, code, "Ana")
	join(t, a, code, "Bo")
	a.srv.room.SetLesson(t.Context(), operator(t, a, code), "6-skunk", 0)
	teacher.post("/t/"+code+"/lesson/start", nil)
	if teacher.get("/t/"+code).Find(`[data-testid="skunk-projector-link"]`).Length() != 1 {
		t.Error("the dashboard does not link Skunk on the projector")
	}
	doc := teacher.get("/t/" + code + "/projector")
	roll := doc.Find(`[data-testid="skunk-roll"]`).Closest("form")
	if roll.Length() != 1 {
		t.Fatal("no roll button on the teacher's projector")
	}
	teacher.post(roll.AttrOr("action", ""), url.Values{"back": {roll.Find(`input[name="back"]`).AttrOr("value", "")}})
	if teacher.path() != "/t/"+code+"/projector" {
		t.Errorf("after the roll: at %s", teacher.path())
	}
	end := teacher.get("/t/" + code + "/projector").Find(`[data-testid="skunk-end"]`).Closest("form")
	doc = teacher.post(end.AttrOr("action", ""), url.Values{"back": {"projector"}})
	// Nobody sat down before the end: no one banked a point.
	if got := doc.Find(`[data-testid="skunk-winners"]`).Text(); !strings.Contains(got, "Final scores") || !strings.Contains(got, "No one scored") {
		t.Errorf("after End Skunk the projector shows %q", got)
	}
}

// TestBoardFragmentKeepsTheLiveRegion: the board htmx swaps in updates the
// page's one live region out of band; the review of a class match polls
// for the next round; a finished board says what comes next.
func TestBoardFragmentKeepsTheLiveRegion(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	s := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}})
	page := s.b.get("/c/" + code)
	if page.Find(`#live[aria-live="polite"]`).Length() != 1 || page.Find(`#board [aria-live]`).Length() != 0 {
		t.Error("the page's live region is not outside the board, or not alone")
	}
	st, _ := readBoard(page)
	frag := s.b.post(st.act, url.Values{"seq": {fmt.Sprint(st.seq)}, "action": {"roll"}}, "HX-Request", "true")
	if oob := frag.Find(`#live[hx-swap-oob="innerHTML"]`); oob.Length() != 1 || oob.Text() == "" {
		t.Errorf("the board fragment does not update the live region: %q", frag.Find("#live").Text())
	}
	playRound(t, code, []*student{s})
	id := anaMatch(t, a, code)
	review := s.b.get(fmt.Sprintf("/c/%s/m/%d", code, id))
	if review.Find(`[data-testid="next-poll"]`).AttrOr("hx-get", "") == "" {
		t.Error("the review of a class match does not watch for the next round")
	}
	board := s.b.get(fmt.Sprintf("/c/%s/m/%d/board", code, id))
	if board.Find(`[data-testid="what-next"] [data-testid="practise"]`).Length() != 1 {
		t.Error("a finished board does not say what comes next")
	}
}

// TestTeacherOpensAStudentsReview: a name on the roster opens that
// student's matches for the teacher: the review of their latest match
// from their seat (every decision of theirs, as decisions.csv has them),
// the others listed; the seed stays hidden while a match plays; the page
// is the teacher's alone.
func TestTeacherOpensAStudentsReview(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	students := []*student{{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}, {b: join(t, a, code, "Bo"), nick: "Bo", holdAt: 12}}
	round := url.Values{"game": {"pig"}, "target": {"50"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}}
	teacher.post("/t/"+code+"/rounds", round)
	playRound(t, code, students)
	teacher.post("/t/"+code+"/rounds", round)
	dash := teacher.get("/t/" + code)
	link := ""
	dash.Find(`[data-testid="student-review"]`).Each(func(_ int, s *goquery.Selection) {
		if s.Text() == "Ana" {
			link = s.AttrOr("href", "")
		}
	})
	if link == "" {
		t.Fatal("Ana's name on the roster opens nothing")
	}
	doc := teacher.get(link)
	if teacher.status() != http.StatusOK || !strings.Contains(doc.Find(`[data-testid="review-student"]`).Text(), "The decisions of Ana") {
		t.Fatalf("Ana's review for the teacher: %d %q", teacher.status(), doc.Find("h1").Text())
	}
	if doc.Find(`[data-testid="seed"]`).Length() != 0 || !strings.Contains(doc.Text(), "It is published when the match is over") {
		t.Error("the seed of a match in play is shown")
	}
	others := doc.Find(`[data-testid="review-others"] a`)
	if others.Length() != 2 {
		t.Fatalf("Ana's matches listed: %d, want 2", others.Length())
	}
	// The finished match: every decision of Ana's in it.
	first := teacher.get(others.Last().AttrOr("href", ""))
	var id string
	for _, m := range teacher.csvRows("/t/" + code + "/matches.csv") {
		if m["round"] == "1" && strings.Contains(m["players"], "Ana") {
			id = m["match"]
		}
	}
	want := 0
	for _, d := range teacher.csvRows("/t/" + code + "/decisions.csv") {
		if d["match"] == id && d["student"] == "Ana" && d["by"] == "student" {
			want++
		}
	}
	if got := first.Find(`[data-testid="review-row"]`).Length(); got != want || want == 0 {
		t.Errorf("Ana's finished match: %d review rows, decisions.csv has %d", got, want)
	}
	if first.Find(`[data-testid="seed"]`).Length() != 1 {
		t.Error("the finished match's seed is not shown")
	}
	// Anyone else: the teacher pages' answer.
	for _, b := range []*browser{students[0].b, a.browser()} {
		b.get(link)
		if b.status() != http.StatusNotFound {
			t.Errorf("a non-teacher opens a student's review: %d", b.status())
		}
	}
}
