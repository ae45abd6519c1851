package server

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/chromedp/chromedp"

	"pigclass/templates/paths"
)

// TestBrowserBotNamesFitAPhone (issue 44): on a 320 px phone, in every
// language, the board names every bot of the menus in one line, whole
// (not cut short by an ellipsis nor wrapped), and Roll and Hold (or the
// dice buttons) say their words in one line.
func TestBrowserBotNamesFitAPhone(t *testing.T) {
	t.Parallel()
	rounds := []url.Values{}
	for _, bot := range []string{"hold:10", "hold:20", "hold:37", "kper", "optimal", "ev", "mystery"} {
		rounds = append(rounds, url.Values{"game": {"pig"}, "target": {"50"}, "mode": {"bot"}, "bot": {bot}})
	}
	for _, bot := range []string{"dice:1", "dice:10"} {
		rounds = append(rounds, url.Values{"game": {"hog"}, "target": {"50"}, "max_dice": {"10"}, "mode": {"bot"}, "bot": {bot}})
	}
	for _, lang := range []string{"en", "de", "es", "fr", "pt-BR"} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			a := newApp(t)
			teacher := a.browser()
			code := teacherStart(t, teacher)
			ana := newBrowser(t)() // closed when the subtest ends
			run(t, ana, chromedp.EmulateViewport(320, 568), chromedp.Navigate(a.url+"/healthz"))
			value(t, ana, chromedp.Evaluate[bool](fmt.Sprintf(`(document.cookie = "pigclass_lang=%s; path=/", true)`, lang)))
			joinIn(t, ana, a.url, code, "Ana")
			for _, round := range rounds {
				if teacher.post(paths.Rounds.For(code), round); teacher.status() != http.StatusOK {
					t.Fatalf("%s: the round is refused: %d", round.Get("bot"), teacher.status())
				}
				navigate(t, ana, a.url+paths.Student.For(code))
				eventually(t, ana, `document.querySelectorAll('#board .players .name').length === 2 && !!document.querySelector('#board button[data-key]')`, lang+" "+round.Get("bot")+": the board")
				for _, bad := range value(t, ana, chromedp.Evaluate[[]string](oneLineJS)) {
					t.Errorf("%s, %s: %s", lang, round.Get("bot"), bad)
				}
			}
		})
	}
}

// oneLineJS lists the board's players' names and buttons that do not show
// their words whole in one line.
const oneLineJS = `(function () {
	var out = [];
	function lines(el) {
		var r = document.createRange(); r.selectNodeContents(el);
		var tops = {};
		Array.from(r.getClientRects()).forEach(function (b) { if (b.width > 0) tops[Math.round(b.top)] = true; });
		return Object.keys(tops).length;
	}
	document.querySelectorAll('#board .players .name').forEach(function (el) {
		if (el.scrollWidth > el.clientWidth + 1 || lines(el) > 1) out.push("the name " + JSON.stringify(el.title) + " does not fit one line (" + el.scrollWidth + " px in " + el.clientWidth + ")");
	});
	document.querySelectorAll('#board button[data-key]').forEach(function (el) {
		if (el.scrollWidth > el.clientWidth + 1 || lines(el) > 1) out.push("the button " + JSON.stringify(el.textContent.trim()) + " takes " + lines(el) + " lines");
	});
	return out;
})()`
