package server

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pigclass/sim"
	"pigclass/templates/paths"
)

// cuttable serves the app through a switch: while cut, every connection
// is closed unanswered, as a school's network drops (the browser's fetch
// fails as it would).
func cuttable(t *testing.T, a *app) (*httptest.Server, *atomic.Bool) {
	var cut atomic.Bool
	h := a.srv.Handler()
	host := strings.TrimPrefix(a.url, "http://") // the host the app answers for
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Host = host
		if cut.Load() {
			if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
				conn.Close()
			}
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { a.srv.EndStreams(); ts.Close() })
	return ts, &cut
}

// anaOnAPhone is a class whose Ana joined on a phone reached through a
// network the test can cut (cuttable), and whose Ben joined by form.
func anaOnAPhone(t *testing.T, person func() context.Context) (a *app, ts *httptest.Server, cut *atomic.Bool, teacher *browser, code string, ana context.Context, ben *browser) {
	t.Helper()
	a = newApp(t)
	ts, cut = cuttable(t, a)
	teacher = a.browser()
	code = teacherStart(t, teacher)
	ana = person()
	run(t, ana, chromedp.EmulateViewport(390, 844), chromedp.Navigate(ts.URL+"/healthz"))
	joinIn(t, ana, ts.URL, code, "Ana")
	return a, ts, cut, teacher, code, ana, join(t, a, code, "Ben")
}

// openAnasTable opens a table of Pig to 100 for Ana and Ben (and bot, if
// not ""), shows it on Ana's phone at her first turn, and returns the two
// students' ids as the table form sends them.
func openAnasTable(t *testing.T, a *app, ts *httptest.Server, teacher *browser, code string, ana context.Context, bot string) []string {
	t.Helper()
	ids := []string{strconv.FormatInt(studentID(t, a, code, "Ana"), 10), strconv.FormatInt(studentID(t, a, code, "Ben"), 10)}
	teacher.post(paths.Tables.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "student": ids, "bot": {bot}})
	navigate(t, ana, ts.URL+"/c/"+code)
	eventually(t, ana, `!!document.querySelector('[data-testid="mark-4"]')`, "Ana's turn, first at the table")
	return ids
}

