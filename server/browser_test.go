package server

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"

	"pigclass/sim"
	"pigclass/templates/paths"
)

// chromium returns the browser for browser tests, or skips the test:
// Debian's chromium-headless-shell if it is there (a page of its own for
// each person costs a tenth of the full browser's, which opens a window
// with its own renderer for each: 0.1 s of CPU against 1.7 s measured),
// else chromium.
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("PIGCLASS_CHROMIUM"), "/usr/bin/chromium-headless-shell", "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p != "" {
			if _, err := exec.LookPath(p); err == nil {
				return p
			}
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("CI has no chromium: .ci/run should have installed it")
	}
	t.Skip("no chromium here: install Debian's chromium-headless-shell (or chromium) to run the browser tests")
	return ""
}

// newBrowser gives a test the package's headless chromium; person() gives
// each person a tab in a browser context of their own (their own cookies
// and storage, as a separate browser would).
//
// A new browser context starts a renderer of its own: 0.4 s of CPU each,
// measured, about a hundred times a run. So a finished person's context
// is kept for the next (people): their tab is closed, which takes its
// session storage, its emulated screen and its scripts with it, and the
// cookies and storage of every origin it visited are cleared. A new tab
// in a kept context shares the renderer of the context's first tab
// (--renderer-process-limit), a tenth of the cost.
// TestBrowserAKeptContextStartsAfresh holds the clearing to that.
func newBrowser(t *testing.T) func() context.Context {
	root := sharedChromium(t)
	return func() context.Context {
		keeper := people.take(t, root)
		tab, closeTab := chromedp.NewContext(keeper.ctx)
		// The tab is opened on its own context: a tab opened by a run on
		// the test's (with its timeout) would close with it.
		if err := chromedp.Do(tab); err != nil {
			closeTab()
			people.put(keeper, err)
			t.Fatalf("a new tab: %v", err)
		}
		ctx, cancelT := context.WithTimeout(tab, 150*time.Second) // a bound on a hang, not a speed test
		t.Cleanup(func() {
			cancelT()
			err := forget(tab)
			closeTab()
			people.put(keeper, err)
		})
		return ctx
	}
}

// people is the browser contexts no test uses now, each with its first
// tab kept open on a blank page (it keeps the context's renderer).
var people contextPool

type contextPool struct {
	sync.Mutex
	idle []keptContext
}

// keptContext is a browser context and the cancel that disposes of it.
type keptContext struct {
	ctx    context.Context
	cancel func()
}

// take gives a kept context, the one put back last, or a new one.
func (p *contextPool) take(t *testing.T, root context.Context) keptContext {
	p.Lock()
	if n := len(p.idle); n > 0 {
		k := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.Unlock()
		return k
	}
	p.Unlock()
	ctx, cancel := chromedp.NewContext(root, chromedp.WithNewBrowserContext())
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		cancel()
		t.Fatalf("a new browser context: %v", err)
	}
	return keptContext{ctx, cancel}
}

// put keeps k for the next person, unless clearing it failed (err): then
// it is disposed of.
func (p *contextPool) put(k keptContext, err error) {
	if err != nil {
		k.cancel()
		return
	}
	p.Lock()
	p.idle = append(p.idle, k)
	p.Unlock()
}

