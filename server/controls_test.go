package server

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"pigclass/server/play"
	"pigclass/server/report"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
	"pigclass/templates/i18n"
)

func TestPauseEndRoundAndRemove(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	bo := join(t, a, code, "Bo")
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})

	teacher.post("/t/"+code+"/pause", nil)
	st, _ := readBoard(ana.get("/c/" + code))
	if st.yourTurn {
		t.Error("buttons are shown while play is paused")
	}
	doc := ana.post(fmt.Sprintf("/c/%s/m/%d/act", code, anaMatch(t, a, code)), url.Values{"seq": {strconv.Itoa(st.seq)}, "action": {"roll"}})
	if ana.status() != http.StatusConflict || !strings.Contains(doc.Text(), "paused") {
		t.Errorf("acting while paused: %d", ana.status())
	}
	teacher.post("/t/"+code+"/resume", nil)
	s := &student{b: ana, nick: "Ana", holdAt: 20}
	if !s.step(t, code) || s.actions != 1 {
		t.Fatal("no play after resume")
	}

	teacher.post("/t/"+code+"/students/"+strconv.FormatInt(studentID(t, a, code, "Bo"), 10)+"/remove", url.Values{"confirm": {"yes"}})
	if doc := bo.get("/c/" + code); bo.status() != http.StatusForbidden || !strings.Contains(doc.Text(), "The teacher removed this device") {
		t.Errorf("a removed student's page: %d %s", bo.status(), bo.path())
	}
	teacher.post("/t/"+code+"/rounds/end", url.Values{"confirm": {"yes"}})
	if _, ok := readBoard(ana.get("/c/" + code)); ok {
		t.Error("the match goes on after the round ended")
	}
	for _, m := range teacher.csvRows("/t/" + code + "/matches.csv") {
		if m["status"] != "ended" || len(m["seed"]) != 64 {
			t.Errorf("match after the round ended: %v", m)
		}
	}
	// A removed student stays in the file, marked, as their decisions stay.
	if rows := teacher.csvRows("/t/" + code + "/students.csv"); len(rows) != 2 || rows[0]["student"] != "Ana" || rows[0]["removed"] != "false" ||
		rows[1]["student"] != "Bo" || rows[1]["removed"] != "true" {
		t.Errorf("students after removing Bo: %v", rows)
	}
}

func anaMatch(t *testing.T, a *app, code string) int64 {
	t.Helper()
	return matchOf(t, a, "Ana")
}

func studentID(t *testing.T, a *app, code, nick string) int64 {
	t.Helper()
	students, _ := a.store.Students(t.Context(), mustClass(t, a, code).ID)
	for _, s := range students {
		if s.Nickname == nick {
			return s.ID
		}
	}
	t.Fatalf("no student %s", nick)
	return 0
}

// TestHogRoundAnalysis plays Hog and Pig with equal turns through the
// server: every decision's options are the solver's.
func TestHogAndEqualTurnsRounds(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	b := join(t, a, code, "Ana")
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"hog"}, "target": {"60"}, "max_dice": {"8"}, "mode": {"bot"}, "bot": {"optimal"}})
	for i := 0; i < 1000; i++ {
		st, ok := readBoard(b.get("/c/" + code))
		if !ok {
			break
		}
		if st.yourTurn {
			if len(st.actions) != 8 || st.actions[0] != "dice:1" {
				t.Fatalf("Hog buttons %v", st.actions)
			}
			b.post(st.act, url.Values{"seq": {strconv.Itoa(st.seq)}, "action": {st.actions[i%8]}})
		}
	}
	v := sim.Standard(sim.Hog)
	v.Target, v.MaxDice = 60, 8
	table, _ := solve.Solve(v)
	rows := teacher.csvRows("/t/" + code + "/decisions.csv")
	if len(rows) < 4 {
		t.Fatalf("%d decisions", len(rows))
	}
	for _, r := range rows {
		score, _ := strconv.Atoi(r["score"])
		opp, _ := strconv.Atoi(r["leader_score"])
		adv := table.Advise(score, opp, 0)
		n, _ := strconv.Atoi(strings.TrimPrefix(r["action"], "dice:"))
		chosen, _ := strconv.ParseFloat(r["win_if_chosen_pct"], 64)
		if math.Abs(chosen/100-adv.Dice[n]) > 1e-13 || r["best_action"] != adv.Best.String() || r["ev_action"] != "dice:5" || r["win_if_roll_pct"] != "" {
			t.Errorf("row %v: solver %v best %v", r, adv.Dice[n], adv.Best)
		}
	}

	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"50"}, "equal_turns": {"on"}, "mode": {"bot"}, "bot": {"optimal"}})
	s := &student{b: b, nick: "Ana", holdAt: 15}
	playRound(t, code, []*student{s})
	e, _ := solve.SolveEqualTurns(sim.Variant{Game: sim.Pig, Target: 50, Seats: 2, EqualTurns: true})
	if e == nil {
		t.Fatal("no equal-turns table")
	}
	n := 0
	for _, r := range teacher.csvRows("/t/" + code + "/decisions.csv") {
		if r["round"] == "2" && r["by"] == "student" {
			n++
			if r["win_if_roll_pct"] == "" || r["best_action"] == "" {
				t.Errorf("equal-turns decision without analysis: %v", r)
			}
		}
	}
	if n != s.actions {
		t.Errorf("%d equal-turns decisions stored, %d made", n, s.actions)
	}
}

