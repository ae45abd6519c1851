package server

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestRemovedStudentIsTold: a removed student's every class page and
// action answers that the teacher removed this device (403), and their
// own correct rejoin code from another device says the same, not that the
// code is wrong.
func TestRemovedStudentIsTold(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	leo := join(t, a, code, "Ana")
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}})
	rc := leo.get("/c/" + code).Find(`[data-testid="rejoin-code"]`).Text()
	match := anaMatch(t, a, code)
	teacher.post(fmt.Sprintf("/t/%s/students/%d/remove", code, studentID(t, a, code, "Ana")), url.Values{"confirm": {"yes"}})
	for _, path := range []string{"/c/" + code, "/c/" + code + "/next", "/c/" + code + "/charts", fmt.Sprintf("/c/%s/m/%d", code, match), fmt.Sprintf("/c/%s/m/%d/board?v=1", code, match)} {
		doc := leo.get(path)
		if leo.status() != http.StatusForbidden || !strings.Contains(doc.Text(), "The teacher removed this device from class "+code) {
			t.Errorf("%s for a removed student: %d %q", path, leo.status(), strings.TrimSpace(doc.Text()))
		}
	}
	leo.post(fmt.Sprintf("/c/%s/m/%d/act", code, match), url.Values{"seq": {"0"}, "action": {"roll"}})
	if leo.status() != http.StatusForbidden || !strings.Contains(leo.body, "removed this device") {
		t.Errorf("a removed student's move: %d", leo.status())
	}
	phone := a.browser()
	doc := phone.post("/join/"+code, url.Values{"nickname": {"Ana"}, "rejoin": {rc}})
	if phone.status() != http.StatusForbidden || !strings.Contains(doc.Text(), "removed this device") || strings.Contains(doc.Text(), "not the code of Ana") {
		t.Errorf("a removed student's own rejoin code: %d %q", phone.status(), doc.Find(".notice").Text())
	}
	// A stranger's request to the same pages learns nothing of it.
	stranger := a.browser()
	stranger.get("/c/" + code)
	if strings.Contains(stranger.body, "removed") || stranger.last.Header.Get("X-Pigclass-Removed") != "" {
		t.Error("a stranger is told of a removal")
	}
}

// TestBrowserRemovalAndDeletionSaid: on the phones, without a reload, a
// removed student's board gives way to the words that the teacher removed
// this device; when the class is deleted, a classmate's board gives way to
// the class having ended (and no live button stays).
func TestBrowserRemovalAndDeletionSaid(t *testing.T) {
	t.Parallel() // it waits on the boards' polls
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	leo, mia := person(), person()
	joinIn(t, leo, a.url, code, "Leo")
	joinIn(t, mia, a.url, code, "Mia")
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}})
	eventually(t, leo, `!!document.querySelector('#board')`, "Leo's board")
	eventually(t, mia, `!!document.querySelector('#board')`, "Mia's board")
	markPage(t, leo)
	markPage(t, mia)

	teacher.post(fmt.Sprintf("/t/%s/students/%d/remove", code, studentID(t, a, code, "Leo")), url.Values{"confirm": {"yes"}})
	eventually(t, leo, `!!document.querySelector('[data-testid="gone"]')`, "Leo's phone says he was removed")
	if got := textOf(t, leo, `[data-testid="gone"]`); !strings.Contains(got, "The teacher removed this device") {
		t.Errorf("Leo's phone: %q", got)
	}
	if n := value(t, leo, chromedp.Evaluate[int](`document.querySelectorAll('#board, .actions button').length`)); n != 0 {
		t.Errorf("Leo's phone still has %d board parts", n)
	}
	shot(t, leo, "student-removed")

	doc := teacher.post("/t/"+code+"/delete", url.Values{"confirm": {"yes"}})
	if got := doc.Find(`[data-testid="front-notice"]`).Text(); teacher.path() != "/" || !strings.Contains(got, "Class "+code+" is deleted") {
		t.Errorf("the teacher, after deleting: %s %q", teacher.path(), got)
	}
	if got := teacher.get("/").Find(`[data-testid="front-notice"]`).Length(); got != 0 {
		t.Error("the notice stays on the front page")
	}
	eventually(t, mia, `!!document.querySelector('[data-testid="gone"]')`, "Mia's phone says the class has ended")
	if got := textOf(t, mia, `[data-testid="gone"]`); !strings.Contains(got, "This class has ended") {
		t.Errorf("Mia's phone: %q", got)
	}
	if n := value(t, mia, chromedp.Evaluate[int](`document.querySelectorAll('#board, .actions button, [data-testid="skunk-sit"]').length`)); n != 0 {
		t.Errorf("Mia's phone still has %d live parts", n)
	}
	for name, ctx := range map[string]context.Context{"Leo": leo, "Mia": mia} {
		if reloaded(t, ctx) {
			t.Errorf("%s's page reloaded", name)
		}
	}
	shot(t, mia, "student-class-deleted")
}

