package server

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// widths are a phone (390 CSS px) and the reflow width of WCAG 1.4.10
// (320 CSS px: a 1280 px screen at 400%, or 640 px at 200%).
var widths = []int64{390, 320}

// noSidewaysScroll loads path at each width and fails if the page is wider
// than the screen; then check, if any, looks at the page.
func noSidewaysScroll(t *testing.T, ctx context.Context, base, path, name string, widths []int64, check func(name string)) {
	t.Helper()
	for _, w := range widths {
		run(t, ctx, chromedp.EmulateViewport(w, 844))
		navigate(t, ctx, base+path)
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
	if check != nil {
		check(name)
	}
}

// overflowingJS lists the buttons, labels and tags whose words run out of
// their own box (the page may still fit: a word wider than its button).
const overflowingJS = `(function () {
	var out = [];
	document.querySelectorAll("button, .button, label, legend, summary, .tag, h1, h2, h3").forEach(function (el) {
		if (el.getClientRects().length && el.scrollWidth > el.clientWidth + 1 && out.length < 8)
			out.push(el.tagName.toLowerCase() + ": " + el.textContent.trim().slice(0, 60) + " (" + el.scrollWidth + " > " + el.clientWidth + ")");
	});
	return out;
})()`

// noOverflow fails on any button or label whose words overflow it.
func noOverflow(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	for _, o := range value(t, ctx, chromedp.Evaluate[[]string](overflowingJS)) {
		t.Errorf("%s: words overflow their box: %s", name, o)
	}
}

// navigate loads a page. A page that moves itself on (a poll that finds
// the next round, a reload into another language) can abort a navigation
// begun at the same moment: that one is tried again.
func navigate(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	var err error
	for range 3 {
		if err = chromedp.Do(ctx, chromedp.Navigate(url)); err == nil || !strings.Contains(err.Error(), "ERR_ABORTED") {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("load %s: %v", url, err)
	}
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
// sideways, and axe-core finds nothing on it.
func TestBrowserNoSidewaysScroll(t *testing.T) {
	t.Parallel() // the walks wait on the browser more than they work: two at a time
	walkEveryPage(t, "en", widths, false, func(ctx context.Context, name string) { axeCheck(t, ctx, name) })
}

// TestBrowserSpanish: the same in Spanish, whose words are longer: every
// page fits a phone and reflows at 320 px, no button or label overflows,
// and axe-core finds nothing (lang="es" included).
func TestBrowserSpanish(t *testing.T) {
	t.Parallel()
	walkEveryPage(t, "es", widths, false, func(ctx context.Context, name string) {
		if got := value(t, ctx, chromedp.Evaluate[string](`document.documentElement.lang`)); got != "es" {
			t.Errorf("%s: lang %q", name, got)
		}
		noOverflow(t, ctx, name)
		axeCheck(t, ctx, name)
	})
}

// The pseudo-locale is added before any test runs: adding it changes the
// catalogs, which requests read concurrently.
func init() { i18n.EnablePseudo() }

// TestBrowserPseudoLocale: every page in the pseudo-locale, where each
// message of the catalog reads "[!! Roll ~~ !!]": any word on a page
// that is not inside such brackets did not come from the catalog, and
// the longer words must still fit at 320 px.
func TestBrowserPseudoLocale(t *testing.T) {
	t.Parallel()
	walkEveryPage(t, i18n.PseudoCode, []int64{320}, true, func(ctx context.Context, name string) {
		bad := value(t, ctx, chromedp.Evaluate[[]string](notFromCatalogJS))
		for _, b := range bad {
			t.Errorf("%s: not from the catalog: %q", name, b)
		}
		noOverflow(t, ctx, name)
	})
}

// notFromCatalogJS lists the texts of a page, its attributes people read
// (aria-label, alt, title, placeholder), its charts' words (axis and
// series names) and its style sheet's generated content that are not the pseudo-locale's "[!! … !!]": words that
// did not come from the catalog. Data is left alone: names the test chose
// (window.pigclassData, or the tab's session storage), numbers, punctuation, and what a page marks as
// not to be translated (translate="no", or another lang: the switcher's
// language names, the verify tool's own words), code, keys and drawings.
const notFromCatalogJS = `(function () {
	var data = (window.pigclassData || JSON.parse(sessionStorage.getItem("pigclassData") || "[]")).concat(["pigclass"]);
	function strip(s) {
		var prev;
		do { prev = s; s = s.replace(/\[!! (?:(?!\[!! )[\s\S])*? !!\]/g, " "); } while (s !== prev);
		data.forEach(function (d) { s = s.split(d).join(" "); });
		return s.replace(/[\s\d.,:;%+\-−–—×\/()#·|•…✓'"“”‘’«»!?¿¡\[\]~^=*]+/g, "");
	}
	function skipped(el) {
		return !el || el.closest('[translate="no"], body [lang], script, style, noscript, svg, code, kbd, pre');
	}
	var out = [];
	function check(s, where) {
		if (s && strip(s) !== "" && out.length < 12) out.push(where + ": " + s.trim().slice(0, 120));
	}
	check(document.title, "title");
	var w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (var n = w.nextNode(); n; n = w.nextNode()) {
		if (!skipped(n.parentElement)) check(n.nodeValue, n.parentElement.tagName.toLowerCase());
	}
	document.querySelectorAll("[aria-label], [alt], [title], [placeholder]").forEach(function (el) {
		if (skipped(el)) return;
		["aria-label", "alt", "title", "placeholder"].forEach(function (a) {
			if (el.hasAttribute(a)) check(el.getAttribute(a), el.tagName.toLowerCase() + "@" + a);
		});
	});
	document.querySelectorAll("body *").forEach(function (el) {
		if (skipped(el)) return;
		["::before", "::after"].forEach(function (p) {
			var c = getComputedStyle(el, p).content;
			if (c && c !== "none" && c !== "normal") check(c.replace(/^"|"$/g, ""), el.tagName.toLowerCase() + p);
		});
	});
	document.querySelectorAll("[data-echarts]").forEach(function (el) {
		var o = JSON.parse(el.dataset.echarts);
		[].concat(o.xAxis || [], o.yAxis || [], o.series || []).forEach(function (x) {
			check(x.name, "chart");
			(x.type === "category" || !x.type) && Array.isArray(x.data) && x.data.forEach(function (d) {
				if (typeof d === "string") check(d, "chart axis");
			});
		});
	});
	return out;
})()`

// variant names the pages a walk of every kind of page leaves out.
var variant = map[string]bool{"dashboard-first-player": true, "confirm": true, "student-charts": true,
	"dashboard-lesson": true, "projector-skunk": true, "results": true}

// walkEveryPage visits the pages a visitor, a student, a teacher and the
// projector see, in one language (the cookie the switcher sets), at each
// width, and runs check on each: the pages of every kind (front, join,
// verify, glossary, class, dashboard, projector, play, review, Skunk), and
// with all, their variants too (a practice match, another chart, a
// confirmation, a student's charts, a lesson, the projector's Skunk and
// results), which share their parts with the others.
func walkEveryPage(t *testing.T, lang string, widths []int64, all bool, check func(ctx context.Context, name string)) {
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	s := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	join(t, a, code, "Bo")
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}})
	playRound(t, code, []*student{s})
	id := anaMatch(t, a, code)
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}, "deadline": {"60"}})
	link := teacher.get("/t/"+code).Find(`[data-testid="teacher-link"]`).AttrOr("href", "")
	u, _ := url.Parse(link)
	plink := teacher.get("/t/"+code).Find(`[data-testid="projector-link"]`).AttrOr("href", "")
	pu, _ := url.Parse(plink)

	// Each person reads the language of the test (the switcher's cookie),
	// and the page knows which names are data.
	speaks := func(ctx context.Context) context.Context {
		navigate(t, ctx, a.url+"/healthz")
		value(t, ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(document.cookie = "pigclass_lang=%s; path=/", true)`, lang)))
		return ctx
	}
	// The names are kept in the tab's session storage too: a page that
	// moves on by itself between the two evaluations (a finished match's
	// review, sent on to the round being played) keeps them.
	data := fmt.Sprintf(`window.pigclassData = [%q, "Ana", "Bo", "Cy"]; sessionStorage.setItem("pigclassData", JSON.stringify(window.pigclassData));`, code)
	visit := func(ctx context.Context, path, name string) {
		if !all && variant[name] {
			return
		}
		noSidewaysScroll(t, ctx, a.url, path, lang+"-"+name, widths, func(name string) {
			value(t, ctx, chromedp.Evaluate[bool](data+"true"))
			check(ctx, name)
		})
	}
	visitor, ana, teach := speaks(person()), speaks(person()), speaks(person())
	visit(visitor, "/", "front")
	visit(visitor, "/join/"+code, "join")
	visit(visitor, "/verify", "verify")
	visit(visitor, "/glossary", "glossary")
	visit(visitor, "/privacy", "privacy")
	visit(visitor, paths.Help.String(), "help")
	if all {
		navigate(t, visitor, a.url+"/")
		value(t, visitor, chromedp.Evaluate[bool](`(document.querySelector('form[action="/practice"]').submit(), true)`))
		eventually(t, visitor, `!!document.querySelector('[data-testid="board"]')`, "a practice match starts")
		visit(visitor, value(t, visitor, chromedp.Evaluate[string](`location.pathname`)), "practice")
	}
	joinIn(t, ana, a.url, code, "Cy")
	visit(ana, "/c/"+code, "class-waiting")
	navigate(t, teach, a.url+u.RequestURI())
	run(t, teach, chromedp.WaitVisible(q(`[data-testid="join-code"]`)))
	visit(teach, "/t/"+code, "dashboard")
	visit(teach, "/t/"+code+"?chart=first-player", "dashboard-first-player")
	visit(teach, pu.RequestURI(), "projector")
	visit(teach, "/t/"+code+"/confirm/delete", "confirm")
	// Ana's pages, on a phone she rejoins from: the play page of the new
	// round, her review, her charts, Skunk.
	anaB := speaks(person())
	rejoinOn(t, anaB, a.url, s.b, code, "Ana")
	visit(anaB, "/c/"+code, "play")
	// The round ends first: a review polls for a match to go on to, and
	// would take Ana to the one being played while she is looked at.
	teacher.post(paths.RoundsEnd.For(code), url.Values{"confirm": {"yes"}})
	visit(anaB, fmt.Sprintf("/c/%s/m/%d", code, id), "review")
	visit(anaB, "/c/"+code+"/charts", "student-charts")
	visit(anaB, "/c/"+code+"/plan", "strategy") // issue 46: the three forms and the map
	visit(teach, "/t/"+code+"/tournament", "tournament")
	a.srv.room.SetLesson(t.Context(), operator(t, a, code), "6-skunk", 0)
	teacher.post("/t/"+code+"/lesson/start", nil)
	teacher.post("/t/"+code+"/skunk/roll", nil)
	visit(anaB, "/c/"+code, "skunk")
	visit(teach, "/t/"+code, "dashboard-lesson")
	visit(teach, "/t/"+code+"/projector", "projector-skunk")
	teacher.post("/t/"+code+"/skunk/end", nil)
	visit(teach, "/t/"+code+"/projector/results", "results")
}

// TestBrowserTenPlayers: a match of ten (the most a match has) on a phone
// and at the 320 px reflow width: no sideways scroll, no label overflows,
// every player's card wide enough to read a name and the score, their
// names kept whole in a title where a card cuts them; on a projector-wide
// screen the cards share rows.
func TestBrowserTenPlayers(t *testing.T) {
	t.Parallel()
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := person()
	joinIn(t, ana, a.url, code, "Anastasia Wilhelmina")
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"10"}})
	if teacher.status() != http.StatusOK {
		t.Fatalf("ten seats: %d %s", teacher.status(), teacher.body)
	}
	cards := func(name string) {
		got := value(t, ana, chromedp.Evaluate[[]float64](`Array.from(document.querySelectorAll('[data-testid="board"] .players li')).map(function (li) {
			var n = li.querySelector('.name'), s = li.querySelector('[data-testid="score"]');
			var sr = s.getBoundingClientRect();
			var ok = n.textContent.trim().length > 0 && n.title.length > 0 && sr.width > 0 &&
				sr.right <= li.getBoundingClientRect().right + 1 && sr.height < 1.6 * parseFloat(getComputedStyle(s).fontSize);
			return ok ? li.getBoundingClientRect().width : -1;
		})`))
		if len(got) != 10 {
			t.Fatalf("%s: %d player cards, want 10", name, len(got))
		}
		names := value(t, ana, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('[data-testid="board"] .players .name')).map(function (n) { return n.title; })`))
		if len(slices.Compact(slices.Sorted(slices.Values(names)))) != 10 {
			t.Errorf("%s: the ten players cannot be told apart: %q", name, names)
		}
		for i, w := range got {
			if w < 110 {
				t.Errorf("%s: card %d is %v px wide (or its name or score does not show): too narrow to read", name, i+1, w)
			}
		}
		noOverflow(t, ana, name)
	}
	noSidewaysScroll(t, ana, a.url, "/c/"+code, "ten-players", widths, cards)
	run(t, ana, chromedp.EmulateViewport(1920, 1080))
	navigate(t, ana, a.url+"/c/"+code)
	cards("ten-players-1920")
	rows := value(t, ana, chromedp.Evaluate[int](`new Set(Array.from(document.querySelectorAll('[data-testid="board"] .players li')).map(function (li) { return Math.round(li.getBoundingClientRect().top); })).size`))
	if rows > 2 {
		t.Errorf("ten players on a 1920 px screen take %d rows of cards, want at most 2", rows)
	}
	shot(t, ana, "ten-players-1920")

	// The teacher's dashboard lists the match with its ten players.
	link, _ := url.Parse(teacher.get("/t/"+code).Find(`[data-testid="teacher-link"]`).AttrOr("href", ""))
	teach := person()
	navigate(t, teach, a.url+link.RequestURI())
	run(t, teach, chromedp.WaitVisible(q(`[data-testid="join-code"]`)))
	noSidewaysScroll(t, teach, a.url, "/t/"+code, "ten-players-dashboard", widths, func(name string) { noOverflow(t, teach, name) })
	if !strings.Contains(value(t, teach, chromedp.Evaluate[string](`document.body.innerText`)), "Hold-20 bot 9") {
		t.Error("the dashboard does not list the ten-player match's bots")
	}
}
