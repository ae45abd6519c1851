package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// box is an element's place on the screen, from getBoundingClientRect.
type box struct{ Top, Left, Bottom, Right, Width, Height float64 }

// boxOf measures an element.
func boxOf(t *testing.T, ctx context.Context, sel string) box {
	t.Helper()
	eventually(t, ctx, fmt.Sprintf(`!!document.querySelector(%q)`, sel), sel+" appears")
	js := fmt.Sprintf(`JSON.stringify(document.querySelector(%q).getBoundingClientRect())`, sel)
	var b box
	if err := json.Unmarshal([]byte(value(t, ctx, chromedp.Evaluate[string](js))), &b); err != nil {
		t.Fatal(err)
	}
	return b
}

// inside reports whether b lies wholly in a w×h viewport (and is drawn).
func (b box) inside(w, h float64) bool {
	return b.Width > 0 && b.Height > 0 && b.Top >= 0 && b.Left >= 0 && b.Bottom <= h+0.5 && b.Right <= w+0.5
}

// TestBrowserProjectorFits: at 1920x1080 the chosen chart, the Skunk
// board and the podium lie wholly on the screen, with the join code and the
// QR code visible and the chart's axis text at least 24 px. The class
// speaks Spanish, the longer of the languages shipped: its projector shows
// the class's language, and no word of it overflows.
func TestBrowserProjectorFits(t *testing.T) {
	t.Parallel() // it waits on the projector's drawing
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	students := []*student{{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}, {b: join(t, a, code, "Bo"), nick: "Bo", holdAt: 12}}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"50"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}})
	playRound(t, code, students)
	teacher.post("/t/"+code+"/projector-chart", url.Values{"chart": {"skill-luck"}})
	teacher.post("/t/"+code+"/language", url.Values{"lang": {"es"}})
	link := teacher.get("/t/"+code).Find(`[data-testid="projector-link"]`).AttrOr("href", "")

	pc := person()
	run(t, pc, chromedp.EmulateViewport(1920, 1080), chromedp.Navigate(link))
	eventually(t, pc, `!!document.querySelector('#projector-chart canvas')`, "the projector draws the chart")
	if got := value(t, pc, chromedp.Evaluate[string](`document.documentElement.lang + " " + document.querySelector('.join-at').textContent`)); !strings.HasPrefix(got, "es Únete en") {
		t.Errorf("the projector of a Spanish class: %q", got)
	}
	for _, sel := range []string{"#projector-chart .echart", `[data-testid="projector-code"]`, `[data-testid="projector-qr"]`} {
		if b := boxOf(t, pc, sel); !b.inside(1920, 1080) {
			t.Errorf("%s is not wholly on the 1920x1080 screen: %+v", sel, b)
		}
	}
	size := value(t, pc, chromedp.Evaluate[float64](`(function () {
		var o = echarts.getInstanceByDom(document.querySelector('#projector-chart .echart')).getOption();
		return Math.min(o.xAxis[0].axisLabel.fontSize, o.yAxis[0].axisLabel.fontSize, o.xAxis[0].nameTextStyle.fontSize);
	})()`))
	if size < 24 {
		t.Errorf("axis text of %v px on the projector, want at least 24", size)
	}
	// Told apart without colour, and named by the page, not by ECharts.
	if !value(t, pc, chromedp.Evaluate[bool](`(function () {
		var el = document.querySelector('#projector-chart .echart');
		var o = echarts.getInstanceByDom(el).getOption();
		var aria = Array.isArray(o.aria) ? o.aria[0] : o.aria;
		return !!aria && aria.decal.show === true && el.getAttribute('aria-label').indexOf('Habilidad y suerte') === 0;
	})()`)) {
		t.Error("the chart has no decal patterns, or lost its accessible name")
	}
	shot(t, pc, "projector-chart-1080p")

	navigate(t, pc, a.url+"/p/"+code+"/results")
	if b := boxOf(t, pc, `[data-testid="results"]`); !b.inside(1920, 1080) {
		t.Errorf("the podium does not fit the screen: %+v", b)
	}
	shot(t, pc, "projector-results-1080p")

	a.srv.room.SetLesson(t.Context(), operator(t, a, code), "6-skunk", 0)
	teacher.post("/t/"+code+"/lesson/start", nil)
	teacher.post("/t/"+code+"/skunk/roll", nil)
	navigate(t, pc, a.url+"/p/"+code)
	for _, sel := range []string{"#skunk", `[data-testid="projector-code"]`} {
		if b := boxOf(t, pc, sel); !b.inside(1920, 1080) {
			t.Errorf("Skunk: %s is not wholly on the screen: %+v", sel, b)
		}
	}
	shot(t, pc, "projector-skunk-1080p")
}

