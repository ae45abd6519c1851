package server

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"pigclass/templates/paths"
)

// TestBrowserTheLabOnPhonesAndTheSharedScreen (issue 62): a class of ten
// runs the lab's question, nine by their forms and one on a phone, whose
// page draws how its run's share settled; the shared screen, told by its
// stream, draws the class's ten intervals, then the exact answer once the
// teacher reveals it, whole at 1366x768 and at 1280x720.
func TestBrowserTheLabOnPhonesAndTheSharedScreen(t *testing.T) {
	t.Parallel()
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	var kids []*browser
	for i := range 9 {
		kids = append(kids, join(t, a, code, fmt.Sprintf("Kid %d", i+1)))
	}
	phone := person()
	run(t, phone, chromedp.EmulateViewport(390, 844))
	joinIn(t, phone, a.url, code, "Pia")
	teacher.post(paths.PoseLab.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "first": {"hold:25"}, "second": {"hold:20"}})
	teacher.post(paths.ProjectorChart.For(code), url.Values{"chart": {"lab"}})
	link := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="projector-link"]`).AttrOr("href", "")
	screen := person()
	run(t, screen, chromedp.EmulateViewport(1366, 768))
	navigate(t, screen, link)
	eventually(t, screen, `!!document.querySelector('#projector-chart [data-testid="chart-lab"]')`, "the shared screen shows the lab's chart")
	for i, k := range kids {
		k.post(paths.StudentLab.For(code), url.Values{"games": {fmt.Sprint(100 * (i + 1) * (i + 1))}})
	}
	navigate(t, phone, a.url+paths.StudentLab.For(code))
	run(t, phone, chromedp.SetValue(q(`#lab-games`), "2000"))
	clickJS(t, phone, `[data-testid="lab-run"]`)
	eventually(t, phone, `!!document.querySelector('#chart-lab-path') && !!echarts.getInstanceByDom(document.querySelector('#chart-lab-path'))`, "the phone draws its run's path")
	if n := value(t, phone, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid="lab-run-row"]').length`)); n != 1 {
		t.Errorf("the phone lists %d runs of Pia's, want 1", n)
	}
	if wide := value(t, phone, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth + 1`)); wide {
		t.Errorf("the lab page scrolls sideways on a phone")
	}
	eventually(t, screen, `(document.querySelector('#projector-chart [data-testid="chart-lab"] tbody') || {rows: []}).rows.length === 11`, "the shared screen pools the ten runs (and their pool)")
	teacher.post(paths.RevealLab.For(code), url.Values{"reveal": {"1"}})
	eventually(t, screen, `/of 10 intervals hold the exact answer/.test((document.querySelector('#projector-chart [data-testid="chart-finding"]') || {}).textContent || "")`, "the shared screen shows the exact answer and how many intervals hold it")
	for _, size := range [][2]int64{{1366, 768}, {1280, 720}} {
		run(t, screen, chromedp.EmulateViewport(size[0], size[1]))
		resized(t, screen, fmt.Sprintf("the shared screen at %dx%d", size[0], size[1]))
		if bad := value(t, screen, chromedp.Evaluate[string](screenWholeJS)); bad != "" {
			t.Errorf("the shared screen at %dx%d: %s", size[0], size[1], bad)
		}
	}
	if got := value(t, screen, chromedp.Evaluate[string](`document.querySelector('#projector-chart [data-testid="chart-finding"]').textContent`)); !strings.Contains(got, "exact answer") {
		t.Errorf("the finding: %q", got)
	}
}