// TestBrowserPractisingStudentMoved: a student who went to practise
// against a bot after the class's round is brought to their match of the
// class's next round by the practice page itself, within a few seconds;
// so is a student reading their charts, and one who went to the front
// page and practised from there (the page knows the browser's class).
func TestBrowserPractisingStudentMoved(t *testing.T) {
	t.Parallel() // it waits on the pages' polls
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana, bo, cy := person(), person(), person()
	joinIn(t, ana, a.url, code, "Ana")
	joinIn(t, bo, a.url, code, "Bo")
	joinIn(t, cy, a.url, code, "Cy")
	round := url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}}
	teacher.post("/t/"+code+"/rounds", round)
	eventually(t, ana, `!!document.querySelector('#board')`, "Ana's board")
	teacher.post("/t/"+code+"/rounds/end", url.Values{"confirm": {"yes"}})
	eventually(t, ana, `!!document.querySelector('[data-testid="practise"]')`, "Ana is offered practice")
	clickJS(t, ana, `[data-testid="practise"]`)
	eventually(t, ana, `location.pathname.indexOf("/m/") === 0 && !!document.querySelector('[data-testid="practice-class"]')`, "Ana practises, told the class will call her")
	navigate(t, bo, a.url+"/c/"+code+"/charts")
	eventually(t, bo, `!!document.querySelector('[data-testid="next-poll"]')`, "Bo reads his charts")
	navigate(t, cy, a.url+"/")
	value(t, cy, chromedp.Evaluate[bool](`(document.querySelector('form[action="/practice"]').submit(), true)`))
	eventually(t, cy, `location.pathname.indexOf("/m/") === 0 && !!document.querySelector('[data-testid="practice-class"]')`, "Cy practises from the front page, told the class will call him")

	teacher.post("/t/"+code+"/rounds", round)
	// Their pages poll every 2 s; the wait is bounded (eventually), not
	// timed: the machines are shared.
	eventually(t, ana, fmt.Sprintf(`location.pathname === "/c/%s" && !!document.querySelector('#board')`, code), "Ana is brought to the new round")
	eventually(t, bo, fmt.Sprintf(`location.pathname === "/c/%s" && !!document.querySelector('#board')`, code), "Bo is brought to the new round")
	eventually(t, cy, fmt.Sprintf(`location.pathname === "/c/%s" && !!document.querySelector('#board')`, code), "Cy is brought to the new round from his front-page practice")
}

