package server

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// TestAClassRunsTheLab (issue 62): the teacher poses "how often does hold
// at 25, moving first, beat hold at 20 at Pig to 100?"; three students run
// experiments of 200 to 5,000 games; each run is the games its published
// seed plays (replayed here), its interval Wilson's; the class pools
// them; revealed, the lab's chart gives the exact answer (the duel's, by
// policy evaluation) and how many intervals hold it, counted here.
func TestAClassRunsTheLab(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	kids := map[string]*browser{}
	for _, n := range []string{"Ana", "Bo", "Cy"} {
		kids[n] = join(t, a, code, n)
	}
	if got := kids["Ana"].get(paths.StudentLab.For(code)).Find(`[data-testid="lab-none"]`).Length(); got != 1 {
		t.Errorf("the lab before a question does not say there is none")
	}
	teacher.post(paths.PoseLab.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "first": {"dice:3"}, "second": {"hold:20"}})
	if teacher.status() != http.StatusUnprocessableEntity || !strings.Contains(teacher.body, "dice bots play Hog only") {
		t.Errorf("posing a question Pig cannot ask: %d", teacher.status())
	}
	teacher.post(paths.PoseLab.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "first": {"hold:25"}, "second": {"hold:20"}})
	if teacher.status() != http.StatusOK || !strings.Contains(teacher.get(paths.Teacher.For(code)).Find(`[data-testid="lab-posed"]`).Text(), "In Pig to 100, how often does the player who moves first") {
		t.Fatalf("posing the question: %d", teacher.status())
	}
	v := sim.Standard(sim.Pig)
	type run struct {
		games, wins int
		seed        string
	}
	var runs []run
	for name, games := range map[string]int{"Ana": 200, "Bo": 1000, "Cy": 5000} {
		page := kids[name].post(paths.StudentLab.For(code), url.Values{"games": {fmt.Sprint(games)}})
		row := page.Find(`[data-testid="lab-run-row"]`).First()
		cells := row.Find("td")
		seed := strings.TrimSpace(cells.Eq(4).Text())
		replay, err := sim.Experiment(t.Context(), v, sim.HoldAt(25), sim.HoldAt(20), games, seed)
		if err != nil {
			t.Fatal(err)
		}
		if got := cells.Eq(1).Text(); got != i18n.For("en").Int(replay.Wins) || cells.Eq(0).Text() != i18n.For("en").Int(games) {
			t.Errorf("%s's run of %d games won %s; its seed %s plays %d wins", name, games, got, seed, replay.Wins)
		}
		lo, hi := wilson(replay.Wins, games)
		if want := fmt.Sprintf("%.1f%% to %.1f%%", 100*lo, 100*hi); cells.Eq(3).Text() != want {
			t.Errorf("%s's interval %q, want %q", name, cells.Eq(3).Text(), want)
		}
		if page.Find(`[data-testid="chart-lab-path"]`).Length() != 1 {
			t.Errorf("%s's run shows no path", name)
		}
		if want := fmt.Sprintf("pigclass simulate --game pig --target 100 --players hold:25,hold:20 --games %d --seed %s", games, seed); page.Find(`[data-testid="lab-replay"] code`).Text() != want {
			t.Errorf("%s's run says to replay it with %q, want %q", name, page.Find(`[data-testid="lab-replay"] code`).Text(), want)
		}
		runs = append(runs, run{games, replay.Wins, seed})
	}
	if got := kids["Ana"].post(paths.StudentLab.For(code), url.Values{"games": {"9"}}).Find(`[data-testid="lab-error"]`).Text(); !strings.Contains(got, "10 to 100,000") {
		t.Errorf("9 games: %q", got)
	}
	// Ana asks a question of her own: her run is hers, and the class's
	// pool of the teacher's question does not take it.
	own := url.Values{"game": {"pig"}, "target": {"50"}, "first": {"kper"}, "second": {"hold:20"}}
	if page := kids["Ana"].get(paths.StudentLab.For(code) + "?" + own.Encode()); page.Find(`[data-testid="lab-own"]`).Length() != 1 || page.Find(`[data-testid="lab-posed-link"]`).Length() != 1 {
		t.Errorf("Ana's own question is not shown as hers, beside the teacher's")
	}
	bad := url.Values{"game": {"pig"}, "target": {"50"}, "first": {"dice:3"}, "second": {"hold:20"}}
	if got := kids["Ana"].get(paths.StudentLab.For(code) + "?" + bad.Encode()).Find(`[data-testid="lab-error"]`).Text(); !strings.Contains(got, "dice bots play Hog only") || kids["Ana"].status() != http.StatusUnprocessableEntity {
		t.Errorf("a question that cannot be asked: %d %q", kids["Ana"].status(), got)
	}
	own.Set("games", "300")
	page := kids["Ana"].post(paths.StudentLab.For(code), own)
	if got := page.Find(`[data-testid="lab-run-row"]`).Length(); got != 1 || !strings.Contains(page.Find(`[data-testid="lab-question"]`).Text(), "to 50") {
		t.Errorf("Ana's own question's page lists %d runs: %q", got, page.Find(`[data-testid="lab-question"]`).Text())
	}
	teacher.post(paths.RevealLab.For(code), url.Values{"reveal": {"1"}})
	exact, err := solve.Duel(v, sim.HoldAt(25), sim.HoldAt(20))
	if err != nil {
		t.Fatal(err)
	}
	covering := 0
	for _, r := range runs {
		if lo, hi := wilson(r.wins, r.games); lo <= exact && exact <= hi {
			covering++
		}
	}
	// The spread of the runs of 1,000 games or more (Bo's and Cy's): their
	// shares' standard deviation, beside chance's sqrt(p(1-p)/N) for their
	// mean size at the class's pooled share.
	var big []run
	pooledWins, pooledGames := 0, 0
	for _, r := range runs {
		pooledWins, pooledGames = pooledWins+r.wins, pooledGames+r.games
		if r.games >= 1000 {
			big = append(big, r)
		}
	}
	a0, a1 := float64(big[0].wins)/float64(big[0].games), float64(big[1].wins)/float64(big[1].games)
	sd := math.Abs(a0-a1) / math.Sqrt2
	p := float64(pooledWins) / float64(pooledGames)
	chance := math.Sqrt(p * (1 - p) / (float64(big[0].games+big[1].games) / 2))
	spread := teacher.get(paths.Teacher.For(code) + "?chart=lab-spread").Find(`[data-testid="chart-lab-spread"] [data-testid="chart-finding"]`).Text()
	if want := fmt.Sprintf("The 2 runs of 1,000 games or more spread %.2f percentage points (chance alone: about %.2f percentage points).", 100*sd, 100*chance); spread != want {
		t.Errorf("the spread chart says %q, want %q", spread, want)
	}
	finding := teacher.get(paths.Teacher.For(code) + "?chart=lab").Find(`[data-testid="chart-lab"] [data-testid="chart-finding"]`).Text()
	if want := fmt.Sprintf("%d of 3 intervals hold the exact answer, %.1f%%", covering, 100*exact); !strings.Contains(finding, want) {
		t.Errorf("the lab's chart says %q, want %q", finding, want)
	}
	// experiments.csv: every run, the exact answer beside the teacher's
	// question's runs alone, each row's interval Wilson's.
	rows := teacher.csvRows(paths.CSV(code, "experiments"))
	exactOn := 0
	for _, r := range rows {
		if r["exact_pct"] != "" {
			exactOn++
			if r["first"] != "hold:25" || !strings.HasPrefix(r["exact_pct"], fmt.Sprintf("%.6f", 100*exact)[:7]) {
				t.Errorf("a row's exact answer: %v", r)
			}
		}
	}
	if len(rows) != 4 || exactOn != 3 {
		t.Errorf("experiments.csv has %d rows, %d with the exact answer; want 4 and 3: %v", len(rows), exactOn, rows)
	}
}