// TestReviewAfterTheMatch: the after-match page lists each of the
// student's decisions with hold-at-20 and optimal, and the total cost.
func TestReviewAfterTheMatch(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	s := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 30}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	playRound(t, code, []*student{s})
	home := s.b.get("/c/" + code)
	link := home.Find(`a[href^="/c/`+code+`/m/"]`).AttrOr("href", "")
	doc := s.b.get(link)
	rows := doc.Find(`[data-testid="review-row"]`)
	if rows.Length() != s.actions {
		t.Errorf("review has %d rows, %d decisions made", rows.Length(), s.actions)
	}
	total := 0.0
	for _, r := range teacher.csvRows("/t/" + code + "/decisions.csv") {
		if r["by"] == "student" {
			c, _ := strconv.ParseFloat(r["cost_pct_points"], 64)
			total += c
		}
	}
	// The game's cost in words: the chance of winning given away in the
	// game, and per decision.
	if got := doc.Find(`[data-testid="total-cost"]`).Text(); got != fmt.Sprintf("%.1f%%", total) {
		t.Errorf("total cost %q, CSV sums to %.4f percentage points", got, total)
	}
	if got, want := doc.Find(`[data-testid="game-cost"]`).Text(), fmt.Sprintf("%.1f%% a decision on average, over %d decisions", total/float64(s.actions), s.actions); !strings.Contains(got, want) {
		t.Errorf("the game's cost: %q, want %q", got, want)
	}
	// students.csv: the cost a game and a decision, and the sum under a
	// name that says it is one.
	st := teacher.csvRows("/t/" + code + "/students.csv")[0]
	perGame, _ := strconv.ParseFloat(st["cost_per_game_pct"], 64)
	perDecision, _ := strconv.ParseFloat(st["cost_per_decision_pct_points"], 64)
	sum, _ := strconv.ParseFloat(st["sum_of_costs_pct_points"], 64)
	games, _ := strconv.Atoi(st["games"])
	if games != 1 || math.Abs(perGame-total) > 1e-3 || math.Abs(sum-total) > 1e-3 || math.Abs(perDecision-total/float64(s.actions)) > 1e-3 {
		t.Errorf("students.csv: games %d, a game %v, a decision %v, sum %v; the decisions give %v over %d", games, perGame, perDecision, sum, total, s.actions)
	}
	// A card for each choice that was not perfect play's.
	differs := 0
	rows.Each(func(_ int, r *goquery.Selection) {
		if r.HasClass("disagree") {
			differs++
		}
	})
	if got := doc.Find(`[data-testid="differ"]`).Length(); got != differs || differs == 0 && doc.Find(`[data-testid="all-perfect"]`).Length() != 1 {
		t.Errorf("%d cards for %d choices that differ from perfect play", got, differs)
	}
	seed := doc.Find(`[data-testid="seed"]`).Text()
	if _, err := sim.ParseSeed(seed); err != nil {
		t.Errorf("seed %q: %v", seed, err)
	}
	// The record verifies.
	s.b.get(link + "/record.json")
	if s.b.status() != http.StatusOK {
		t.Fatalf("record: %d", s.b.status())
	}
	var rec sim.Record
	if err := json.Unmarshal([]byte(s.b.body), &rec); err != nil {
		t.Fatal(err)
	}
	if v, err := sim.Verify(rec); err != nil || !v.State.Over || rec.Seed.String() != seed {
		t.Errorf("the record does not verify: %v", err)
	}
}

