package server

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
)

// widths are a phone (390 CSS px) and the reflow width of WCAG 1.4.10
// (320 CSS px: a 1280 px screen at 400%, or 640 px at 200%).
var widths = []int64{390, 320}

// noSidewaysScroll loads path at each width and fails if the page is wider
// than the screen.
func noSidewaysScroll(t *testing.T, ctx context.Context, base, path, name string) {
	t.Helper()
	for _, w := range widths {
		run(t, ctx, chromedp.EmulateViewport(w, 844), chromedp.Navigate(base+path))
		eventually(t, ctx, `document.readyState === "complete"`, path+" loads")
		got := value(t, ctx, chromedp.Evaluate[float64](`document.documentElement.scrollWidth`))
		if got > float64(w) {
			wide := value(t, ctx, chromedp.Evaluate[string](fmt.Sprintf(`(function () {
				var out = [];
				document.querySelectorAll("body *").forEach(function (el) {
					var r = el.getBoundingClientRect();
					if (r.right > %d + 1 && out.length < 4) out.push(el.tagName + "." + el.className + " " + Math.round(r.right));
				});
				return out.join(", ");
			})()`, w)))
			t.Errorf("%s at %d px: the page is %v px wide (%s)", name, w, got, wide)
		}
		shot(t, ctx, fmt.Sprintf("%s-%d", name, w))
	}
	axeCheck(t, ctx, name)
}

// axeScript is axe-core, vendored for the tests (testdata/axe).
var axeScript = sync.OnceValues(func() (string, error) {
	b, err := os.ReadFile("testdata/axe/axe.min.js")
	return string(b), err
})

// axeCheck runs axe-core in the page and fails on any violation of the
// WCAG 2.1 A and AA rules.
func axeCheck(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	script, err := axeScript()
	if err != nil {
		t.Fatal(err)
	}
	value(t, ctx, chromedp.Evaluate[bool](script+";true"))
	found := value(t, ctx, chromedp.Evaluate[string](`axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}).then(function (r) {
		return r.violations.map(function (v) {
			return v.id + " (" + v.nodes.length + "): " + v.nodes.slice(0, 2).map(function (n) { return n.target.join(" "); }).join("; ");
		}).join("\n");
	})`, chromedp.EvalAwaitPromise))
	if found != "" {
		t.Errorf("%s: axe-core finds WCAG 2.1 A/AA violations:\n%s", name, found)
	}
}

// TestBrowserNoSidewaysScroll: every page a student, a teacher or the
// projector shows fits a phone and reflows at 320 CSS px without scrolling
// sideways.
func TestBrowserNoSidewaysScroll(t *testing.T) {
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	s := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	join(t, a, code, "Bo")
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}})
	playRound(t, code, []*student{s})
	id := anaMatch(t, a, code)
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}})
	link := teacher.get("/t/"+code).Find(`[data-testid="teacher-link"]`).AttrOr("href", "")
	u, _ := url.Parse(link)
	plink := teacher.get("/t/"+code).Find(`[data-testid="projector-link"]`).AttrOr("href", "")
	pu, _ := url.Parse(plink)

	visitor, ana, teach := person(), person(), person()
	noSidewaysScroll(t, visitor, a.url, "/", "front")
	noSidewaysScroll(t, visitor, a.url, "/join/"+code, "join")
	noSidewaysScroll(t, visitor, a.url, "/verify", "verify")
	noSidewaysScroll(t, visitor, a.url, "/glossary", "glossary")
	joinIn(t, ana, a.url, code, "Cy")
	noSidewaysScroll(t, ana, a.url, "/c/"+code, "class-waiting")
	run(t, teach, chromedp.Navigate(a.url+u.RequestURI()), chromedp.WaitVisible(q(`[data-testid="join-code"]`)))
	noSidewaysScroll(t, teach, a.url, "/t/"+code, "dashboard")
	noSidewaysScroll(t, teach, a.url, pu.RequestURI(), "projector")
	// Ana's pages, on a phone she rejoins from: the play page of the new
	// round, her review, Skunk.
	anaB := person()
	rc := s.b.get("/c/" + code).Find(`[data-testid="rejoin-code"]`).Text()
	run(t, anaB, chromedp.Navigate(a.url+"/join/"+code), chromedp.SendKeys(q(`#nickname`), "Ana"))
	value(t, anaB, chromedp.Evaluate[bool](`(document.querySelector('#rejoin').closest('details').open = true, true)`))
	run(t, anaB, chromedp.SendKeys(q(`#rejoin`), rc), chromedp.Submit(q(`#nickname`)), chromedp.WaitVisible(q(`[data-testid="nickname"]`)))
	noSidewaysScroll(t, anaB, a.url, "/c/"+code, "play")
	noSidewaysScroll(t, anaB, a.url, fmt.Sprintf("/c/%s/m/%d", code, id), "review")
	a.srv.room.SetLesson(t.Context(), mustClass(t, a, code).ID, "6-skunk", 0)
	teacher.post("/t/"+code+"/lesson/start", nil)
	teacher.post("/t/"+code+"/skunk/roll", nil)
	noSidewaysScroll(t, anaB, a.url, "/c/"+code, "skunk")
}