// TestBrowserDeadlineSeenByBoth: in a round with a deadline, the limit of
// the student to move counts from when their board is first on their
// screen: pages that show it 3 s after the round began get a deadline 30 s
// from then, not from the round's start (a slower machine only moves it
// later). Their partner's page counts the same deadline down, naming them.
func TestBrowserDeadlineSeenByBoth(t *testing.T) {
	t.Parallel() // it waits on the boards' polls
	person := newBrowser(t)
	a := openApp(t, filepath.Join(t.TempDir(), "pigclass.db"), &clock{real: true})
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana, bo := person(), person()
	joinIn(t, ana, a.url, code, "Ana")
	joinIn(t, bo, a.url, code, "Bo")
	// Neither page shows anything of the class while the round begins.
	navigate(t, ana, "about:blank")
	navigate(t, bo, "about:blank")
	start := time.Now()
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"pairs"}, "bot": {"hold:20"}, "deadline": {"30"}})
	time.Sleep(3 * time.Second)
	navigate(t, ana, a.url+"/c/"+code)
	navigate(t, bo, a.url+"/c/"+code)
	eventually(t, ana, `!!document.querySelector('[data-testid="act-roll"], [data-testid="partner-deadline"]')`, "Ana's board")
	eventually(t, bo, `!!document.querySelector('[data-testid="act-roll"], [data-testid="partner-deadline"]')`, "Bo's board")
	mover, partner, name := ana, bo, "Ana"
	if value(t, bo, chromedp.Evaluate[bool](`!!document.querySelector('[data-testid="act-roll"]')`)) {
		mover, partner, name = bo, ana, "Bo"
	}
	deadline := func(ctx context.Context, sel string) int64 {
		t.Helper()
		return int64(value(t, ctx, chromedp.Evaluate[float64](fmt.Sprintf(`Number(document.querySelector(%q).dataset.deadline)`, sel))))
	}
	due := deadline(mover, `[data-testid="deadline"]`)
	if earliest := start.Add(33 * time.Second).UnixMilli(); due < earliest-100 {
		t.Errorf("the mover's deadline is %.1f s after the round began; shown 3 s after it, want at least 33", float64(due-start.UnixMilli())/1000)
	}
	// The partner's page counts the same deadline down, naming the mover.
	eventually(t, partner, fmt.Sprintf(`Number((document.querySelector('[data-testid="partner-deadline"]') || {dataset: {}}).dataset.deadline) === %d`, due), "the partner's countdown")
	left := func() int {
		t.Helper()
		// One evaluation reads it: the countdown's element is swapped by
		// the page's polls, and may be gone between two.
		js := `(function () { var m = ((document.querySelector('[data-testid="partner-deadline"]') || {}).textContent || "").match(/(\d+) s left/); return m ? parseInt(m[1]) : -1; })()`
		return until(t, partner, js, func(n int) bool { return n >= 0 }, "the countdown")
	}
	first := left()
	if got := textOf(t, partner, `[data-testid="partner-deadline"]`); !strings.HasPrefix(got, name+": ") {
		t.Errorf("the partner's countdown: %q", got)
	}
	time.Sleep(2100 * time.Millisecond)
	if then := left(); then >= first {
		t.Errorf("the partner's countdown went from %d to %d in 2 s", first, then)
	}
	shot(t, partner, "partner-countdown")
}

// TestBrowserReadmittedStudentIsBack (issue 32, item 9): a removed
// student's phone, which says so, comes back to the class by itself when
// the teacher lets the student back in: no reload by hand.
func TestBrowserReadmittedStudentIsBack(t *testing.T) {
	t.Parallel() // it waits on the page's polls
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	leo := person()
	joinIn(t, leo, a.url, code, "Leo")
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}})
	eventually(t, leo, `!!document.querySelector('#board')`, "Leo's board")
	id := studentID(t, a, code, "Leo")
	teacher.post(fmt.Sprintf("/t/%s/students/%d/remove", code, id), url.Values{"confirm": {"yes"}})
	eventually(t, leo, `!!document.querySelector('[data-testid="gone"]')`, "Leo's phone says he was removed")
	teacher.post(fmt.Sprintf("/t/%s/students/%d/readmit", code, id), nil)
	eventually(t, leo, `!document.querySelector('[data-testid="gone"]') && !!document.querySelector('[data-testid="nickname"]')`, "Leo's phone is back in the class")
}