// wilson is the 95% Wilson interval of k wins in n, from its formula.
func wilson(k, n int) (lo, hi float64) {
	z, p, nf := 1.959963984540054, float64(k)/float64(n), float64(n)
	c, h := (p+z*z/(2*nf))/(1+z*z/nf), z*math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))/(1+z*z/nf)
	return c - h, c + h
}

// TestALessonRunsTheLab: the lab's lesson poses its question at its
// phases (the runs made stay), sends the phones to the lab where a phase
// says so, and shows the exact answer at its last phase only.
func TestALessonRunsTheLab(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStartLesson(t, teacher, "10-how-sure-is-a-simulation")
	ana := join(t, a, code, "Ana")
	teacher.post(paths.LessonStart.For(code), url.Values{"confirm": {"yes"}})
	q, posed := operator(t, a, code).Class().LabQuestion()
	if !posed || q.First != "hold:25" || q.Second != "hold:20" || q.Variant.Target != 100 {
		t.Fatalf("the first phase poses %+v (%v)", q, posed)
	}
	teacher.post(paths.LessonNext.For(code), url.Values{"confirm": {"yes"}})
	if ana.get(paths.Student.For(code)).Find(`[data-testid="lab-now"]`).Length() != 1 {
		t.Errorf("the phase of 100 games each does not send Ana to the lab")
	}
	// The lab's form starts at the phase's number (issue 81, item 8).
	if got := ana.get(paths.StudentLab.For(code)).Find(`input[name="games"]`).AttrOr("value", ""); got != "100" {
		t.Errorf("in \"Run 100 games each\" the lab's games field says %s", got)
	}
	ana.post(paths.StudentLab.For(code), url.Values{"games": {"100"}})
	teacher.post(paths.LessonNext.For(code), url.Values{"confirm": {"yes"}})
	if got := ana.get(paths.StudentLab.For(code)).Find(`input[name="games"]`).AttrOr("value", ""); got != "10000" {
		t.Errorf("in \"Run bigger experiments\" (10,000 games) the lab's games field says %s", got)
	}
	teacher.post(paths.LessonNext.For(code), url.Values{"confirm": {"yes"}})
	if !operator(t, a, code).Class().LabRevealed {
		t.Errorf("the last phase does not reveal the exact answer")
	}
	teacher.post(paths.LessonBack.For(code), url.Values{"confirm": {"yes"}})
	class := operator(t, a, code).Class()
	if class.LabRevealed {
		t.Errorf("back a phase, the exact answer still shows")
	}
	if got := teacher.get(paths.Teacher.For(code) + "?chart=lab").Find(`[data-testid="chart-lab"] tbody tr`).Length(); got != 2 {
		t.Errorf("the lab's chart has %d rows after the phases, want Ana's run and the pool", got)
	}
}

