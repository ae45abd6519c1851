package server

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"pigclass/templates/paths"
	"strconv"
	"strings"
	"testing"
	"time"

	"pigclass/server/classroom"
	"pigclass/server/play"
)

// Each test here is one finding of the probe of the running server, through
// the real router; each failed before its fix.

// raw sends a request without following redirects: form, if not nil, as
// its body, and headers as name, value pairs. The caller closes the body.
func (b *browser) raw(method, path string, form url.Values, headers ...string) *http.Response {
	b.t.Helper()
	req, _ := http.NewRequest(method, b.app.url+path, strings.NewReader(form.Encode()))
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := b.noFollow().Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	return resp
}

// send sends a request without following redirects and returns the
// status, the Location and the headers.
func (b *browser) send(method, path string, form url.Values, headers ...string) (int, string, http.Header) {
	b.t.Helper()
	resp := b.raw(method, path, form, headers...)
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Location"), resp.Header
}

// Finding 1: a forged X-Forwarded-For does not escape the join limiter.
func TestForgedForwardedForIsIgnored(t *testing.T) {
	a := newApp(t)
	teacherStart(t, a.browser())
	guesser := a.browser()
	limited := 0
	for i := range 25 {
		status, _, _ := guesser.send(http.MethodPost, "/join/AAAAAA", url.Values{"nickname": {"x"}}, "X-Forwarded-For", fmt.Sprintf("203.0.113.%d", i))
		if status == http.StatusTooManyRequests {
			limited++
		}
	}
	if limited != 5 {
		t.Errorf("25 wrong codes from 25 forged addresses: %d refused with 429, want 5", limited)
	}
	if n := a.srv.room.Guessers(); n != 1 {
		t.Errorf("the limiter keeps %d clients, want 1 (the real address)", n)
	}
}

// Finding 1: a code that exists and one that does not answer alike to
// someone not in the class.
func TestUnknownCodesAnswerAlike(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	real := teacherStart(t, teacher)
	fake := "WXYWXY"
	if real == fake {
		t.Skip("drew the fake code")
	}
	stranger := a.browser()
	for _, p := range []string{"", "/next", "/skunk", "/charts", "/m/1", "/m/1/board", "/m/1/record.json"} {
		rs, rl, _ := stranger.send(http.MethodGet, "/c/"+real+p, nil)
		fs, fl, _ := stranger.send(http.MethodGet, "/c/"+fake+p, nil)
		if rs != fs || strings.ReplaceAll(rl, real, "CODE") != strings.ReplaceAll(fl, fake, "CODE") {
			t.Errorf("%s: real code %d %q, unknown code %d %q", p, rs, rl, fs, fl)
		}
	}
}

// Finding 1: a class takes a limited number of joins a minute, which the
// teacher sees and lifts.
func TestJoinsPerClassAreCapped(t *testing.T) {
	a := newAppConfig(t, func(c *Config) { c.ClassJoins = 3 })
	teacher := a.browser()
	code := teacherStart(t, teacher)
	for i := range 3 {
		join(t, a, code, "s"+strconv.Itoa(i))
	}
	late := a.browser()
	doc := late.post("/join/"+code, url.Values{"nickname": {"late"}})
	if late.status() != http.StatusTooManyRequests || !strings.Contains(doc.Text(), "Ask your teacher to allow more") {
		t.Fatalf("the 4th join in a minute: %d", late.status())
	}
	dash := teacher.get("/t/" + code)
	if dash.Find(`[data-testid="allow-joins"]`).Length() != 1 || !strings.Contains(dash.Find(`[data-testid="joins"]`).Text(), "3 of at most 3") {
		t.Fatalf("the dashboard does not offer to allow more: %q", dash.Find(`[data-testid="joins"]`).Text())
	}
	teacher.post("/t/"+code+"/joins/unlimited", nil)
	join(t, a, code, "late")
}

// Finding 2: "Origin: null" is cross-site: the post is refused and nothing
// is stored.
func TestOriginNullIsCrossSite(t *testing.T) {
	a := newApp(t)
	code := teacherStart(t, a.browser())
	b := a.browser()
	status, _, _ := b.send(http.MethodPost, "/join/"+code, url.Values{"nickname": {"Mallory"}}, "Origin", "null")
	if status != http.StatusForbidden {
		t.Errorf("POST with Origin: null: %d, want 403", status)
	}
	status, _, _ = b.send(http.MethodPost, "/join/"+code, url.Values{"nickname": {"Mallory"}}, "Sec-Fetch-Site", "cross-site")
	if status != http.StatusForbidden {
		t.Errorf("POST cross-site: %d, want 403", status)
	}
	if c, _ := a.srv.room.Class(context.Background(), code); len(c.Students) != 0 {
		t.Errorf("%d students stored from refused posts", len(c.Students))
	}
}