// TestLadderChart: the strategy ladder comes from exact duels, computed
// once in the background: hold:20 moving first beats perfect play 49.17%
// of the time (the same figure as pigclass duel).
func TestLadderChart(t *testing.T) {
	a := newApp(t)
	rungs := a.srv.views.ladder.wait()
	if len(rungs) != 36 || rungs[0].N != 5 || rungs[35].N != 40 {
		t.Fatalf("%d rungs", len(rungs))
	}
	tab, _ := solve.Solve(sim.Standard(sim.Pig))
	want, _ := solve.Duel(sim.Standard(sim.Pig), sim.HoldAt(20), solve.Optimal{T: tab})
	if r := rungs[15]; r.N != 20 || math.Abs(r.First-want) > 1e-12 || math.Abs(r.First-0.4917) > 0.0001 {
		t.Errorf("hold:20 rung %+v, duel %v", r, want)
	}
	for _, r := range rungs {
		if (r.First+r.Second)/2 >= 0.5 {
			t.Errorf("hold:%d beats perfect play on average: %+v", r.N, r)
		}
	}
	teacher := a.browser()
	code := teacherStart(t, teacher)
	doc := teacher.get("/t/" + code + "?chart=ladder")
	if doc.Find(`[data-testid="chart-ladder"] .echart`).Length() != 1 {
		t.Error("the dashboard does not draw the ladder")
	}
}

// TestVerifyPage: the verify page checks a finished match's record, and
// names the first event of a tampered one.
func TestVerifyPage(t *testing.T) {
	a := newApp(t)
	p := a.browser()
	p.post("/practice", url.Values{"game": {"pig"}, "bot": {"hold:20"}})
	page := p.path()
	for i := 0; i < 2000; i++ {
		st, ok := readBoard(p.get(page))
		if !ok || st.over {
			break
		}
		if st.yourTurn {
			p.post(st.act, url.Values{"seq": {strconv.Itoa(st.seq)}, "action": {map[bool]string{true: "roll", false: "hold"}[st.turnTot < 20]}})
		}
	}
	doc := p.get("/verify?match=" + page[strings.LastIndex(page, "/")+1:])
	record := doc.Find("#record").Text()
	if !strings.Contains(record, `"seed"`) {
		t.Fatalf("the verify page is not filled: %q", record)
	}
	doc = p.post("/verify", url.Values{"record": {record}})
	if got := doc.Find(`[data-testid="verify-result"]`).Text(); !strings.Contains(got, "It checks out") {
		t.Errorf("good record: %q", got)
	}
	// Three findings, each holding; the record is signed with the key
	// whose fingerprint the page shows, and carries every event's time.
	fp := sim.Fingerprint(a.srv.hall.RecordKey())
	checks := func(doc *goquery.Document) (oks string) {
		for _, name := range []string{"dice", "moves", "signature"} {
			c := doc.Find(`[data-testid="check-` + name + `"]`)
			if c.Length() != 1 {
				t.Errorf("no %s finding", name)
			}
			oks += c.AttrOr("data-ok", "?")[:1]
		}
		return oks
	}
	if got := checks(doc); got != "ttt" || !strings.Contains(doc.Find(`[data-testid="check-signature"]`).Text(), fp) ||
		!strings.Contains(doc.Find(`[data-testid="record-key"]`).Text(), fp) {
		t.Errorf("good record: findings %s, signature %q, key %q", got, doc.Find(`[data-testid="check-signature"]`).Text(), fp)
	}
	var r sim.Record
	json.Unmarshal([]byte(record), &r)
	if v, err := sim.VerifyJSON([]byte(record)); err != nil || !v.Signature.Valid() || v.Format != sim.RecordFormat || r.Events[0].At.IsZero() ||
		!slices.Equal(v.Signature.Key, a.srv.hall.RecordKey()) {
		t.Errorf("the served record: %v, %+v, format %d, first event at %v", err, v.Signature, v.Format, r.Events[0].At)
	}
	// A forgery that keeps the dice and the rules (another deadline) is
	// told apart by the signature; without it, the decisions are not
	// proven; a record of an earlier release checks out unsigned.
	forged := r
	forged.Variant.Deadline = sim.Duration(30 * time.Second)
	doc = p.post("/verify", url.Values{"record": {string(mustJSON(t, forged))}})
	if got := checks(doc); got != "ttf" || !strings.Contains(doc.Find(`[data-testid="check-signature"]`).Text(), "changed after the server signed it") ||
		!strings.Contains(doc.Find(`[data-testid="verify-result"]`).Text(), "does not check out") {
		t.Errorf("another deadline: findings %s, %q", got, doc.Find(`[data-testid="verify-result"]`).Text())
	}
	forged.Signature = nil
	doc = p.post("/verify", url.Values{"record": {string(mustJSON(t, forged))}})
	if got := checks(doc); got != "ttf" || !strings.Contains(doc.Find(`[data-testid="verify-result"]`).Text(), "decisions are not proven") {
		t.Errorf("unsigned: findings %s, %q", got, doc.Find(`[data-testid="verify-result"]`).Text())
	}
	old, err := os.ReadFile("../sim/testdata/records/release0-hog.json")
	if err != nil {
		t.Fatal(err)
	}
	doc = p.post("/verify", url.Values{"record": {string(old)}})
	if got := checks(doc); got != "ttf" || !strings.Contains(doc.Find(`[data-testid="check-signature"]`).Text(), "not signed") {
		t.Errorf("a record of the first release: findings %s, %q", got, doc.Find(`[data-testid="verify-result"]`).Text())
	}
	r.Events[0].Seat = 1 - r.Events[0].Seat
	bad, _ := json.Marshal(r)
	doc = p.post("/verify", url.Values{"record": {string(bad)}})
	if got := doc.Find(`[data-testid="verify-result"]`).Text(); !strings.Contains(got, "does not check out") || !strings.HasPrefix(doc.Find(`[data-testid="verify-detail"]`).Text(), "Event 1, field action: the rules do not allow roll by seat") {
		t.Errorf("tampered record: %q", got)
	}
	// In Spanish, the same finding in Spanish words.
	p.accept = "es"
	doc = p.post("/verify", url.Values{"record": {string(bad)}})
	if got := doc.Find(`[data-testid="verify-detail"]`).Text(); !strings.HasPrefix(got, "Jugada 1, campo action: las reglas no permiten tirar al sitio") || !strings.Contains(got, "le toca a otro sitio") {
		t.Errorf("tampered record in Spanish: %q", got)
	}
	p.accept = ""
	doc = p.post("/verify", url.Values{"record": {"{not json"}})
	if p.status() != http.StatusUnprocessableEntity || !strings.Contains(doc.Find("#record-error").Text(), "not a match record") || doc.Find("#record").Text() != "{not json" {
		t.Errorf("bad JSON: %d", p.status())
	}
}

