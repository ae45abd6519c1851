package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"pigclass/server/classroom"
	"pigclass/server/store"
	"pigclass/sim"
)

func TestTeacherPagesNeedTheSecret(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	link := teacher.get("/t/"+code).Find(`[data-testid="teacher-link"]`).AttrOr("href", "")
	stranger := a.browser()
	for _, path := range []string{"", "/live", "/projector", "/decisions.csv", "/matches.csv", "/students.csv", "?key=wrong"} {
		stranger.get("/t/" + code + path)
		if stranger.status() != http.StatusNotFound {
			t.Errorf("GET /t/%s%s without the secret: %d, want 404", code, path, stranger.status())
		}
	}
	stranger.post("/t/"+code+"/delete", url.Values{"confirm": {"yes"}})
	if stranger.status() != http.StatusNotFound {
		t.Errorf("POST delete without the secret: %d", stranger.status())
	}
	// The secret link works in another browser (the teacher's laptop).
	u, _ := url.Parse(link)
	laptop := a.browser()
	laptop.get(u.RequestURI())
	if laptop.status() != http.StatusOK || laptop.path() != "/t/"+code {
		t.Errorf("secret link: %d at %s", laptop.status(), laptop.path())
	}
	// The secret is stored only as a hash.
	class, err := a.store.ClassByCode(t.Context(), code)
	if err != nil {
		t.Fatal(err)
	}
	key := u.Query().Get("key")
	if len(key) != 64 || class.TeacherHash == key || class.TeacherHash != classroom.HashToken(key) {
		t.Errorf("stored %q for secret %q", class.TeacherHash, key)
	}
}

// TestJoinAgainGoesToTheClass: a student who has joined and opens the join
// link again lands on the class page, with the same identity.
func TestJoinAgainGoesToTheClass(t *testing.T) {
	a := newApp(t)
	code := teacherStart(t, a.browser())
	b := join(t, a, code, "Ana")
	doc := b.get("/join/" + code)
	if b.path() != "/c/"+code || doc.Find(`[data-testid="nickname"]`).Text() != "Ana" {
		t.Errorf("join link again: %s", b.path())
	}
	other := a.browser()
	other.get("/join/" + code)
	if other.path() != "/join/"+code {
		t.Errorf("a new browser: %s", other.path())
	}
}

func TestJoinCodesHaveNoLookAlikes(t *testing.T) {
	ch := sim.NewStream(1)
	for i := range 1000 {
		prefix := []string{"", "K", "7R"}[i%3]
		c := newCode(ch, prefix)
		if len(c) != 6 || strings.ContainsAny(c, "0O1IL2Z5S8B6GUVQD") || !strings.HasPrefix(c, prefix) {
			t.Fatalf("code %q (prefix %q)", c, prefix)
		}
	}
	for _, bad := range []string{"O", "ABC", "k1", "é"} {
		if CheckCodePrefix(bad) == nil {
			t.Errorf("prefix %q accepted", bad)
		}
	}
	if classroom.NormalizeCode(" k7r-xm4 ") != "K7RXM4" {
		t.Error("typed codes are not normalised")
	}
}

func TestStudentActsOnlyInOwnSeat(t *testing.T) {
	a := newApp(t)
	owner := a.browser()
	owner.post("/practice", url.Values{"game": {"pig"}, "bot": {"hold:20"}})
	page := owner.path()
	st, _ := readBoard(owner.get(page))
	other := a.browser()
	for _, path := range []string{page, page + "/board"} {
		other.get(path)
		if other.status() != http.StatusForbidden {
			t.Errorf("someone else's %s: %d, want 403", path, other.status())
		}
	}
	doc := other.post(st.act, url.Values{"seq": {strconv.Itoa(st.seq)}, "action": {"roll"}})
	if other.status() != http.StatusForbidden || !strings.Contains(doc.Text(), "not playing in this match") {
		t.Errorf("acting in someone else's seat: %d %s", other.status(), doc.Find("h1").Text())
	}
	after, _ := readBoard(owner.get(page))
	if after.seq != st.seq {
		t.Errorf("the stranger's roll changed the match: seq %d to %d", st.seq, after.seq)
	}
}

func TestCrossSitePostsAreRefused(t *testing.T) {
	a := newApp(t)
	b := a.browser()
	for _, h := range [][]string{{"Origin", "http://evil.example"}, {"Sec-Fetch-Site", "cross-site"}} {
		b.post("/classes", nil, h...)
		if b.status() != http.StatusForbidden {
			t.Errorf("POST /classes with %s: %s: %d, want 403", h[0], h[1], b.status())
		}
	}
	b.post("/classes", nil, "Origin", a.url, "Sec-Fetch-Site", "same-origin")
	if b.status() != http.StatusOK {
		t.Errorf("same-origin POST: %d", b.status())
	}
}

