package server

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"pigclass/sim"
	"pigclass/templates/paths"
)

// TestTheLabsSlotsAreSharedFairly (issue 79, item 22): with both slots
// held by one class and more of its runs waiting, a slot that frees goes
// to another class's run first; a class alone uses both.
func TestTheLabsSlotsAreSharedFairly(t *testing.T) {
	g := newLabGate(2)
	ctx := t.Context()
	a1, _ := g.take(ctx, 1)
	a2, _ := g.take(ctx, 1) // a class alone: both slots
	got := make(chan string, 2)
	queue := func(class int64, name string) {
		go func() {
			release, err := g.take(ctx, class)
			if err != nil {
				got <- "error " + err.Error()
				return
			}
			got <- name
			release()
		}()
	}
	queue(1, "the first class's third run")
	waitFor(t, func() bool { return g.waiters() == 1 })
	queue(2, "the second class's run")
	waitFor(t, func() bool { return g.waiters() == 2 })
	a1()
	if first := <-got; first != "the second class's run" {
		t.Errorf("a freed slot went to %s, want the second class's run", first)
	}
	a2()
	if second := <-got; second != "the first class's third run" {
		t.Errorf("then %s", second)
	}
	// A run that stops waiting gives nothing away.
	b1, _ := g.take(ctx, 3)
	b2, _ := g.take(ctx, 3)
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := g.take(gone, 4); err == nil {
		t.Error("a run whose request ended took a slot")
	}
	b1()
	b2()
	if g.free != 2 || len(g.running) != 0 || g.waiters() != 0 {
		t.Errorf("after every run: %d free, %v running, %d waiting", g.free, g.running, g.waiters())
	}
}

// TestACostlyLabQuestionStopsAtItsBudget (issue 79, item 22): a
// student's question of Pig to 1,000 where both sides hold at 1,000 (each
// game runs to the turn limit) stops at its budget and is refused in
// words, storing nothing. Three such runs from one class: two hold both
// slots, the third waits; another class's 10-game run, asked after, gets
// the first slot that frees (a wait of one budget at most), before the
// first class's third.
func TestACostlyLabQuestionStopsAtItsBudget(t *testing.T) {
	a := newAppConfig(t, func(c *Config) { c.LabBudget = 400 * time.Millisecond })
	teacher := a.browser()
	code := teacherStart(t, teacher)
	costly := sim.PlanName(sim.Plan{Form: "hold", Game: "pig", Target: 1000, Hold: 1000})
	q := url.Values{"game": {"pig"}, "target": {"1000"}, "first": {costly}, "second": {costly}, "games": {"100000"}}
	answers := make(chan string, 4)
	for i := range 3 {
		kid := join(t, a, code, fmt.Sprintf("Kid%d", i))
		go func() {
			page := kid.post(paths.StudentLab.For(code), q)
			answers <- fmt.Sprintf("costly %d %s", kid.status(), page.Find(`[data-testid="lab-error"]`).Text())
		}()
		waitFor(t, func() bool { return a.srv.labGate.held()+a.srv.labGate.waiters() == i+1 }) // until it simulates, or waits
	}
	other := a.browser()
	otherCode := teacherStart(t, other)
	bo := join(t, a, otherCode, "Bo")
	go func() {
		bo.post(paths.StudentLab.For(otherCode), url.Values{"game": {"pig"}, "target": {"100"}, "first": {"hold:20"}, "second": {"hold:25"}, "games": {"10"}})
		answers <- fmt.Sprintf("other %d", bo.status())
	}()
	var got []string
	for range 4 {
		got = append(got, <-answers)
	}
	if i := slices.Index(got, "other 200"); i < 0 || i == 3 {
		t.Errorf("the answers in order: %q; want the other class's run answered before the first class's third", got)
	}
	for _, g := range got {
		if strings.HasPrefix(g, "costly") && !strings.HasPrefix(g, "costly 422 These games are too long to play 100,000 of them in 0.4 seconds") {
			t.Errorf("a costly run: %q, want it stopped at its budget", g)
		}
	}
	if exps, _ := a.store.Experiments(t.Context(), mustClass(t, a, code).ID); len(exps) != 0 {
		t.Errorf("the stopped runs stored %d experiments", len(exps))
	}
}

// TestAStudentsLabRunsAreBounded (issue 79, item 21): a student runs at
// most labRunsPerMinute experiments a minute, said in words; a minute
// later they may run again.
func TestAStudentsLabRunsAreBounded(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	run := url.Values{"game": {"pig"}, "target": {"50"}, "first": {"hold:20"}, "second": {"hold:25"}, "games": {"10"}}
	for i := range labRunsPerMinute {
		if ana.post(paths.StudentLab.For(code), run); ana.status() != http.StatusOK {
			t.Fatalf("run %d: %d", i+1, ana.status())
		}
	}
	page := ana.post(paths.StudentLab.For(code), run)
	if got := page.Find(`[data-testid="lab-error"]`).Text(); ana.status() != http.StatusUnprocessableEntity || !strings.HasPrefix(got, "You have run 20 experiments in the last minute") {
		t.Errorf("run %d in a minute: %d %q", labRunsPerMinute+1, ana.status(), got)
	}
	a.clock.add(time.Minute + time.Second)
	if ana.post(paths.StudentLab.For(code), run); ana.status() != http.StatusOK {
		t.Errorf("a minute later: %d", ana.status())
	}
	if exps, _ := a.store.Experiments(t.Context(), mustClass(t, a, code).ID); len(exps) != labRunsPerMinute+1 {
		t.Errorf("%d runs stored, want %d", len(exps), labRunsPerMinute+1)
	}
}