// TestThreeAndFourSeats: rounds of three and four players; with three the
// perfect-play bot plays the exact three-player table (the board never
// says it approximates: until the table is solved it waits, and says so),
// and every decision's analysis is the solver's: the exact three-player
// table (pending until it is solved, never an approximation); with four
// (Pig to 100: past the exact range) the three-player table against the
// two leading opponents in their order of play, labelled approximate.
func TestThreeAndFourSeats(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	students := []*student{{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}, {b: join(t, a, code, "Bo"), nick: "Bo", holdAt: 15}, {b: join(t, a, code, "Cy"), nick: "Cy", holdAt: 25}}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"optimal"}, "seats": {"3"}})
	if st, _ := readBoard(students[0].b.get("/c/" + code)); st.seq < 0 {
		t.Fatal("no board")
	}
	three := sim.Standard(sim.Pig)
	three.Seats = 3
	if students[0].b.get("/c/"+code).Find(`[data-testid="approximate"]`).Length() != 0 {
		t.Error("the board says the perfect-play bot of three players approximates")
	}
	playRound(t, code, students)
	m3, err := a.srv.tables.MultiWait(three)
	if err != nil {
		t.Fatal(err)
	}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"pairs"}, "bot": {"hold:20"}, "seats": {"4"}})
	playRound(t, code, students)

	classID := mustClass(t, a, code).ID
	ms, err := a.store.Matches(t.Context(), store.MatchFilter{ClassID: classID})
	if err != nil {
		t.Fatal(err)
	}
	byMatch := map[int64]play.Match{}
	for _, m := range ms {
		byMatch[m.ID] = m
	}
	events, err := a.store.Events(t.Context(), store.EventFilter{ClassID: classID})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, e := range events {
		an := e.Analysis
		if an == nil {
			continue
		}
		n := byMatch[e.MatchID].Variant.Seats
		in := make([]int, n) // the scores from the mover's, in order of play
		for r := range n {
			in[r] = e.Scores[(e.Seat+r)%n]
		}
		var want solve.Advice
		kind := fmt.Sprintf("%d seats, approximate %v", n, an.Approximate)
		switch {
		case n == 3 && !an.Approximate:
			want = m3.Advise(in, e.TurnTotal)
		case n == 4 && an.Approximate:
			// the two leaders of the three others, by a sort of their own
			others := []int{1, 2, 3}
			sort.SliceStable(others, func(x, y int) bool { return in[others[x]] > in[others[y]] })
			lead := others[:2]
			sort.Ints(lead)
			want = m3.Advise([]int{in[0], in[lead[0]], in[lead[1]]}, e.TurnTotal)
		default:
			t.Fatalf("%s: an analysis this round cannot have (three players approximate, or four exact)", kind)
		}
		kinds[kind]++
		if got, _ := want.Win(e.Action); math.Abs(an.WinIfChosen-got) > 1e-12 || an.Best != want.Best || math.Abs(*an.WinIfRoll-want.Roll) > 1e-12 || math.Abs(*an.WinIfHold-want.Hold) > 1e-12 {
			t.Errorf("%s, scores %v total %d, %v: chosen %v roll %v hold %v best %v; want %v %v %v %v", kind, in, e.TurnTotal, e.Action,
				an.WinIfChosen, *an.WinIfRoll, *an.WinIfHold, an.Best, got, want.Roll, want.Hold, want.Best)
		}
	}
	if kinds["4 seats, approximate true"] == 0 || kinds["3 seats, approximate false"] == 0 {
		t.Errorf("decisions analysed: %v", kinds)
	}
	t.Logf("decisions analysed: %v", kinds)
	rows := teacher.csvRows("/t/" + code + "/decisions.csv")
	approximate := 0
	for _, r := range rows {
		if r["analysis"] == "approximate" {
			approximate++
		}
	}
	if want := kinds["3 seats, approximate true"] + kinds["4 seats, approximate true"]; approximate < want {
		t.Errorf("decisions.csv says %d approximate, the store %d (and the bots')", approximate, want)
	}
	// The podium on the class's screen does not explain approximations
	// (issue 32: words for the class); the teacher's dashboard does.
	theirs := 0
	for _, e := range events {
		if m := byMatch[e.MatchID]; m.Variant.Seats == 4 && e.By == play.ByStudent && e.Analysis != nil {
			theirs++
		}
	}
	podium := teacher.get("/t/" + code + "/projector/results")
	if got := podium.Find(`[data-testid="podium-approximate"]`).Text(); got != "" || podium.Find(`[data-testid="award"]`).Length() == 0 {
		t.Errorf("the class's podium explains approximations: %q", got)
	}
	if got := teacher.get("/t/" + code).Find(`[data-testid="dash-approximate"]`).Text(); theirs == 0 || !strings.Contains(got, "approximate") {
		t.Errorf("the dashboard does not explain the %d approximate decisions: %q", theirs, got)
	}
	matches := teacher.csvRows("/t/" + code + "/matches.csv")
	if len(matches) != 4 {
		t.Fatalf("%d matches, want 3 of three seats and 1 of four", len(matches))
	}
	last := matches[3]
	if got := strings.Count(last["players"], ";"); got != 3 || !strings.Contains(last["players"], "Hold-20 bot") || strings.Count(last["places"], ";") != 3 {
		t.Errorf("four-seat match: %v", last)
	}
	doc := teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"11"}})
	if !strings.Contains(doc.Find("#round-seats-error").Text(), "Players per match: a whole number from 2 to 10") {
		t.Errorf("eleven seats: %q", doc.Find("#round-seats-error").Text())
	}
}

