package server

import (
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserKeyboardMatch: a whole match played with the keys R and H;
// after each move focus is on the board, never on the page's body, and
// the live region keeps its node while its words change.
func TestBrowserKeyboardMatch(t *testing.T) {
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := person()
	joinIn(t, ana, a.url, code, "Ana")
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}})
	navigate(t, ana, a.url+"/c/"+code)
	eventually(t, ana, `!!document.querySelector('[data-testid="act-roll"]')`, "Ana's turn")
	// A form posted without htmx reloads the page: note it where the reload
	// keeps it, to say so if it happens.
	value(t, ana, chromedp.Evaluate[bool](`(document.addEventListener("submit", function (e) {
		setTimeout(function () { if (!e.defaultPrevented) sessionStorage.setItem("native", "a form was posted without htmx"); }, 0);
	}, true), true)`))
	value(t, ana, chromedp.Evaluate[bool](`(document.getElementById('live').marker = "same node", true)`))
	moves, same := 0, 0
	for moves < 200 {
		if value(t, ana, chromedp.Evaluate[bool](`!!document.querySelector('[data-testid="result"]')`)) {
			break
		}
		eventually(t, ana, `!!document.querySelector('[data-testid="act-roll"]') || !!document.querySelector('[data-testid="result"]')`, "Ana's turn")
		if value(t, ana, chromedp.Evaluate[bool](`!!document.querySelector('[data-testid="result"]')`)) {
			break
		}
		total := value(t, ana, chromedp.Evaluate[float64](`Number((document.querySelector('[data-testid="turn-total"]') || {}).textContent || 0)`))
		before := value(t, ana, chromedp.Evaluate[string](`document.querySelector('[data-testid="board"]').dataset.seq`))
		words := value(t, ana, chromedp.Evaluate[string](`document.getElementById('live').textContent`))
		key := "r"
		if total >= 12 {
			key = "h"
		}
		eventually(t, ana, `!document.querySelector('.htmx-request')`, "the page is still")
		run(t, ana, chromedp.KeyEvent(key))
		eventually(t, ana, `document.querySelector('[data-testid="board"]').dataset.seq !== "`+before+`"`, "the move is made")
		moves++
		ok := value(t, ana, chromedp.Evaluate[bool](`(function () {
			var end = Date.now() + 3000;
			return new Promise(function (done) {
				(function wait() {
					if (document.activeElement && document.activeElement !== document.body) return done(true);
					if (Date.now() > end) return done(false);
					setTimeout(wait, 50);
				})();
			});
		})()`, chromedp.EvalAwaitPromise))
		if !ok {
			t.Fatalf("move %d (%s): focus fell to the page's body", moves, key)
		}
		if !value(t, ana, chromedp.Evaluate[bool](`document.getElementById('live').marker === "same node"`)) {
			t.Fatalf("the live region was replaced: %s", value(t, ana, chromedp.Evaluate[string](`sessionStorage.getItem("native") || "?"`)))
		}
		// Two turns can end alike ("You rolled 1 ... Bot rolled 1"): the
		// same words once are chance, twice running a live region that
		// does not follow the board.
		if after := value(t, ana, chromedp.Evaluate[string](`document.getElementById('live').textContent`)); after == words && key == "r" {
			if same++; same > 1 {
				t.Errorf("move %d: the live region still says %q", moves, after)
			}
		} else {
			same = 0
		}
	}
	if moves == 0 {
		t.Fatal("no move was made")
	}
}

// TestBrowserHoldButtonKeepsItsWord: on a 320 px phone in Spanish, Roll
// and Hold keep each word whole ("Plantar / me" was broken in two).
func TestBrowserHoldButtonKeepsItsWord(t *testing.T) {
	t.Parallel()
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := person()
	run(t, ana, chromedp.EmulateViewport(320, 640), chromedp.Navigate(a.url+"/healthz"))
	value(t, ana, chromedp.Evaluate[bool](`(document.cookie = "pigclass_lang=es; path=/", true)`))
	joinIn(t, ana, a.url, code, "Ana")
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}})
	navigate(t, ana, a.url+"/c/"+code)
	eventually(t, ana, `!!document.querySelector('[data-testid="act-hold"]')`, "Ana's turn")
	if label := value(t, ana, chromedp.Evaluate[string](`document.querySelector('[data-testid="act-hold"]').textContent`)); !strings.Contains(label, "Plantarme") {
		t.Fatalf("the hold button says %q, not in Spanish", label)
	}
	for _, width := range []int64{320, 360, 390, 414} {
		run(t, ana, chromedp.EmulateViewport(width, 720))
		for _, action := range []string{"roll", "hold"} {
			// Each word of the label on one line: a word split across lines
			// has more client rects than words.
			got := value(t, ana, chromedp.Evaluate[string](`(() => {
			const b = document.querySelector('[data-testid="act-`+action+`"]');
			const out = [];
			for (const n of b.childNodes) {
				if (n.nodeType !== 3 || !n.textContent.trim()) continue;
				const r = document.createRange();
				r.selectNodeContents(n);
				const words = n.textContent.trim().split(/\s+/).length;
				const lines = new Set([...r.getClientRects()].map(x => Math.round(x.top))).size;
				if (lines > words) out.push(n.textContent.trim() + " on " + lines + " lines");
			}
			return out.join("; ");
		})()`))
			if got != "" {
				t.Errorf("at %d px the %s button breaks a word: %s", width, action, got)
			}
		}
		if w := value(t, ana, chromedp.Evaluate[float64](`document.documentElement.scrollWidth`)); w > float64(width) {
			t.Errorf("the board is %v px wide on a %d px phone", w, width)
		}
	}
}
