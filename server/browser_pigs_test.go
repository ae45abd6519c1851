package server

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserPassThePigs: a class round of Pass the Pigs played in a
// browser to the end: each roll draws two pigs in their landings, named
// beneath, the live region says the throw in words, and the match's review
// follows.
func TestBrowserPassThePigs(t *testing.T) {
	t.Parallel() // it waits on the board's poll
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := person()
	joinIn(t, ana, a.url, code, "Ana")
	// Ana moves first and her first throw scores: the board draws it
	// before her turn goes on.
	a.deal(t, "Ana moves first and her first throw of the pigs scores", pigsFirstThrowScores)
	startRound(t, teacher, code, url.Values{"game": {"pass-the-pigs"}, "target": {"25"}, "mode": {"bot"}, "bot": {"hold:23"}})
	navigate(t, ana, a.url+"/c/"+code)
	eventually(t, ana, `!!document.querySelector('[data-testid="act-roll"]')`, "Ana's turn")
	if rolls := playPigsMatch(t, ana); rolls == 0 {
		t.Error("no roll of Ana's was drawn")
	}
	shot(t, ana, "pass-the-pigs")
}

// playPigsMatch plays Ana's match of Pass the Pigs to its end, rolling to
// 10 each turn, checks each board and what the live region says, and
// returns how many of her rolls the board drew.
func playPigsMatch(t *testing.T, ana context.Context) int {
	t.Helper()
	rolls := 0
	for moves := 0; moves < 300; moves++ {
		eventually(t, ana, `!!document.querySelector('[data-testid="act-roll"]') || `+matchOverJS, "Ana's turn or the end")
		if value(t, ana, chromedp.Evaluate[bool](matchOverJS)) {
			break
		}
		before := value(t, ana, chromedp.Evaluate[string](`document.querySelector('[data-testid="board"]').dataset.seq`))
		total := value(t, ana, chromedp.Evaluate[float64](`Number((document.querySelector('[data-testid="turn-total"]') || {}).textContent || 0)`))
		act := "roll"
		if total >= 10 {
			act = "hold"
		}
		eventually(t, ana, `!document.querySelector('.htmx-request')`, "the page is still")
		clickJS(t, ana, `[data-testid="act-`+act+`"]`)
		// The move that ends the match may be followed, on a busy machine,
		// by the poll that takes the page on to the class's waiting page.
		eventually(t, ana, `(document.querySelector('[data-testid="board"]') || {dataset: {}}).dataset.seq !== "`+before+`"`, "the move is made")
		pigs := value(t, ana, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('[data-testid="pig"]')).map(function (f) {
			return f.querySelector('svg') && f.getBoundingClientRect().width > 20 ? f.querySelector('figcaption').textContent : "";
		})`))
		// A roll that kept the turn is drawn; one that ended it (a Pig Out)
		// was followed by the bot's turn, whose last move may be a hold,
		// which throws nothing.
		stillOn := value(t, ana, chromedp.Evaluate[bool](`!!document.querySelector('[data-testid="act-roll"]') && Number((document.querySelector('[data-testid="turn-total"]') || {}).textContent || 0) > 0`))
		if len(pigs) != 0 && len(pigs) != 2 || act == "roll" && stillOn && len(pigs) != 2 {
			t.Fatalf("after a %s the board draws %d pigs", act, len(pigs))
		}
		if act == "roll" && len(pigs) == 2 {
			rolls++
		}
		for _, p := range pigs {
			if p == "" {
				t.Fatal("a pig drawn without its picture or its name")
			}
		}
		// A move that ends the match may be followed at once by the page
		// moving on to the class's waiting page, which has no live region.
		words := value(t, ana, chromedp.Evaluate[string](`(function () { var l = document.getElementById('live'); return l ? "+" + l.textContent : ""; })()`))
		if words == "" && !value(t, ana, chromedp.Evaluate[bool](matchOverJS)) {
			t.Fatal("the board has no live region")
		}
		if act == "roll" && len(pigs) == 2 && words != "" && !strings.Contains(words, pigs[0]) {
			t.Errorf("the live region %q does not say the pig %q", words[1:], pigs[0])
		}
	}
	if !value(t, ana, chromedp.Evaluate[bool](matchOverJS)) {
		t.Fatal("the match did not end")
	}
	return rolls
}

// matchOverJS is true when the page shows the match's result, or has
// already moved on from it to the class's waiting page (its poll does so
// when the round is over).
const matchOverJS = `(!!document.querySelector('[data-testid="result"]') || !!document.querySelector('[data-testid="waiting"]'))`