// TestNextRoundReachesAFinishedBoard: a student looking at a finished
// match learns when the next round has begun.
func TestNextRoundReachesAFinishedBoard(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	s := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	st, _ := readBoard(s.b.get("/c/" + code))
	playRound(t, code, []*student{s})
	board := s.b.get(strings.TrimSuffix(st.act, "/act") + "/board")
	next := board.Find(`[data-testid="next-poll"]`).AttrOr("hx-get", "")
	if next == "" {
		t.Fatal("a finished class board does not poll for the next round")
	}
	s.b.get(next)
	if s.b.status() != http.StatusNoContent {
		t.Errorf("before the next round: %d, want 204", s.b.status())
	}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"hog"}, "target": {"100"}, "max_dice": {"10"}, "mode": {"bot"}, "bot": {"optimal"}})
	s.b.get(next)
	if s.b.status() != http.StatusOK || s.b.last.Header.Get("HX-Redirect") != "/c/"+code {
		t.Errorf("after: %d, HX-Redirect %q", s.b.status(), s.b.last.Header.Get("HX-Redirect"))
	}
}

// TestFirstPlayerChartWithEqualTurns: a class that played Pig to 50 under
// both rules sees both beside their exact values.
func TestFirstPlayerChartWithEqualTurns(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	students := []*student{{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}, {b: join(t, a, code, "Bo"), nick: "Bo", holdAt: 15}}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"50"}, "mode": {"pairs"}, "bot": {"optimal"}})
	playRound(t, code, students)
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"50"}, "equal_turns": {"on"}, "mode": {"pairs"}, "bot": {"optimal"}})
	playRound(t, code, students)
	rows := teacher.get("/t/" + code + "?chart=first-player").Find(`[data-testid="chart-first-player"] tbody tr`)
	if rows.Length() != 4 {
		t.Fatalf("%d rows in the first-player table, want 4", rows.Length())
	}
	eq := sim.Standard(sim.Pig)
	eq.Target, eq.EqualTurns = 50, true
	e, _ := solve.SolveEqualTurns(eq)
	want := fmt.Sprintf("%.1f%%", 100*e.FirstPlayerWin())
	if got := rows.Eq(3).Find("td").Eq(4).Text(); got != want || !strings.Contains(rows.Eq(2).Text(), "equal turns") {
		t.Errorf("equal turns row %q, want %s", rows.Eq(3).Text(), want)
	}
}