// TestALabRunOfMyStrategy (issue 62, item 1: "which of my strategy and
// the keep-pace rule wins more?"): a student's plan from the strategy
// editor is a strategy of their lab, named as theirs; a run of it replays
// from its seed and by the command its page gives; a game or target the
// plan was not made for says which it was made for; the teacher poses
// no student's plan.
func TestALabRunOfMyStrategy(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	ana.post(paths.StudentPlan.For(code), url.Values{"form": {"hold"}, "hold": {"22"}})
	option := ana.get(paths.StudentLab.For(code)).Find(`[data-testid="lab-ask"] select[name="first"] option`).First()
	mine := option.AttrOr("value", "")
	if option.Text() != "my strategy (hold at 22)" || !sim.IsPlanName(mine) {
		t.Fatalf("the lab's first strategy is %q (%q), not Ana's plan", option.Text(), mine)
	}
	v := sim.Standard(sim.Pig)
	plan, err := sim.ReadPlan([]byte(mine), v)
	if err != nil || plan.Hold != 22 {
		t.Fatalf("the option's plan %q: %v", mine, err)
	}
	q := url.Values{"game": {"pig"}, "target": {"100"}, "first": {mine}, "second": {"kper"}, "games": {"2000"}}
	page := ana.post(paths.StudentLab.For(code), q)
	if got := page.Find(`[data-testid="lab-question"]`).Text(); !strings.Contains(got, "In Pig to 100, how often does the player who moves first and plays “my strategy (hold at 22)” beat") {
		t.Errorf("the question reads %q", got)
	}
	cells := page.Find(`[data-testid="lab-run-row"]`).First().Find("td")
	seed := strings.TrimSpace(cells.Eq(4).Text())
	kper, err := sim.ParseStrategy("kper", sim.Pig)
	if err != nil {
		t.Fatal(err)
	}
	replay, err := sim.Experiment(t.Context(), v, plan, kper, 2000, seed)
	if err != nil {
		t.Fatal(err)
	}
	if got := cells.Eq(1).Text(); got != i18n.For("en").Int(replay.Wins) {
		t.Errorf("the run of Ana's plan won %s; its seed %s plays %d wins", got, seed, replay.Wins)
	}
	want := fmt.Sprintf("echo '%s' > first.json && pigclass simulate --game pig --target 100 --players first.json,kper --games 2000 --seed %s", mine, seed)
	if got := page.Find(`[data-testid="lab-replay"] code`).Text(); got != want {
		t.Errorf("the replay is %q, want %q", got, want)
	}
	q.Set("target", "50")
	if got := ana.post(paths.StudentLab.For(code), q).Find(`[data-testid="lab-error"]`).Text(); !strings.Contains(got, "Your strategy is for Pig to 100") {
		t.Errorf("Ana's plan to 50: %d %q", ana.status(), got)
	}
	teacher.post(paths.PoseLab.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "first": {mine}, "second": {"kper"}})
	if teacher.status() != http.StatusUnprocessableEntity || !strings.Contains(teacher.body, "A student&#39;s own strategy is theirs") {
		t.Errorf("the teacher posed Ana's plan: %d", teacher.status())
	}
}
