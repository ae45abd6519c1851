package charts

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
	"pigclass/templates/i18n"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// fixedClass is a small class whose charts are worked out by hand: Ana
// holds at 20 once from 0-0; Bo rolls a 1 on 12 and holds on nothing; both
// play one Hog turn.
// en is the English localizer the tests read charts in.
var en = i18n.For("en")

func fixedClass() []store.Decision {
	return []store.Decision{
		{Student: "Ana", Anon: "Calm Otter", StudentID: 1, MatchID: 1, MatchSeats: 2, Action: sim.Roll, Score: 0, Opponent: 0, TurnTotal: 0, Roll: 0, Faces: facesOf(6), Best: sim.Roll, EV: sim.Roll, Analysed: true},
		{Student: "Ana", Anon: "Calm Otter", StudentID: 1, MatchID: 1, MatchSeats: 2, Action: sim.Roll, Score: 0, Opponent: 0, TurnTotal: 6, Roll: 1, Faces: facesOf(6), Best: sim.Roll, EV: sim.Roll, Analysed: true},
		{Student: "Ana", Anon: "Calm Otter", StudentID: 1, MatchID: 1, MatchSeats: 2, Action: sim.Roll, Score: 0, Opponent: 0, TurnTotal: 12, Roll: 2, Faces: facesOf(4), Best: sim.Roll, EV: sim.Roll, Analysed: true},
		{Student: "Ana", Anon: "Calm Otter", StudentID: 1, MatchID: 1, MatchSeats: 2, Action: sim.Roll, Score: 0, Opponent: 0, TurnTotal: 16, Roll: 3, Faces: facesOf(5), Best: sim.Roll, EV: sim.Roll, Analysed: true},
		{Student: "Ana", Anon: "Calm Otter", StudentID: 1, MatchID: 1, MatchSeats: 2, Action: sim.Hold, Score: 0, Opponent: 0, TurnTotal: 21, Roll: 4, Best: sim.Roll, EV: sim.Hold, Cost: 0.01, Analysed: true},
		{Student: "Bo", Anon: "Keen Lynx", StudentID: 2, MatchID: 1, MatchSeats: 2, Action: sim.Roll, Score: 0, Opponent: 21, TurnTotal: 0, Roll: 0, Faces: facesOf(6), Best: sim.Roll, EV: sim.Roll, Analysed: true},
		{Student: "Bo", Anon: "Keen Lynx", StudentID: 2, MatchID: 1, MatchSeats: 2, Action: sim.Roll, Score: 0, Opponent: 21, TurnTotal: 6, Roll: 1, Faces: facesOf(6), Best: sim.Roll, EV: sim.Roll, Analysed: true},
		{Student: "Bo", Anon: "Keen Lynx", StudentID: 2, MatchID: 1, MatchSeats: 2, Action: sim.Roll, Score: 0, Opponent: 21, TurnTotal: 12, Roll: 2, Faces: facesOf(1), Best: sim.Roll, EV: sim.Roll, Analysed: true},
		{Student: "Bo", Anon: "Keen Lynx", StudentID: 2, MatchID: 1, MatchSeats: 2, Action: sim.Hold, Score: 0, Opponent: 21, TurnTotal: 0, Roll: 0, Best: sim.Roll, EV: sim.Roll, Cost: 0.2, Analysed: true},
	}
}