// TestWaitingPagePollsCheaply: a waiting student's page asks the cheap
// next endpoint, which answers 204 until a round begins.
func TestWaitingPagePollsCheaply(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	s := join(t, a, code, "Ana")
	poll := s.get("/c/"+code).Find(`[data-testid="waiting"]`).AttrOr("hx-get", "")
	if poll != "/c/"+code+"/next?lang=en&hw=0&lesson=" { // the homework version it was drawn at (issue 43), and the lesson's place (none)
		t.Fatalf("the waiting page polls %q", poll)
	}
	s.get(poll)
	if s.status() != http.StatusNoContent {
		t.Errorf("before the round: %d", s.status())
	}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	s.get(poll)
	if s.last.Header.Get("HX-Redirect") != "/c/"+code {
		t.Errorf("after the round starts: %d %q", s.status(), s.last.Header.Get("HX-Redirect"))
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLuckAsStored: the luck the charts read for each throw of a class's
// real round (the next position's chance less the throw's own) equals
// the table's (sim/solve's Table.Luck) for students' and bots' throws
// alike; with the decisions' costs it accounts for each match's change of
// chances exactly; the podium's luckiest dice is the one with most of it.
func TestLuckAsStored(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	students := []*student{{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 25}, {b: join(t, a, code, "Bo"), nick: "Bo", holdAt: 12}}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}})
	playRound(t, code, students)
	tab, err := solve.Solve(sim.Standard(sim.Pig))
	if err != nil {
		t.Fatal(err)
	}
	ds, err := a.store.Decisions(t.Context(), store.ChartFilter{ClassID: mustClass(t, a, code).ID}, false)
	if err != nil {
		t.Fatal(err)
	}
	type game struct {
		net     [2]float64 // each seat's -cost + luck
		winner  int
		first   int
		checked int
	}
	games := map[int64]*game{}
	for _, d := range ds {
		g := games[d.MatchID]
		if g == nil {
			g = &game{first: d.FirstSeat, winner: -1}
			games[d.MatchID] = g
		}
		g.net[d.Seat] -= d.Cost
		if d.Faces.Len() == 0 {
			continue
		}
		want, err := tab.Luck(d.Score, d.Opponent, d.TurnTotal, d.Action, &d.Faces)
		if err != nil {
			t.Fatal(err)
		}
		if !d.HasLuck || math.Abs(d.Luck-want) > 1e-12 {
			t.Fatalf("match %d event %d: luck %v (%v), the table's %v", d.MatchID, d.Seq, d.Luck, d.HasLuck, want)
		}
		g.net[d.Seat] += d.Luck
		g.checked++
	}
	for _, m := range teacher.csvRows("/t/" + code + "/matches.csv") {
		id, _ := strconv.ParseInt(m["match"], 10, 64)
		g := games[id]
		if g == nil || g.checked == 0 {
			t.Fatalf("match %d has no throws", id)
		}
		// The seats from 0 in the engine's order: the first mover's seat
		// and the winner's, from the live state.
		for _, lm := range a.srv.room.Hall().Matches() {
			if lm.ID == id {
				g.winner = lm.State.Winner
			}
		}
		start := tab.FirstPlayerWin()
		for seat := range 2 {
			s := start
			if seat != g.first {
				s = 1 - start
			}
			end := 0.0
			if g.winner == seat {
				end = 1
			}
			if got := g.net[seat] - g.net[1-seat]; math.Abs(got-(end-s)) > 1e-9 {
				t.Errorf("match %d seat %d: skill and luck add to %v, the chance changed by %v", id, seat, got, end-s)
			}
		}
	}
}

