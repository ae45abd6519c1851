package server

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"pigclass/server/charts"
	"pigclass/sim"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// TestProjectorKeepsTheMystery (issue 42): while a round against the
// mystery bot is played, the shared screen shows nothing of the bots'
// strengths, even of matches already over (their seeds published): the
// chart's title and when it will show; once every match is over, the
// class's guesses against the truth.
func TestProjectorKeepsTheMystery(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	bo := &student{b: join(t, a, code, "Bo"), nick: "Bo", holdAt: 20}
	// Bo's match is still being played when Ana's ends: in each match the
	// student moves first, and Bo never moves.
	a.dealEach(t, 2, "the student moves first", func(s *sim.Seed) bool { return s.FirstSeat(2) == 0 })
	v := sim.Standard(sim.Pig)
	v.Target = 30
	mysteryReady(t, a, v)
	startRound(t, teacher, code, url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"mystery"}})
	teacher.post(paths.ProjectorChart.For(code), url.Values{"chart": {charts.MysteryKey}})
	playRound(t, code, []*student{ana})
	chart := teacher.get(paths.TeacherProjector.Chart.For(code))
	fig := chart.Find(`[data-testid="chart-` + charts.MysteryKey + `"]`)
	if fig.Length() != 1 || fig.Find("[data-echarts]").Length() != 0 || fig.Find("table").Length() != 0 ||
		!strings.Contains(fig.Text(), "show here when every match of the round is over") {
		t.Errorf("Ana's match over, Bo's played: the projector's mystery chart shows %q", fig.Text())
	}
	if dash := teacher.get(paths.Teacher.For(code) + "?chart=" + charts.MysteryKey); dash.Find(`#charts [data-testid="chart-`+charts.MysteryKey+`"] [data-echarts]`).Length() != 1 {
		t.Error("the teacher's own dashboard does not chart the match already over")
	}
	playRound(t, code, []*student{bo})
	fig = teacher.get(paths.TeacherProjector.Chart.For(code)).Find(`[data-testid="chart-` + charts.MysteryKey + `"]`)
	if fig.Find("[data-echarts]").Length() != 1 {
		t.Errorf("every match over: the projector's mystery chart shows %q", fig.Text())
	}
}

// TestAChartBeingComputedComesByItself (issue 42): the strategy ladder,
// still being computed, says so without asking anyone to reload, in every
// language, and the dashboard's charts ask again until it is drawn.
func TestAChartBeingComputedComesByItself(t *testing.T) {
	for _, lang := range []string{"en", "de", "es", "fr", "pt-BR"} {
		c := charts.Ladder(i18n.For(lang), nil)
		if !c.Pending || c.Empty == "" || strings.Contains(strings.ToLower(c.Empty), "reload") {
			t.Errorf("%s: the ladder being computed: pending %t, %q", lang, c.Pending, c.Empty)
		}
	}
	a := newApp(t)
	// A ladder of this server's own: the tests' servers share one, which
	// another test may have computed already.
	a.srv.views.ladder = &ladder{tables: a.srv.tables, log: a.srv.log, done: make(chan struct{})}
	teacher := a.browser()
	code := teacherStart(t, teacher)
	// The first page that asks for the ladder starts its computation and
	// never waits for it: the ladder is pending then, always.
	section := teacher.get(paths.Teacher.For(code) + "?chart=" + charts.LadderKey).Find(`#charts`)
	if section.Find(`[data-echarts]`).Length() != 0 || section.AttrOr("hx-get", "") == "" || section.AttrOr("hx-trigger", "") != "every 5s" {
		t.Errorf("the ladder being computed: the dashboard's charts do not ask again (%q)", section.AttrOr("hx-get", ""))
	}
	a.srv.views.ladder.wait()
	section = teacher.get(paths.Teacher.For(code) + "?chart=" + charts.LadderKey).Find(`#charts`)
	if section.Find(`[data-echarts]`).Length() != 1 || section.AttrOr("hx-trigger", "") != "" {
		t.Errorf("the ladder computed: drawn %d, still polling %q", section.Find(`[data-echarts]`).Length(), section.AttrOr("hx-trigger", ""))
	}
}

