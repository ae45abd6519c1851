package server

import (
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"testing"

	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates/paths"
)

// TestNewVariantSolvedInTheBackground: rounds of a kind not solved before
// start at once, however long their table takes (here it cannot start:
// the cache's solves are paused). Their decisions are stored and exported
// as pending, the review says the analysis is on its way, and the
// perfect-play bot to move waits and says so. When the table is solved
// the analyses fill in (on disk: the CSV files; in memory: the students'
// totals) with the table's own values, and the bot moves. Decisions
// pending at a crash are filled in after the restart.
func TestNewVariantSolvedInTheBackground(t *testing.T) {
	tables := &solve.Cache{}
	fresh := func(c *Config) { c.Tables = tables }
	a := newAppConfig(t, fresh)
	resume := tables.Pause()
	defer resume()
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 12}
	bo := &student{b: join(t, a, code, "Bo"), nick: "Bo", holdAt: 8}
	round := func(target int, mode, bot string) {
		t.Helper()
		teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {strconv.Itoa(target)}, "mode": {mode}, "bot": {bot}})
		if teacher.status() != http.StatusOK || teacher.path() != "/t/"+code {
			t.Fatalf("round of Pig to %d: %d at %s\n%s", target, teacher.status(), teacher.path(), teacher.body)
		}
	}
	decisions := func(target int) []map[string]string {
		var out []map[string]string
		for _, r := range teacher.csvRows("/t/" + code + "/decisions.csv") {
			if r["target"] == strconv.Itoa(target) && r["by"] == "student" {
				out = append(out, r)
			}
		}
		return out
	}

	// Pairs, Pig to 87: the students play while the table is not solved.
	round(87, "pairs", "optimal")
	for ana.actions+bo.actions < 8 {
		ana.step(t, code)
		bo.step(t, code)
	}
	rows := decisions(87)
	if len(rows) != ana.actions+bo.actions {
		t.Fatalf("%d decisions exported, %d made", len(rows), ana.actions+bo.actions)
	}
	for _, r := range rows {
		if r["analysis"] != "pending" || r["win_if_chosen_pct"] != "" || r["cost_pct_points"] != "" {
			t.Errorf("a decision made before its table: analysis %q, chance %q, cost %q; want pending and none yet", r["analysis"], r["win_if_chosen_pct"], r["cost_pct_points"])
		}
	}
	review := paths.Match(code, anaMatch(t, a, code))

	// Against the perfect-play bot, Pig to 89: the round starts (the
	// match of Pig to 87 ends: its review says the analysis is on its
	// way); the bot, when it is to move, waits for its table and says so.
	round(89, "bot", "optimal")
	if doc := ana.b.get(review); doc.Find(`[data-testid="review-pending"]`).Length() != 1 {
		t.Errorf("the review does not say the analysis is on its way:\n%s", ana.b.body)
	}
	preparing := false
	for range 200 {
		doc := ana.b.get("/c/" + code)
		st, ok := readBoard(doc)
		if !ok || st.over {
			t.Fatal("the match against the bot ended without the bot's table")
		}
		if !st.yourTurn {
			preparing = doc.Find(`[data-testid="preparing"]`).Length() == 1
			break
		}
		ana.step(t, code)
	}
	if !preparing {
		t.Fatalf("the bot to move does not say it waits for its table:\n%s", ana.b.body)
	}
	seq := boardSeq(t, ana, code)

	resume()
	waitFor(t, func() bool { return boardSeq(t, ana, code) > seq })
	waitFor(t, func() bool {
		return !slices.ContainsFunc(teacher.csvRows("/t/"+code+"/decisions.csv"), func(r map[string]string) bool { return r["analysis"] == "pending" })
	})
	for _, target := range []int{87, 89} {
		v := sim.Standard(sim.Pig)
		v.Target = target
		table, err := solve.Solve(v)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range decisions(target) {
			score, _ := strconv.Atoi(r["score"])
			opp, _ := strconv.Atoi(r["leader_score"])
			total, _ := strconv.Atoi(r["turn_total"])
			adv := table.Advise(score, opp, total)
			action, _ := sim.ParseAction(r["action"])
			want, _ := adv.Win(action)
			chosen, _ := strconv.ParseFloat(r["win_if_chosen_pct"], 64)
			if r["analysis"] != "exact" || math.Abs(chosen/100-want) > 1e-12 || r["best_action"] != adv.Best.String() {
				t.Errorf("Pig to %d, %d/%d total %d, %s: analysis %s, chance %s%%, best %s; the table says %v, best %v",
					target, score, opp, total, r["action"], r["analysis"], r["win_if_chosen_pct"], r["best_action"], want, adv.Best)
			}
		}
	}
	made := map[string]int{"Ana": ana.actions, "Bo": bo.actions}
	for _, r := range teacher.csvRows("/t/" + code + "/students.csv") {
		if r["analysed"] != strconv.Itoa(made[r["student"]]) || r["decisions"] != r["analysed"] {
			t.Errorf("%s: %s decisions, %s analysed; made %d, all analysed once the table is ready", r["student"], r["decisions"], r["analysed"], made[r["student"]])
		}
	}
	if doc := ana.b.get(review); doc.Find(`[data-testid="review-pending"]`).Length() != 0 {
		t.Error("the review still says the analysis is on its way")
	}

	// Pairs, Pig to 91, paused again: the server crashes with the
	// decisions pending and comes back on tables of its own.
	resume = tables.Pause()
	round(91, "pairs", "optimal")
	for n := ana.actions + bo.actions + 6; ana.actions+bo.actions < n; {
		ana.step(t, code)
		bo.step(t, code)
	}
	if rows := decisions(91); len(rows) == 0 || rows[0]["analysis"] != "pending" {
		t.Fatalf("before the crash: %v", rows)
	}
	path, clk := a.path, a.clock
	a.stop()
	resume()
	tables = &solve.Cache{}
	b := openAppWith(t, path, clk, store.Options{}, fresh)
	teacher.moveTo(b)
	waitFor(t, func() bool {
		rows := decisions(91)
		return !slices.ContainsFunc(rows, func(r map[string]string) bool { return r["analysis"] != "exact" })
	})
}

// boardSeq is the number of events on the student's board.
func boardSeq(t *testing.T, s *student, code string) int {
	t.Helper()
	st, ok := readBoard(s.b.get("/c/" + code))
	if !ok {
		t.Fatalf("%s has no board", s.nick)
	}
	return st.seq
}
