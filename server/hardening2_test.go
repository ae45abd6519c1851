package server

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/sim/solve"
	"pigclass/templates/paths"
)

// The second hardening round's findings, one test each (see the note on
// each). The requests are the ones that showed them.

// The language switcher's back is a path on this site: a backslash, a
// control character or another host sends the browser to the front page.
func TestBackIsAPath(t *testing.T) {
	a := newApp(t)
	b := a.browser()
	for back, want := range map[string]string{
		"/c/ABCDEF?x=1":         "/c/ABCDEF?x=1",
		"/\t/evil.example/":     "/",
		"/\\evil.example":       "/",
		"//evil.example":        "/",
		"https://evil.example/": "/",
		"/ok\r\nLocation: x":    "/",
		"javascript:alert(1)":   "/",
		"":                      "/",
	} {
		_, loc, _ := b.send(http.MethodPost, paths.Lang.String(), url.Values{"lang": {"en"}, "back": {back}})
		if loc != want {
			t.Errorf("back %q: sent to %q, want %q", back, loc, want)
		}
	}
}

// An IPv6 device is one device across its /64; an address is named by
// X-Forwarded-For only from a trusted proxy, and never by X-Real-IP.
func TestClientKey(t *testing.T) {
	gin.SetMode(gin.ReleaseMode)
	key := func(remote string, trusted bool, headers ...string) string {
		e := gin.New()
		e.RemoteIPHeaders = []string{"X-Forwarded-For"}
		if trusted {
			e.SetTrustedProxies([]string{"127.0.0.0/8"})
		} else {
			e.SetTrustedProxies(nil)
		}
		var got string
		e.GET("/", func(c *gin.Context) { got = clientKey(c) })
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.RemoteAddr = remote
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		e.ServeHTTP(httptest.NewRecorder(), req)
		return got
	}
	if a, b := key("[2001:db8:1:2:aaaa::1]:5000", false), key("[2001:db8:1:2:bbbb::9]:5000", false); a != b || a != "2001:db8:1:2::/64" {
		t.Errorf("two addresses of one /64: %q and %q", a, b)
	}
	if a, b := key("[2001:db8:1:2::1]:5000", false), key("[2001:db8:1:3::1]:5000", false); a == b {
		t.Errorf("two /64s share a key %q", a)
	}
	if k := key("[::ffff:198.51.100.7]:5000", false); k != "198.51.100.7" {
		t.Errorf("an IPv4 address in IPv6: %q", k)
	}
	if k := key("127.0.0.1:5000", true, "X-Real-IP", "203.0.113.9"); k != "127.0.0.1" {
		t.Errorf("X-Real-IP from a trusted proxy believed: %q", k)
	}
	if k := key("127.0.0.1:5000", true, "X-Forwarded-For", "203.0.113.9"); k != "203.0.113.9" {
		t.Errorf("X-Forwarded-For from a trusted proxy: %q", k)
	}
	if k := key("198.51.100.7:5000", false, "X-Forwarded-For", "203.0.113.9"); k != "198.51.100.7" {
		t.Errorf("X-Forwarded-For from anyone believed: %q", k)
	}
	if _, err := netip.ParsePrefix(key("[2001:db8::1]:1", false)); err != nil {
		t.Error(err)
	}
}

// The student's page, which shows their rejoin code, and every page of a
// student's are sent with Cache-Control: no-store.
func TestStudentPagesAreNotStored(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}})
	id := anaMatch(t, a, code)
	for _, p := range []string{paths.Student.For(code), paths.StudentCharts.For(code), paths.Match(code, id), paths.ClassBoard.With(code, id)} {
		ana.get(p)
		if cc := ana.last.Header.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("%s: Cache-Control %q", p, cc)
		}
	}
}

