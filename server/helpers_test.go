package server

import (
	"context"
	"encoding/csv"
	"hash/fnv"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"

	"pigclass/server/store"
	"pigclass/server/store/pgtest"
	"pigclass/sim"
	"pigclass/sim/solve"
)

// app is a running server on a real database file.
type app struct {
	t     testing.TB
	path  string
	store *store.Store
	srv   *Server
	http  *httptest.Server
	url   string
	clock *clock
	// chance is the app's every draw (Config.Chance): a stream of the
	// test's own, which deals first the seeds the test puts in it
	// (seedWhere, chance.Deal).
	chance *sim.Stream
}

// clock is a settable time for deadline tests, or the real time (for a
// browser that counts down by its own clock).
type clock struct {
	mu   sync.Mutex
	t    time.Time
	real bool
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.real {
		return time.Now()
	}
	return c.t
}
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// sharedTables are the solved tables every test app reads: solving them
// once, not once an app, saves the suite half a minute.
var sharedTables = &solve.Cache{}

// newApp starts the app on a fresh database in t.TempDir().
func newApp(t testing.TB) *app {
	return openApp(t, freshDB(t), &clock{t: time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)})
}

// freshDB is a new database for a test app: a SQLite file in
// t.TempDir(), or, with PIGCLASS_TEST_ENGINE=postgres, a Postgres schema
// of the test's own (pgtest), so that the suite can be run on either.
func freshDB(t testing.TB) string {
	if os.Getenv("PIGCLASS_TEST_ENGINE") == "postgres" {
		return pgtest.URL(t)
	}
	return filepath.Join(t.TempDir(), "pigclass.db")
}

// keyPath is where a test app on db keeps its key: beside a SQLite file;
// for Postgres, in a folder of the test's that the app keeps when it is
// started again on the same database.
func keyPath(t testing.TB, db string) string {
	if store.IsPostgres(db) {
		p, _ := pgKeys.LoadOrStore(db, filepath.Join(t.TempDir(), "pigclass.key"))
		return p.(string)
	}
	return db + ".key"
}

var pgKeys sync.Map // Postgres URL -> its test app's key file

// sqliteOnly skips a test of what SQLite's files hold when the suite runs
// on Postgres (PIGCLASS_TEST_ENGINE).
func sqliteOnly(t testing.TB, why string) {
	if os.Getenv("PIGCLASS_TEST_ENGINE") == "postgres" {
		t.Skip("SQLite's own: " + why)
	}
}

// openApp starts the app on the database at path.
func openApp(t testing.TB, path string, clk *clock) *app {
	t.Helper()
	return openAppWith(t, path, clk, store.Options{})
}

// newAppConfig starts the app on a fresh database with its Config changed.
func newAppConfig(t testing.TB, change func(*Config)) *app {
	return openAppWith(t, freshDB(t), &clock{t: time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)}, store.Options{}, change)
}

// openAppWith starts the app on a store opened with opt (fault injection),
// its Config changed by change (if any).
func openAppWith(t testing.TB, path string, clk *clock, opt store.Options, change ...func(*Config)) *app {
	t.Helper()
	ctx := context.Background()
	if opt.Now == nil {
		opt.Now = clk.now
	}
	st, err := store.OpenWith(ctx, path, opt)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	key, err := store.LoadKey(keyPath(t, path))
	if err != nil {
		t.Fatal(err)
	}
	// The tests' players move as fast as the machine lets them; one test
	// holds them to the default.
	chance := testChance(t)
	cfg := Config{Now: clk.now, Tables: sharedTables, Key: key.Bytes, MovesPerSecond: 1 << 30, Chance: chance}
	for _, ch := range change {
		ch(&cfg)
	}
	srv, err := New(ctx, cfg, st, log)
	if err != nil {
		t.Fatal(err)
	}
	a := &app{t: t, path: path, store: st, srv: srv, http: httptest.NewServer(srv.Handler()), clock: clk, chance: chance}
	// The test server's own address is the one the app listens on.
	srv.hosts = newHostGate(cfg.PublicURL, a.http.Listener.Addr().String())
	a.url = a.http.URL
	t.Cleanup(a.stop)
	return a
}

// testChance is the chance of a test's app: a stream numbered by the
// test's name and how many apps it opened before, so a test draws the
// same codes, names and seeds on every run, and an app opened again on
// the same database does not draw its first app's seeds again.
func testChance(t testing.TB) *sim.Stream {
	h := fnv.New64a()
	h.Write([]byte(t.Name()))
	n, _ := appsOpened.LoadOrStore(t.Name(), new(atomic.Uint64))
	return sim.NewStream(h.Sum64() + n.(*atomic.Uint64).Add(1))
}

var appsOpened sync.Map // test name -> apps it opened

// stop shuts the app down as a crash would leave it: nothing is flushed
// beyond what was acknowledged.
func (a *app) stop() {
	if a.http == nil {
		return
	}
	a.srv.EndStreams() // or Close would wait for the pages' event streams
	a.http.Close()
	a.srv.Close()
	a.store.Close()
	a.http = nil
}

// browser is one person's browser: its own cookies.
type browser struct {
	t    testing.TB
	app  *app
	c    *http.Client
	last *http.Response
	body string
	// accept is the browser's Accept-Language ("" sends none).
	accept string
}

func (a *app) browser() *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: a.t, app: a, c: &http.Client{Jar: jar}}
}

// moveTo points the browser at another app (after a restart), keeping its
// cookies.
func (b *browser) moveTo(a *app) {
	u, _ := url.Parse(b.app.url)
	cookies := b.c.Jar.Cookies(u)
	jar, _ := cookiejar.New(nil)
	nu, _ := url.Parse(a.url)
	jar.SetCookies(nu, cookies)
	b.c.Jar, b.app = jar, a
}

