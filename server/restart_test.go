package server

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"pigclass/templates/paths"
)

// TestRestartKeepsTheMatch: the server stops mid-match (a fresh server on
// the same database file, as after a crash); the match goes on where it
// stopped and no acknowledged decision is missing.
func TestRestartKeepsTheMatch(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	s := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 15}
	// hold:1 banks at most 6 points a turn, so the match lasts at least 17
	// of Ana's turns, whatever the dice: the restart comes mid-match.
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:1"}})
	for s.actions < 12 {
		if !s.step(t, code) {
			t.Fatal("the match ended before the restart")
		}
	}
	before, _ := readBoard(s.b.get("/c/" + code))
	path, clk := a.path, a.clock
	a.stop()

	b := openApp(t, path, clk)
	s.b.moveTo(b)
	teacher.moveTo(b)
	after, ok := readBoard(s.b.get("/c/" + code))
	if !ok || after.seq != before.seq || after.turnTot != before.turnTot || after.yourTurn != before.yourTurn {
		t.Fatalf("after the restart: %+v, before: %+v", after, before)
	}
	for s.step(t, code) {
	}
	rows := teacher.csvRows("/t/" + code + "/decisions.csv")
	mine := 0
	for _, r := range rows {
		if r["by"] == "student" {
			mine++
		}
	}
	if mine != s.actions {
		t.Errorf("%d decisions acknowledged, %d stored", s.actions, mine)
	}
	if m := teacher.csvRows("/t/" + code + "/matches.csv"); len(m) != 1 || m[0]["status"] != "over" {
		t.Errorf("matches %v", m)
	}
}

// TestRepeatedClickActsOnce: a double click or a resent form carries the
// same seq and acts only once.
func TestRepeatedClickActsOnce(t *testing.T) {
	a := newApp(t)
	p := a.browser()
	p.post("/practice", url.Values{"game": {"pig"}, "bot": {"hold:20"}})
	page := p.path()
	st, ok := readBoard(p.get(page))
	if !ok || !st.yourTurn { // a bot that moves first has played its turn already
		t.Fatalf("no board, or not my turn at %s", page)
	}
	form := url.Values{"seq": {strconv.Itoa(st.seq)}, "action": {"roll"}}
	p.post(st.act, form)
	first, _ := readBoard(p.get(page))
	p.post(st.act, form)
	p.post(st.act, form, "HX-Request", "true")
	second, _ := readBoard(p.get(page))
	if first.seq <= st.seq {
		t.Fatalf("the first click did not act: seq %d then %d", st.seq, first.seq)
	}
	if second.seq != first.seq {
		t.Errorf("the repeated click acted: seq %d, then %d", first.seq, second.seq)
	}
}

// TestDeadlineTimeouts: when the per-roll deadline passes, the server holds
// for the student, recorded as a timeout; three in a row resign.
func TestDeadlineTimeouts(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	s := join(t, a, code, "Sleepy")
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}, "deadline": {"10"}})
	if teacher.status() != http.StatusOK {
		t.Fatalf("%d %s", teacher.status(), teacher.body)
	}
	for i := 0; i < 3; i++ {
		waitFor(t, func() bool { st, ok := readBoard(s.get("/c/" + code)); return ok && st.yourTurn })
		if warned := s.get("/c/"+code).Find(`[data-testid="timeout-warning"]`).Length() > 0; warned != (i == 2) {
			t.Errorf("before time-out %d: warned %v", i+1, warned)
		}
		a.clock.add(11 * time.Second)
		n := i + 1
		waitFor(t, func() bool { return countBy(teacher.csvRows("/t/"+code+"/decisions.csv"), "timeout") == n })
		if i < 2 {
			waitFor(t, func() bool {
				return strings.Contains(s.get("/c/"+code).Find(`[data-testid="timed-out"]`).Text(), fmt.Sprintf("Time ran out for you: your turn passed (%d of 3)", n))
			})
		}
	}
	waitFor(t, func() bool {
		m := teacher.csvRows("/t/" + code + "/matches.csv")
		return len(m) == 1 && m[0]["status"] == "over" && m[0]["winner"] == "Hold-20 bot"
	})
	// The end says why; the time-outs are stored as time-outs but are
	// not decisions: no cost, no agreement, not the student's.
	var review string
	for _, m := range a.srv.room.Hall().Matches() {
		review = s.get(paths.Match(code, m.ID)).Text()
		// The board's word for the student is about the clock, not the dice.
		page := s.get(paths.ClassBoard.With(code, m.ID))
		if !strings.Contains(page.Find(`[data-testid="forfeited"]`).Text(), "The clock ended this match, not the dice") || page.Find(`[data-testid="encourage"]`).Length() != 0 {
			t.Errorf("a forfeited student reads %q / %q", page.Find(`[data-testid="forfeited"]`).Text(), page.Find(`[data-testid="encourage"]`).Text())
		}
	}
	if status := teacher.get("/t/" + code).Find(`[data-testid="student-status"]`).Text(); status != "waiting: forfeited the last match on time-outs" {
		t.Errorf("the dashboard says %q of a student who forfeited", status)
	}
	if !strings.Contains(review, "You forfeited after three time-outs") {
		t.Errorf("the end does not say the match was forfeited")
	}
	for _, r := range teacher.csvRows("/t/" + code + "/decisions.csv") {
		if r["by"] == "timeout" && (r["analysis"] != "none" || r["cost_pct_points"] != "" || r["agrees_with_optimal"] != "") {
			t.Errorf("a time-out counted as a decision: %v", r)
		}
	}
	if st := teacher.csvRows("/t/" + code + "/students.csv"); st[0]["decisions"] != "0" || st[0]["sum_of_costs_pct_points"] != "" || st[0]["cost_per_game_pct"] != "" {
		t.Errorf("students.csv counts time-outs: %v", st[0])
	}
}

