package server

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pigclass/server/play"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates/paths"
)

// TestBusyClassEveryDecisionExact: a busy class on a cache whose budget is
// small enough that tables are forgotten: several kinds of round solved
// one after another, three- and four-seat rounds started before their
// tables (the solver paused). Every decision is stored pending until its
// exact table is ready, then exact: none approximate, none left pending;
// the perfect-play bot plays only the exact table's best option; each kind
// of table is solved once; and a round whose tables cannot fit beside the
// ones still needed is refused before it starts, saying so.
func TestBusyClassEveryDecisionExact(t *testing.T) {
	tables := &solve.Cache{}
	a := newAppConfig(t, func(c *Config) { c.Tables = tables; c.TablesBudget = 1 })
	for _, v := range play.DefaultVariants() {
		tables.Get(v) // solved while the server starts
	}
	pinned := tables.Bytes()          // the defaults, kept whatever the budget
	tables.SetBudget(pinned + 12<<20) // room for one four-player table, or a few smaller ones
	var solvedMu sync.Mutex
	solved := map[sim.Variant]int{} // solves by key
	defer tables.Watch(func(k sim.Variant) { solvedMu.Lock(); solved[k]++; solvedMu.Unlock() })()
	teacher := a.browser()
	code := teacherStart(t, teacher)
	students := []*student{
		{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 12},
		{b: join(t, a, code, "Bo"), nick: "Bo", holdAt: 18},
		{b: join(t, a, code, "Cy"), nick: "Cy", holdAt: 7},
	}
	start := func(game string, target, seats int, mode string) {
		t.Helper()
		teacher.post(paths.Rounds.For(code), url.Values{"game": {game}, "target": {strconv.Itoa(target)}, "mode": {mode}, "bot": {"optimal"}, "seats": {strconv.Itoa(seats)}, "max_dice": {"6"}})
		if teacher.status() != http.StatusOK || strings.Contains(teacher.body, `role="alert"`) {
			t.Fatalf("round of %s to %d, %d seats: %d\n%s", game, target, seats, teacher.status(), teacher.body)
		}
	}
	var waited []time.Duration
	play := func(game string, target, seats int, mode string) {
		t.Helper()
		a.clock.add(time.Minute) // past the class's allowance of new kinds a minute
		resume := tables.Pause() // the round starts before its tables
		start(game, target, seats, mode)
		for _, s := range students {
			busyStep(t, s, code) // a decision, if a student moves first, while the table waits
		}
		if pending := countAnalysis(teacher, code, "pending"); pending == 0 && mode == "pairs" {
			t.Errorf("%s to %d, %d seats: no decision waited for its table", game, target, seats)
		}
		resume()
		from := time.Now()
		noneWaits := func() {
			for deadline := time.Now().Add(30 * time.Second); countAnalysis(teacher, code, "pending") > 0; time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("%s to %d, %d seats: decisions still pending after 30 s", game, target, seats)
				}
			}
		}
		noneWaits()
		waited = append(waited, time.Since(from))
		for busy, i := true, 0; busy; i++ {
			if i > 20000 {
				t.Fatalf("%s to %d, %d seats: the round did not end", game, target, seats)
			}
			busy = false
			for _, s := range students {
				busy = busyStep(t, s, code) || busy
			}
		}
		noneWaits()
	}
	play("pig", 60, 3, "pairs")    // a three-player table, 3.3 MB: the three students together
	play("pig", 26, 4, "bot")      // a four-player table (10.5 MB): the first is forgotten
	play("hog", 50, 3, "pairs")    // Hog for three, up to 6 dice
	play("two-dice", 40, 3, "bot") // a throw that wipes
	play("pig", 60, 3, "bot")      // the first kind again: solved again, since it was forgotten

	// Every decision exact, the bots on the exact table's best option.
	rows := teacher.csvRows(paths.DecisionsCSV.For(code))
	for _, r := range rows {
		switch {
		case r["action"] == "timeout" || r["action"] == "resign":
		case r["analysis"] != "exact":
			t.Errorf("a decision analysed %q: %v", r["analysis"], r)
		case r["by"] == "bot" && r["action"] != r["best_action"]:
			t.Errorf("the perfect-play bot played %s where its table says %s: %v", r["action"], r["best_action"], r)
		}
	}
	kinds := tables.SolvesByKind()
	t.Logf("%d decisions; solves by kind %v; the decisions made before the tables were pending until %v after the solver resumed", len(rows), kinds, waited)
	solvedMu.Lock()
	for k, n := range solved {
		// Pig to 60's three-player table was forgotten when no longer
		// needed, and solved again for the last round: twice. Its
		// two-player table (for a game whose others are out) is small:
		// whether it was forgotten too depends on which tables were still
		// in use when the four-player one came, so once or twice. Every
		// other table once.
		pig60 := k.Game == sim.Pig && k.Target == 60
		switch {
		case pig60 && k.Seats == 3 && n != 2,
			pig60 && k.Seats == 2 && n != 1 && n != 2,
			!pig60 && n != 1:
			t.Errorf("the table of %v was solved %d times", k, n)
		}
	}
	if len(solved) != 9 {
		t.Errorf("%d tables solved, want 9 (%v)", len(solved), solved)
	}
	solvedMu.Unlock()
	if b := tables.Bytes(); b > pinned+12<<20 {
		t.Errorf("the cache keeps %d bytes, over its budget", b)
	}

	// A round whose tables cannot fit beside those another class's round
	// plays on is refused before it starts: Hog for three (1.9 MB) beside
	// the four-player table of Pig to 26 (10.5 MB) being played.
	resume := tables.Pause()
	start("pig", 26, 4, "bot")
	resume()
	other := a.browser()
	code2 := teacherStart(t, other)
	join(t, a, code2, "Di")
	other.post(paths.Rounds.For(code2), url.Values{"game": {"hog"}, "target": {"50"}, "max_dice": {"7"}, "mode": {"bot"}, "bot": {"optimal"}, "seats": {"3"}})
	if !strings.Contains(other.body, "this kind of round needs 3 MB more and 1 MB are free") {
		t.Errorf("a round of Hog for three beside another class's four-player table: not refused\n%s", other.body)
	}
}

