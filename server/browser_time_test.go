package server

import (
	"context"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pigclass/templates/paths"
)

// TestBrowserAPhasesCountdownCounts (issue 59, item 14): a countdown the
// teacher set for a lesson's phase counts down on the shared screen at
// 1280x720, whole on it, and on a student's phone at 390x844 on her
// board, each by the device's own clock (app.js) between the server's
// redraws: the seconds go down without a reload.
func TestBrowserAPhasesCountdownCounts(t *testing.T) {
	t.Parallel() // it waits on the clocks
	person := newBrowser(t)
	a := openApp(t, freshDB(t), &clock{real: true})
	teacher := a.browser()
	code := teacherStartLesson(t, teacher, "1-roll-or-hold")
	screen, phone := person(), person()
	run(t, phone, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	joinIn(t, phone, a.url, code, "Ana")
	teacher.post(paths.LessonStart.For(code), url.Values{"confirm": {"yes"}})
	teacher.post(paths.LessonCountdown.For(code), url.Values{"minutes": {"3"}})
	link := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="projector-link"]`).AttrOr("href", "")
	run(t, screen, chromedp.EmulateViewport(1280, 720), chromedp.Navigate(link))
	navigate(t, phone, a.url+paths.Student.For(code)) // the page may be on its way there by itself
	for _, dev := range []struct {
		name string
		ctx  context.Context
		sel  string
	}{{"the shared screen", screen, `#projector [data-testid="phase-clock"]`}, {"the phone", phone, `#board [data-testid="phase-clock"]`}} {
		markPage(t, dev.ctx)
		// Counted on by the device: under 2:58, over 2:30 (the server drew 3:00).
		js := fmt.Sprintf(`(function () {
			var m = /Time left: (\d+):(\d\d)$/.exec(((document.querySelector(%q) || {}).textContent || "").trim());
			if (!m) return 0;
			var s = 60 * Number(m[1]) + Number(m[2]);
			return s < 178 && s > 150 ? s : 0;
		})()`, dev.sel)
		until(t, dev.ctx, js, func(s int) bool { return s > 0 }, dev.name+" counts the phase's time down")
		if reloaded(t, dev.ctx) {
			t.Errorf("%s reloaded to count", dev.name)
		}
	}
	// Whole on the shared screen, and the phone's board still fits its width.
	time.Sleep(300 * time.Millisecond)
	if bad := value(t, screen, chromedp.Evaluate[string](screenWholeJS)); bad != "" {
		t.Errorf("the shared screen at 1280x720 with a countdown: %s", bad)
	}
	if wide := value(t, phone, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth + 1`)); wide {
		t.Error("the phone scrolls sideways with the countdown on its board")
	}
	shot(t, screen, "countdown-projector")
	shot(t, phone, "countdown-phone")
}