// The server answers only for its --public-url's host and the addresses it
// listens on: a DNS rebinding page's Host gets 421 and a sentence naming
// the flag, and the teacher link and the QR code never follow a Host.
func TestOnlyItsOwnHosts(t *testing.T) {
	a := newAppConfig(t, func(c *Config) { c.PublicURL = "http://pig.school.example" })
	teacher := a.browser()
	code := teacherStart(t, teacher)
	for _, p := range []string{paths.Teacher.For(code), paths.JoinQR.For(code), paths.Front.String()} {
		req, _ := http.NewRequest(http.MethodGet, a.url+p, nil)
		req.Host = "rebind.attacker.example"
		doc := teacher.do(req)
		if teacher.status() != http.StatusMisdirectedRequest || !strings.Contains(teacher.body, "--public-url") || doc.Find("a").Length() != 0 {
			t.Errorf("%s for Host rebind.attacker.example: %d %q", p, teacher.status(), teacher.body)
		}
	}
	doc := teacher.get(paths.Teacher.For(code))
	if link := doc.Find(`[data-testid="teacher-link"]`).AttrOr("href", ""); !strings.HasPrefix(link, "http://pig.school.example/t/") {
		t.Errorf("the teacher link: %q", link)
	}

	g := newHostGate("http://pig.school.example", "[::]:8080")
	g.readNow = func() ([]net.Addr, error) {
		return []net.Addr{&net.IPNet{IP: net.ParseIP("10.0.0.5"), Mask: net.CIDRMask(24, 32)}}, nil
	}
	for host, want := range map[string]bool{
		"pig.school.example": true, "PIG.school.example.": true, "pig.school.example:80": true,
		"localhost:8080": true, "127.0.0.1:8080": true, "[::1]:8080": true, "10.0.0.5:8080": true,
		"10.0.0.6:8080": false, "10.0.0.5:9090": false, "rebind.attacker.example:8080": false, "": false,
	} {
		if got := g.allows(host); got != want {
			t.Errorf("Host %q: allowed %v, want %v", host, got, want)
		}
	}
	if g := newHostGate("", "127.0.0.1:8080"); g.allows("10.0.0.5:8080") || !g.allows("127.0.0.1:8080") {
		t.Error("a server listening on loopback answers for another address")
	}
}

// A copy of the database (teacher_hash, token_hash) does not give away the
// projector key or a student's rejoin code: both are derived with the
// server's own key, kept beside the database in a file of its owner's.
func TestSecretsTheFileCannotGiveAway(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	class := mustClass(t, a, code)
	var tokenHash string
	a.store.DB().QueryRow(`SELECT token_hash FROM students WHERE nickname = 'Ana'`).Scan(&tokenHash)
	// The keys the file alone gave before: made from its hashes.
	mac := func(key, msg string) []byte {
		m := hmac.New(sha256.New, []byte(key))
		m.Write([]byte(msg))
		return m.Sum(nil)
	}
	oldProjector := hex.EncodeToString(mac(class.TeacherHash, "pigclass-projector-v1"))[:32]
	if status, _, _ := a.browser().send(http.MethodGet, paths.ReadOnlyProjector.Page.For(code)+"?key="+oldProjector, nil); status != http.StatusNotFound {
		t.Errorf("a projector key computed from the file: %d", status)
	}
	sum := mac(class.TeacherHash, "pigclass-rejoin-v1\x00"+tokenHash)
	b := make([]byte, 8)
	for i := range b {
		b[i] = classroom.CodeAlphabet[int(sum[i])%len(classroom.CodeAlphabet)]
	}
	oldRejoin := string(b[:4]) + "-" + string(b[4:])
	other := a.browser()
	other.post(paths.JoinCode.For(code), url.Values{"nickname": {"Ana"}, "rejoin": {oldRejoin}})
	if other.path() == paths.Student.For(code) {
		t.Error("a rejoin code computed from the file signed Ana in elsewhere")
	}
	// The real ones work, and the key file is its owner's alone.
	real := ana.get(paths.Student.For(code)).Find(`[data-testid="rejoin-code"]`).Text()
	if real == "" || real == oldRejoin {
		t.Fatalf("the rejoin code on Ana's page: %q", real)
	}
	if fi, err := os.Stat(keyPath(t, a.path)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the key file: %v %v", fi.Mode(), err)
	}
}