// countAnalysis counts the class's decisions of one analysis.
func countAnalysis(teacher *browser, code, analysis string) int {
	n := 0
	for _, r := range teacher.csvRows(paths.DecisionsCSV.For(code)) {
		if r["analysis"] == analysis {
			n++
		}
	}
	return n
}

// busyStep is student.step for bots that move on their own (once their
// table is ready): a move refused because the board moved on meanwhile
// (409) is read again on the next step. It reports whether the student
// still has a match on their page.
func busyStep(t *testing.T, s *student, code string) bool {
	t.Helper()
	st, ok := readBoard(s.b.get("/c/" + code))
	if !ok || !st.yourTurn {
		return ok && !st.over
	}
	action := "hold"
	switch {
	case !slices.Contains(st.actions, "roll"):
		action = st.actions[min(3, len(st.actions)-1)] // Hog: four dice
	case st.turnTot < s.holdAt:
		action = "roll"
	}
	s.b.post(st.act, url.Values{"seq": {strconv.Itoa(st.seq)}, "action": {action}})
	switch s.b.status() {
	case http.StatusOK:
		s.actions++
	case http.StatusConflict:
	default:
		t.Fatalf("%s %s: %d\n%s", s.nick, action, s.b.status(), s.b.body)
	}
	return true
}

// TestLessonTablesLeaveRoom: the tables kept whatever the budget (the
// defaults, every lesson's and every lesson figure's), all solved, leave
// room in TablesBudget for the largest table a classroom solves, so any
// kind of round can be played on a server with nothing else to keep.
func TestLessonTablesLeaveRoom(t *testing.T) {
	tables := &solve.Cache{}
	newAppConfig(t, func(c *Config) { c.Tables = tables })
	pinned := tables.PinnedBytes()
	t.Logf("pinned tables: %.1f MB of %d MB", float64(pinned)/(1<<20), TablesBudget>>20)
	if pinned+solve.MultiBudget > TablesBudget {
		t.Errorf("the pinned tables take %d MB: with a %d MB table beside them they pass the budget of %d MB", pinned>>20, solve.MultiBudget>>20, TablesBudget>>20)
	}
}