func (b *browser) do(req *http.Request) *goquery.Document {
	b.t.Helper()
	if b.accept != "" {
		req.Header.Set("Accept-Language", b.accept)
	}
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	b.last, b.body = resp, string(body)
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(b.body))
	if err != nil {
		b.t.Fatal(err)
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		if keys := rawKeys(doc); len(keys) > 0 {
			b.t.Errorf("%s %s shows message keys instead of words: %v", req.Method, req.URL.Path, keys)
		}
	}
	return doc
}

// keyShape matches a message key of the catalog's: one of its sections,
// a dot, and more (piece.coin.heads, game.piglet).
var keyShape = func() *regexp.Regexp {
	src, err := os.ReadFile("../templates/i18n/locales/en.toml")
	if err != nil {
		panic(err)
	}
	var sections []string
	for _, m := range regexp.MustCompile(`(?m)^\[([a-z]+)\]$`).FindAllStringSubmatch(string(src), -1) {
		sections = append(sections, m[1])
	}
	return regexp.MustCompile(`\b(?:` + strings.Join(sections, "|") + `)\.[a-z0-9][a-z0-9_-]*(?:\.[a-z0-9][a-z0-9_-]*)*\b`)
}()

// mayHoldKey reports whether s has a dot between a lowercase letter and a
// lowercase letter or digit, as every message key has: the pages' text
// rarely does, and keyShape's search is slow on the rest.
func mayHoldKey(s string) bool {
	for i := 1; i+1 < len(s); i++ {
		if s[i] == '.' && 'a' <= s[i-1] && s[i-1] <= 'z' && ('a' <= s[i+1] && s[i+1] <= 'z' || '0' <= s[i+1] && s[i+1] <= '9') {
			return true
		}
	}
	return false
}

// rawKeys are the message keys a page shows, in its text or its
// attributes a person reads or hears, where words should be: a message
// missing from the catalog shows its key (i18n's T).
func rawKeys(doc *goquery.Document) []string {
	seen := map[string]bool{}
	var out []string
	look := func(s string) {
		if !mayHoldKey(s) {
			return
		}
		for _, k := range keyShape.FindAllString(s, -1) {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	// Each text node alone: a page's text run together would join one
	// cell's last word to the next's first ("unit" "." "game...").
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			look(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range doc.Nodes {
		walk(n)
	}
	doc.Find("[aria-label], [title], [placeholder], [alt]").Each(func(_ int, s *goquery.Selection) {
		for _, a := range []string{"aria-label", "title", "placeholder", "alt"} {
			look(s.AttrOr(a, ""))
		}
	})
	return out
}

func (b *browser) get(path string) *goquery.Document {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, b.app.url+path, nil)
	return b.do(req)
}

func (b *browser) post(path string, form url.Values, headers ...string) *goquery.Document {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, b.app.url+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return b.do(req)
}

// status returns the last response's status code.
func (b *browser) status() int { return b.last.StatusCode }

// path returns the last response's final path.
func (b *browser) path() string { return b.last.Request.URL.Path }

// csvRows fetches a CSV file and returns its rows as maps by header.
func (b *browser) csvRows(path string) []map[string]string {
	b.t.Helper()
	b.get(path)
	if b.status() != http.StatusOK {
		b.t.Fatalf("GET %s: %d %s", path, b.status(), b.body)
	}
	recs, err := csv.NewReader(strings.NewReader(b.body)).ReadAll()
	if err != nil {
		b.t.Fatalf("%s: %v", path, err)
	}
	var out []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = r[i]
		}
		out = append(out, m)
	}
	return out
}

// teacherStart makes a class and returns its code.
func teacherStart(t testing.TB, teacher *browser) string {
	t.Helper()
	doc := teacher.post("/classes", nil)
	code := doc.Find(`[data-testid="join-code"]`).Text()
	if teacher.status() != http.StatusOK || len(code) != CodeLength {
		t.Fatalf("start class: %d at %s, code %q", teacher.status(), teacher.path(), code)
	}
	return code
}

// join makes a student browser join the class.
func join(t testing.TB, a *app, code, nick string) *browser {
	t.Helper()
	b := a.browser()
	doc := b.post("/join", url.Values{"code": {code}, "nickname": {nick}})
	if b.path() != "/c/"+code || doc.Find(`[data-testid="nickname"]`).Text() != nick {
		t.Fatalf("join %s: %d at %s\n%s", nick, b.status(), b.path(), b.body)
	}
	return b
}

// boardState reads a board: the act URL, seq, whose turn, the turn total.
type boardState struct {
	act      string
	seq      int
	yourTurn bool
	over     bool
	turnTot  int
	actions  []string
}

func readBoard(doc *goquery.Document) (boardState, bool) {
	board := doc.Find(`[data-testid="board"]`)
	if board.Length() == 0 {
		return boardState{}, false
	}
	var s boardState
	s.seq, _ = strconv.Atoi(board.AttrOr("data-seq", "-1"))
	s.turnTot, _ = strconv.Atoi(board.Find(`[data-testid="turn-total"]`).Text())
	s.over = board.Find(`[data-testid="result"]`).Length() > 0
	board.Find(`.actions form`).Each(func(i int, f *goquery.Selection) {
		s.act = f.AttrOr("action", "")
		s.actions = append(s.actions, f.Find(`input[name="action"]`).AttrOr("value", ""))
	})
	s.yourTurn = len(s.actions) > 0
	return s, true
}
