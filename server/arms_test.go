package server

import (
	"math"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pigclass/server/play"
	"pigclass/server/report"
	"pigclass/templates/paths"
)

// armsPlayer plays a round of "Decide before you roll" by a number: a
// free player rolls while the turn total is below it, then holds; a
// committed one sets it as the plan of every turn.
type armsPlayer struct {
	b    *browser
	nick string
	at   int
	arm  string // as the board says it
	// planned: a turn of this match was planned, so the stepper starts
	// at the plan (match is the match it was in).
	planned bool
	match   string
}

// step plays the player's turn if it is theirs; it reports whether they
// still have a match on their page.
func (p *armsPlayer) step(t *testing.T, code string) bool {
	t.Helper()
	board := p.b.get("/c/" + code).Find(`[data-testid="board"]`)
	if board.Length() == 0 {
		return false
	}
	if arm := board.Find(`[data-testid="arm"]`).AttrOr("data-arm", ""); arm != "" {
		if p.arm != "" && p.arm != arm {
			t.Fatalf("%s was %s, now %s", p.nick, p.arm, arm)
		}
		p.arm = arm
	}
	seq := board.AttrOr("data-seq", "")
	plan := board.Find(`form[data-testid="plan-turn"]`)
	act := board.Find(`.actions form`)
	var form url.Values
	switch {
	case plan.Length() > 0:
		if act.Length() > 0 {
			t.Fatalf("%s is committed but has the buttons too", p.nick)
		}
		match := board.AttrOr("data-match", plan.AttrOr("action", ""))
		if got := plan.Find(`input[name="until"]`).AttrOr("value", ""); p.planned && p.match == match && got != strconv.Itoa(p.at) {
			t.Errorf("%s's stepper starts at %q, not at the last plan %d", p.nick, got, p.at)
		}
		p.planned, p.match = true, match
		form = url.Values{"seq": {seq}, "action": {"until"}, "until": {strconv.Itoa(p.at)}}
	case act.Length() > 0:
		tt, _ := strconv.Atoi(board.Find(`[data-testid="turn-total"]`).Text())
		form = url.Values{"seq": {seq}, "action": {"hold"}}
		if tt < p.at {
			form.Set("action", "roll")
		}
	default:
		return board.Find(`[data-testid="result"]`).Length() == 0
	}
	to := plan.AttrOr("action", act.AttrOr("action", ""))
	doc := p.b.post(to, form)
	if e := doc.Find(`[data-testid="board-error"]`).Text(); p.b.status() != http.StatusOK || e != "" {
		t.Fatalf("%s %v: %d %s", p.nick, form, p.b.status(), e)
	}
	return true
}

// TestDecideBeforeYouRoll: a round of the experiment draws the students
// into two even arms, says each their arm, and keeps it in the next
// round; a committed player's turn is played by their plan (and a roll of
// theirs, a plan of a free player, a plan out of bounds and the
// experiment in Hog are refused, saying why); decisions.csv names each
// decision's arm, and the chart's randomization test agrees with the
// p-value worked out from decisions.csv by enumerating every way the
// labels could have fallen.
func TestDecideBeforeYouRoll(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	var players []*armsPlayer
	for i, nick := range []string{"Ada", "Ben", "Cyd", "Dov", "Eli", "Fay", "Gus", "Hal"} {
		players = append(players, &armsPlayer{b: join(t, a, code, nick), nick: nick, at: 8 + 3*i})
	}
	doc := teacher.post(paths.Rounds.For(code), url.Values{"game": {"hog"}, "target": {"50"}, "mode": {"bot"}, "bot": {"dice:5"}, "max_dice": {"10"}, "arms": {"on"}})
	if msg := doc.Find(`[role="alert"]`).Text(); teacher.status() != http.StatusUnprocessableEntity || !strings.Contains(msg, "not Hog") {
		t.Fatalf("the experiment in Hog: %d %q", teacher.status(), msg)
	}
	round := url.Values{"game": {"pig"}, "target": {"50"}, "mode": {"bot"}, "bot": {"hold:20"}, "arms": {"on"}}
	startRound(t, teacher, code, round)
	refusals(t, players)
	playArms(t, code, players)
	arms := map[string]string{}
	n := map[string]int{}
	for _, p := range players {
		arms[p.nick] = p.arm
		n[p.arm]++
	}
	if n["free"] != 4 || n["committed"] != 4 {
		t.Fatalf("the arms %v: not 4 and 4", arms)
	}
	startRound(t, teacher, code, round)
	playArms(t, code, players)
	for _, p := range players {
		if p.arm != arms[p.nick] {
			t.Errorf("%s moved from %s to %s", p.nick, arms[p.nick], p.arm)
		}
	}
	costs, committed := checkArmDecisions(t, teacher.csvRows("/t/"+code+"/decisions.csv"), players)
	finding := teacher.get(paths.Teacher.For(code) + "?chart=arms").Find(`[data-testid="chart-arms"] [data-testid="chart-finding"]`).Text()
	checkArmsFinding(t, finding, costs, committed)
}