func TestBodiesAreLimited(t *testing.T) {
	a := newApp(t)
	b := a.browser()
	doc := b.post("/join", url.Values{"code": {"K7RXM4"}, "nickname": {strings.Repeat("x", 100<<10)}})
	if b.status() != http.StatusRequestEntityTooLarge || !strings.Contains(doc.Text(), "64 KB") {
		t.Errorf("100 KB form: %d", b.status())
	}
}

func TestJoinGuessingIsRateLimited(t *testing.T) {
	a := newApp(t)
	code := teacherStart(t, a.browser())
	guesser := a.browser()
	for i := range 20 {
		guesser.post("/join", url.Values{"code": {"AAAAAA"}, "nickname": {"x" + strconv.Itoa(i)}})
		if guesser.status() != http.StatusUnprocessableEntity {
			t.Fatalf("guess %d: %d", i+1, guesser.status())
		}
	}
	doc := guesser.post("/join", url.Values{"code": {code}, "nickname": {"late"}})
	if guesser.status() != http.StatusTooManyRequests || !strings.Contains(doc.Text(), "Wait a minute") {
		t.Errorf("21st try: %d", guesser.status())
	}
	a.clock.add(61e9)
	guesser.post("/join", url.Values{"code": {code}, "nickname": {"late"}})
	if guesser.path() != "/c/"+code {
		t.Errorf("after a minute: %d at %s", guesser.status(), guesser.path())
	}
}

// TestJoinFieldErrors: each bad field is named with what is allowed, and
// the form keeps what was typed.
func TestJoinFieldErrors(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	join(t, a, code, "Ana")
	long := strings.Repeat("é", 25)
	cases := []struct {
		code, nick, field, want string
	}{
		{"12", "Bo", "code", "Join code: the 6 letters and digits"},
		{"AAAAAA", "Bo", "code", "no class has the code AAAAAA"},
		{code, "", "nickname", "Nickname: type a nickname, 1 to 24 characters"},
		{code, long, "nickname", "at most 24 characters (this one has 25)"},
		{code, "Ana", "nickname", "Ana is taken in this class"},
		{code, "a\x07b", "nickname", "letters, digits, spaces and punctuation"},
	}
	for _, c := range cases {
		b := a.browser()
		doc := b.post("/join", url.Values{"code": {c.code}, "nickname": {c.nick}})
		if b.status() != http.StatusUnprocessableEntity {
			t.Errorf("%q/%q: %d", c.code, c.nick, b.status())
		}
		if msg := doc.Find("#" + c.field + "-error").Text(); !strings.Contains(msg, c.want) {
			t.Errorf("%q/%q: %s error %q, want %q", c.code, c.nick, c.field, msg, c.want)
		}
		if doc.Find("#code").AttrOr("value", "") != c.code || doc.Find("#nickname").AttrOr("value", "") != c.nick {
			t.Errorf("%q/%q: the form lost what was typed", c.code, c.nick)
		}
	}
	teacher.post("/t/"+code+"/lock", nil)
	b := a.browser()
	doc := b.post("/join", url.Values{"code": {code}, "nickname": {"Late"}})
	if b.status() != http.StatusConflict || !strings.Contains(doc.Text(), "not taking new students") {
		t.Errorf("locked class: %d", b.status())
	}
}

func TestRoundFormErrors(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	doc := teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	if teacher.status() != http.StatusConflict || !strings.Contains(doc.Text(), "No students have joined yet") {
		t.Errorf("round without students: %d", teacher.status())
	}
	join(t, a, code, "Ana")
	doc = teacher.post("/t/"+code+"/rounds", url.Values{"game": {"hog"}, "target": {"5000"}, "max_dice": {"40"}, "mode": {"bot"}, "bot": {"hold:20"}, "deadline": {"1"}})
	for _, want := range []string{"Target: a whole number from 10 to 200", "Most dice: a whole number from 1 to 20", "Seconds per roll"} {
		if !strings.Contains(doc.Text(), want) {
			t.Errorf("round form: no %q", want)
		}
	}
	if doc.Find("#round-target").AttrOr("value", "") != "5000" {
		t.Error("the round form lost the typed target")
	}
	doc = teacher.post("/t/"+code+"/rounds", url.Values{"game": {"hog"}, "target": {"100"}, "max_dice": {"10"}, "mode": {"bot"}, "bot": {"hold:20"}})
	if !strings.Contains(doc.Find("#round-bot-error").Text(), "Hog has no hold") {
		t.Errorf("hold:20 in Hog: %q", doc.Find("#round-bot-error").Text())
	}
}