func pigTable(t *testing.T) *solve.Table {
	t.Helper()
	tab, err := solve.Solve(sim.Standard(sim.Pig))
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// golden compares a chart's option with testdata/NAME.json.
func golden(t *testing.T, c templates.Chart) {
	t.Helper()
	if c.Empty != "" {
		t.Fatalf("%s is empty: %s", c.Key, c.Empty)
	}
	if c.ID != "chart-"+c.Key || c.Caption == "" || len(c.Table.Rows) == 0 {
		t.Errorf("%s: id %q, caption %q, %d table rows", c.Key, c.ID, c.Caption, len(c.Table.Rows))
	}
	var pretty any
	if err := json.Unmarshal([]byte(c.Option), &pretty); err != nil {
		t.Fatalf("%s: option is not JSON: %v", c.Key, err)
	}
	got, _ := json.MarshalIndent(pretty, "", "  ")
	path := filepath.Join("testdata", c.Key+".json")
	if *update {
		os.WriteFile(path, append(got, '\n'), 0o644)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./server/charts -update)", err)
	}
	if d := cmp.Diff(string(want), string(got)+"\n"); d != "" {
		t.Errorf("%s option (-golden +got):\n%s", c.Key, d)
	}
}

func cell(t *testing.T, c templates.Chart, row, col int) string {
	t.Helper()
	if row >= len(c.Table.Rows) || col >= len(c.Table.Rows[row]) {
		t.Fatalf("%s has no cell (%d, %d)", c.Key, row, col)
	}
	return c.Table.Rows[row][col]
}

