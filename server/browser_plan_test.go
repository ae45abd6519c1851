package server

import (
	"context"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"pigclass/sim"
	"pigclass/templates/paths"
)

// TestBrowserAMapByTouch (issue 46): on a 390 px phone a student starts
// a map from the rule of thumb, picks a number and drags a finger along
// the first row's first five cells, taps the last cell with another
// number, and saves: the plan stored holds exactly those cells changed,
// its chances are worked out, and the grid of ten cells a row fits the
// phone.
func TestBrowserAMapByTouch(t *testing.T) {
	t.Parallel()
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := person()
	run(t, ana, chromedp.EmulateViewport(390, 844, chromedp.EmulateTouch, chromedp.EmulateMobile))
	joinIn(t, ana, a.url, code, "Ana")
	navigate(t, ana, a.url+paths.Query(paths.StudentPlan.For(code), "start", "hold"))
	eventually(t, ana, `document.querySelectorAll('[data-testid="map-cell"]').length === 100 && document.querySelector('[data-testid="plan-map"]').open`, "the map, open")
	if wide := value(t, ana, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth`)); wide {
		t.Error("the map makes the page scroll sideways on a 390 px phone")
	}
	// The corner's words stay in their cell, off the first heading
	// (issue 59, item 8).
	if over := value(t, ana, chromedp.Evaluate[string](`(function () {
		var ths = document.querySelectorAll('[data-testid="map-grid"] thead th'), c = ths[0], r = document.createRange();
		r.selectNodeContents(c);
		var words = r.getBoundingClientRect(), cell = c.getBoundingClientRect(), next = ths[1].getBoundingClientRect();
		return words.right > cell.right + 0.5 || words.right > next.left + 0.5 ? c.textContent + " runs " + Math.round(words.right - cell.right) + " px past its cell" : "";
	})()`)); over != "" {
		t.Error("the map's corner: " + over)
	}
	brush := func(n string) {
		value(t, ana, chromedp.Evaluate[bool](`(function (b) { b.value = "`+n+`"; return true; })(document.querySelector('[data-testid="map-brush"]'))`))
	}
	cell := func(a, b int) (float64, float64) {
		box := value(t, ana, chromedp.Evaluate[[]float64](`(function (el) { el.scrollIntoView({block: "center"}); var r = el.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })(document.getElementsByName("cell-`+itoa(a)+`-`+itoa(b)+`")[0])`))
		return box[0], box[1]
	}
	touch := func(kind input.DispatchTouchEventType, x, y float64) {
		p := input.DispatchTouchEventParams{Type: kind}
		if kind != input.DispatchTouchEventTypeTouchEnd {
			p.TouchPoints = []*input.TouchPoint{{X: x, Y: y}}
		}
		if _, err := chromedp.Call(ana, input.DispatchTouchEvent, p); err != nil {
			t.Fatalf("touch: %v", err)
		}
	}
	brush("35")
	x, y := cell(0, 0)
	touch(input.DispatchTouchEventTypeTouchStart, x, y)
	for b := 1; b <= 4; b++ {
		x, y = cell(0, b)
		touch(input.DispatchTouchEventTypeTouchMove, x, y)
	}
	touch(input.DispatchTouchEventTypeTouchEnd, 0, 0)
	brush("100")
	x, y = cell(9, 9)
	touch(input.DispatchTouchEventTypeTouchStart, x, y)
	touch(input.DispatchTouchEventTypeTouchEnd, 0, 0)
	clickJS(t, ana, `[data-testid="save-map"]`)
	eventually(t, ana, `!!document.querySelector('[data-testid="plan-saved"]')`, "the map saved")
	students, _ := a.store.Students(context.Background(), mustClass(t, a, code).ID)
	pl, err := a.srv.contest.PlanOf(context.Background(), mustClass(t, a, code).ID, students[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	start := sim.MapOf(sim.HoldAt(20), sim.Standard(sim.Pig), "")
	for i, row := range pl.Cells {
		for j, h := range row {
			want := start.Cells[i][j]
			switch {
			case i == 0 && j <= 4:
				want = 35
			case i == 9 && j == 9:
				want = 100
			}
			if h != want {
				t.Errorf("cell (%d, %d): %d, want %d", i*10, j*10, h, want)
			}
		}
	}
	eventually(t, ana, `document.querySelector('[data-testid="plan-chances"]').textContent.includes("Against Perfect bot")`, "the map's chances")
	shot(t, ana, "plan-map-phone")
}

func itoa(n int) string { return string(rune('0' + n)) }

// TestBrowserTheHoldByAFinger (issue 59, item 8): on a 390 px phone the
// hold slider has one less and one more beside it, each a finger wide
// (44 px): three taps on "+" and one on "−" move the number two up, the
// number beside the slider says so, and the plan saved holds it.
func TestBrowserTheHoldByAFinger(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	code := teacherStart(t, a.browser())
	ana := newBrowser(t)()
	run(t, ana, chromedp.EmulateViewport(390, 844, chromedp.EmulateTouch, chromedp.EmulateMobile))
	joinIn(t, ana, a.url, code, "Ana")
	navigate(t, ana, a.url+paths.StudentPlan.For(code))
	value(t, ana, chromedp.Evaluate[bool](`(document.querySelector('[data-testid="plan-hold"]').open = true)`))
	start := value(t, ana, chromedp.Evaluate[int](`Number(document.getElementById("plan-hold-n").value)`))
	for _, b := range []string{"hold-more", "hold-more", "hold-more", "hold-less"} {
		run(t, ana, chromedp.Click(q(`[data-testid="`+b+`"]`)))
	}
	got := value(t, ana, chromedp.Evaluate[[]float64](`(function () {
		var less = document.querySelector('[data-testid="hold-less"]').getBoundingClientRect(), more = document.querySelector('[data-testid="hold-more"]').getBoundingClientRect();
		return [Number(document.getElementById("plan-hold-n").value), Number(document.querySelector('[data-testid="plan-hold-value"]').textContent), Math.min(less.width, less.height, more.width, more.height)];
	})()`))
	if int(got[0]) != start+2 || int(got[1]) != start+2 || got[2] < 44 {
		t.Fatalf("from %d, three taps up and one down: the slider at %v, the number beside it %v, the smallest button %v px", start, got[0], got[1], got[2])
	}
	clickJS(t, ana, `[data-testid="save-hold"]`)
	eventually(t, ana, `!!document.querySelector('[data-testid="plan-saved"]')`, "the plan saved")
	students, _ := a.store.Students(context.Background(), mustClass(t, a, code).ID)
	pl, err := a.srv.contest.PlanOf(context.Background(), mustClass(t, a, code).ID, students[0].ID)
	if err != nil || pl.Hold != start+2 {
		t.Errorf("the plan saved holds at %d (%v), want %d", pl.Hold, err, start+2)
	}
}
