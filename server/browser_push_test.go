package server

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"pigclass/templates/paths"
)

// watcherJS is put in every document a tab loads: it notes (in the tab's
// session storage, which outlives a page's navigation to the next) the
// moment the page first shows what the test waits for: an element
// matching w.sel whose attribute w.attr (its text for "#text"; if any)
// is no longer w.not.
// Watched by the DOM's changes and when a page loads, so a part that
// htmx swaps and a page the server sends the browser to alike.
const watcherJS = `(function () {
  function check() {
    var sel = sessionStorage.getItem("w.sel");
    if (!sel || sessionStorage.getItem("w.seen")) return;
    var el = document.querySelector(sel);
    if (!el) return;
    var attr = sessionStorage.getItem("w.attr");
    var now = attr === "#text" ? el.textContent : attr ? el.getAttribute(attr) : "";
    if (attr && now === sessionStorage.getItem("w.not")) return;
    sessionStorage.setItem("w.seen", String(Date.now()));
  }
  new MutationObserver(check).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  document.addEventListener("DOMContentLoaded", check);
})();`

// watched is a device the test watches: its tab, and what it is called.
type watched struct {
	name string
	ctx  context.Context
}

// watch starts watching a device's tab for sel (with attr, or its text
// for "#text", no longer what it is now, if attr is given).
func (d watched) watch(t *testing.T, sel, attr string) {
	t.Helper()
	js := fmt.Sprintf(`(function () {
		var el = document.querySelector(%q), attr = %q;
		sessionStorage.setItem("w.sel", %q);
		sessionStorage.setItem("w.attr", attr);
		sessionStorage.setItem("w.not", !el || !attr ? "" : attr === "#text" ? el.textContent : String(el.getAttribute(attr)));
		sessionStorage.removeItem("w.seen");
		return true;
	})()`, sel, attr, sel)
	// Asked again should the page be loading another (a look sends the
	// phone to its next page): "Inspected target navigated or closed".
	until(t, d.ctx, js, func(ok bool) bool { return ok }, "watch "+d.name)
}

// seen waits for what watch asked for and returns how long after since
// the device showed it.
func (d watched) seen(t *testing.T, since time.Time, what string) time.Duration {
	t.Helper()
	at := until(t, d.ctx, `Number(sessionStorage.getItem("w.seen") || 0)`, func(ms int64) bool { return ms > 0 }, d.name+" shows "+what)
	return time.UnixMilli(at).Sub(since)
}

// live waits until the device's page hears its stream.
func (d watched) live(t *testing.T, what string) {
	t.Helper()
	eventually(t, d.ctx, `document.body.getAttribute("data-pushed") === "live"`, d.name+" hears its stream "+what)
}