// TestBrowserATableWithTheNetworkCut (issue 45): on a phone in the middle
// of the table, a table of three (Ana, Ben and a bot) plays Pig and a
// table of two plays Pass the Pigs; mid-turn the network is cut, the
// device plays on (turn total, whose turn), its entries wait in order,
// and when the network is back they are stored once each, none lost or
// doubled. Both games are then played to the end, every decision in
// decisions.csv with its exact chances (checkTableRecords), and Ana's
// review opens on the phone.
func TestBrowserATableWithTheNetworkCut(t *testing.T) {
	t.Parallel() // it waits on the page
	person := newBrowser(t)
	a, ts, cut, teacher, code, ana, ben := anaOnAPhone(t, person)
	three := sim.Standard(sim.Pig)
	three.Seats = 3
	if _, err := a.srv.tables.MultiWait(three); err != nil {
		t.Fatal(err)
	}
	// Ana, who moves first, in seat 1: the board lists the players in
	// playing order, and the device, offline, scores each by their seat
	// (issue 59, item 6).
	a.deal(t, "the first of three seats is 1", func(s *sim.Seed) bool { return s.FirstSeat(3) == 1 })
	ids := openAnasTable(t, a, ts, teacher, code, ana, "hold:20")
	clickJS(t, ana, `[data-testid="mark-4"]`)
	eventually(t, ana, `localStorage.length === 0 && document.querySelector('[data-testid="turn-total"]').textContent === "4"`, "the 4 entered and sent")
	cut.Store(true)
	for _, f := range []string{"5", "6"} {
		clickJS(t, ana, `[data-testid="mark-`+f+`"]`)
	}
	eventually(t, ana, `document.querySelector('[data-testid="turn-total"]').textContent === "15"`, "offline, the turn total goes on to 15")
	clickJS(t, ana, `[data-testid="act-hold"]`)
	eventually(t, ana, `document.querySelector('[data-testid="turn-banner"]').textContent.includes("Ben")`, "offline, Ben's turn after Ana holds")
	eventually(t, ana, `(function () {
		var lis = Array.from(document.querySelectorAll('[data-testid="board"] .players > li'));
		var line = function (li) { return li.querySelector('.name').textContent.trim().split(/\s/)[0] + " " + li.querySelector('[data-testid="score"]').textContent + (li.classList.contains("to-move") ? "*" : ""); };
		return lis.map(line).join(", ") === "Ana 15, Ben 0*, " + line(lis[2]).split(" ")[0] + " 0";
	})()`, "offline, the board in playing order: Ana 15, Ben 0 to move, the bot 0")
	clickJS(t, ana, `[data-testid="mark-3"]`)
	eventually(t, ana, `document.getElementById("offline").checkVisibility() && document.querySelector('[data-testid="table-queued"]').textContent.includes("4")`,
		"the page says the connection is lost and four entries wait")
	shot(t, ana, "table-offline")
	if evs := tableEvents(t, a, code); len(evs) != 1 {
		t.Fatalf("while cut the server has %d events, want the first 4 only", len(evs))
	}
	cut.Store(false)
	eventually(t, ana, `localStorage.length === 0 && document.getElementById("offline").hidden`, "the entries sent once the network is back")
	var got []string
	for _, e := range tableEvents(t, a, code) {
		if !e.Entered && e.Action.Kind != sim.HoldKind {
			t.Errorf("event %d: a throw of a student at a table not entered: %+v", e.Seq, e)
		}
		got = append(got, strings.TrimSuffix(e.Action.String()+":"+e.Faces.String(), ":"))
	}
	if want := "roll:4 roll:5 roll:6 hold roll:3"; strings.Join(got, " ") != want {
		t.Fatalf("the server stored %v, want %s once each", got, want)
	}
	playOnThePhone(t, ana, "6 5 4 2 6 3 1 6 5 4 2 3", 18)
	checkTableRecords(t, a, teacher, code, []*browser{ben})
	navigate(t, ana, ts.URL+"/c/"+code)
	clickJS(t, ana, `a[href^="/c/`+code+`/m/"]`)
	eventually(t, ana, `!!document.querySelector('[data-testid="review"]')`, "Ana's review of the table on her phone")
	pigsAtTheTable(t, a, ts, cut, teacher, ana, ben, code, ids)
}

// playOnThePhone plays a table's game to its end on the device's page:
// for the player to move, Hold at holdAt or more, else the next face of
// faces; the bot's turns are the server's.
func playOnThePhone(t *testing.T, ctx context.Context, faces string, holdAt int) {
	t.Helper()
	step := fmt.Sprintf(`(() => {
		if (document.querySelector('[data-testid="result"]')) return "over";
		const box = document.querySelector('[data-testid="table-entry"]');
		const faces = %q.split(" ");
		if (!box || box.querySelector('button:disabled')) return "wait";
		window.entries = window.entries || 0;
		const tt = +document.querySelector('[data-testid="turn-total"]').textContent;
		const b = tt >= %d ? box.querySelector('[data-testid="act-hold"]') : box.querySelector('[data-testid="mark-' + faces[window.entries %% faces.length] + '"]');
		window.entries++;
		b.click();
		return "entered";
	})()`, faces, holdAt)
	end := time.Now().Add(90 * time.Second)
	for time.Now().Before(end) {
		switch value(t, ctx, chromedp.Evaluate[string](step)) {
		case "over":
			eventually(t, ctx, `localStorage.length === 0`, "every entry sent")
			return
		case "wait":
			time.Sleep(50 * time.Millisecond)
		}
	}
	t.Fatal("the game on the phone did not end within 90 s")
}

