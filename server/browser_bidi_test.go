package server

import (
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/chromedp/chromedp"

	"pigclass/templates/paths"
)

// TestBrowserNamesKeepTheirDirection (issue 41, item 6): a name that
// mixes Latin and Arabic is drawn isolated (dir="auto"), so on the
// projector's lists the text beside it (Skunk's ": 0") stays after the
// whole name, as it is read, and does not slip inside it; the roster's and
// the podium's names are isolated too.
func TestBrowserNamesKeepTheirDirection(t *testing.T) {
	t.Parallel()
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	const mixed = "Sam سامي"
	join(t, a, code, mixed)
	join(t, a, code, "Ana")
	link := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="projector-link"]`).AttrOr("href", "")
	roster := a.browser().get(strings.TrimPrefix(link, a.url))
	isolated := 0
	roster.Find(`li`).Each(func(_ int, li *goquery.Selection) {
		if strings.TrimSpace(li.Text()) == mixed && li.AttrOr("dir", "") == "auto" {
			isolated++
		}
	})
	if isolated != 1 {
		t.Errorf("the projector's roster draws %q isolated %d times, want once", mixed, isolated)
	}

	teacher.post(paths.SkunkStart.For(code), url.Values{"rounds": {"3"}})
	pc := person()
	run(t, pc, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(link))
	eventually(t, pc, `document.querySelectorAll('.leaders li').length === 2`, "the projector shows Skunk's leaders")
	// In each leader's line, the text after the name (": 0") starts to
	// the right of the name's every glyph.
	bad := value(t, pc, chromedp.Evaluate[string](`(function () {
		var out = [];
		document.querySelectorAll('.leaders li').forEach(function (li) {
			var name = li.firstElementChild, after = name.nextSibling;
			if (!name || !after || after.nodeType !== 3) { out.push("no name and text in " + li.outerHTML); return; }
			var r = document.createRange(); r.selectNodeContents(after);
			var a = r.getBoundingClientRect(), n = name.getBoundingClientRect();
			if (a.left < n.right - 0.5) out.push(JSON.stringify(name.textContent) + ": the text after it starts at " + a.left + ", inside the name (" + n.left + ".." + n.right + ")");
			if (name.getAttribute("dir") !== "auto") out.push(JSON.stringify(name.textContent) + " is not isolated");
		});
		return out.join("; ");
	})()`))
	if bad != "" {
		t.Error(bad)
	}
}