// Finding 4: starting classes and practice matches is limited per client;
// idle practice matches and abandoned classes expire.
func TestCreationIsLimitedAndExpires(t *testing.T) {
	a := newApp(t)
	b := a.browser()
	for i := range classesPerMinute {
		if status, _, _ := b.send(http.MethodPost, "/classes", url.Values{}); status != http.StatusSeeOther {
			t.Fatalf("class %d: %d", i+1, status)
		}
	}
	if status, _, _ := b.send(http.MethodPost, "/classes", url.Values{}); status != http.StatusTooManyRequests {
		t.Errorf("class %d in a minute: %d, want 429", classesPerMinute+1, status)
	}
	p := a.browser()
	status, loc, _ := p.send(http.MethodPost, "/practice", url.Values{"game": {"pig"}, "bot": {"hold:20"}})
	if status != http.StatusSeeOther {
		t.Fatalf("practice: %d", status)
	}
	id, _ := strconv.ParseInt(strings.TrimPrefix(loc, "/m/"), 10, 64)
	for range play.DefaultLimits.DeviceStarts - 1 {
		p.send(http.MethodPost, "/practice", url.Values{"game": {"pig"}, "bot": {"hold:20"}})
	}
	if status, _, _ := p.send(http.MethodPost, "/practice", url.Values{"game": {"pig"}, "bot": {"hold:20"}}); status != http.StatusTooManyRequests {
		t.Errorf("practice %d in a minute: %d, want 429", play.DefaultLimits.DeviceStarts+1, status)
	}
	// An hour without a move: the practice match ends and leaves memory;
	// a day without a student: the classes go.
	a.clock.add(classroom.AbandonedClass + time.Minute)
	if err := a.srv.room.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if a.srv.room.Hall().Match(id) != nil || len(a.srv.room.Hall().Matches()) != 0 {
		t.Errorf("%d practice matches still in memory", len(a.srv.room.Hall().Matches()))
	}
	if m, err := a.store.MatchByID(context.Background(), id); err != nil || m.Status != "ended" {
		t.Errorf("the idle practice match on disk: %v %v", m.Status, err)
	}
	var classes int
	a.store.DB().QueryRow(`SELECT COUNT(*) FROM classes`).Scan(&classes)
	if classes != 0 {
		t.Errorf("%d abandoned classes left", classes)
	}
	// A day after they ended, the practice matches, their events and
	// their player are deleted.
	a.clock.add(classroom.PracticeKept + time.Minute)
	if err := a.srv.room.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	var matches, events, players int
	a.store.DB().QueryRow(`SELECT (SELECT COUNT(*) FROM matches), (SELECT COUNT(*) FROM events), (SELECT COUNT(*) FROM students)`).Scan(&matches, &events, &players)
	if matches+events+players != 0 {
		t.Errorf("a day after practice ended: %d matches, %d events, %d players left", matches, events, players)
	}
}

// Finding 5: nicknames are compared as they look.
func TestLookAlikeNicknames(t *testing.T) {
	a := newApp(t)
	code := teacherStart(t, a.browser())
	join(t, a, code, "Ana")
	join(t, a, code, "José")
	for _, c := range []struct{ nick, says string }{
		{"\u0410na", "looks like"},      // Cyrillic A
		{"ANA", "looks like"},           // another case
		{"Ana\u200b", "invisible"},      // zero-width space
		{"\u202eAna", "invisible"},      // right-to-left override
		{"\ufeffAna", "invisible"},      // byte-order mark
		{"Jose\u0301", "is taken"},      // José, decomposed
		{"Ａｎａ", "taken"},                // full width
		{"\u0391na", "looks like"},      // Greek capital Alpha
		{"\u0430n\u0430", "looks like"}, // Cyrillic small a, twice
	} {
		b := a.browser()
		doc := b.post("/join/"+code, url.Values{"nickname": {c.nick}})
		if b.status() != http.StatusUnprocessableEntity || !strings.Contains(doc.Find("#nickname-error").Text(), c.says) {
			t.Errorf("%q (%+q): %d %q", c.nick, c.nick, b.status(), doc.Find("#nickname-error").Text())
		}
	}
	if cl, _ := a.srv.room.Class(context.Background(), code); len(cl.Students) != 2 {
		t.Errorf("%d students, want Ana and José alone", len(cl.Students))
	}
}