// TestBrowserDashboardControlsInView: on a 1366x768 laptop with 31
// students, starting a round and pausing are in the first view, and stay
// there when the teacher scrolls down the roster; the round's progress is
// at the top; the whole roster is in one view, with no box of its own to
// scroll.
func TestBrowserDashboardControlsInView(t *testing.T) {
	t.Parallel() // it waits on the dashboard's drawing
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	for i := range 31 {
		join(t, a, code, "student"+strconv.Itoa(i))
	}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}})
	link := teacher.get("/t/"+code).Find(`[data-testid="teacher-link"]`).AttrOr("href", "")
	laptop := person()
	run(t, laptop, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(link))
	eventually(t, laptop, `document.querySelectorAll('[data-testid="student-row"]').length === 31`, "the roster shows 31 students")
	if got := textOf(t, laptop, `[data-testid="round-progress"]`); !strings.Contains(got, "Round 1: 31 matches being played, 0 finished") {
		t.Errorf("the round's progress: %q", got)
	}
	if b := boxOf(t, laptop, `[data-testid="round-progress"]`); !b.inside(1366, 768) {
		t.Errorf("the round's progress is not in the first view: %+v", b)
	}
	// The roster scrolled to, below the bar: every card on the screen.
	value(t, laptop, chromedp.Evaluate[bool](`(document.querySelector('.roster').scrollIntoView({block: "start"}), true)`))
	if off := value(t, laptop, chromedp.Evaluate[string](`(function () {
		var bar = document.querySelector('[data-testid="dash-bar"]').getBoundingClientRect().bottom, out = [];
		document.querySelectorAll('[data-testid="student-row"]').forEach(function (el, i) {
			var r = el.getBoundingClientRect();
			if (r.top < bar - 1 || r.bottom > window.innerHeight) out.push(i + ": " + Math.round(r.top) + "-" + Math.round(r.bottom));
		});
		var box = document.querySelector('#dash-live');
		if (box.scrollHeight > box.clientHeight + 1) out.push("the roster scrolls in its own box");
		return out.join(", ");
	})()`)); off != "" {
		t.Errorf("students out of the view at 1366x768: %s", off)
	}
	shot(t, laptop, "dashboard-roster-31")
	for _, scroll := range []int{0, 1500} {
		value(t, laptop, chromedp.Evaluate[bool](fmt.Sprintf(`(window.scrollTo(0, %d), true)`, scroll)))
		for _, sel := range []string{`[data-testid="bar-start-round"]`, `[data-testid="pause"]`, `[data-testid="end-round"]`, `[data-testid="join-code"]`} {
			if b := boxOf(t, laptop, sel); !b.inside(1366, 768) {
				t.Errorf("scrolled to %d: %s is out of view: %+v", scroll, sel, b)
			}
		}
	}
	if value(t, laptop, chromedp.Evaluate[bool](`document.querySelector('[data-testid="teacher-link"]').checkVisibility()`)) {
		t.Error("the teacher link shows without asking")
	}
	value(t, laptop, chromedp.Evaluate[bool](`(window.scrollTo(0, 0), true)`))
	shot(t, laptop, "dashboard-1366x768")
	// The bar's start button submits the round form as it stands.
	clickJS(t, laptop, `[data-testid="bar-start-round"]`)
	eventually(t, laptop, `document.querySelector('.notice') && document.querySelector('.notice').textContent.includes('Round 2 started')`, "the bar starts a round")
}