func cellNum(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestHoldPoints(t *testing.T) {
	c := HoldPoints(en, fixedClass(), pigTable(t))
	golden(t, c)
	// Holds: Ana at 21 (bin 20-24), Bo at 0 (bin 0-4).
	if cell(t, c, 4, 1) != "1" || cell(t, c, 0, 1) != "1" || cell(t, c, 2, 1) != "0" {
		t.Errorf("class holds: %v", c.Table.Rows)
	}
	// Three turn starts: (0, 0), (0, 21) and Bo's next turn at (0, 21).
	// Hold-at-20 holds at 20..24 with .0997+.0950+.0742+.0542+.0352 = .3583
	// each, at 25 with .0172.
	if got := cellNum(t, cell(t, c, 4, 2)); math.Abs(got-3*0.3583) > 0.0003 {
		t.Errorf("hold-at-20 expected holds at 20-24: %v, want %v", got, 3*0.3583)
	}
	if got := cellNum(t, cell(t, c, 5, 2)); math.Abs(got-3*0.0172) > 0.0002 {
		t.Errorf("hold-at-20 expected holds at 25-29: %v", got)
	}
}

func TestDecisionMap(t *testing.T) {
	tab := pigTable(t)
	c := DecisionMap(en, fixedClass(), tab)
	golden(t, c)
	if len(c.Table.Rows) != 9 || cell(t, c, 4, 3) != "0" || cell(t, c, 5, 3) != "-21" || cell(t, c, 4, 5) != "hold" {
		t.Errorf("rows %v", c.Table.Rows)
	}
	// The line: each point is where perfect play first holds, against the
	// median opponent (0 here); where it never holds, a gap, not the
	// target (a sawtooth).
	var opt struct {
		Series []struct {
			Type string
			Data []struct{ Value []any }
		}
	}
	if err := json.Unmarshal([]byte(c.Option), &opt); err != nil {
		t.Fatal(err)
	}
	gaps, points := 0, 0
	for _, s := range opt.Series {
		if s.Type != "line" {
			continue
		}
		for _, d := range s.Data {
			x := int(d.Value[0].(float64))
			switch k := d.Value[1].(type) {
			case string:
				gaps++
				if tab.HoldThreshold(x, 0) < 100-x {
					t.Errorf("a gap at score %d, where perfect play holds at %d", x, tab.HoldThreshold(x, 0))
				}
			case float64:
				points++
				if a := tab.Advise(x, 0, int(k)); a.Best != sim.Hold || int(k) >= 100-x {
					t.Errorf("the line at score %d, total %v: perfect play %v", x, k, a.Best)
				}
			}
		}
	}
	if gaps == 0 || points == 0 {
		t.Errorf("the line has %d points and %d gaps", points, gaps)
	}
}

func TestSkillLuck(t *testing.T) {
	// Each throw's luck as the store reads it: the chance after its dice
	// less the throw's chance before (here from the table itself).
	tab := pigTable(t)
	ds := fixedClass()
	want := map[string]float64{}
	for i, d := range ds {
		if d.Faces.Len() > 0 {
			u, err := tab.Luck(d.Score, d.Opponent, d.TurnTotal, d.Action, &d.Faces)
			if err != nil {
				t.Fatal(err)
			}
			ds[i].Luck, ds[i].HasLuck = u, true
			want[d.Student] += 100 * u
		}
	}
	c := SkillLuck(en, ds, func(d store.Decision) string { return d.Student }, false)
	golden(t, c)
	// Ana's four rolls raised her chance; Bo's 1 on 12 lowered his.
	if want["Ana"] <= 0 || want["Bo"] >= 0 {
		t.Fatalf("luck %v", want)
	}
	// One game each: a game's luck is the game's (columns: name,
	// decisions, games, cost a game, luck a game).
	if cell(t, c, 0, 0) != "Ana" || cell(t, c, 0, 2) != "1" || math.Abs(cellNum(t, cell(t, c, 0, 4))-want["Ana"]) > 1e-4 || math.Abs(cellNum(t, cell(t, c, 1, 4))-want["Bo"]) > 1e-4 {
		t.Errorf("luck rows %v, want Ana %.4f Bo %.4f (percentage points)", c.Table.Rows, want["Ana"], want["Bo"])
	}
	if !strings.Contains(c.Caption, "every two-player game of the class: 1 game") {
		t.Errorf("caption %q", c.Caption)
	}
	if cellNum(t, cell(t, c, 0, 3)) != 1 || cellNum(t, cell(t, c, 1, 3)) != 20 {
		t.Errorf("cost rows %v", c.Table.Rows)
	}
	// The same game twice over, as two games: a game's figures stay.
	twice := append([]store.Decision(nil), ds...)
	for _, d := range ds {
		d.MatchID += 1000
		twice = append(twice, d)
	}
	c2 := SkillLuck(en, twice, func(d store.Decision) string { return d.Student }, false)
	if cell(t, c2, 0, 2) != "2" || cell(t, c2, 0, 3) != cell(t, c, 0, 3) || cell(t, c2, 0, 4) != cell(t, c, 0, 4) {
		t.Errorf("two games alike: %v, want each game's figures as one game's %v", c2.Table.Rows, c.Table.Rows)
	}
}

func TestTimeline(t *testing.T) {
	p := func(x float64) *float64 { return &x }
	four, _ := sim.FacesOf(4)
	events := []play.Event{
		{Seat: 0, Action: sim.Roll, Faces: four, Analysis: &play.Analysis{WinIfRoll: p(.53), WinIfHold: p(.47), Options: map[sim.Action]float64{sim.Roll: .53, sim.Hold: .47}, Best: sim.Roll}},
		{Seat: 0, Action: sim.Hold, Analysis: &play.Analysis{WinIfRoll: p(.55), WinIfHold: p(.48), Options: map[sim.Action]float64{sim.Roll: .55, sim.Hold: .48}, Best: sim.Roll}},
		{Seat: 1, Action: sim.Resign},
	}
	c := Timeline(en, sim.Pig, events, []string{"you", "Bot"})
	golden(t, c)
	if len(c.Table.Rows) != 2 || cell(t, c, 1, 4) != "55.0%" || cell(t, c, 1, 5) != "45.0%" {
		t.Errorf("rows %v", c.Table.Rows)
	}
	// The chart draws percent, as the table and the words say.
	var option struct {
		Legend struct{ Icon string }   `json:"legend"`
		YAxis  []struct{ Max float64 } `json:"yAxis"`
		Series []struct {
			Data []struct{ Value float64 } `json:"data"`
		} `json:"series"`
	}
	if err := json.Unmarshal([]byte(c.Option), &option); err != nil {
		t.Fatal(err)
	}
	if len(option.YAxis) != 1 || option.YAxis[0].Max != 100 || len(option.Series) != 2 || option.Series[0].Data[1].Value != 55 || option.Series[1].Data[1].Value != 45 {
		t.Errorf("the timeline is not drawn in percent: %s", c.Option)
	}
	if option.Legend.Icon != "roundRect" {
		t.Errorf("the legend draws the players with the symbols of rolls and holds: %s", c.Option)
	}
	// Each of the ten players a match may have has a colour of its own.
	if len(slices.Compact(slices.Sorted(slices.Values(palette)))) < sim.MaxSeats {
		t.Errorf("%d colours for %d players: %v", len(palette), sim.MaxSeats, palette)
	}
}

func TestClassDiceAndShareOfOnes(t *testing.T) {
	faces := []int{1, 2, 2, 6, 1, 3}
	c := ClassDice(en, store.Thrown{All: faces})
	golden(t, c)
	if cell(t, c, 0, 1) != "2" || cell(t, c, 1, 1) != "2" || cell(t, c, 3, 1) != "0" || cell(t, c, 0, 4) != "1.0000" {
		t.Errorf("dice rows %v", c.Table.Rows)
	}
	if !strings.HasSuffix(c.Finding, "Too few dice for a chi-square test yet: it takes 30 or more (each face expected 5 times).") {
		t.Errorf("6 dice: %q", c.Caption)
	}
	o := ShareOfOnes(en, faces)
	golden(t, o)
	want := []string{"1.0000", "0.5000", "0.3333", "0.2500", "0.4000", "0.3333"}
	for i, w := range want {
		if cell(t, o, i, 2) != w {
			t.Errorf("share after %d dice: %s, want %s", i+1, cell(t, o, i, 2), w)
		}
	}
}

// TestClassDiceAreTested (issue 45): each face's share with its 95%
// interval and the chi-square test against a fair die, in words, each
// against a computation of its own here (Wilson's formula; the chi-square
// tail of 5 degrees of freedom in closed form).
func TestClassDiceAreTested(t *testing.T) {
	for _, c := range []struct {
		counts  [6]int
		verdict string
	}{{[6]int{30, 20, 20, 20, 15, 15}, "nothing unusual"}, {[6]int{28, 22, 20, 20, 15, 15}, "nothing unusual"}, {[6]int{40, 20, 20, 20, 10, 10}, "these dice look loaded"}, {[6]int{34, 20, 20, 20, 13, 13}, "unusual, so throw more"}} {
		var faces []int
		n := 0
		for f, k := range c.counts {
			for range k {
				faces = append(faces, f+1)
			}
			n += k
		}
		chart := ClassDice(en, store.Thrown{All: faces})
		e, stat := float64(n)/6, 0.0
		for f, k := range c.counts {
			stat += (float64(k) - e) * (float64(k) - e) / e
			p, z := float64(k)/float64(n), 1.959963984540054
			mid, half := p+z*z/(2*float64(n)), z*math.Sqrt(p*(1-p)/float64(n)+z*z/(4*float64(n)*float64(n)))
			lo, hi := (mid-half)/(1+z*z/float64(n)), (mid+half)/(1+z*z/float64(n))
			if got, want := cell(t, chart, f, 3), pct(en, lo)+" to "+pct(en, hi); got != want {
				t.Errorf("%v, face %d: interval %q, want %q", c.counts, f+1, got, want)
			}
		}
		tail := math.Erfc(math.Sqrt(stat/2)) + math.Sqrt(2*stat/math.Pi)*math.Exp(-stat/2)*(1+stat/3)
		want := fmt.Sprintf("Chi-square test: %s with 5 degrees of freedom. Fair dice differ this much or more", en.Dec(stat, 2))
		if !strings.Contains(chart.Finding, want) || !strings.Contains(chart.Finding, pct(en, tail)+" of the time") || !strings.Contains(chart.Finding, c.verdict) {
			t.Errorf("%v: %q, want %q, %s of the time, %q", c.counts, chart.Finding, want, pct(en, tail), c.verdict)
		}
	}
}

func TestHogCharts(t *testing.T) {
	ds := []store.Decision{{Action: sim.Dice(5), Best: sim.Dice(6)}, {Action: sim.Dice(5), Best: sim.Dice(6)}, {Action: sim.Dice(3), Best: sim.Dice(3)}}
	c := HogDice(en, ds)
	golden(t, c)
	if len(c.Table.Rows) != 2 || c.Table.Rows[0][0] != "3" || c.Table.Rows[1][2] != "2" {
		t.Errorf("hog rows %v", c.Table.Rows)
	}
	h := HogCurve(en, sim.Hog, 10)
	golden(t, h)
	if cell(t, h, 4, 1) != "8.0376" || cell(t, h, 5, 1) != "8.0376" || cell(t, h, 0, 1) != "3.3333" {
		t.Errorf("curve rows %v", h.Table.Rows)
	}
}

func TestFirstPlayer(t *testing.T) {
	c := FirstPlayer(en, []FirstResults{{Rules: "Pig to 100", Games: 10, FirstWins: 6, Exact: 0.530592725274}, {Rules: "Pig to 100, equal turns", Games: 4, FirstWins: 1, Exact: 0.4564204296511835}})
	golden(t, c)
	// Wilson 95% for 6 of 10: 31.3% to 83.2%; for 1 of 4: 4.6% to 69.9%.
	if cell(t, c, 0, 4) != "60.0%" || cell(t, c, 0, 5) != "31.3% to 83.2%" || cell(t, c, 1, 4) != "53.1%" || cell(t, c, 2, 5) != "4.6% to 69.9%" || cell(t, c, 3, 4) != "45.6%" {
		t.Errorf("rows %v", c.Table.Rows)
	}
	if e := FirstPlayer(en, []FirstResults{{Rules: "Pig to 100", Exact: .53}}); e.Empty == "" {
		t.Error("no games should give an empty chart")
	}
}

func TestLadder(t *testing.T) {
	c := Ladder(en, []Rung{{N: 20, First: 0.4917, Second: 0.4285}, {N: 25, First: 0.5091, Second: 0.45}})
	golden(t, c)
	if cell(t, c, 0, 3) != "0.4601" {
		t.Errorf("rows %v", c.Table.Rows)
	}
}

// TestMyHoldPoints: Bo's own holds beside the class's, scaled to his turns.
func TestMyHoldPoints(t *testing.T) {
	var bo []store.Decision
	for _, d := range fixedClass() {
		if d.Student == "Bo" {
			bo = append(bo, d)
		}
	}
	c := MyHoldPoints(en, bo, fixedClass(), pigTable(t))
	if c.Empty != "" || c.Title != "Your hold points" {
		t.Fatalf("%+v", c)
	}
	// Bo held once at 0; the class held at 0 and at 21 over 3 turn starts,
	// scaled to Bo's 2: 2/3 each.
	if cell(t, c, 0, 1) != "1" || cell(t, c, 0, 2) != "0.6667" || cell(t, c, 4, 2) != "0.6667" || cell(t, c, 4, 1) != "0" {
		t.Errorf("rows %v", c.Table.Rows)
	}
}

// facesOf builds sim.Faces for a test.
func facesOf(dice ...int) sim.Faces {
	f, err := sim.FacesOf(dice...)
	if err != nil {
		panic(err)
	}
	return f
}

// TestNamesWithTheFunctionMarker: go-echarts deletes "__f__" from strings
// (its marker of JavaScript); a student so named keeps a name in the chart,
// with the underscores set apart, and in the table as typed.
func TestNamesWithTheFunctionMarker(t *testing.T) {
	ds := fixedClass()
	for i := range ds {
		if ds[i].Student == "Ana" {
			ds[i].Student = "x__f__y"
		}
	}
	c := SkillLuck(en, ds, func(d store.Decision) string { return d.Student }, false)
	if !strings.Contains(c.Option, "x_\u2009_f_\u2009_y") && !strings.Contains(c.Option, `x_\u2009_f_\u2009_y`) {
		t.Errorf("the chart lost the name: %s", c.Option)
	}
	if cell(t, c, 1, 0) != "x__f__y" && cell(t, c, 0, 0) != "x__f__y" {
		t.Errorf("the table: %v", c.Table.Rows)
	}
	tl := Timeline(en, sim.Pig, []play.Event{{Seat: 0, Action: sim.Hold, Analysis: &play.Analysis{Options: map[sim.Action]float64{sim.Hold: .5}, Best: sim.Hold}}}, []string{"a__f__b", "Bot"})
	if !strings.Contains(tl.Option, "a_\u2009_f_\u2009_b") && !strings.Contains(tl.Option, `a_\u2009_f_\u2009_b`) {
		t.Errorf("the timeline lost the name: %s", tl.Option)
	}
}

// TestSkunkSits: the class's sits by round total, beside the same moments
// where perfect play (sim.SkunkPlan) and the expected-value rule sit.
func TestSkunkSits(t *testing.T) {
	ds := []store.SkunkDecision{
		{SkunkEvent: store.SkunkEvent{Action: store.SkunkStand, Round: 0, Score: 0, RoundTotal: 30, EV: store.SkunkSit}, Rounds: 5},
		{SkunkEvent: store.SkunkEvent{Action: store.SkunkSit, Round: 0, Score: 0, RoundTotal: 6, EV: store.SkunkStand}, Rounds: 5},
	}
	plan := sim.PlanSkunk(5)
	stand30, sit30, _ := plan.Values(0, 0, 30)
	stand6, sit6, _ := plan.Values(0, 0, 6)
	if sit30 < stand30 || sit6 >= stand6 {
		t.Fatalf("the plan: at 30 stand %v sit %v; at 6 stand %v sit %v", stand30, sit30, stand6, sit6)
	}
	c := SkunkSits(en, ds)
	golden(t, c)
	// Bin 1 (5-9): the class sat, perfect play stands; bin 6 (30-34): the
	// class stood, perfect play and the rule sit.
	if cell(t, c, 1, 1) != "1" || cell(t, c, 1, 2) != "0" || cell(t, c, 6, 1) != "0" || cell(t, c, 6, 2) != "1" || cell(t, c, 6, 3) != "1" {
		t.Errorf("rows %v", c.Table.Rows)
	}
}

// TestChartsSayWhenApproximate: the hold-points charts with a turn start
// of a three-player match, and Hog's dice chart with an approximate
// decision, say so in their captions; with two players they do not.
func TestChartsSayWhenApproximate(t *testing.T) {
	tab, err := solve.Solve(sim.Standard(sim.Pig))
	if err != nil {
		t.Fatal(err)
	}
	hold := store.Decision{Action: sim.Hold, Score: 10, Opponent: 30, TurnTotal: 0, MatchSeats: 2, Analysed: true}
	three := hold
	three.MatchSeats = 3
	want := en.T("chart.approximate_holds")
	if c := HoldPoints(en, []store.Decision{hold}, tab); strings.Contains(c.Caption, want) {
		t.Errorf("two players: %q", c.Caption)
	}
	if c := HoldPoints(en, []store.Decision{hold, three}, tab); !strings.Contains(c.Caption, want) {
		t.Errorf("a three-player turn start: %q", c.Caption)
	}
	if c := MyHoldPoints(en, []store.Decision{hold}, []store.Decision{hold, three}, tab); !strings.Contains(c.Caption, want) {
		t.Errorf("mine, beside a class with a three-player turn start: %q", c.Caption)
	}
	dice := store.Decision{Action: sim.Dice(5), Best: sim.Dice(6), Analysed: true}
	approx := dice
	approx.Approximate = true
	want = en.T("chart.approximate_decisions")
	if c := HogDice(en, []store.Decision{dice}); strings.Contains(c.Caption, want) {
		t.Errorf("Hog, exact: %q", c.Caption)
	}
	if c := HogDice(en, []store.Decision{dice, approx}); !strings.Contains(c.Caption, want) {
		t.Errorf("Hog, one approximate: %q", c.Caption)
	}
}

// TestArms: the experiment's chart counts every reshuffle once, those at
// least as far from 0 as the class's apart, marks the class's difference,
// and says the means and the p-value in words; rare and common p-values
// get their own last sentence.
func TestArms(t *testing.T) {
	d := ArmsData{Ready: true, Students: [2]int{4, 4}, Games: [2]int{8, 8}, Mean: [2]float64{0.12, 0.07}, Diff: -0.05, Seed: 42,
		Diffs: []float64{-0.06, -0.05, -0.01, 0, 0.02, 0.049, 0.05, 0.08}, AtLeast: 4, P: 0.5}
	c := Arms(en, d)
	var near, far int
	for _, r := range c.Table.Rows {
		n, _ := strconv.Atoi(r[1])
		f, _ := strconv.Atoi(r[2])
		near, far = near+n, far+f
	}
	if near != 4 || far != 4 {
		t.Errorf("the table counts %d near and %d far, want 4 and 4", near, far)
	}
	if !strings.Contains(c.Option, `"markLine"`) || !strings.Contains(c.Option, `"name":"ours: -5.00"`) || !strings.Contains(c.Caption, "seed 42") {
		t.Errorf("no mark of the class's difference, or no seed: %s", c.Caption)
	}
	for _, want := range []string{"12.00 percentage points", "7.00 percentage points", "The committed group gave away 5.00 percentage points less.", "4 times in 8 (p = 0.500)", "could just be luck"} {
		if !strings.Contains(c.Finding, want) {
			t.Errorf("the finding %q does not say %q", c.Finding, want)
		}
	}
	// Each row says its step as a range (issue 79: the rows said
	// "from" and gave the step's centre): the steps run from the
	// farthest below 0 to the farthest above, each where the last ended,
	// and each difference is counted in the step that holds it.
	var edges []float64
	for i, r := range c.Table.Rows {
		var lo, hi float64
		if _, err := fmt.Sscanf(r[0], "from %f to %f", &lo, &hi); err != nil {
			t.Fatalf("row %d says %q, not a range", i, r[0])
		}
		if i > 0 && lo != edges[len(edges)-1] {
			t.Errorf("row %d starts at %v, the last ended at %v", i, lo, edges[len(edges)-1])
		}
		edges = append(edges, lo, hi)
		n, _ := strconv.Atoi(r[1])
		f, _ := strconv.Atoi(r[2])
		in := 0
		for _, x := range d.Diffs {
			if x*100 >= lo-0.005 && (x*100 < hi-0.005 || i == len(c.Table.Rows)-1) {
				in++
			}
		}
		if n+f != in {
			t.Errorf("row %q counts %d differences, %d of them lie in it", r[0], n+f, in)
		}
	}
	if edges[0] != -8 || edges[len(edges)-1] != 8 || c.Table.Headers[0] != "difference (points)" {
		t.Errorf("the steps run from %v to %v under %q, want -8 to 8 under the difference", edges[0], edges[len(edges)-1], c.Table.Headers[0])
	}
	d.P, d.AtLeast = 0.01, 0
	if c := Arms(en, d); !strings.Contains(c.Finding, "That is rare") {
		t.Errorf("a p of 0.01: %q", c.Finding)
	}
	if c := Arms(en, ArmsData{}); c.Empty == "" {
		t.Error("an experiment with no games drew a chart")
	}
}