// TestOptimalBotPlaysTheThreePlayerTable: once the three-player table is
// solved, the perfect-play bot plays it: every bot decision of three-seat
// rounds of Pig to 50 is perfect play's by the exact analysis (cost 0), and
// the board no longer says the bot approximates. Rounds are played until
// one reaches a position where the two-player approximation would move
// otherwise, so the test tells the two apart.
func TestOptimalBotPlaysTheThreePlayerTable(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	v := sim.Standard(sim.Pig)
	v.Target, v.Seats = 50, 3
	if _, err := a.srv.tables.MultiWait(v); err != nil {
		t.Fatal(err)
	}
	two := v
	two.Seats = 2
	approximate, err := solve.ParseStrategy("optimal", two, a.srv.tables)
	if err != nil {
		t.Fatal(err)
	}
	students := []*student{{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 10}, {b: join(t, a, code, "Bo"), nick: "Bo", holdAt: 15}}
	// Each match's dice bring the bots, whoever of the two plays it, to a
	// position where the exact table and the approximation part.
	a.dealEach(t, 2, "the bots reach a position the approximation decides otherwise", func(s *sim.Seed) bool {
		return botsPart(a.srv.tables, v, *s, approximate, 10) && botsPart(a.srv.tables, v, *s, approximate, 15)
	})
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"50"}, "mode": {"bot"}, "bot": {"optimal"}, "seats": {"3"}})
	if n := students[0].b.get("/c/" + code).Find(`[data-testid="approximate"]`).Length(); n != 0 {
		t.Fatal("the board says the bot approximates with the table solved")
	}
	playRound(t, code, students)
	bots, apart := 0, 0
	for _, r := range teacher.csvRows("/t/" + code + "/decisions.csv") {
		if r["by"] != "bot" {
			continue
		}
		bots++
		if r["analysis"] != "exact" || r["agrees_with_optimal"] != "true" || r["cost_pct_points"] != "0" {
			t.Errorf("a bot decision: %v", r)
		}
		score, _ := strconv.Atoi(r["score"])
		leader, _ := strconv.Atoi(r["leader_score"])
		total, _ := strconv.Atoi(r["turn_total"])
		if approximate.Decide(sim.Position{Variant: v, Score: score, Opponent: leader, TurnTotal: total}).String() != r["best_action"] {
			apart++
		}
	}
	if apart == 0 {
		t.Errorf("in %d bot decisions no position told the exact table from the two-player approximation", bots)
	}
}

// botsPart plays a match of v on seed as a round plays it (the student at
// seat 0 rolling to holdAt, the optimal bots at the other seats playing
// the exact table's best, as the analysis advises) and reports whether a
// bot meets a position, as decisions.csv writes it, that approximate
// decides otherwise.
func botsPart(tables *solve.Cache, v sim.Variant, seed sim.Seed, approximate sim.Strategy, holdAt int) bool {
	m, err := sim.NewMatch(v, seed)
	if err != nil {
		return false
	}
	for st := m.State(); !st.Over; st = m.State() {
		a := sim.Hold
		if st.Seat == 0 && st.TurnTotal < holdAt {
			a = sim.Roll
		}
		if st.Seat != 0 {
			adv, _, err := play.Advise(tables, &st)
			if err != nil {
				return false
			}
			p := st.Position()
			if a = adv.Best; approximate.Decide(sim.Position{Variant: p.Variant, Score: p.Score, Opponent: p.Opponent, TurnTotal: p.TurnTotal}) != a {
				return true
			}
		}
		if _, err := m.Apply(st.Seat, a); err != nil {
			return false
		}
	}
	return false
}

// TestRoundFormRemembersTheLastRound (issue 32, item 7): after a round,
// the dashboard's round form holds that round's choices (game, target,
// most dice, seconds per roll, opponents, bot, players), not Pig to 100's
// defaults; asking for another game's form gives that game's defaults.
func TestRoundFormRemembersTheLastRound(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	join(t, a, code, "Ana")
	join(t, a, code, "Bo")
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"hog"}, "target": {"60"}, "max_dice": {"8"}, "deadline": {"30"}, "mode": {"pairs"}, "bot": {"dice:3"}, "seats": {"2"}})
	doc := teacher.get("/t/" + code)
	field := func(sel string) string {
		if s := doc.Find(`form[action$="/rounds"] ` + sel); s.Is("select") {
			return s.Find("option[selected]").AttrOr("value", "")
		} else if s.Is(`input[type="radio"]`) {
			return s.Filter("[checked]").AttrOr("value", "")
		} else {
			return s.AttrOr("value", "")
		}
	}
	for sel, want := range map[string]string{`[name="game"]`: "hog", `[name="target"]`: "60", `[name="max_dice"]`: "8", `[name="deadline"]`: "30", `[name="mode"]`: "pairs", `[name="bot"]`: "dice:3"} {
		if got := field(sel); got != want {
			t.Errorf("the form's %s is %q, want the last round's %q", sel, got, want)
		}
	}
	doc = teacher.get("/t/" + code + "?game=pig")
	if got := field(`[name="target"]`); got != "100" {
		t.Errorf("Pig's form: target %q, want its default 100", got)
	}
}