// forget clears what a person's tab left in its browser context: the
// cookies, and the storage of each origin the tab visited (local
// storage, IndexedDB, caches). Bounded: a tab that hangs is not kept.
func forget(tab context.Context) error {
	ctx, cancel := context.WithTimeout(tab, 10*time.Second)
	defer cancel()
	history, err := chromedp.Call(ctx, page.GetNavigationHistory, cdp.Empty{})
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	seen := map[string]bool{}
	for _, e := range history.Entries {
		u, err := url.Parse(e.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || seen[u.Host] {
			continue
		}
		seen[u.Host] = true
		if _, err := chromedp.Call(ctx, storage.ClearDataForOrigin, storage.ClearDataForOriginParams{Origin: u.Scheme + "://" + u.Host, StorageTypes: "all"}); err != nil {
			return fmt.Errorf("clear %s: %w", u.Host, err)
		}
	}
	_, err = chromedp.Call(ctx, network.ClearBrowserCookies, cdp.Empty{})
	return err
}

func run(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// value runs one action that returns a value.
func value[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// textOf reads an element's text with JavaScript, waiting for it to be
// there (node handles go stale when htmx swaps a part of the page).
func textOf(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	// One evaluation finds and reads it ("+" marks it found).
	js := fmt.Sprintf(`(function () { var e = document.querySelector(%q); return e ? "+" + e.textContent : ""; })()`, sel)
	return until(t, ctx, js, func(s string) bool { return s != "" }, sel+" appears")[1:]
}

// clickJS clicks an element with JavaScript once it is there: for parts of
// the page that htmx replaces while the test looks.
func clickJS(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	eventually(t, ctx, fmt.Sprintf(`!!document.querySelector(%q)`, sel), sel+" appears")
	value(t, ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(document.querySelector(%q).click(), true)`, sel)))
}

// joinIn has a person join the class in their browser, through the join
// page.
func joinIn(t *testing.T, ctx context.Context, base, code, nick string) {
	t.Helper()
	run(t, ctx, chromedp.Navigate(base+"/join/"+code), chromedp.SendKeys(q(`#nickname`), nick),
		chromedp.Submit(q(`#nickname`)), chromedp.WaitVisible(q(`[data-testid="nickname"]`)))
}

// q selects by CSS.
func q(sel string) chromedp.CSS { return chromedp.CSS(sel) }

// eventually polls a JavaScript condition in the page until it is true.
func eventually(t *testing.T, ctx context.Context, js, what string) {
	t.Helper()
	until(t, ctx, js, func(ok bool) bool { return ok }, what)
}

// until evaluates js every 100 ms until ok accepts what it returns, and
// returns that: one evaluation both finds and reads a part of the page
// that htmx may swap out between two.
func until[T any](t *testing.T, ctx context.Context, js string, ok func(T) bool, what string) T {
	t.Helper()
	end := time.Now().Add(30 * time.Second)
	for {
		if v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js)); err == nil && ok(v) {
			return v
		}
		if time.Now().After(end) {
			// What the page showed instead, for whoever reads the failure.
			at, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname + location.search`))
			text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`((document.getElementById("board") || document.body || {}).innerText || "").replace(/\s+/g, " ").slice(0, 400)`))
			t.Fatalf("%s: not within 30 s (at %s: %q)", what, at, text)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// resized waits until a page has redrawn at the size it was just given:
// two frames painted (or 100 ms, should a hidden page paint none), and
// every chart of the page drawn at its element's size. It takes the place
// of a fixed sleep after EmulateViewport.
func resized(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	value(t, ctx, chromedp.Evaluate[bool](`new Promise(function (ok) {
		setTimeout(function () { ok(true); }, 100);
		requestAnimationFrame(function () { requestAnimationFrame(function () { ok(true); }); });
	})`, chromedp.EvalAwaitPromise))
	eventually(t, ctx, `Array.from(document.querySelectorAll('.echart')).every(function (e) {
		var c = window.echarts && echarts.getInstanceByDom(e);
		return !c || Math.abs(c.getWidth() - e.clientWidth) < 1.5 && Math.abs(c.getHeight() - e.clientHeight) < 1.5;
	})`, what+": the charts drawn at the new size")
}

// shot saves a full-page screenshot into $PIGCLASS_SCREENSHOTS, when set,
// for a person to look at.
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("PIGCLASS_SCREENSHOTS")
	if dir == "" {
		return
	}
	png := value(t, ctx, chromedp.FullScreenshot(100))
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// shotOf saves a screenshot of one element, like shot.
func shotOf(t *testing.T, ctx context.Context, sel, name string) {
	t.Helper()
	dir := os.Getenv("PIGCLASS_SCREENSHOTS")
	if dir == "" {
		return
	}
	png := value(t, ctx, chromedp.Screenshot(q(sel)))
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserDashboardIsLive: a teacher and two students in separate
// browser contexts; the students' moves appear on the teacher's dashboard
// without a reload.
func TestBrowserDashboardIsLive(t *testing.T) {
	t.Parallel() // it waits on the dashboard's polls
	person := newBrowser(t)
	a := newApp(t)
	teacher, ana, bo := person(), person(), person()

	run(t, teacher, chromedp.Navigate(a.url+"/"), chromedp.Click(q(`[data-testid="start-class"]`)),
		chromedp.WaitVisible(q(`[data-testid="join-code"]`)))
	code := textOf(t, teacher, `[data-testid="join-code"]`)
	for _, s := range []struct {
		ctx  context.Context
		nick string
	}{{ana, "Ana"}, {bo, "Bo"}} {
		run(t, s.ctx, chromedp.Navigate(a.url+"/join/"+code), chromedp.SendKeys(q(`#nickname`), s.nick),
			chromedp.Submit(q(`#nickname`)), chromedp.WaitVisible(q(`[data-testid="nickname"]`)))
	}
	eventually(t, teacher, `document.querySelectorAll('[data-testid="student-row"]').length === 2`, "the roster shows both students")

	run(t, teacher, chromedp.Click(q(`input[name="mode"][value="pairs"]`)),
		chromedp.Click(q(`[data-testid="start-round"]`)), chromedp.WaitVisible(q(`[data-testid="end-round"]`)))
	markPage(t, teacher)
	eventually(t, teacher, `document.querySelector('[data-testid="decision-count"]').textContent === "0"`, "no decisions yet")

	// Whoever moves first rolls, from their own page, with htmx.
	for _, s := range []context.Context{ana, bo} {
		eventually(t, s, `!!document.querySelector('[data-testid="board"]')`, "the board appears")
	}
	mover := ana
	if value(t, bo, chromedp.Evaluate[bool](`!!document.querySelector('[data-testid="act-roll"]')`)) {
		mover = bo
	}
	clickJS(t, mover, `[data-testid="act-roll"]`)
	eventually(t, teacher, `document.querySelector('[data-testid="decision-count"]').textContent === "1"`, "the roll appears on the dashboard")
	shot(t, teacher, "dashboard")
	shot(t, mover, "board")
	if reloaded(t, teacher) {
		t.Error("the dashboard reloaded to show the move")
	}
	run(t, teacher, chromedp.Navigate(a.url+"/t/"+code+"/projector"))
	shot(t, teacher, "projector")
	// The roll was announced to screen readers on the mover's page.
	eventually(t, mover, `document.querySelector('[data-testid="announce"]').textContent.includes("You rolled")`, "the roll is announced")
	if said := textOf(t, mover, `[data-testid="announce"]`); !strings.Contains(said, "You rolled") {
		t.Errorf("announcement %q", said)
	}
}

// TestBrowserProjectorShowsThePickedChart: after a round, the teacher picks
// a chart; the projector draws it with the vendored ECharts.
func TestBrowserProjectorShowsThePickedChart(t *testing.T) {
	t.Parallel() // it waits on the projector's polls
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	students := []*student{{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}, {b: join(t, a, code, "Bo"), nick: "Bo", holdAt: 10}}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	playRound(t, code, students)
	link := teacher.get("/t/"+code).Find(`[data-testid="teacher-link"]`).AttrOr("href", "")
	teacher.post("/t/"+code+"/projector-chart", url.Values{"chart": {"hold-points"}})

	laptop := person()
	run(t, laptop, chromedp.Navigate(link), chromedp.WaitVisible(q(`[data-testid="join-code"]`)))
	shot(t, laptop, "dashboard")
	for _, k := range []string{"decision-map", "skill-luck", "share-of-ones", "first-player"} {
		run(t, laptop, chromedp.Navigate(a.url+"/t/"+code+"?chart="+k))
		eventually(t, laptop, `!!document.querySelector('#chart-`+k+` canvas')`, "the dashboard draws "+k)
		shotOf(t, laptop, "#figure-"+k, k)
	}
	run(t, laptop, chromedp.Navigate(a.url+"/t/"+code+"/projector"))
	eventually(t, laptop, `!!document.querySelector('#projector-chart #chart-hold-points canvas')`, "the projector draws the chart the teacher picked")
	caption := textOf(t, laptop, `#projector-chart figcaption`)
	if !strings.Contains(caption, "Hold points") {
		t.Errorf("projector caption %q", caption)
	}
	shot(t, laptop, "projector-chart")
	// The teacher switches to the dice: the projector follows without a reload.
	teacher.post("/t/"+code+"/projector-chart", url.Values{"chart": {"class-dice"}})
	eventually(t, laptop, `!!document.querySelector('#projector-chart #chart-class-dice canvas')`, "the projector follows the teacher's pick")
}

// TestBrowserSkunk: whole-class Skunk from the projector; a student sits on
// their device and the projector shows it without a reload.
func TestBrowserSkunk(t *testing.T) {
	t.Parallel() // it waits on the boards' polls
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	a.srv.room.SetLesson(t.Context(), operator(t, a, code), "6-skunk", 0)
	link := teacher.get("/t/"+code).Find(`[data-testid="teacher-link"]`).AttrOr("href", "")
	ana, bo := person(), person()
	for _, s := range []struct {
		ctx  context.Context
		nick string
	}{{ana, "Ana"}, {bo, "Bo"}} {
		run(t, s.ctx, chromedp.Navigate(a.url+"/join/"+code), chromedp.SendKeys(q(`#nickname`), s.nick),
			chromedp.Submit(q(`#nickname`)), chromedp.WaitVisible(q(`[data-testid="nickname"]`)))
	}
	// The first roll scores (a roll with a 1 adds nothing: before
	// anything is kept there is nothing to sit for).
	a.deal(t, "Skunk's first roll scores", func(s *sim.Seed) bool { f := s.RollFaces(0, 0, 0, 2); return f.Ones() == 0 })
	teacher.post("/t/"+code+"/lesson/start", nil)
	teacher.post(paths.SkunkRoll.For(code), nil)
	if k := (operator(t, a, code)).Skunk(); k.RoundTotal == 0 {
		t.Fatalf("the first roll left a round total of 0 (round %d)", k.Round)
	}

	projector := person()
	run(t, projector, chromedp.Navigate(link), chromedp.WaitVisible(q(`[data-testid="join-code"]`)),
		chromedp.Navigate(a.url+"/t/"+code+"/projector"), chromedp.WaitVisible(q(`[data-testid="skunk"]`)))
	markPage(t, projector)
	eventually(t, ana, `!!document.querySelector('[data-testid="skunk-sit"]')`, "Ana's page offers to sit")
	clickJS(t, ana, `[data-testid="skunk-sit"]`)
	eventually(t, projector, `document.querySelector('[data-testid="skunk-standing"]') && document.querySelector('[data-testid="skunk-standing"]').textContent.includes("1 standing, 1 sitting")`, "the projector shows Ana sitting")
	if reloaded(t, projector) {
		t.Error("the projector reloaded")
	}
	eventually(t, ana, `document.querySelector('[data-testid="skunk-you"]').textContent.includes("sitting")`, "Ana's page says she sits")
	shot(t, projector, "projector-skunk")
	shot(t, ana, "student-skunk")
}

// markPage marks the page's window: loading the page again loses the mark
// (see reloaded).
func markPage(t *testing.T, ctx context.Context) {
	t.Helper()
	value(t, ctx, chromedp.Evaluate[string](`window.pigclassMarker = "no reload"`))
}

// reloaded reports whether the page was loaded again since markPage.
func reloaded(t *testing.T, ctx context.Context) bool {
	t.Helper()
	return value(t, ctx, chromedp.Evaluate[string](`window.pigclassMarker || ""`)) != "no reload"
}

// shared is the one chromium the package's browser tests share, started
// by the first that asks (each test opens browser contexts of its own in
// it): one start, not one a test, which took the suite's two cores for
// seconds each and now and then failed when many started at once.
var shared struct {
	once   sync.Once
	root   context.Context
	cancel func()
	dir    string
	err    error
}

// sharedChromium is the shared chromium's root context, started on first
// use (three tries).
func sharedChromium(t *testing.T) context.Context {
	t.Helper()
	path := chromium(t)
	shared.once.Do(func() {
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU,
			chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true), chromedp.Flag("disable-quic", true), chromedp.Flag("no-first-run", true),
			// A page's navigations stay in its renderer: no spare process
			// started after each, no new one for a page opened anew (a
			// renderer's start is CPU the other tests wait for).
			chromedp.Flag("disable-features", "SpareRendererForSitePerProcess,BackForwardCache,ProactivelySwapBrowsingInstance"),
			chromedp.Flag("disable-site-isolation-trials", true),
			// The tests' HTTPS servers (a launch in a learning platform's
			// frame) have certificates of their own making.
			chromedp.Flag("ignore-certificate-errors", true),
			// A person's new tab in a kept browser context shares the
			// renderer of the context's first tab (see newBrowser).
			chromedp.Flag("renderer-process-limit", "2"),
		)
		shared.dir, shared.err = os.MkdirTemp("", "pigclass-chromium-")
		if shared.err != nil {
			return
		}
		for try := range 3 {
			alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append(slices.Clone(opts), chromedp.UserDataDir(filepath.Join(shared.dir, fmt.Sprint(try))))...)
			ctx, cancelRoot := chromedp.NewContext(alloc)
			if shared.err = chromedp.Do(ctx); shared.err == nil {
				shared.root, shared.cancel = ctx, func() { cancelRoot(); cancelAlloc() }
				return
			}
			cancelRoot()
			cancelAlloc()
			time.Sleep(time.Second)
		}
	})
	if shared.err != nil {
		t.Fatalf("start chromium: %v", shared.err)
	}
	return shared.root
}

