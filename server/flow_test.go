package server

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates/paths"
)

// student plays in a class: rolls below its threshold, then holds.
type student struct {
	b       *browser
	nick    string
	holdAt  int
	actions int // decisions the server accepted
}

// step acts once if it is this student's turn; it reports whether the
// student still has a match on their page.
func (s *student) step(t *testing.T, code string) bool {
	t.Helper()
	doc := s.b.get("/c/" + code)
	st, ok := readBoard(doc)
	if !ok {
		return false
	}
	if !st.yourTurn {
		return !st.over
	}
	action := "hold"
	if st.turnTot < s.holdAt {
		action = "roll"
	}
	doc = s.b.post(st.act, url.Values{"seq": {strconv.Itoa(st.seq)}, "action": {action}})
	if s.b.status() != http.StatusOK {
		t.Fatalf("%s %s: %d\n%s", s.nick, action, s.b.status(), s.b.body)
	}
	if e := doc.Find(`[data-testid="board-error"]`).Text(); e != "" {
		t.Fatalf("%s %s: %s", s.nick, action, e)
	}
	s.actions++
	return true
}

// playRound lets the students play until none has a match.
func playRound(t *testing.T, code string, students []*student) {
	t.Helper()
	for i := 0; i < 20000; i++ {
		busy := false
		for _, s := range students {
			if s.step(t, code) {
				busy = true
			}
		}
		if !busy {
			return
		}
	}
	t.Fatal("the round did not end")
}

// TestClassFlow: a teacher creates a class, three students join, play a
// round against hold:20 and a round in pairs to the end, and the three CSV
// files hold exactly the decisions made, with their analysis.
func TestClassFlow(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	students := []*student{
		{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20},
		{b: join(t, a, code, "Bo"), nick: "Bo", holdAt: 12},
		{b: join(t, a, code, "Çağla 🐷"), nick: "Çağla 🐷", holdAt: 25},
	}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	if teacher.status() != http.StatusOK || teacher.path() != "/t/"+code {
		t.Fatalf("start round: %d %s\n%s", teacher.status(), teacher.path(), teacher.body)
	}
	playRound(t, code, students)
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"pairs"}, "bot": {"optimal"}})
	playRound(t, code, students)

	decisions := teacher.csvRows("/t/" + code + "/decisions.csv")
	t.Logf("%d decisions in all; students made %d, %d, %d", len(decisions), students[0].actions, students[1].actions, students[2].actions)
	table, err := solve.Solve(sim.Standard(sim.Pig))
	if err != nil {
		t.Fatal(err)
	}
	byStudent := map[string]int{}
	for _, r := range decisions {
		if r["by"] == "student" {
			byStudent[r["student"]]++
		}
		if r["class"] != code || r["game"] != "pig" || r["target"] != "100" {
			t.Fatalf("row %v", r)
		}
		checkAnalysis(t, table, r)
	}
	for _, s := range students {
		if byStudent[s.nick] != s.actions {
			t.Errorf("%s made %d decisions, decisions.csv has %d", s.nick, s.actions, byStudent[s.nick])
		}
	}

	// The dashboard counts the students' decisions apart from the bots'
	// moves (and the clock's).
	byStudents := 0
	for _, n := range byStudent {
		byStudents += n
	}
	dash := teacher.get("/t/" + code)
	if dash.Find(`[data-testid="end-round"]`).Length() != 0 {
		t.Error("every match is over, and the dashboard still offers to end the round")
	}
	if got, want := dash.Find(`[data-testid="decision-count"]`).Text(), strconv.Itoa(byStudents); got != want {
		t.Errorf("dashboard counts %s decisions, want the students' %s", got, want)
	}
	if got, want := dash.Find(`[data-testid="other-moves"]`).Text(), fmt.Sprintf("(and %d moves by bots or the clock)", len(decisions)-byStudents); got != want {
		t.Errorf("dashboard says %q, want %q", got, want)
	}

	matches := teacher.csvRows("/t/" + code + "/matches.csv")
	if len(matches) != 5 {
		t.Fatalf("%d matches, want 3 against the bot and 2 in pairs", len(matches))
	}
	rounds := map[string]int{}
	for _, m := range matches {
		rounds[m["round"]]++
		if m["status"] != "over" || m["winner"] == "" || len(m["seed"]) != 64 || m["places"] == "" {
			t.Errorf("match %v", m)
		}
		seed, _ := sim.ParseSeed(m["seed"])
		if seed.Commitment() != m["commitment"] {
			t.Errorf("match %s: commitment is not SHA-256 of the seed", m["match"])
		}
	}
	if rounds["1"] != 3 || rounds["2"] != 2 {
		t.Errorf("matches per round %v", rounds)
	}

	studs := teacher.csvRows("/t/" + code + "/students.csv")
	if len(studs) != 3 {
		t.Fatalf("%d students", len(studs))
	}
	for _, r := range studs {
		if r["games"] != "2" || r["decisions"] != strconv.Itoa(byStudent[r["student"]]) {
			t.Errorf("students.csv %v, want 2 games and %d decisions", r, byStudent[r["student"]])
		}
	}
}