// pigsAtTheTable plays a table of Pass the Pigs on Ana's phone: two pigs
// picked a throw, pigs that touch on one button, the network cut after a
// throw; then to the end from Ben's phone, each decision against the
// two players' table.
func pigsAtTheTable(t *testing.T, a *app, ts *httptest.Server, cut *atomic.Bool, teacher *browser, ana context.Context, ben *browser, code string, ids []string) {
	t.Helper()
	v := sim.Standard(sim.PassPigs)
	v.Target = 50
	if _, err := a.srv.tables.Get(v); err != nil {
		t.Fatal(err)
	}
	teacher.post(paths.Tables.For(code), url.Values{"game": {"pass-the-pigs"}, "target": {"50"}, "student": ids})
	navigate(t, ana, ts.URL+"/c/"+code)
	throw := func(a, b string) {
		clickJS(t, ana, `[data-testid="piece1-mark-`+a+`"]`)
		clickJS(t, ana, `[data-testid="piece2-mark-`+b+`"]`)
		clickJS(t, ana, `[data-testid="table-send"]`)
	}
	clickJS(t, ana, `[data-testid="piece1-mark-3"]`)
	shot(t, ana, "table-pigs")
	throw("3", "4") // a Trotter and a Razorback: 10
	eventually(t, ana, `localStorage.length === 0 && document.querySelector('[data-testid="turn-total"]').textContent === "10"`, "the two pigs entered and sent")
	cut.Store(true)
	throw("5", "5") // a double Snouter: 40 more
	eventually(t, ana, `document.querySelector('[data-testid="turn-total"]').textContent === "50" || document.querySelector('[data-testid="turn-total"]').textContent === "10"`, "offline, the pigs entered")
	if got := textOf(t, ana, `[data-testid="turn-total"]`); got != "50" {
		t.Fatalf("offline, two Snouters after 10: turn total %s, want 50", got)
	}
	if !value(t, ana, chromedp.Evaluate[bool](`document.querySelector('[data-testid="table-send"]').disabled`)) {
		t.Error("offline, a game that looks won still takes entries")
	}
	cut.Store(false)
	eventually(t, ana, `localStorage.length === 0 && !!document.querySelector('[data-testid="result"]')`, "the winning throw sent, the game over")
	var got []string
	for _, e := range tableEvents(t, a, code) {
		got = append(got, e.Action.String()+":"+e.Faces.String())
	}
	if want := "roll:3 4 roll:5 5"; strings.Join(got, " ") != want {
		t.Fatalf("the server stored %v, want %s once each", got, want)
	}
	// Another table of pigs, from Ben's phone: pigs that touch too.
	teacher.post(paths.Tables.For(code), url.Values{"game": {"pass-the-pigs"}, "target": {"50"}, "student": ids})
	navigate(t, ana, ts.URL+"/c/"+code)
	clickJS(t, ana, `[data-testid="table-touching"]`)
	// The device shows Ben's turn at once; the entry is on the server
	// once the queue is empty.
	eventually(t, ana, `localStorage.length === 0 && document.querySelector('[data-testid="turn-banner"]').textContent.includes("Ben")`, "Makin' Bacon sent: Ben's turn")
	dev := &tableDevice{b: ben, code: code, faces: []string{"3 4", "1 1", "5 3", "2 2", "4 4", "1 2", "6 3", "7 7", "3 3"}, holdAt: 15}
	for i := 0; i < 2000 && dev.step(t); i++ {
	}
	checkTableRecords(t, a, teacher, code, []*browser{ben})
	evs := tableEvents(t, a, code)
	if evs[0].Faces.String() != "7 7" || evs[0].Seat == evs[1].Seat {
		t.Errorf("the touching pigs: %+v, then seat %d", evs[0], evs[1].Seat)
	}
}