func countBy(rows []map[string]string, by string) int {
	n := 0
	for _, r := range rows {
		if r["by"] == by {
			n++
		}
	}
	return n
}

// waitFor polls cond until it holds, failing after a deadline.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	end := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(end) {
			t.Fatal("condition not met in 20 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestDeadlineCountsFromTheBoard: the limit of a student to move counts
// from when their board is first shown to them, not from when the server
// made the position (a poll's delay, a page loading): shown 4 s late, it
// still gives the whole 10 s; showing it again does not extend it; a
// student who never looks times out 10 s after the position. The
// partner's board counts down the same deadline, naming the mover.
func TestDeadlineCountsFromTheBoard(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana, bo := join(t, a, code, "Ana"), join(t, a, code, "Bo")
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"pairs"}, "bot": {"hold:20"}, "deadline": {"10"}})
	if teacher.status() != http.StatusOK {
		t.Fatalf("%d %s", teacher.status(), teacher.body)
	}
	timeouts := func() int { return countBy(teacher.csvRows("/t/"+code+"/decisions.csv"), "timeout") }
	a.clock.add(4 * time.Second)
	mover, partner, moverName := ana, bo, "Ana"
	if st, _ := readBoard(bo.get("/c/" + code)); st.yourTurn {
		mover, partner, moverName = bo, ana, "Bo"
	}
	shown := a.clock.now()
	doc := mover.get("/c/" + code)
	want := strconv.FormatInt(shown.Add(10*time.Second).UnixMilli(), 10)
	if got := doc.Find(`[data-testid="deadline"]`).AttrOr("data-deadline", ""); got != want {
		t.Fatalf("the mover's deadline %s, want 10 s after the board was shown (%s)", got, want)
	}
	pd := partner.get("/c/" + code).Find(`[data-testid="partner-deadline"]`)
	if pd.AttrOr("data-deadline", "") != want || !strings.Contains(pd.Text(), moverName+" has 10 s per roll") || !strings.Contains(pd.AttrOr("data-left", ""), moverName+": {n} s left") {
		t.Errorf("the partner's countdown: %q %q %q", pd.AttrOr("data-deadline", ""), pd.Text(), pd.AttrOr("data-left", ""))
	}
	a.clock.add(7 * time.Second) // 11 s after the position, 7 s after it was shown
	time.Sleep(600 * time.Millisecond)
	if n := timeouts(); n != 0 {
		t.Fatalf("timed out %d times 7 s after the board was shown", n)
	}
	if got := mover.get("/c/"+code).Find(`[data-testid="deadline"]`).AttrOr("data-deadline", ""); got != want {
		t.Errorf("showing the board again moved the deadline to %s (was %s)", got, want)
	}
	a.clock.add(3500 * time.Millisecond)
	waitFor(t, func() bool { return timeouts() == 1 })
	// The partner now moves and never looks: 10 s after the position.
	a.clock.add(10500 * time.Millisecond)
	waitFor(t, func() bool { return timeouts() == 2 })
}