// checkAnalysis compares a decisions.csv row with the solver.
func checkAnalysis(t *testing.T, table *solve.Table, r map[string]string) {
	t.Helper()
	atoi := func(k string) int {
		n, err := strconv.Atoi(r[k])
		if err != nil {
			t.Fatalf("%s = %q: %v", k, r[k], err)
		}
		return n
	}
	ftof := func(k string) float64 {
		f, err := strconv.ParseFloat(r[k], 64)
		if err != nil {
			t.Fatalf("%s = %q in %v", k, r[k], r)
		}
		return f
	}
	adv := table.Advise(atoi("score"), atoi("leader_score"), atoi("turn_total"))
	chosen := r["action"]
	if chosen == "timeout" {
		chosen = "hold"
	}
	win, _ := adv.Win(sim.Action{Kind: map[string]sim.ActionKind{"roll": sim.RollKind, "hold": sim.HoldKind}[chosen]})
	cost := ftof("win_if_"+chosen+"_pct") / 100
	for k, want := range map[string]float64{"win_if_roll_pct": adv.Roll, "win_if_hold_pct": adv.Hold, "win_if_chosen_pct": win, "cost_pct_points": math.Max(adv.Roll, adv.Hold) - cost} {
		if got := ftof(k) / 100; math.Abs(got-want) > 1e-13 {
			t.Errorf("%s = %v, solver %v (row %v)", k, got, want, r)
		}
	}
	if r["best_action"] != adv.Best.String() || r["ev_action"] != adv.EV.String() {
		t.Errorf("best %s ev %s, solver %v %v", r["best_action"], r["ev_action"], adv.Best, adv.EV)
	}
	if want := fmt.Sprint(chosen == adv.Best.String()); r["agrees_with_optimal"] != want {
		t.Errorf("agrees_with_optimal %s, want %s", r["agrees_with_optimal"], want)
	}
}

// startRound starts a round of the class with the teacher's form: it
// fails the test if the round is refused.
func startRound(t *testing.T, teacher *browser, code string, round url.Values) {
	t.Helper()
	doc := teacher.post(paths.Rounds.For(code), round)
	if teacher.status() != http.StatusOK || doc.Find(`[role="alert"]`).Text() != "" {
		t.Fatalf("the round %v: %d %q", round, teacher.status(), doc.Find(`[role="alert"]`).Text())
	}
}

// mysteryReady solves the table the mystery bot of v plays from, which a
// round against it waits for (play.ErrMysteryWaits): the round then
// starts at once.
func mysteryReady(t *testing.T, a *app, v sim.Variant) {
	t.Helper()
	if _, err := a.srv.tables.Get(v); err != nil {
		t.Fatal(err)
	}
	if !a.srv.hall.BotReady(v) {
		t.Fatalf("the table of %v solved, the mystery bot is not ready", v)
	}
}