// TestBrowserAPauseKeepsATablesEntries (issue 58, item 10): a table's
// device offline holds a 3, a 4 and a Hold; the teacher pauses; the
// device comes back: it keeps the three, says play is paused, and sends
// them once play resumes, in order, none lost (before, the pause's
// refusals dropped all three).
func TestBrowserAPauseKeepsATablesEntries(t *testing.T) {
	t.Parallel() // it waits on the device's queue
	a, ts, cut, teacher, code, ana, _ := anaOnAPhone(t, newBrowser(t))
	openAnasTable(t, a, ts, teacher, code, ana, "")
	clickJS(t, ana, `[data-testid="mark-2"]`)
	eventually(t, ana, `localStorage.length === 0 && document.querySelector('[data-testid="turn-total"]').textContent === "2"`, "the 2 entered and sent")
	cut.Store(true)
	for _, b := range []string{"mark-3", "mark-4", "act-hold"} {
		clickJS(t, ana, `[data-testid="`+b+`"]`)
	}
	eventually(t, ana, `document.querySelector('[data-testid="turn-banner"]').textContent.includes("Ben")`, "offline, Ben's turn after Ana holds")
	teacher.post(paths.Pause.For(code), nil)
	cut.Store(false)
	eventually(t, ana, `document.querySelector('[data-testid="table-queued"]').textContent.includes("paused")`, "the device says play is paused")
	if n := value(t, ana, chromedp.Evaluate[float64](`JSON.parse(Object.values(localStorage)[0] || "[]").length`)); n != 3 {
		t.Fatalf("paused, the device keeps %v entries, want 3", n)
	}
	if evs := tableEvents(t, a, code); len(evs) != 1 {
		t.Fatalf("paused, the server has %d events, want the first 2 only", len(evs))
	}
	teacher.post(paths.Resume.For(code), nil)
	eventually(t, ana, `localStorage.length === 0`, "the entries sent once play resumes")
	var got []string
	for _, e := range tableEvents(t, a, code) {
		got = append(got, strings.TrimSuffix(e.Action.String()+":"+e.Faces.String(), ":"))
	}
	if want := "roll:2 roll:3 roll:4 hold"; strings.Join(got, " ") != want {
		t.Fatalf("the server stored %v, want %s", got, want)
	}
}

// rejoinOn takes student nick, of browser b, to the page ctx by the
// rejoin code on b's class page, typed in the join form at base.
func rejoinOn(t *testing.T, ctx context.Context, base string, b *browser, code, nick string) {
	t.Helper()
	rc := b.get("/c/" + code).Find(`[data-testid="rejoin-code"]`).Text()
	navigate(t, ctx, base+"/join/"+code)
	run(t, ctx, chromedp.SendKeys(q(`#nickname`), nick))
	value(t, ctx, chromedp.Evaluate[bool](`(document.querySelector('#rejoin').closest('details').open = true, true)`))
	run(t, ctx, chromedp.SendKeys(q(`#rejoin`), rc), chromedp.Submit(q(`#nickname`)), chromedp.WaitVisible(q(`[data-testid="nickname"]`)))
}