// A planted player cookie is never adopted: joining gives the browser a
// fresh token (its other classes follow it), so whoever planted the value
// is no one; the same join tapped twice is still one student.
func TestFreshTokenOnJoin(t *testing.T) {
	a := newApp(t)
	first := teacherStart(t, a.browser())
	second := teacherStart(t, a.browser())
	planted := strings.Repeat("ab", 32)
	u, _ := url.Parse(a.url)
	victim := a.browser()
	victim.c.Jar.SetCookies(u, []*http.Cookie{{Name: playerCookie, Value: planted, Path: "/"}})
	victim.post(paths.JoinCode.For(first), url.Values{"nickname": {"Ana"}})
	if victim.path() != paths.Student.For(first) {
		t.Fatalf("join: %s", victim.path())
	}
	token := func(b *browser) string {
		for _, ck := range b.c.Jar.Cookies(u) {
			if ck.Name == playerCookie {
				return ck.Value
			}
		}
		return ""
	}
	if token(victim) == planted || len(token(victim)) != 64 {
		t.Fatalf("the browser kept the planted cookie")
	}
	// The one who planted it, past the moment of a double tap.
	a.clock.add(resendWindow + time.Second)
	planter := a.browser()
	planter.c.Jar.SetCookies(u, []*http.Cookie{{Name: playerCookie, Value: planted, Path: "/"}})
	if _, loc, _ := planter.send(http.MethodGet, paths.Student.For(first), nil); loc != paths.JoinCode.For(first) {
		t.Errorf("the planted cookie reaches Ana's page: %q", loc)
	}
	planter.post(paths.JoinCode.For(first), url.Values{"nickname": {"Ana"}})
	if planter.path() == paths.Student.For(first) {
		t.Error("the planted cookie joined as Ana")
	}
	// Joining a second class keeps the first.
	before := token(victim)
	victim.post(paths.JoinCode.For(second), url.Values{"nickname": {"Ana"}})
	if token(victim) == before {
		t.Error("the second join kept the token")
	}
	for _, code := range []string{first, second} {
		if doc := victim.get(paths.Student.For(code)); doc.Find(`[data-testid="nickname"]`).Text() != "Ana" {
			t.Errorf("after joining a second class, class %s: %s", code, victim.path())
		}
	}
	// A double tap: the same join, both with the old cookie.
	form := url.Values{"nickname": {"Bo"}}.Encode()
	var answers []*http.Response
	for range 2 {
		req, _ := http.NewRequest(http.MethodPost, a.url+paths.JoinCode.For(first), strings.NewReader(form))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(&http.Cookie{Name: playerCookie, Value: strings.Repeat("cd", 32)})
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		answers = append(answers, resp)
	}
	for i, resp := range answers {
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != paths.Student.For(first) {
			t.Errorf("tap %d: %d to %q", i+1, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	if class, _ := a.srv.room.Class(t.Context(), first); len(class.Students) != 2 {
		t.Errorf("%d students after a double tap, want 2 (Ana, Bo)", len(class.Students))
	}
}

// One device joins a class under one name at a time: fresh cookies from
// the same address get a sentence that names the rejoin code, until the
// teacher allows more; other devices join as before.
func TestOneNameADevice(t *testing.T) {
	a := newAppConfig(t, func(c *Config) { c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")} })
	teacher := a.browser()
	code := teacherStart(t, teacher)
	joinFrom := func(addr, nick string) (int, string) {
		b := a.browser()
		doc := b.post(paths.JoinCode.For(code), url.Values{"nickname": {nick}}, "X-Forwarded-For", addr)
		return b.status(), doc.Find(".notice").Text() + b.path()
	}
	if status, _ := joinFrom("192.0.2.10", "Ana"); status != http.StatusOK {
		t.Fatalf("the first name: %d", status)
	}
	status, says := joinFrom("192.0.2.10", "Mallory")
	if status != http.StatusTooManyRequests || !strings.Contains(says, "rejoin code") {
		t.Errorf("a second name from the device: %d %q", status, says)
	}
	if status, _ := joinFrom("2001:db8:1:2::99", "Bo"); status != http.StatusOK {
		t.Errorf("another device: %d", status)
	}
	if status, _ := joinFrom("2001:db8:1:2::abcd", "Bob"); status != http.StatusTooManyRequests {
		t.Errorf("the same /64: %d", status)
	}
	teacher.post(paths.JoinsUnlimited.For(code), nil)
	if status, _ := joinFrom("192.0.2.10", "Mallory"); status != http.StatusOK {
		t.Errorf("after the teacher allowed more: %d", status)
	}
}

// A player's moves are held to a few a second (by the wall clock): a
// burst from a script gets 429 and a sentence, and nothing it sent past
// the limit is played.
func TestMovesAreLimited(t *testing.T) {
	a := newAppConfig(t, func(c *Config) { c.MovesPerSecond = DefaultMovesPerSecond })
	p := a.browser()
	p.post(paths.Practice.String(), url.Values{"game": {"pig"}, "bot": {"hold:20"}})
	page := p.path()
	limited := 0
	start := time.Now()
	for range 30 {
		st, ok := readBoard(p.get(page))
		if !ok || st.over {
			break
		}
		status, _, _ := p.send(http.MethodPost, st.act, url.Values{"seq": {strconv.Itoa(st.seq)}, "action": {"roll"}})
		if status == http.StatusTooManyRequests {
			limited++
		}
	}
	if time.Since(start) < time.Second && limited == 0 {
		t.Errorf("30 moves in %s, none refused", time.Since(start))
	}
}

// A class asks for a few new kinds of round a minute (each solves a table
// in the server); the rest get a sentence and lose nothing; a variant
// already solved is never refused; the tables kept stay within their
// budget.
func TestNewVariantsAreLimited(t *testing.T) {
	a := newAppConfig(t, func(c *Config) { c.Tables = &solve.Cache{} })
	teacher := a.browser()
	code := teacherStart(t, teacher)
	join(t, a, code, "Ana")
	refused := 0
	for target := 131; target < 131+play.DefaultLimits.KindsClass+2; target++ {
		doc := teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {strconv.Itoa(target)}, "mode": {"bot"}, "bot": {"optimal"}})
		if teacher.status() == http.StatusUnprocessableEntity && strings.Contains(doc.Text(), "new kinds of round") {
			refused++
		}
	}
	if refused != 2 {
		t.Errorf("%d of %d new variants refused, want 2", refused, play.DefaultLimits.KindsClass+2)
	}
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"131"}, "mode": {"bot"}, "bot": {"optimal"}})
	if teacher.status() != http.StatusOK {
		t.Errorf("a variant solved before: %d", teacher.status())
	}
	if b := a.srv.tables.Bytes(); b > TablesBudget {
		t.Errorf("the tables take %d bytes, over the budget %d", b, TablesBudget)
	}
}

