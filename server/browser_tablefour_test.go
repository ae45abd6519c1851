package server

import (
	"fmt"
	"net/url"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"pigclass/sim"
	"pigclass/templates/paths"
)

// TestBrowserATableOfFourOnAPhone (issue 59, item 6): a table of four on
// the 390x844 phone in the middle of the table: every player's name
// whole on its line or cut with an ellipsis (never broken mid-word), every
// score on one line, the six faces to pick on the first screen (the
// entries waiting said, or a throw drawn), the "connection lost" banner
// over nothing of the turn's row, and the screen reader's words kept off
// the screen when the device swaps in the server's board.
func TestBrowserATableOfFourOnAPhone(t *testing.T) {
	t.Parallel()
	a, ts, cut, teacher, code, ana, _ := anaOnAPhone(t, newBrowser(t))
	four := sim.Standard(sim.Pig)
	four.Seats = 4
	ids := []string{strconv.FormatInt(studentID(t, a, code, "Ana"), 10), strconv.FormatInt(studentID(t, a, code, "Ben"), 10)}
	for _, nick := range []string{"Zainab Oyelaran", "Maximiliane"} {
		join(t, a, code, nick)
		ids = append(ids, strconv.FormatInt(studentID(t, a, code, nick), 10))
	}
	teacher.post(paths.Tables.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "student": ids})
	navigate(t, ana, ts.URL+"/c/"+code)
	eventually(t, ana, `!!document.querySelector('[data-testid="mark-4"]')`, "the table's first turn")
	check := func(when string) {
		bad := value(t, ana, chromedp.Evaluate[string](`(function () {
			var out = [];
			document.querySelectorAll('[data-testid="board"] .players li').forEach(function (li) {
				var n = li.querySelector('.name'), s = li.querySelector('[data-testid="score"]');
				var lh = parseFloat(getComputedStyle(n).fontSize) * 1.6;
				if (n.getBoundingClientRect().height > lh && !/\s/.test(n.textContent.trim())) out.push("the name " + n.textContent.trim() + " broken across lines");
				if (n.scrollWidth > n.clientWidth + 1 && getComputedStyle(n).textOverflow !== "ellipsis") out.push("the name " + n.textContent.trim() + " cut without an ellipsis");
				if (s.getBoundingClientRect().height > parseFloat(getComputedStyle(s).fontSize) * 1.6) out.push("the score " + s.textContent.trim() + " on more than one line");
			});
			for (var f = 1; f <= 6; f++) {
				var b = document.querySelector('[data-testid="mark-' + f + '"]');
				if (!b) { out.push("no face " + f); continue; }
				var r = b.getBoundingClientRect();
				if (r.bottom + window.scrollY > window.innerHeight) out.push("the face " + f + " below the first screen (" + Math.round(r.bottom + window.scrollY) + " px)");
			}
			var live = document.getElementById("live");
			if (live && live.getBoundingClientRect().height > 2) out.push("the screen reader's words shown on the screen: " + live.textContent);
			var banner = document.getElementById("offline");
			if (banner && !banner.hidden) {
				var br = banner.getBoundingClientRect();
				document.querySelectorAll('[data-testid="board"] .turn, [data-testid="board"] .turn *, [data-testid="turn-total"]').forEach(function (el) {
					var r = el.getBoundingClientRect();
					if (r.width && r.height && r.left < br.right && br.left < r.right && r.top < br.bottom && br.top < r.bottom && out.length < 12) out.push("the banner over " + el.tagName.toLowerCase() + "." + el.className + " '" + el.textContent.trim().slice(0, 20) + "'");
				});
			}
			return out.join("; ");
		})()`))
		if bad != "" {
			t.Errorf("%s: %s", when, bad)
		}
	}
	check("at the first turn")
	cut.Store(true)
	clickJS(t, ana, `[data-testid="mark-4"]`)
	eventually(t, ana, `!document.getElementById("offline").hidden`, "the banner says the connection is lost")
	check("the network cut")
	shot(t, ana, fmt.Sprintf("table-of-four-%d-offline", 390))
	cut.Store(false)
	eventually(t, ana, `document.getElementById("offline").hidden && Number(document.querySelector('[data-testid="board"]').dataset.seq) >= 1 && !!document.querySelector('[data-testid="board"] .dice svg')`, "the throw stored and drawn")
	check("the throw drawn")
	shot(t, ana, fmt.Sprintf("table-of-four-%d", 390))
}