// TestCSVIsSafeForSpreadsheets: a nickname that looks like a formula is
// exported as text, and anonymous mode exports generated names unless the
// teacher asks for the real ones.
func TestCSVIsSafeForSpreadsheets(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	join(t, a, code, "=HYPERLINK(\"x\")")
	bo := join(t, a, code, "@Bo")
	rows := teacher.csvRows("/t/" + code + "/students.csv")
	if rows[0]["student"] != "'=HYPERLINK(\"x\")" || rows[1]["student"] != "'@Bo" {
		t.Errorf("students.csv names %q %q", rows[0]["student"], rows[1]["student"])
	}
	teacher.post("/t/"+code+"/anonymous-on", nil)
	rows = teacher.csvRows("/t/" + code + "/students.csv")
	anon, _ := a.store.Students(t.Context(), mustClass(t, a, code).ID)
	if rows[0]["student"] != anon[0].AnonName || !strings.Contains(anon[0].AnonName, " ") {
		t.Errorf("anonymous export %q, want %q", rows[0]["student"], anon[0].AnonName)
	}
	rows = teacher.csvRows("/t/" + code + "/students.csv?names=real")
	if rows[1]["student"] != "'@Bo" {
		t.Errorf("real names on request: %q", rows[1]["student"])
	}
	if ct := teacher.last.Header.Get("Content-Type"); ct != "text/csv; charset=utf-8" {
		t.Errorf("content type %q", ct)
	}
	// The projector (a shared screen) shows generated names; the teacher's
	// dashboard shows nicknames.
	proj := teacher.get("/t/" + code + "/projector").Text()
	if strings.Contains(proj, "@Bo") || !strings.Contains(proj, anon[1].AnonName) {
		t.Error("the projector shows real nicknames in anonymous mode")
	}
	if !strings.Contains(teacher.get("/t/"+code).Text(), "@Bo") {
		t.Error("the dashboard hides nicknames from the teacher")
	}
	// Bo is told the name the projector shows for him.
	if got := bo.get("/c/" + code).Find(`[data-testid="shared-name"]`).Text(); !strings.Contains(got, anon[1].AnonName) {
		t.Errorf("Bo's page does not say his shared name %q: %q", anon[1].AnonName, got)
	}
	teacher.post("/t/"+code+"/anonymous-off", nil)
	if n := bo.get("/c/" + code).Find(`[data-testid="shared-name"]`).Length(); n != 0 {
		t.Error("a shared name is said with anonymous mode off")
	}
}

// operator is the class's teacher as the room's operator: for a test that
// drives the room directly.
func operator(t *testing.T, a *app, code string) classroom.Viewer {
	t.Helper()
	v, err := a.srv.room.Operator(t.Context(), code)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mustClass(t *testing.T, a *app, code string) store.Class {
	t.Helper()
	c, err := a.store.ClassByCode(t.Context(), code)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestDeleteClassRemovesEverything(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	s := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	s.step(t, code)
	teacher.post("/t/"+code+"/delete", url.Values{"confirm": {"yes"}})
	if teacher.path() != "/" {
		t.Fatalf("after delete: %s", teacher.path())
	}
	for _, table := range []string{"classes", "students", "rounds", "matches", "seats", "events"} {
		var n int
		if err := a.store.DB().QueryRow("SELECT COUNT(*) FROM " + table).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s: %d rows left (%v)", table, n, err)
		}
	}
	// Gone, the class answers as any code one is not in: the join form.
	s.b.get("/c/" + code)
	if s.b.status() != http.StatusOK || s.b.path() != "/join/"+code {
		t.Errorf("student page of a deleted class: %d at %s", s.b.status(), s.b.path())
	}
}

func TestHealthz(t *testing.T) {
	a := newAppConfig(t, func(c *Config) { c.CodePrefix = "K" })
	b := a.browser()
	teacherStart(t, b)
	join(t, a, teacherStart(t, a.browser()), "Ana")
	b.get("/healthz")
	var h struct{ Status, Database, Version string }
	if err := json.Unmarshal([]byte(b.body), &h); err != nil || b.status() != http.StatusOK {
		t.Fatalf("healthz %d %s", b.status(), b.body)
	}
	if h.Status != "ok" || h.Database != "writable" || h.Version == "" {
		t.Errorf("healthz: %+v", h)
	}
	a.store.Close()
	b.get("/healthz")
	if b.status() != http.StatusServiceUnavailable {
		t.Errorf("healthz with the database closed: %d", b.status())
	}
}

func TestPagesLoadOnlyOwnScripts(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	s := join(t, a, code, "Ana")
	pages := map[*browser][]string{teacher: {"/", "/join", "/t/" + code, "/t/" + code + "/projector"}, s: {"/c/" + code}}
	for b, paths := range pages {
		for _, p := range paths {
			doc := b.get(p)
			doc.Find("script[src], link[href], img[src]").Each(func(_ int, el *goquery.Selection) {
				ref := el.AttrOr("src", el.AttrOr("href", ""))
				if strings.Contains(ref, "//") {
					t.Errorf("%s refers to another host: %s", p, ref)
				}
			})
		}
	}
}