// Behind a proxy over plain HTTP a browser's Origin is the proxy's (the
// --public-url), not the Host the instance sees: forms from it are taken,
// and forms from any other site refused.
func TestPublicURLIsATrustedOrigin(t *testing.T) {
	a := newAppConfig(t, func(c *Config) { c.PublicURL = "http://pig.school.example:8000" })
	for origin, want := range map[string]int{"http://pig.school.example:8000": http.StatusSeeOther, "http://evil.example": http.StatusForbidden} {
		status, _, _ := a.browser().send(http.MethodPost, paths.Classes.String(), url.Values{}, "Origin", origin)
		if status != want {
			t.Errorf("POST /classes from %s: %d, want %d", origin, status, want)
		}
	}
	if _, err := newCrossOrigin("pig.school.example"); err == nil {
		t.Error("a public URL without a scheme taken")
	}
}

// An instance asked for a class whose code starts with another instance's
// prefix says the proxy sent it to the wrong place (421), the same for
// every such code; its own codes are served as ever.
func TestClassStaysAtHome(t *testing.T) {
	sqliteOnly(t, "one file an instance; on a district's Postgres every instance serves every class (TestADistrictHandsAClassOver)")
	a := newAppConfig(t, func(c *Config) { c.CodePrefix = "K" })
	code := teacherStart(t, a.browser())
	if !strings.HasPrefix(code, "K") {
		t.Fatalf("code %s", code)
	}
	b := a.browser()
	for _, p := range []string{paths.Student.For("JAAAAA"), paths.JoinCode.For("RXXXXX"), paths.Teacher.For("AAAAAA")} {
		doc := b.get(p)
		if b.status() != http.StatusMisdirectedRequest || !strings.Contains(doc.Text(), "wrong instance") {
			t.Errorf("%s: %d %q", p, b.status(), doc.Find("main").Text())
		}
	}
	if b.get(paths.JoinCode.For(code)); b.status() != http.StatusOK {
		t.Errorf("its own class's join page: %d", b.status())
	}
}

// The metrics speak Prometheus' text format: request latency by route
// (the pattern, never an address with a code), acknowledged actions, the
// writer's counters and the room's.
func TestMetrics(t *testing.T) {
	a := newApp(t)
	p := a.browser()
	p.post(paths.Practice.String(), url.Values{"game": {"pig"}, "bot": {"hold:20"}})
	st, _ := readBoard(p.get(p.path()))
	p.post(st.act, url.Values{"seq": {strconv.Itoa(st.seq)}, "action": {"roll"}})
	w := httptest.NewRecorder()
	a.srv.MetricsHandler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	body := w.Body.String()
	for _, want := range []string{
		`pigclass_http_request_duration_seconds_bucket{method="POST",route="/m/:id/act",le="+Inf"} 1`,
		"pigclass_actions_total 1", "pigclass_matches_playing 1", "pigclass_writer_batches_total", "pigclass_writer_queue 0",
		"pigclass_solver_cache_bytes", "pigclass_solver_solves_total", "pigclass_solver_given_up_total", "pigclass_solver_queue", "go_goroutines",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the metrics lack %q", want)
		}
	}
}
