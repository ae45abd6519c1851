package server

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserLessonByTheBar: a teacher runs a whole lesson with the sticky
// bar's primary button alone: each press starts the phase it names (the
// first phase like every other), the round form's own button is not in
// the bar, and after the last phase there is no next step. The round
// form's Pig/Hog tabs land below the bar.
func TestBrowserLessonByTheBar(t *testing.T) {
	t.Parallel() // it waits on the dashboard's drawing
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	a.srv.room.SetLesson(t.Context(), operator(t, a, code), "1-roll-or-hold", 0)
	for _, nick := range []string{"Ana", "Bo", "Cy"} {
		join(t, a, code, nick)
	}
	link := teacher.get("/t/"+code).Find(`[data-testid="teacher-link"]`).AttrOr("href", "")
	laptop := person()
	run(t, laptop, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(link), chromedp.WaitVisible(q(`[data-testid="dash-bar"]`)))
	if n := value(t, laptop, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid="bar-start-round"]').length`)); n != 0 {
		t.Error("the round form's button is in the bar during a lesson")
	}
	steps := []struct{ label, phase, notice string }{
		{"Start phase 1: Learn the rules against a beginner", "Phase 1 of 3", "Round 1 started"},
		{"Start phase 2: Play the rule of thumb", "Phase 2 of 3", "Round 2 started"},
		{"Start phase 3: Talk it over", "Phase 3 of 3", "Phase 3"},
	}
	for _, s := range steps {
		if got := textOf(t, laptop, `.dash-bar .primary`); got != s.label {
			t.Fatalf("the bar's primary button reads %q, want %q", got, s.label)
		}
		if b := boxOf(t, laptop, `[data-testid="bar-next-step"]`); !b.inside(1366, 768) {
			t.Errorf("%s: the bar's next step is out of view: %+v", s.label, b)
		}
		clickJS(t, laptop, `[data-testid="bar-next-step"]`)
		eventually(t, laptop, fmt.Sprintf(`document.querySelector('.notice') && document.querySelector('.notice').textContent.includes(%q) && document.querySelector('[data-testid="lesson-phase"]').textContent.includes(%q)`, s.notice, s.phase),
			"the bar starts "+s.label)
	}
	if n := value(t, laptop, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid="bar-next-step"], [data-testid="bar-start-round"]').length`)); n != 0 {
		t.Error("the bar offers a step after the last phase")
	}
	shot(t, laptop, "dashboard-lesson-bar")
	// The Hog tab of the round form: the form's top is below the bar.
	clickJS(t, laptop, `[data-testid="round-game-hog"]`)
	eventually(t, laptop, `location.search.includes("game=hog")`, "the Hog tab")
	bar, form := boxOf(t, laptop, `[data-testid="dash-bar"]`), boxOf(t, laptop, `#round`)
	if form.Top < bar.Bottom-1 {
		t.Errorf("the round form lands under the bar: form top %v, bar bottom %v", form.Top, bar.Bottom)
	}
	if !strings.Contains(textOf(t, laptop, `[data-testid="lesson-phase"]`), "Phase 3 of 3") {
		t.Error("the lesson moved")
	}
}