// TestADiscussionShowsWhoJoined (issue 59, item 3): a lesson that opens
// with a discussion (lesson 9's "Guess first") keeps showing who joined
// on the shared screen once students join: the count, and the last
// names to join beside the question (the first of twelve no longer).
func TestADiscussionShowsWhoJoined(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStartLesson(t, teacher, "9-are-our-dice-fair")
	teacher.post(paths.LessonStart.For(code), url.Values{"confirm": {"yes"}})
	screen := func() (state, count string, names []string) {
		page := teacher.get("/t/" + code + "/projector")
		page.Find(`[data-testid="projector-live"] .names li`).Each(func(_ int, li *goquery.Selection) { names = append(names, li.Text()) })
		return page.Find(`[data-testid="projector"]`).AttrOr("data-state", ""), strings.TrimSpace(page.Find(`[data-testid="projector-live"] .count`).Text()), names
	}
	join(t, a, code, "Ana")
	if state, count, names := screen(); state != "discuss" || count != "1 joined" || !slices.Equal(names, []string{"Ana"}) {
		t.Errorf("Ana joined the discussion: the screen is %q, says %q and names %q", state, count, names)
	}
	var all []string
	for i := range 12 {
		all = append(all, fmt.Sprintf("Kid %02d", i+1))
		join(t, a, code, all[i])
	}
	want := all[len(all)-discussNames:]
	if state, count, names := screen(); state != "discuss" || count != "13 joined" || !slices.Equal(names, want) {
		t.Errorf("thirteen joined: the screen is %q, says %q and names %q, want the last %d: %q", state, count, names, discussNames, want)
	}
}

// TestTheSharedScreenShowsTheDiceTest (issue 59, item 4): lesson 9 asks
// the class whether every face's interval contains 1 in 6 and what the
// chi-square test says; the shared screen's dice chart draws each face's
// share with its 95% interval beside a sixth, and says the test's
// outcome (the caption, with the rest of the words, stays on the
// teacher's screen).
func TestTheSharedScreenShowsTheDiceTest(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	startRound(t, teacher, code, url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	playRound(t, code, []*student{ana})
	teacher.post(paths.ProjectorChart.For(code), url.Values{"chart": {charts.DiceKey}})
	fig := teacher.get(paths.TeacherProjector.Chart.For(code)).Find(`[data-testid="chart-` + charts.DiceKey + `"]`)
	if got := fig.Find(`[data-testid="chart-finding"]`).Text(); !strings.HasPrefix(got, "Chi-square test: ") {
		t.Errorf("the shared screen's dice chart says %q, not the chi-square test's outcome", got)
	}
	var option struct {
		Series []struct {
			Type string          `json:"type"`
			Data json.RawMessage `json:"data"`
		} `json:"series"`
	}
	if err := json.Unmarshal([]byte(fig.Find("[data-echarts]").AttrOr("data-echarts", "")), &option); err != nil {
		t.Fatal(err)
	}
	var boxes [][]float64
	for _, s := range option.Series {
		if s.Type == "boxplot" && boxes == nil {
			var data []struct{ Value []float64 }
			json.Unmarshal(s.Data, &data)
			for _, d := range data {
				boxes = append(boxes, d.Value)
			}
		}
	}
	if len(boxes) != 6 {
		t.Fatalf("the dice chart draws %d faces' intervals, want 6: %s", len(boxes), fig.Find("[data-echarts]").AttrOr("data-echarts", ""))
	}
	for f, b := range boxes {
		if len(b) != 5 || !(b[0] <= b[2] && b[2] <= b[4]) || b[4] <= b[0] {
			t.Errorf("face %d: the box %v is not an interval around a share", f+1, b)
		}
	}
}

// TestEveryGameCountsForTheFirstPlayer (issue 59, item 13): the
// first-player chart counts the class's finished two-player matches of any
// game, not Pig's alone: a class that played one match of Two-Dice to 30
// sees it, beside that game's exact first-player chance.
func TestEveryGameCountsForTheFirstPlayer(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	v := sim.Standard(sim.TwoDice)
	v.Target = 30
	table, err := sharedTables.Get(v) // solved before the chart asks: it never waits
	if err != nil {
		t.Fatal(err)
	}
	startRound(t, teacher, code, url.Values{"game": {v.Game.String()}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}})
	playRound(t, code, []*student{ana})
	fig := teacher.get(paths.Teacher.For(code) + "?chart=" + charts.FirstPlayerKey).Find(`#charts [data-testid="chart-` + charts.FirstPlayerKey + `"]`)
	if fig.Find(".empty").Length() != 0 {
		t.Fatalf("one match of Two-Dice played: the chart says %q", fig.Find(".empty").Text())
	}
	en := i18n.For("en")
	var rows [][]string
	fig.Find("tbody tr").Each(func(_ int, tr *goquery.Selection) {
		var row []string
		tr.Find("td").Each(func(_ int, td *goquery.Selection) { row = append(row, td.Text()) })
		rows = append(rows, row)
	})
	if len(rows) != 2 || rows[0][0] != gameTitle(en, v) || rows[0][2] != "1" || rows[1][4] != en.Pct(table.FirstPlayerWin(), 1) {
		t.Errorf("one match of %s: the chart's rows %q, want its one game and the exact %s", gameTitle(en, v), rows, en.Pct(table.FirstPlayerWin(), 1))
	}
}