// Finding 6: teacher pages and exports are never stored by a cache.
func TestTeacherPagesAreNotCached(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	for _, p := range []string{"", "/live", "/projector", "/decisions.csv", "/matches.csv", "/students.csv"} {
		teacher.get("/t/" + code + p)
		if cc := teacher.last.Header.Get("Cache-Control"); teacher.status() != http.StatusOK || cc != "no-store" {
			t.Errorf("/t/%s%s: %d, Cache-Control %q", code, p, teacher.status(), cc)
		}
	}
}

// Finding 7: a removed student's browser cannot join again, under any
// name, until the teacher lets them back in.
func TestRemovalHolds(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	bo := join(t, a, code, "Bo")
	id := studentID(t, a, code, "Bo")
	teacher.post(fmt.Sprintf("/t/%s/students/%d/remove", code, id), url.Values{"confirm": {"yes"}})
	for _, nick := range []string{"Bo", "Bo2"} {
		doc := bo.post("/join/"+code, url.Values{"nickname": {nick}})
		if bo.status() != http.StatusForbidden || !strings.Contains(doc.Text(), "let you back in") {
			t.Errorf("a removed browser joins as %s: %d", nick, bo.status())
		}
	}
	dash := teacher.get("/t/" + code)
	if !strings.Contains(dash.Find(`[data-testid="removed"]`).Text(), "Bo") {
		t.Fatal("the dashboard does not list the removed student")
	}
	teacher.post(fmt.Sprintf("/t/%s/students/%d/readmit", code, id), nil)
	if doc := bo.get("/c/" + code); bo.path() != "/c/"+code || doc.Find(`[data-testid="nickname"]`).Text() != "Bo" {
		t.Errorf("let back in: %s", bo.path())
	}
}

// Finding 8: a finished match's record is for its players and its class's
// teacher.
func TestRecordsAreForPlayersAndTeacher(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	s := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	id := anaMatch(t, a, code)
	playRound(t, code, []*student{s})
	path := fmt.Sprintf("/c/%s/m/%d/record.json", code, id)
	for _, c := range []struct {
		who  *browser
		want int
	}{{s.b, 200}, {teacher, 200}, {a.browser(), 403}} {
		c.who.get(path)
		if c.who.status() != c.want {
			t.Errorf("record for %v: %d, want %d", c.who == teacher, c.who.status(), c.want)
		}
	}
	stranger := a.browser()
	if doc := stranger.get(fmt.Sprintf("/verify?match=%d", id)); strings.Contains(doc.Find("#record").Text(), "seed") {
		t.Error("the verify page shows a stranger the record")
	}
	if status, _, _ := stranger.send(http.MethodGet, fmt.Sprintf("/m/%d/record.json", id), nil); status != http.StatusForbidden {
		t.Errorf("the old record address for a stranger: %d", status)
	}
}