// stopChromium ends the shared chromium, after every test (TestMain).
func stopChromium() {
	if shared.cancel != nil {
		shared.cancel()
	}
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
}

// TestBrowserAKeptContextStartsAfresh: a person whose browser context was
// a finished person's (see newBrowser) finds nothing of theirs: not the
// class they joined (its cookie), nor what the page kept in local or
// session storage, nor their emulated screen. Not parallel: the second
// person is given the context the first put back.
func TestBrowserAKeptContextStartsAfresh(t *testing.T) {
	a := newApp(t)
	code := teacherStart(t, a.browser())
	var first cdp.BrowserContextID
	t.Run("first", func(t *testing.T) {
		ana := newBrowser(t)() // hers until this subtest ends
		joinIn(t, ana, a.url, code, "Ana")
		run(t, ana, chromedp.EmulateViewport(333, 600))
		value(t, ana, chromedp.Evaluate[bool](`(localStorage.setItem("kept", "1"), sessionStorage.setItem("kept", "1"), document.cookie = "kept=1; path=/", true)`))
		first = chromedp.FromContext(ana).BrowserContextID
	})
	next := newBrowser(t)()
	run(t, next, chromedp.Navigate(a.url+"/c/"+code))
	if id := chromedp.FromContext(next).BrowserContextID; id != first {
		t.Fatalf("the second person has browser context %s, not the first's %s: the pool was not used", id, first)
	}
	got := value(t, next, chromedp.Evaluate[string](`[document.cookie, localStorage.getItem("kept"), sessionStorage.getItem("kept"), window.innerWidth === 333, !!document.querySelector('[data-testid="nickname"]')].join(" ")`))
	if got != "   false false" {
		t.Errorf("the kept context still holds the first person's (cookie, local, session storage, width 333, joined): %q", got)
	}
}