// refusals: a committed player's roll, a free player's plan and a plan
// out of bounds are refused with words that say what to do, and move
// nothing.
func refusals(t *testing.T, players []*armsPlayer) {
	t.Helper()
	tried := map[string]bool{}
	for _, p := range players {
		doc := p.b.get(p.b.path())
		board := doc.Find(`[data-testid="board"]`)
		p.arm = board.Find(`[data-testid="arm"]`).AttrOr("data-arm", "")
		form := board.Find(`form[data-testid="plan-turn"], .actions form`).First()
		if tried[p.arm] || form.Length() == 0 {
			continue
		}
		tried[p.arm] = true
		seq := board.AttrOr("data-seq", "")
		tries := map[string]url.Values{
			"committed": {"seq": {seq}, "action": {"roll"}},
			"free":      {"seq": {seq}, "action": {"until"}, "until": {"20"}},
		}
		want := map[string]string{"committed": "committed group", "free": "free group"}[p.arm]
		doc = p.b.post(form.AttrOr("action", ""), tries[p.arm])
		if e := doc.Find(`[data-testid="board-error"]`).Text(); !strings.Contains(e, want) || doc.Find(`[data-testid="board"]`).AttrOr("data-seq", "") != seq {
			t.Errorf("%s (%s) tried %v: %q, seq %s", p.nick, p.arm, tries[p.arm], e, doc.Find(`[data-testid="board"]`).AttrOr("data-seq", ""))
		}
		if p.arm == "committed" {
			p.b.post(form.AttrOr("action", ""), url.Values{"seq": {seq}, "action": {"until"}, "until": {"0"}})
			if p.b.status() != http.StatusUnprocessableEntity || !strings.Contains(p.b.body, "from 1 to 100") {
				t.Errorf("a plan of 0: %d", p.b.status())
			}
		}
	}
	if len(tried) != 2 {
		t.Fatalf("tried the arms %v", tried)
	}
}

// playArms plays until no player has a match.
func playArms(t *testing.T, code string, players []*armsPlayer) {
	t.Helper()
	for range 5000 {
		busy := false
		for _, p := range players {
			busy = p.step(t, code) || busy
		}
		if !busy {
			return
		}
	}
	t.Fatal("the round did not end")
}

// checkArmDecisions reads the players' decisions in decisions.csv: each
// names the arm the board said; a committed player's turns followed
// their plan (a roll while the turn total was below it and the target
// out of reach, then a hold); it returns each player's mean cost per
// game (percentage points) and arm, in the order of players.
func checkArmDecisions(t *testing.T, rows []map[string]string, players []*armsPlayer) ([]float64, []bool) {
	t.Helper()
	type game struct{ student, match string }
	cost := map[game]float64{}
	for _, r := range rows {
		if r["by"] != "student" {
			continue
		}
		var p *armsPlayer
		for _, q := range players {
			if q.nick == r["student"] {
				p = q
			}
		}
		if p == nil || r["arm"] != p.arm {
			t.Fatalf("a decision of %s in arm %q", r["student"], r["arm"])
		}
		if want := map[bool]string{true: strconv.Itoa(p.at)}[p.arm == string(play.Committed)]; r["plan"] != want {
			t.Errorf("%s (%s): a decision's plan %q, want %q", p.nick, p.arm, r["plan"], want)
		}
		if p.arm == string(play.Committed) {
			tt, _ := strconv.Atoi(r["turn_total"])
			score, _ := strconv.Atoi(r["score"])
			want := "hold"
			if tt < p.at && score+tt < 50 {
				want = "roll"
			}
			if r["action"] != want {
				t.Errorf("%s planned %d: %s at turn total %d, score %d", p.nick, p.at, r["action"], tt, score)
			}
		}
		c, err := strconv.ParseFloat(r["cost_pct_points"], 64)
		if err != nil {
			t.Fatalf("cost %q: %v", r["cost_pct_points"], err)
		}
		cost[game{r["student"], r["match"]}] += c
	}
	var costs []float64
	var committed []bool
	for _, p := range players {
		var sum float64
		var games int
		for g, c := range cost {
			if g.student == p.nick {
				sum += c
				games++
			}
		}
		if games != 2 {
			t.Fatalf("%s played %d games", p.nick, games)
		}
		costs = append(costs, sum/float64(games))
		committed = append(committed, p.arm == string(play.Committed))
	}
	return costs, committed
}

// checkArmsFinding reads the chart's finding: the arms' means as
// decisions.csv gives them, and a p-value within 4 standard errors of the
// exact one, every way of choosing the committed four of eight counted by
// an independent loop.
func checkArmsFinding(t *testing.T, finding string, costs []float64, committed []bool) {
	t.Helper()
	var mean [2]float64
	for i, c := range costs {
		k := 0
		if committed[i] {
			k = 1
		}
		mean[k] += c / 4
	}
	obs := mean[1] - mean[0]
	var all, far int
	for mask := range 1 << len(costs) {
		var sum [2]float64
		var n int
		for i, c := range costs {
			k := (mask >> i) & 1
			sum[k] += c
			n += k
		}
		if n != 4 {
			continue
		}
		all++
		if math.Abs(sum[1]/4-sum[0]/4) >= math.Abs(obs)-1e-6 {
			far++
		}
	}
	exact := float64(far) / float64(all)
	for k, arm := range []string{"free", "committed"} {
		if want := strconv.FormatFloat(mean[k], 'f', 2, 64) + " percentage points"; !strings.Contains(finding, want) {
			t.Errorf("the %s arm's mean: want %q in %q", arm, want, finding)
		}
	}
	m := regexp.MustCompile(`at least as big as ours ([\d,]+) times in 10,000 \(p = ([\d.]+)\)`).FindStringSubmatch(finding)
	if m == nil {
		t.Fatalf("no p-value in %q", finding)
	}
	atLeast, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
	p := float64(atLeast) / report.ArmsShuffles
	if se := math.Sqrt(exact * (1 - exact) / report.ArmsShuffles); math.Abs(p-exact) > 4*se+1e-9 || m[2] != strconv.FormatFloat(p, 'f', 3, 64) {
		t.Errorf("p = %s (%d reshuffles), the enumeration's %v (sd %v)", m[2], atLeast, exact, se)
	}
	t.Logf("costs %v committed %v: exact p %v, the chart's %v", costs, committed, exact, p)
}