// Finding 9: /static/ lists nothing; cookies are Secure behind an HTTPS
// proxy only when that proxy is trusted.
func TestStaticAndSecureCookies(t *testing.T) {
	a := newApp(t)
	b := a.browser()
	for _, p := range []string{"/static/", "/static/vendor/"} {
		if status, _, _ := b.send(http.MethodGet, p, nil); status != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", p, status)
		}
	}
	secure := func(a *app) bool {
		_, _, h := a.browser().send(http.MethodPost, "/classes", url.Values{}, "X-Forwarded-Proto", "https")
		return strings.Contains(h.Get("Set-Cookie"), "Secure")
	}
	if secure(a) {
		t.Error("an untrusted X-Forwarded-Proto made the cookie Secure")
	}
	proxied := newAppConfig(t, func(c *Config) { c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")} })
	if !secure(proxied) {
		t.Error("behind a trusted HTTPS proxy the cookie is not Secure")
	}
}

// TestRejoinOnAnotherDevice: a student whose cookie is gone gets back to
// their own seat with their nickname and rejoin code (even with joining
// closed); the old device is signed out and told why on its next page; a
// wrong code does not take the seat, and counts as a guess. The code
// lasts until the teacher renews it (issue 43, item 4); a code typed as a
// nickname is refused.
func TestRejoinOnAnotherDevice(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	old := join(t, a, code, "Ana")
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}})
	rc := old.get("/c/" + code).Find(`[data-testid="rejoin-code"]`).Text()
	if len(rc) != 9 {
		t.Fatalf("rejoin code %q", rc)
	}
	teacher.post("/t/"+code+"/lock", nil)
	thief := a.browser()
	doc := thief.post("/join/"+code, url.Values{"nickname": {"Ana"}, "rejoin": {"AAAA-AAAA"}})
	if thief.status() != http.StatusUnprocessableEntity || !strings.Contains(doc.Find("#rejoin-error").Text(), "not the code of Ana") {
		t.Errorf("a wrong rejoin code: %d %q", thief.status(), doc.Find("#rejoin-error").Text())
	}
	thief.post("/join/"+code, url.Values{"nickname": {"Ana"}})
	if thief.path() == "/c/"+code {
		t.Error("the nickname alone took Ana's seat")
	}
	phone := a.browser()
	doc = phone.post("/join/"+code, url.Values{"nickname": {"Ana"}, "rejoin": {strings.ToLower(rc)}})
	if phone.path() != "/c/"+code || doc.Find(`[data-testid="nickname"]`).Text() != "Ana" {
		t.Fatalf("rejoining: %d at %s", phone.status(), phone.path())
	}
	if _, ok := readBoard(doc); !ok {
		t.Error("back on the new device, Ana's match is not there")
	}
	// The old device's next page says why it is signed out.
	moved := old.get("/c/" + code)
	if old.path() != "/join/"+code || !strings.Contains(moved.Find(`[data-testid="join-moved"]`).Text(), "You joined on another device") {
		t.Errorf("the old device: at %s, told %q", old.path(), moved.Find(`[data-testid="join-moved"]`).Text())
	}
	// The code written on paper lasts (issue 43, item 4): the same on the
	// new device, and it takes the seat again from a third.
	if again := phone.get("/c/" + code).Find(`[data-testid="rejoin-code"]`).Text(); again != rc {
		t.Errorf("the rejoin code changed once used: %q, then %q", rc, again)
	}
	laptop := a.browser()
	if laptop.post("/join/"+code, url.Values{"nickname": {"Ana"}, "rejoin": {rc}}); laptop.path() != "/c/"+code {
		t.Errorf("the same code a second time: at %s", laptop.path())
	}
	// A stranger's browser is never told of a move.
	if doc := thief.get("/c/" + code); doc.Find(`[data-testid="join-moved"]`).Length() != 0 {
		t.Error("a stranger is told of a seat that moved")
	}
	// The teacher renews it: the old code no longer reaches the seat, the
	// device that had it is told why, the new code does.
	renewed := teacher.post(paths.RenewRejoin.With(code, studentID(t, a, code, "Ana")), url.Values{"confirm": {"yes"}})
	fresh := renewed.Find(`[data-testid="student-rejoin-code"]`).Text()
	if fresh == "" || fresh == rc {
		t.Fatalf("the renewed code: %q (was %q)", fresh, rc)
	}
	if doc := laptop.get("/c/" + code); laptop.path() != "/join/"+code || doc.Find(`[data-testid="join-moved"]`).Length() != 1 {
		t.Errorf("the device dropped by the renewal: at %s", laptop.path())
	}
	other := a.browser()
	if other.post("/join/"+code, url.Values{"nickname": {"Ana"}, "rejoin": {rc}}); other.path() == "/c/"+code {
		t.Error("the old code still reaches the seat after the renewal")
	}
	if other.post("/join/"+code, url.Values{"nickname": {"Ana"}, "rejoin": {fresh}}); other.path() != "/c/"+code {
		t.Errorf("the renewed code: at %s", other.path())
	}
	// A code typed into the nickname field joins no one: it points to the
	// rejoin field.
	teacher.post(paths.Open.For(code), nil)
	noah := a.browser()
	doc = noah.post("/join/"+code, url.Values{"nickname": {"Noah" + rc}})
	if noah.path() == "/c/"+code || !strings.Contains(doc.Text(), "this looks like a rejoin code") {
		t.Errorf("a nickname with a rejoin code in it: at %s", noah.path())
	}
}
