package server

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// TestBrowserNewLanguages: in French, Brazilian Portuguese and German, a
// student's page during a round (the board, its buttons and how to play)
// and the teacher's dashboard read in the language (lang set, its own
// words), fit a 320 px phone without scrolling sideways, and no button or
// label runs out of its box: German's long words included.
func TestBrowserNewLanguages(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"fr", "pt-BR", "de"} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			a := newApp(t)
			teacher := a.browser()
			code := teacherStart(t, teacher)
			l := i18n.For(lang)
			speaks := func(ctx context.Context) context.Context {
				navigate(t, ctx, a.url+"/healthz")
				value(t, ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(document.cookie = "pigclass_lang=%s; path=/", true)`, lang)))
				return ctx
			}
			person := newBrowser(t) // this language's people, closed when the subtest ends
			ana := speaks(person())
			joinIn(t, ana, a.url, code, "Ana")
			teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}, "deadline": {"60"}})
			check := func(ctx context.Context, path, name, want string) {
				noSidewaysScroll(t, ctx, a.url, path, lang+"-"+name, []int64{320}, func(name string) {
					if got := value(t, ctx, chromedp.Evaluate[string](`document.documentElement.lang`)); got != lang {
						t.Errorf("%s: lang %q", name, got)
					}
					if !value(t, ctx, chromedp.Evaluate[bool](fmt.Sprintf(`document.body.innerText.includes(%q)`, want))) {
						t.Errorf("%s: the page does not say %q", name, want)
					}
					noOverflow(t, ctx, name)
				})
			}
			eventually(t, ana, `!!document.querySelector('[data-testid="act-roll"]') || !!document.querySelector('[data-testid="board"]')`, "Ana's board")
			check(ana, paths.Student.For(code), "play", l.T("howto.title"))
			tc := speaks(person())
			link := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="teacher-link"]`).AttrOr("href", "")
			u, _ := url.Parse(link)
			navigate(t, tc, a.url+u.RequestURI())
			run(t, tc, chromedp.WaitVisible(q(`[data-testid="join-code"]`)))
			check(tc, paths.Teacher.For(code), "dashboard", l.T("dash.endround"))
		})
	}
}

// TestBrowserBoardOnASmallPhone (issue 32, item 9): on a 320x568 phone,
// the student's turn shows the scores and the Roll button together,
// without scrolling; a board waiting on another player says whose move it
// is.
func TestBrowserBoardOnASmallPhone(t *testing.T) {
	t.Parallel()
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := person()
	run(t, ana, chromedp.EmulateViewport(320, 568))
	joinIn(t, ana, a.url, code, "Ana")
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}, "deadline": {"60"}})
	navigate(t, ana, a.url+paths.Student.For(code)) // the page may be on its way there by itself
	for turns := 0; turns < 6; turns++ {
		eventually(t, ana, `!!document.querySelector('[data-testid="act-roll"]')`, "Ana's turn")
		// The page settles its scroll a frame after the focus lands.
		value(t, ana, chromedp.Evaluate[bool](`new Promise(function (r) { requestAnimationFrame(function () { requestAnimationFrame(function () { r(true); }); }); })`, chromedp.EvalAwaitPromise))
		bad := value(t, ana, chromedp.Evaluate[string](`(function () {
			var out = [], h = window.innerHeight;
			[['[data-testid="score"]', "the scores"], ['[data-testid="act-roll"]', "Roll"]].forEach(function (x) {
				document.querySelectorAll(x[0]).forEach(function (el) {
					var r = el.getBoundingClientRect();
					if (r.top < 0 || r.bottom > h + 0.5) out.push(x[1] + " at " + Math.round(r.top) + "-" + Math.round(r.bottom) + " of " + h);
				});
			});
			return out.join("; ");
		})()`))
		if bad != "" {
			bad += value(t, ana, chromedp.Evaluate[string](`" | scrollY " + window.scrollY + " players " + JSON.stringify(document.querySelector('.players').getBoundingClientRect()) + " roll " + JSON.stringify(document.querySelector('[data-testid="act-roll"]').getBoundingClientRect())`))
			t.Errorf("turn %d at 320x568: %s", turns+1, bad)
			shot(t, ana, "small-phone-turn")
		}
		before := value(t, ana, chromedp.Evaluate[string](`document.querySelector('[data-testid="board"]').dataset.seq`))
		eventually(t, ana, `!document.querySelector('.htmx-request')`, "the page is still")
		clickJS(t, ana, `[data-testid="act-hold"]`)
		eventually(t, ana, `document.querySelector('[data-testid="board"]').dataset.seq !== "`+before+`"`, "the hold is made")
		if value(t, ana, chromedp.Evaluate[bool](`!!document.querySelector('[data-testid="result"]')`)) {
			break
		}
		if note := value(t, ana, chromedp.Evaluate[string](`(document.querySelector('[data-testid="waiting-note"]') || {}).textContent || ""`)); note != "" && !strings.Contains(note, "Bot") {
			t.Errorf("the waiting board says %q, not whose move it is", note)
		}
	}
}