// TestPodiumSpeaksToChildren (issue 32, items 8 and 10; issue 42): the
// podium's figures are said in plain words, never in percentage points;
// the teacher's with one percentage each, the class's shared screen's
// with none.
func TestPodiumSpeaksToChildren(t *testing.T) {
	l := i18n.For("en")
	for _, shared := range []bool{false, true} {
		for _, a := range []report.Award{
			{Kind: report.MostWins, Wins: 2},
			{Kind: report.BestDecisions, CostPerDecision: 0.0041, Decisions: 12},
			{Kind: report.LuckiestDice, Luck: 0.824},
			{Kind: report.BoldestHold, Boldest: 35},
		} {
			label, value := awardWords(l, a, shared, 1)
			if strings.Contains(value, "percentage point") || label == "" || value == "" || shared && strings.Contains(value, "%") {
				t.Errorf("%v (shared %t): %q %q", a.Kind, shared, label, value)
			}
		}
	}
	if _, v := awardWords(l, report.Award{Kind: report.BestDecisions, CostPerDecision: 0.0041, Decisions: 12}, false, 1); !strings.Contains(v, "0.41%") || !strings.Contains(v, "12 decisions") {
		t.Errorf("best decisions: %q", v)
	}
	if _, v := awardWords(l, report.Award{Kind: report.LuckiestDice, Luck: 0.824}, false, 1); !strings.Contains(v, "82.4%") {
		t.Errorf("luckiest dice: %q", v)
	}
	if _, v := awardWords(l, report.Award{Kind: report.BestDecisions, CostPerDecision: 0.0041, Decisions: 12}, true, 1); !strings.Contains(v, "closest to perfect play") || !strings.Contains(v, "12 decisions") {
		t.Errorf("best decisions on the shared screen: %q", v)
	}
	if _, v := awardWords(l, report.Award{Kind: report.LuckiestDice, Luck: 0.824}, true, 1); v != "their dice gave them the most help" {
		t.Errorf("luckiest dice on the shared screen: %q", v)
	}
}

// TestReviewSaysAPatternOnce (issue 32, item 10): the same choice made
// against perfect play's three times or more is said once, with its count
// and the turn totals it was made at, its cards under it; the others stay
// cards of their own, in the order they were made.
func TestReviewSaysAPatternOnce(t *testing.T) {
	l := i18n.For("en")
	row := func(n, total int, chose, best string) templates.ReviewRow {
		return templates.ReviewRow{N: n, TurnTotal: total, Action: chose, Best: best}
	}
	differs := []templates.ReviewRow{row(1, 2, "hold", "roll"), row(2, 30, "roll", "hold"), row(3, 5, "hold", "roll"), row(4, 4, "hold", "roll"),
		row(5, 3, "hold", "roll"), row(6, 28, "roll", "hold")}
	single, patterns := reviewPatterns(l, "", differs, false)
	if len(patterns) != 1 || len(patterns[0].Cards) != 4 || len(single) != 2 || single[0].N != 2 || single[1].N != 6 {
		t.Fatalf("patterns %+v, single %+v", patterns, single)
	}
	if want := "You chose hold where perfect play chose roll, 4 times, with a turn total from 2 to 5."; patterns[0].Text != want {
		t.Errorf("the pattern: %q, want %q", patterns[0].Text, want)
	}
	// The same turn total each time is said once; the teacher's look says
	// it of the student (issue 43, item 5).
	same := []templates.ReviewRow{row(1, 20, "hold", "roll"), row(2, 20, "hold", "roll"), row(3, 20, "hold", "roll")}
	if _, p := reviewPatterns(l, "Ana", same, false); len(p) != 1 || p[0].Text != "Ana chose hold where perfect play chose roll, 3 times, with a turn total of 20." {
		t.Errorf("a pattern at one turn total, of Ana: %+v", p)
	}
}