// TestBrowserATableDeviceHoldsWhatWasNotTaken (issue 58, item 9): Ana's
// phone and Ben's at one table of Pig. Ben's phone follows Ana's entries
// while it is her turn. Ana's phone, offline, holds a 3, a 4 and a Hold
// while Ben's phone enters a 6 for her: back online, the 3 is refused
// (its place holds the 6), and her phone shows the game as it is (turn
// total 8), says which three entries it holds, and takes no other entry
// until she decides: entered again, they follow the 6 (she banks 15).
// Then, offline, her phone holds a 5 and a Hold for Ben while his phone
// enters his 1: she drops them, and the table is as Ben's phone left it.
func TestBrowserATableDeviceHoldsWhatWasNotTaken(t *testing.T) {
	t.Parallel() // it waits on the devices' polls
	person := newBrowser(t)
	a, ts, cut, teacher, code, ana, ben := anaOnAPhone(t, person)
	openAnasTable(t, a, ts, teacher, code, ana, "")
	benPhone := person()
	run(t, benPhone, chromedp.EmulateViewport(390, 844))
	rejoinOn(t, benPhone, a.url, ben, code, "Ben")
	navigate(t, benPhone, a.url+"/c/"+code)
	eventually(t, benPhone, `!!document.querySelector('[data-testid="mark-6"]')`, "Ben's phone at the table on Ana's turn")
	stored := func(want string) {
		t.Helper()
		var got []string
		for _, e := range tableEvents(t, a, code) {
			got = append(got, strings.TrimSuffix(e.Action.String()+":"+e.Faces.String(), ":"))
		}
		if strings.Join(got, " ") != want {
			t.Fatalf("the table stored %v, want %s", got, want)
		}
	}
	tt := func(n int) string {
		return fmt.Sprintf(`document.querySelector('[data-testid="turn-total"]').textContent === "%d"`, n)
	}

	clickJS(t, ana, `[data-testid="mark-2"]`)
	eventually(t, ana, `localStorage.length === 0 && `+tt(2), "Ana's 2 entered and sent")
	eventually(t, benPhone, tt(2), "Ben's phone follows Ana's turn")

	cut.Store(true)
	for _, b := range []string{"mark-3", "mark-4", "act-hold"} {
		clickJS(t, ana, `[data-testid="`+b+`"]`)
	}
	eventually(t, ana, `document.querySelector('[data-testid="turn-banner"]').textContent.includes("Ben")`, "offline, Ben's turn after Ana holds")
	clickJS(t, benPhone, `[data-testid="mark-6"]`)
	eventually(t, benPhone, `localStorage.length === 0 && `+tt(8), "Ben's phone enters a 6 for Ana")
	cut.Store(false)
	eventually(t, ana, `!!document.querySelector('[data-testid="table-held"]')`, "Ana's phone holds what was not taken")
	held := textOf(t, ana, `[data-testid="table-held"] p`)
	if !strings.Contains(held, "a throw of 3; a throw of 4; a hold") {
		t.Errorf("the held entries: %q", held)
	}
	if said := textOf(t, ana, `[data-testid="board-error"]`); !strings.Contains(said, "already has a throw of 6") || !strings.Contains(said, "sent a throw of 3") {
		t.Errorf("the refusal: %q", said)
	}
	if got := textOf(t, ana, `[data-testid="turn-total"]`); got != "8" {
		t.Errorf("Ana's phone shows turn total %s, want the table's 8", got)
	}
	if !value(t, ana, chromedp.Evaluate[bool](`Array.from(document.querySelectorAll('#board form[data-entry] button')).every(b => b.disabled)`)) {
		t.Error("the phone takes new entries before Ana has decided on those it holds")
	}
	shot(t, ana, "table-held")
	stored("roll:2 roll:6")
	clickJS(t, ana, `[data-testid="table-held-again"]`)
	eventually(t, ana, `localStorage.length === 0 && !document.querySelector('[data-testid="table-held"]')`, "the held entries entered again")
	stored("roll:2 roll:6 roll:3 roll:4 hold")
	eventually(t, benPhone, `document.querySelector('[data-testid="turn-banner"]').textContent.includes("Ben") && Array.from(document.querySelectorAll('#board .players li')).some(li => li.textContent.includes("Ana") && li.querySelector('[data-testid="score"]').textContent === "15")`,
		"Ben's phone: Ana banked 15, Ben's turn")

	cut.Store(true)
	eventually(t, ana, `!!document.querySelector('[data-testid="mark-5"]')`, "Ana's phone at Ben's turn")
	clickJS(t, ana, `[data-testid="mark-5"]`)
	clickJS(t, ana, `[data-testid="act-hold"]`)
	clickJS(t, benPhone, `[data-testid="mark-1"]`)
	eventually(t, benPhone, `localStorage.length === 0 && document.querySelector('[data-testid="turn-banner"]').textContent.includes("Ana")`, "Ben's 1 ends his turn")
	cut.Store(false)
	eventually(t, ana, `!!document.querySelector('[data-testid="table-held"]')`, "Ana's phone holds the 5 and the Hold")
	clickJS(t, ana, `[data-testid="table-held-drop"]`)
	eventually(t, ana, `localStorage.length === 0 && !document.querySelector('[data-testid="table-held"]') && document.querySelector('[data-testid="turn-banner"]').textContent.includes("Ana") && !document.querySelector('[data-testid="mark-4"]').disabled`,
		"dropped: Ana's turn, her phone takes entries")
	stored("roll:2 roll:6 roll:3 roll:4 hold roll:1")
}