// TestBrowserDashboardKeepsItsPlace (issue 32, item 7): starting a round
// from the form at the bottom of the dashboard comes back to the form,
// not to the top of the page.
func TestBrowserDashboardKeepsItsPlace(t *testing.T) {
	t.Parallel()
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	for _, nick := range []string{"Ana", "Bo"} {
		join(t, a, code, nick)
	}
	link := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="teacher-link"]`).AttrOr("href", "")
	tc := person()
	run(t, tc, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(link), chromedp.WaitVisible(q(`[data-testid="start-round"]`)))
	value(t, tc, chromedp.Evaluate[bool](`(document.querySelector('[data-testid="start-round"]').scrollIntoView({block: "center"}), true)`))
	before := value(t, tc, chromedp.Evaluate[float64](`window.scrollY`))
	if before < 100 {
		t.Fatalf("the round form is at %v: the page does not scroll, nothing to keep", before)
	}
	clickJS(t, tc, `[data-testid="start-round"]`)
	eventually(t, tc, `document.readyState === "complete" && /Round 1 started/.test(document.body.textContent)`, "the round starts")
	eventually(t, tc, fmt.Sprintf(`Math.abs(window.scrollY - %v) < 80`, before), "the dashboard comes back where the teacher was")
}

// TestBrowserBigTableOnAPhone (issue 32, item 9): at a table of 6 and of
// 10 seats the scores are compact cards, two a row on a 320 px phone and
// on a 390 px one, and every score shows with Roll on the first screen
// of the student's turn (at 320x568 and at 390x844).
func TestBrowserBigTableOnAPhone(t *testing.T) {
	t.Parallel()
	person := newBrowser(t)
	for _, seats := range []int{6, 10} {
		a := newApp(t)
		teacher := a.browser()
		code := teacherStart(t, teacher)
		ana := person()
		run(t, ana, chromedp.EmulateViewport(320, 568))
		joinIn(t, ana, a.url, code, "Ana")
		teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {strconv.Itoa(seats)}, "deadline": {"60"}})
		// Her waiting page is told of the round and goes to it by itself:
		// there first, or the navigations below would cross it.
		eventually(t, ana, `!!document.querySelector('[data-testid="act-roll"]')`, "Ana's page goes to the round")
		for _, vp := range [][2]int64{{320, 568}, {390, 844}} {
			run(t, ana, chromedp.EmulateViewport(vp[0], vp[1]))
			navigate(t, ana, a.url+paths.Student.For(code))
			eventually(t, ana, `!!document.querySelector('[data-testid="act-roll"]')`, "Ana's turn")
			value(t, ana, chromedp.Evaluate[bool](`new Promise(function (r) { requestAnimationFrame(function () { requestAnimationFrame(function () { r(true); }); }); })`, chromedp.EvalAwaitPromise))
			got := value(t, ana, chromedp.Evaluate[string](`(function () {
				var out = [], h = window.innerHeight, tops = [], rows = 0;
				document.querySelectorAll('[data-testid="score"]').forEach(function (el) {
					var r = el.getBoundingClientRect();
					tops.push(r.top);
					if (r.top < 0 || r.bottom > h + 0.5) out.push("a score at " + Math.round(r.top) + "-" + Math.round(r.bottom));
				});
				var b = document.querySelector('[data-testid="act-roll"]').getBoundingClientRect();
				if (b.top < 0 || b.bottom > h + 0.5) out.push("Roll at " + Math.round(b.top) + "-" + Math.round(b.bottom));
				tops.sort(function (x, y) { return x - y; });
				tops.forEach(function (top, i) { if (i === 0 || top - tops[i - 1] > 10) rows++; });
				return tops.length + " cards in " + rows + " rows" + (out.length ? ": " + out.join("; ") + " of " + h : "");
			})()`))
			want := fmt.Sprintf("%d cards in %d rows", seats, seats/2)
			if got != want {
				t.Errorf("%d seats at %dx%d: %s, want %s, every one in view with Roll", seats, vp[0], vp[1], got, want)
				shot(t, ana, fmt.Sprintf("big-table-%d-%d", seats, vp[0]))
			}
		}
	}
}
