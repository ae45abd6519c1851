package server

import (
	"encoding/json"
	"math"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates/paths"
)

// TestPassThePigsClassRound: a round of Pass the Pigs played through the
// forms like any dice game: the board draws the pigs and names their
// landings, every decision is analysed exactly from the Pass the Pigs
// table, the CSV writes each throw's landings as marks, and the match's
// record verifies against the pigs its seed throws.
func TestPassThePigsClassRound(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	s := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 15}
	form := teacher.get("/t/" + code + "?game=pass-the-pigs")
	if got := form.Find(`select[name="bot"] option[selected]`).AttrOr("value", ""); got != "hold:23" {
		t.Errorf("the round form's bot for Pass the Pigs is %q, want its rule of thumb hold:23", got)
	}
	// Ana moves first and her first throw scores, so the board draws the
	// pigs of a throw before the optimal bot can throw to 50.
	a.deal(t, "Ana moves first and her first throw of the pigs scores", pigsFirstThrowScores)
	startRound(t, teacher, code, url.Values{"game": {"pass-the-pigs"}, "target": {"50"}, "mode": {"bot"}, "bot": {"optimal"}})
	if !s.step(t, code) {
		t.Fatal("Ana has no match to play")
	}
	doc := s.b.get("/c/" + code)
	pigs := doc.Find(`[data-testid="pig"]`)
	if pigs.Length() != 2 || doc.Find(`svg.die`).Length() != 0 {
		t.Fatalf("after Ana's first throw the board draws %d pigs and %d dice", pigs.Length(), doc.Find(`svg.die`).Length())
	}
	pigs.Each(func(_ int, p *goquery.Selection) {
		if name := p.Find("figcaption").Text(); name == "" || strings.ContainsAny(name, "0123456789") {
			t.Errorf("a pig named %q", name)
		}
	})
	playRound(t, code, []*student{s})
	v := sim.Standard(sim.PassPigs)
	v.Target = 50
	table, err := solve.Solve(v)
	if err != nil {
		t.Fatal(err)
	}
	rows := teacher.csvRows(paths.DecisionsCSV.For(code))
	checkLandingsChart(t, teacher, code)
	n := 0
	for _, r := range rows {
		if r["by"] != "student" || r["action"] == "timeout" {
			continue
		}
		n++
		score, _ := strconv.Atoi(r["score"])
		opp, _ := strconv.Atoi(r["leader_score"])
		k, _ := strconv.Atoi(r["turn_total"])
		adv := table.Advise(score, opp, k)
		roll, _ := strconv.ParseFloat(r["win_if_roll_pct"], 64)
		if r["game"] != "pass-the-pigs" || r["analysis"] != "exact" || math.Abs(roll/100-adv.Roll) > 1e-12 || r["best_action"] != adv.Best.String() {
			t.Errorf("row %v: the table's roll %.6f, best %v", r, adv.Roll, adv.Best)
		}
		if f := r["faces"]; r["action"] == "roll" && !pigMarks(f) {
			t.Errorf("a roll's faces %q, want two landings as marks 1 to 7", f)
		}
	}
	if n != s.actions || n == 0 {
		t.Errorf("%d decisions in the CSV, %d made", n, s.actions)
	}
	home := s.b.get("/c/" + code)
	link := home.Find(`a[href^="/c/`+code+`/m/"]`).AttrOr("href", "")
	s.b.get(link + "/record.json")
	var rec sim.Record
	if err := json.Unmarshal([]byte(s.b.body), &rec); err != nil {
		t.Fatalf("record: %v\n%s", err, s.b.body)
	}
	if got, err := sim.Verify(rec); err != nil || !got.State.Over || rec.Variant.Game != sim.PassPigs {
		t.Errorf("the record of %s does not verify: %v", rec.Variant.Game, err)
	}
}

// pigMarks reports whether a CSV faces cell is two pigs' landings.
func pigMarks(cell string) bool {
	f := strings.Fields(cell)
	for _, m := range f {
		if n, err := strconv.Atoi(m); err != nil || n < 1 || n > 7 {
			return false
		}
	}
	return len(f) == 2
}

// checkLandingsChart: the class's pig-landings chart counts every pig of
// the class's Pass the Pigs throws (decisions.csv's faces, the bot's rolls
// too), landing by landing, and the dice chart counts none of them.
func checkLandingsChart(t *testing.T, teacher *browser, code string) {
	t.Helper()
	want := map[string]int{}
	pigs := 0
	for _, r := range teacher.csvRows(paths.DecisionsCSV.For(code)) {
		if r["action"] == "roll" {
			for _, m := range strings.Fields(r["faces"]) {
				want[m]++
				pigs++
			}
		}
	}
	doc := teacher.get("/t/" + code + "?chart=pig-landings")
	got, counted := map[string]int{}, 0
	doc.Find(`[data-testid="chart-pig-landings"] tbody tr`).Each(func(i int, tr *goquery.Selection) {
		n, _ := strconv.Atoi(strings.ReplaceAll(tr.Find("td").Eq(1).Text(), ",", ""))
		if i < 6 {
			got[strconv.Itoa(i+1)] = n
			counted += n
		} else {
			got["7"] = 2 * n
			counted += 2 * n
		}
	})
	if counted == 0 || counted != pigs {
		t.Errorf("the chart counts %d pigs, the rolls of decisions.csv threw %d", counted, pigs)
	}
	for m, n := range want {
		if got[m] != n {
			t.Errorf("landing %s: the chart counts %d, decisions.csv %d", m, got[m], n)
		}
	}
	if empty := doc.Find(`[data-testid="chart-class-dice"] .empty`).Length(); teacher.get("/t/"+code+"?chart=class-dice").Find(`[data-testid="chart-class-dice"] .empty`).Length() != 1 {
		t.Errorf("the dice chart counts the pigs as dice (%d)", empty)
	}
}