// TestBrowserPushedWithinAMoment: a class's phone and shared screen are
// told of a change by their event streams and show it at once, where
// their polls (every one or two seconds) are held back while the stream
// is heard: a round's start on both, a bot's move on the phone (the
// student's time ran out: the server held for them, and the bot played
// its turn), and, after the server cut every stream and the browsers
// opened them again, a lesson's next round and its next phase on both.
// Each must show within 5 s: the page's polls are held back to one in 10
// s while it hears its stream, so only the stream brings it sooner, and
// beside the whole suite on two cores a page the stream sends the phone
// to has taken 2.5 s to load. The times and their median are logged.
func TestBrowserPushedWithinAMoment(t *testing.T) {
	t.Parallel() // it waits on the browsers
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStartLesson(t, teacher, "8-design-a-strategy")
	phone := watched{"the phone", person()}
	screen := watched{"the shared screen", person()}
	for _, d := range []watched{phone, screen} {
		if _, err := chromedp.Call(d.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: watcherJS}); err != nil {
			t.Fatal(err)
		}
	}
	run(t, phone.ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	joinIn(t, phone.ctx, a.url, code, "Ana")
	link := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="projector-link"]`).AttrOr("href", "")
	run(t, screen.ctx, chromedp.EmulateViewport(1280, 720), chromedp.Navigate(link), chromedp.WaitVisible(q(`[data-testid="projector"]`)))

	var times []time.Duration
	took := func(d watched, what string, since time.Time) {
		t.Helper()
		dt := d.seen(t, since, what)
		t.Logf("%s showed %s %d ms after it happened", d.name, what, dt.Milliseconds())
		if dt > 5*time.Second {
			t.Errorf("%s showed %s %s after it happened, want well within 200 ms (5 s on a busy machine: its polls are held back to one in 10 s while it hears its stream, so only the stream brings it sooner)", d.name, what, dt)
		}
		times = append(times, dt)
	}

	// A round's start.
	phone.live(t, "on the class's page")
	screen.live(t, "on the shared screen")
	phone.watch(t, `#board`, "")
	screen.watch(t, `[data-testid="projector"]`, "data-state")
	at := time.Now()
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}, "deadline": {"10"}})
	took(phone, "the round's start", at)
	took(screen, "the round's start", at)

	// A bot's move: Ana's ten seconds run out (the app's clock is the
	// test's), the server holds for her, and the bot plays its turn.
	phone.live(t, "on the board")
	eventually(t, phone.ctx, `!!document.querySelector('#board [data-testid="act-roll"]')`, "the phone's board: Ana to move")
	phone.watch(t, `#board`, "data-seq")
	at = time.Now()
	a.clock.add(11 * time.Second)
	a.srv.hall.CheckDeadlines(context.Background())
	took(phone, "the bot's move", at)

	// Ana's own move: its answer draws her board, and the look that
	// follows names that board's version, so the phone asks nothing more.
	// (Her board first shows the whole of the bot's turn: a move sent
	// from a board behind the match is refused, and changes nothing.)
	seq := a.srv.hall.Match(matchOf(t, a, "Ana")).Seq()
	eventually(t, phone.ctx, fmt.Sprintf(`(document.querySelector("#board") || {dataset: {}}).dataset.seq === "%d" && !!document.querySelector('#board [data-testid="act-roll"]')`, seq), "the phone's board at the match's last event")
	boardFetches := `performance.getEntriesByType("resource").filter(function (e) { return e.name.indexOf("/board?") >= 0 }).length`
	fetched := value(t, phone.ctx, chromedp.Evaluate[int](boardFetches))
	heardBefore := value(t, phone.ctx, chromedp.Evaluate[int](`Number(document.body.getAttribute("data-looks") || 0)`))
	phone.watch(t, `#board`, "data-seq")
	clickJS(t, phone.ctx, `#board [data-testid="act-roll"]`)
	phone.seen(t, time.Now(), "Ana's roll")
	heard := false
	for end := time.Now().Add(5 * time.Second); !heard && time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		heard = value(t, phone.ctx, chromedp.Evaluate[int](`Number(document.body.getAttribute("data-looks") || 0)`)) > heardBefore
	}
	time.Sleep(300 * time.Millisecond) // what the look would have asked for (a part missed asks after 150 ms)
	if !heard {
		// Seen only with both cores kept busy by other programs: the
		// stream's look came late, and what it would fetch cannot be told.
		t.Log("the phone did not hear the look of its own move within 5 s; its fetches are not counted")
	} else if n := value(t, phone.ctx, chromedp.Evaluate[int](boardFetches)) - fetched; n != 0 {
		t.Errorf("after Ana's own move the phone fetched its board %d more times: the look named the board it showed (%s)", n,
			value(t, phone.ctx, chromedp.Evaluate[string](`document.body.getAttribute("data-look") + " " + document.querySelector("#board").getAttribute("hx-get") + " " + performance.getEntriesByType("resource").slice(-4).map(function (e) { return e.name.replace(location.origin, "") + "@" + Math.round(e.startTime) }).join(" ")`)))
	}

	// The streams are cut; the browsers hear they dropped, poll, open
	// them again within about a second, and hear them again.
	for _, d := range []watched{phone, screen} {
		value(t, d.ctx, chromedp.Evaluate[bool](`window.drops = 0, document.addEventListener("htmx:sseError", function () { window.drops++ }), true`))
	}
	a.srv.streams.cut()
	for _, d := range []watched{phone, screen} {
		eventually(t, d.ctx, `window.drops > 0`, d.name+" hears its stream drop")
	}
	phone.live(t, "again")
	screen.live(t, "again")

	// The lesson's first phase, a round of its own, then its next phase.
	phone.watch(t, `#board`, "hx-get") // the board of another match
	screen.watch(t, `[data-testid="projector-phase"]`, "#text")
	at = time.Now()
	teacher.post(paths.LessonStart.For(code), url.Values{"confirm": {"yes"}})
	took(phone, "the lesson's round", at)
	took(screen, "the lesson's first phase", at)
	phone.live(t, "in the lesson")
	screen.live(t, "in the lesson")
	// The step ends her match: its result stays (issue 81), with what the
	// next phase asks beside it (or, should her page have gone to the
	// class's page for a game of hers still open, the waiting card says
	// it).
	says := `[data-testid="phase-asks"], [data-testid="waiting-words"]`
	phone.watch(t, says, "")
	screen.watch(t, `[data-testid="projector-phase"]`, "#text")
	at = time.Now()
	teacher.post(paths.LessonNext.For(code), url.Values{"confirm": {"yes"}})
	took(phone, "the lesson's next phase", at)
	took(screen, "the lesson's next phase", at)
	if got := textOf(t, phone.ctx, says); got != "Phase 2: Design. Design your strategy now:" {
		t.Errorf("the phone says %q in the lesson's second phase", got)
	}

	// Alone the median is 50 to 100 ms (the issue asks 200). Beside the
	// whole suite's browsers on two cores it has reached 595 ms, so it is
	// logged, not held to a bound: a speed is a benchmark's to measure
	// (STYLE), and what this test proves, that the stream brings each
	// change, is the 5 s bound above (the polls are held back to 10 s).
	slices.Sort(times)
	t.Logf("the median time from a change to a device showing it: %s (all: %v)", times[len(times)/2], times)
}

// TestBrowserPollsWhereNoStreamPasses: a server that takes no stream (as
// behind a proxy that refuses them, or past its most streams) leaves its
// pages polling as they always did: the dashboard shows a student who
// joins, and the page says it polls.
func TestBrowserPollsWhereNoStreamPasses(t *testing.T) {
	t.Parallel() // it waits on the dashboard's polls
	person := newBrowser(t)
	a := newApp(t)
	a.srv.streams.max.Store(0)
	laptop := person()
	run(t, laptop, chromedp.Navigate(a.url+"/"), chromedp.Click(q(`[data-testid="start-class"]`)),
		chromedp.WaitVisible(q(`[data-testid="join-code"]`)))
	code := textOf(t, laptop, `[data-testid="join-code"]`)
	eventually(t, laptop, `document.body.getAttribute("data-pushed") === "polling"`, "the dashboard hears its stream refused")
	join(t, a, code, "Ana")
	eventually(t, laptop, `document.querySelectorAll('[data-testid="student-row"]').length === 1`, "the dashboard's poll shows Ana")
	if n := a.srv.streams.open.Load(); n != 0 {
		t.Errorf("%d streams open on a server that takes none", n)
	}
}
