package server

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"pigclass/lessons/figures"
	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/static"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// TestWalkALesson: a teacher starts a class from "Why 20?", steps through
// its phases with next and back; each phase starts its round and shows its
// charts.
func TestWalkALesson(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	doc := teacher.post("/classes", url.Values{"lesson": {"2-why-20"}})
	code := doc.Find(`[data-testid="join-code"]`).Text()
	if got := doc.Find(`[data-testid="lesson-phase"]`).Text(); !strings.Contains(got, "Phase 1 of 3") {
		t.Fatalf("lesson panel: %q", got)
	}
	// The maths is computed by the solver, not typed in.
	if text := doc.Find(`[data-testid="lesson"]`).Text(); !strings.Contains(text, "62.45%") || !strings.Contains(text, "8.14") || !strings.Contains(text, "53.47%") {
		t.Errorf("lesson figures missing: %s", text)
	}
	students := []*student{{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}, {b: join(t, a, code, "Bo"), nick: "Bo", holdAt: 25}, {b: join(t, a, code, "Cy"), nick: "Cy", holdAt: 15}}

	doc = teacher.post("/t/"+code+"/lesson/start", nil)
	if !strings.Contains(doc.Text(), "Round 1 started: 3 matches") {
		t.Fatalf("phase 1 did not start its round: %s", doc.Find(".notice").Text())
	}
	for _, m := range a.srv.room.Hall().Matches() {
		if m.Seats[1].Bot != "ev" || m.Variant != sim.Standard(sim.Pig) {
			t.Errorf("phase 1 match: %+v", m.Seats)
		}
	}
	class := mustClass(t, a, code)
	if class.Projector != "hold-points" {
		t.Errorf("projector shows %q, want the phase's first chart", class.Projector)
	}
	playRound(t, code, students)

	doc = teacher.post("/t/"+code+"/lesson/next", nil)
	if got := doc.Find(`[data-testid="lesson-phase"]`).Text(); !strings.Contains(got, "Phase 2 of 3") || mustClass(t, a, code).Projector != "hold-points" {
		t.Errorf("phase 2: %q", got)
	}
	proj := teacher.get("/t/" + code + "/projector")
	if proj.Find(`#projector-chart [data-testid="chart-hold-points"]`).Length() != 1 {
		t.Error("the projector does not show phase 2's chart")
	}

	doc = teacher.post("/t/"+code+"/lesson/next", nil) // phase 2 plays no round: nothing to ask
	if got := doc.Find(`[data-testid="lesson-phase"]`).Text(); !strings.Contains(got, "Phase 3 of 3") {
		t.Errorf("phase 3: %q", got)
	}
	seeds := map[string]bool{}
	for _, m := range a.srv.room.Hall().Matches() {
		seeds[m.Seed.String()] = true
	}
	if len(seeds) != 1 {
		t.Errorf("phase 3 plays the same dice for all: %d seeds", len(seeds))
	}
	if doc.Find(`[data-testid="lesson-next"]`).Length() != 0 {
		t.Error("the last phase offers next")
	}
	// Phase 3's round is being played: back asks first.
	teacher.post("/t/"+code+"/lesson/back", nil)
	if teacher.path() != paths.ConfirmStep.For(code) {
		t.Errorf("back during phase 3's round went to %s without asking", teacher.path())
	}
	doc = teacher.post("/t/"+code+"/lesson/back", url.Values{"confirm": {"yes"}})
	if got := doc.Find(`[data-testid="lesson-phase"]`).Text(); !strings.Contains(got, "Phase 2 of 3") {
		t.Errorf("back: %q", got)
	}
	if n := len(a.srv.room.Hall().Matches()); n != 0 {
		t.Errorf("a discussion phase leaves %d matches playing", n)
	}
	teacher.post("/classes", url.Values{"lesson": {"no-such-lesson"}})
	if teacher.status() != http.StatusUnprocessableEntity {
		t.Errorf("unknown lesson: %d", teacher.status())
	}
}

// TestSkunkWithThirtyStudents: the whole room plays Skunk through the
// router; every stand and sit decision is recorded and exported with the
// expected-value comparison.
func TestSkunkWithThirtyStudents(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	class := mustClass(t, a, code)
	if err := a.srv.room.SetLesson(t.Context(), operator(t, a, code), "6-skunk", 0); err != nil {
		t.Fatal(err)
	}
	var kids []*browser
	for i := range 30 {
		kids = append(kids, join(t, a, code, "kid"+strconv.Itoa(i)))
	}
	doc := teacher.post("/t/"+code+"/lesson/start", nil)
	if doc.Find(`[data-testid="skunk-roll"]`).Length() != 1 {
		t.Fatalf("no roll button: %s", doc.Find(".notice").Text())
	}
	sits, rolls := 0, 0
	for guard := 0; guard < 500; guard++ {
		// Kid i sits once the round total reaches 3·i (kid 0 sits at once).
		over := false
		for i, k := range kids {
			d := k.get("/c/" + code + "/skunk")
			if d.Find(`[data-testid="skunk-winners"]`).Length() > 0 {
				over = true
				break
			}
			total, _ := strconv.Atoi(d.Find(`[data-testid="skunk-total"]`).Text())
			if d.Find(`[data-testid="skunk-sit"]`).Length() > 0 && total >= 3*i {
				form := d.Find(`[data-testid="skunk"] form`)
				sitForm := url.Values{"moment": {form.Find(`input[name="moment"]`).AttrOr("value", "")}}
				k.post(form.AttrOr("action", ""), sitForm)
				if k.status() != http.StatusOK {
					t.Fatalf("sit: %d %s", k.status(), k.body)
				}
				sits++
				// A second click is harmless, even when the first ended the
				// round (everyone sat) and a new one began.
				k.post(form.AttrOr("action", ""), sitForm)
			}
		}
		// The last sit of the last round may end the game after the
		// last kid looked.
		if over || (operator(t, a, class.Code)).Skunk().Over {
			break
		}
		teacher.post("/t/"+code+"/skunk/roll", nil)
		if teacher.status() != http.StatusOK {
			t.Fatalf("roll: %d", teacher.status())
		}
		rolls++
	}
	ls := (operator(t, a, class.Code)).Skunk()
	if ls == nil || !ls.Over {
		t.Fatal("the game did not end")
	}
	logged, err := a.store.SkunkEvents(t.Context(), ls.Game.ID)
	if err != nil {
		t.Fatal(err)
	}
	rows := teacher.csvRows("/t/" + code + "/decisions.csv")
	stands, sitRows := 0, 0
	for _, r := range rows {
		if r["game"] != "skunk" {
			continue
		}
		score, _ := strconv.Atoi(r["score"])
		total, _ := strconv.Atoi(r["turn_total"])
		if r["ev_action"] != string(classroom.EVStand(score, total)) || r["agrees_with_ev"] != strconv.FormatBool(r["action"] == r["ev_action"]) {
			t.Errorf("row %v: expected-value choice %s", r, classroom.EVStand(score, total))
		}
		switch r["action"] {
		case "stand":
			stands++
		case "sit":
			sitRows++
		}
		// Analysed exactly in expected final points (sim.SkunkPlan).
		round, _ := strconv.Atoi(r["round"])
		stand, sit, ok := sim.PlanSkunk(5).Values(round-1, score, total)
		gotStand, _ := strconv.ParseFloat(r["points_if_stand"], 64)
		gotSit, _ := strconv.ParseFloat(r["points_if_sit"], 64)
		cost, _ := strconv.ParseFloat(r["cost_points"], 64)
		chosen := map[string]float64{"stand": stand, "sit": sit}[r["action"]]
		if !ok || r["analysis"] != "expected-points" || math.Abs(gotStand-stand) > 1e-4 || math.Abs(gotSit-sit) > 1e-4 ||
			math.Abs(cost-(max(stand, sit)-chosen)) > 1e-4 || r["agrees_with_optimal"] != strconv.FormatBool(cost < 1e-9) || r["win_if_chosen_pct"] != "" {
			t.Errorf("Skunk row %v: the plan gives stand %.4f, sit %.4f", r, stand, sit)
		}
	}
	wantStands := 0
	for _, e := range logged {
		if e.Action == "stand" {
			wantStands++
		}
	}
	if sitRows != sits || stands != wantStands || stands == 0 {
		t.Errorf("decisions.csv: %d sits (made %d), %d stands (logged %d), %d rolls", sitRows, sits, stands, wantStands, rolls)
	}
	// The evStand rule is the Two-Dice Pig one: stand while 11k + score < 200.
	if classroom.EVStand(0, 18) != "stand" || classroom.EVStand(0, 19) != "sit" || classroom.EVStand(50, 13) != "stand" || classroom.EVStand(50, 14) != "sit" {
		t.Error("the Skunk expected-value rule is not 200 > 11·round total + score")
	}
	proj := teacher.get("/t/" + code + "/projector")
	if proj.Find(`[data-testid="skunk-winners"]`).Length() != 1 {
		t.Error("the projector does not show the Skunk result")
	}

	// The game's signed record, with its seed, for every member: it
	// verifies (dice, rolls and sits, scores, this server's signature).
	link := kids[3].get("/c/"+code+"/skunk").Find(`[data-testid="skunk-record"]`).AttrOr("href", "")
	if link == "" {
		t.Fatal("the finished game offers no record")
	}
	kids[3].get(link)
	if kids[3].status() != http.StatusOK {
		t.Fatalf("the Skunk record: %d", kids[3].status())
	}
	verified, err := sim.VerifySkunkJSON([]byte(kids[3].body))
	if err != nil || !verified.Signature.Valid() || !slices.Equal(verified.Signature.Key, a.srv.hall.RecordKey()) || !slices.Equal(verified.Scores, ls.Scores) || !verified.Over {
		t.Errorf("the Skunk record: %v, %+v", err, verified)
	}
	doc = kids[3].post("/verify", url.Values{"record": {kids[3].body}})
	if got := doc.Find(`[data-testid="check-moves"]`).Text(); !strings.Contains(got, "The game of Skunk") || !strings.Contains(doc.Find(`[data-testid="verify-result"]`).Text(), "It checks out") {
		t.Errorf("the verify page on the Skunk record: %q", doc.Find(`[data-testid="verify-result"]`).Text())
	}
	stranger := a.browser()
	stranger.get(link)
	if stranger.status() != http.StatusNotFound {
		t.Errorf("a stranger gets the Skunk record: %d", stranger.status())
	}

	// Skunk is data like any game: matches.csv, match_players.csv and
	// students.csv have it, as the game's own replay gives it.
	game := fmt.Sprintf("skunk-%d", ls.Game.ID)
	best := slices.Max(ls.Scores)
	var winners []string
	for p, sc := range ls.Scores {
		if sc == best && best > 0 {
			winners = append(winners, ls.Game.Names[p])
		}
	}
	var found bool
	for _, m := range teacher.csvRows("/t/" + code + "/matches.csv") {
		if m["match"] != game {
			continue
		}
		found = true
		if m["game"] != "skunk" || m["status"] != "over" || m["seats"] != "30" || m["turns"] != "5" || m["winner"] != strings.Join(winners, "; ") ||
			len(strings.Split(m["scores"], "; ")) != 30 || m["seed"] != ls.Game.Seed.String() {
			t.Errorf("matches.csv's Skunk row: %v (winners %v)", m, winners)
		}
	}
	if !found {
		t.Fatal("matches.csv has no Skunk game")
	}
	players, won := 0, 0
	for _, p := range teacher.csvRows("/t/" + code + "/match_players.csv") {
		if p["match"] == game {
			players++
			seat, _ := strconv.Atoi(p["seat"])
			if p["final_score"] != strconv.Itoa(ls.Scores[seat-1]) {
				t.Errorf("match_players.csv: %v, score %d", p, ls.Scores[seat-1])
			}
			if p["won"] == "true" {
				won++
			}
		}
	}
	if players != 30 || won != len(winners) {
		t.Errorf("match_players.csv: %d players, %d won; want 30 and %d", players, won, len(winners))
	}
	perStudent := map[string]int{}
	for _, r := range rows {
		if r["game"] == "skunk" {
			perStudent[r["student"]]++
		}
	}
	for _, s := range teacher.csvRows("/t/" + code + "/students.csv") {
		if s["games"] != "1" || s["decisions"] != strconv.Itoa(perStudent[s["student"]]) || perStudent[s["student"]] == 0 {
			t.Errorf("students.csv: %v; decisions.csv has %d Skunk decisions", s, perStudent[s["student"]])
		}
	}
	// The lesson's "What did the class do?" phase: its charts have the
	// game's dice.
	teacher.post("/t/"+code+"/lesson/next", nil)
	for _, key := range []string{"skunk-sits", "class-dice", "share-of-ones"} {
		c := teacher.get("/t/" + code + "?chart=" + key).Find(`[data-testid="chart-` + key + `"]`)
		if c.Find(".empty").Length() != 0 || c.Find(".echart").Length() != 1 {
			t.Errorf("%s after a game of Skunk: %q", key, strings.TrimSpace(c.Text()))
		}
	}
	if got := mustClass(t, a, code).Projector; got != "skunk-sits" {
		t.Errorf("the lesson's second phase shows %q on the projector", got)
	}
	// The Skunk chart's class column counts the sits of decisions.csv.
	sitsBy := map[string]int{}
	teacher.get("/t/" + code + "?chart=skunk-sits").Find(`[data-testid="chart-skunk-sits"] tbody tr`).Each(func(_ int, r *goquery.Selection) {
		n, _ := strconv.Atoi(r.Find("td").Eq(1).Text())
		sitsBy["all"] += n
	})
	if sitsBy["all"] != sits {
		t.Errorf("the Skunk chart counts %d sits; %d were made", sitsBy["all"], sits)
	}
}

// TestSkunkSurvivesRestart: a Skunk game in progress is rebuilt from its
// log after a restart.
func TestSkunkSurvivesRestart(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	a.srv.room.SetLesson(t.Context(), operator(t, a, code), "6-skunk", 0)
	kid := join(t, a, code, "Kid")
	join(t, a, code, "Other")
	teacher.post("/t/"+code+"/lesson/start", nil)
	teacher.post("/t/"+code+"/skunk/roll", nil)
	before := kid.get("/c/" + code + "/skunk")
	if form := before.Find(`[data-testid="skunk"] form`); form.Length() > 0 {
		kid.post(form.AttrOr("action", ""), url.Values{"moment": {form.Find(`input[name="moment"]`).AttrOr("value", "")}})
	}
	// While the game plays, its seed and record stay secret.
	game := (operator(t, a, code)).Skunk().Game.ID
	kid.get(fmt.Sprintf("/c/%s/skunk/%d/record.json", code, game))
	if kid.status() != http.StatusConflict || strings.Contains(kid.body, "seed") {
		t.Errorf("the record of a game in play: %d %s", kid.status(), kid.body)
	}
	before = kid.get("/c/" + code + "/skunk")
	want := before.Find(`[data-testid="skunk"]`).Text()
	path, clk := a.path, a.clock
	a.stop()
	b := openApp(t, path, clk)
	kid.moveTo(b)
	after := kid.get("/c/" + code + "/skunk")
	if got := after.Find(`[data-testid="skunk"]`).Text(); got != want || got == "" {
		t.Errorf("after the restart:\n%s\nbefore:\n%s", got, want)
	}
}

// TestChartPagesLoadOnlyOwnScripts: every page with a chart loads the
// vendored ECharts from the app and nothing from another host.
func TestChartPagesLoadOnlyOwnScripts(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	s := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	playRound(t, code, []*student{s})
	teacher.post("/t/"+code+"/projector-chart", url.Values{"chart": {"decision-map"}})
	review := s.b.get("/c/"+code).Find(`a[href^="/c/`+code+`/m/"]`).AttrOr("href", "")
	a.srv.views.ladder.wait() // the ladder is computed once a server, when first asked
	pages := []struct {
		b      *browser
		path   string
		charts int
	}{{teacher, "/t/" + code, 1}, {teacher, "/t/" + code + "?chart=ladder", 1}, {teacher, "/t/" + code + "/projector", 1}, {s.b, "/c/" + code + "/charts", 2}, {s.b, review, 1}}
	for _, p := range pages {
		doc := p.b.get(p.path)
		if p.b.status() != http.StatusOK {
			t.Fatalf("%s: %d", p.path, p.b.status())
		}
		echarts := 0
		doc.Find("script[src], link[href]").Each(func(_ int, el *goquery.Selection) {
			ref := el.AttrOr("src", el.AttrOr("href", ""))
			if !strings.HasPrefix(ref, "/static/") {
				t.Errorf("%s loads %s", p.path, ref)
			}
			if ref == static.Path("vendor/echarts.min.js") {
				echarts++
			}
		})
		// A chart with no data yet (Hog's, before a Hog round) says so
		// instead of drawing; every other one draws.
		figures, drawn, empty := doc.Find("figure.chart").Length(), doc.Find(".echart[data-echarts]").Length(), doc.Find("figure.chart .empty").Length()
		if echarts != 1 || figures != p.charts || drawn+empty != figures || drawn == 0 {
			t.Errorf("%s: echarts loaded %d times, %d charts (want %d), %d drawn, %d empty", p.path, echarts, figures, p.charts, drawn, empty)
		}
	}
	teacher.get(static.Path("vendor/echarts.min.js"))
	if teacher.status() != http.StatusOK || !strings.Contains(teacher.body, "echarts") {
		t.Error("the app does not serve ECharts")
	}
}

// TestSkunkResentSitIsStale: when the last sit ends the round, the same
// form sent again does not sit the student in the next round. (Before the
// first roll the board offers no sit, only how to play.)
func TestSkunkResentSitIsStale(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	a.srv.room.SetLesson(t.Context(), operator(t, a, code), "6-skunk", 0)
	kids := []*browser{join(t, a, code, "A"), join(t, a, code, "B")}
	teacher.post("/t/"+code+"/lesson/start", nil)
	var last url.Values
	var action string
	// Before the first roll there is nothing to sit for, and the board
	// offers no button: the sits are sent as its form would send them.
	for _, k := range kids {
		board := k.get("/c/" + code + "/skunk").Find(`[data-testid="skunk"]`)
		if board.Find(`[data-testid="skunk-sit"]`).Length() != 0 {
			t.Error("the board offers to sit and keep 0 before the first roll")
		}
		if got := board.Find(`[data-testid="skunk-howto"]`).Text(); !strings.Contains(got, "Two 1s: everyone standing loses their whole score") {
			t.Errorf("Skunk's how to play: %q", got)
		}
		action = paths.SkunkSit.For(code)
		last = url.Values{"moment": {board.AttrOr("data-moment", "")}}
		k.post(action, last)
	}
	ls := (operator(t, a, code)).Skunk()
	if ls.Round != 1 || !ls.Standing[1] {
		t.Fatalf("everyone sat: round %d, B standing %v", ls.Round, ls.Standing[1])
	}
	kids[1].post(action, last)
	if ls = (operator(t, a, code)).Skunk(); !ls.Standing[1] {
		t.Error("the resent sit sat B down in the next round")
	}
}

// TestLessonIntervalIsTheCharts: lesson 5's "about ± N points" is the
// half-width of the Wilson interval the first-player chart draws (the same
// as sim.Wilson's where the share is a whole number of games).
func TestLessonIntervalIsTheCharts(t *testing.T) {
	for _, c := range []struct{ k, n int }{{18, 30}, {16, 30}, {6, 10}, {1, 4}} {
		lo, hi := sim.Wilson(c.k, c.n, 1.959963984540054)
		p := float64(c.k) / float64(c.n)
		// The Wilson interval is centred off p: its half-width is the same.
		if got := figures.WilsonHalf(p, c.n); math.Abs(got-(hi-lo)/2) > 1e-12 {
			t.Errorf("%d of %d: half-width %v, sim.Wilson's %v", c.k, c.n, got, (hi-lo)/2)
		}
	}
}

// TestEveryFigureIsFilled: the figures of every lesson are computed, and
// the published ones (sim/published.md) have their published values.
func TestEveryFigureIsFilled(t *testing.T) {
	a := newApp(t)
	figs, err := a.srv.views.figures(i18n.For("en"))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"pig.first": "53.06%", "pig.states": "505,000", "hold20.zero": "62.45%", "hold20.points": "8.14", "hold20.duel": "53.47%", "hog.five": "8.04", "ci30.half": "16.8", "pig50.first": "54.62%", "pig3.first": "38.06%", "pig3.second": "33.00%", "pig3.third": "28.94%"} {
		if figs[name] != want {
			t.Errorf("{%s} = %q, want %q", name, figs[name], want)
		}
	}
	for _, l := range a.srv.views.lessons {
		for phase := range l.Phases {
			v, err := a.srv.views.lessonView(i18n.For("en"), store.Class{Code: "AAAAAA", Lesson: l.Slug, Phase: phase})
			if err != nil {
				t.Fatal(err)
			}
			for _, text := range append(append([]string{}, v.Maths...), v.Prompts...) {
				if strings.ContainsAny(text, "{}") {
					t.Errorf("%s phase %d: unfilled figure in %q", l.Slug, phase+1, text)
				}
			}
		}
	}
}

// figureRef finds the figures a lesson line names.
var figureRef = regexp.MustCompile(`\{([a-z0-9.]+)\}`)

// TestFiguresFitTheirLesson: every figure a lesson states belongs to a
// game one of its phases plays, or the sentence names that game ("Pig to
// 100", "to 100"; equal turns said as such). Lesson 5 once quoted Pig to
// 100's equal-turns figure while it played Pig to 50.
func TestFiguresFitTheirLesson(t *testing.T) {
	a := newApp(t)
	for _, l := range a.srv.views.lessons {
		var lines []string
		lines = append(lines, l.Maths...)
		for _, p := range l.Phases {
			lines = append(lines, p.Prompts...)
		}
		for _, line := range lines {
			for _, m := range figureRef.FindAllStringSubmatch(line, -1) {
				fig, ok := figures.Lookup(m[1])
				v := fig.Variant
				if !ok {
					t.Errorf("%s: {%s} has no game", l.Slug, m[1])
					continue
				}
				played := false
				for _, p := range l.Phases {
					if (p.Plays() || p.AtTables()) && p.Variant.Game == v.Game && p.Variant.Target == v.Target && p.Variant.EqualTurns == v.EqualTurns {
						played = true
					}
					if v.Game == sim.TwoDice && p.Game == "skunk" {
						played = true // Skunk's rule is Two-Dice Pig's
					}
				}
				// The sentence names the game just before the figure.
				before := line[:strings.Index(line, m[0])]
				named := strings.Contains(before, fmt.Sprintf("to %d", v.Target)) && (!v.EqualTurns || strings.Contains(before, "equal turns"))
				if v.Game == sim.Hog {
					named = named && strings.Contains(before, "Hog")
				}
				if !played && !named {
					t.Errorf("%s states {%s} (%s) but plays no such game and does not name it: %q", l.Slug, m[1], v, line)
				}
			}
		}
	}
}

// TestPerfectPlayRules: each sentence of a lesson that states a rule of
// perfect play is true of the solved table, checked here directly.
func TestPerfectPlayRules(t *testing.T) {
	a := newApp(t)
	tab, err := a.srv.tables.Get(sim.Standard(sim.Pig))
	if err != nil {
		t.Fatal(err)
	}
	best := func(i, j, k int) sim.Action { return tab.Advise(i, j, k).Best }
	// "On 70 against 0, perfect play holds at a turn total of {rule.hold70}":
	// it rolls below that, and holds at it.
	h := figures.FirstHold(tab, 70, 0)
	for k := 0; k < h; k++ {
		if best(70, 0, k) != sim.Roll {
			t.Errorf("70 against 0, turn total %d: %v, want roll below %d", k, best(70, 0, k), h)
		}
	}
	if best(70, 0, h) != sim.Hold || h != 12 {
		t.Errorf("70 against 0 holds at %d (%v there); the audit found 12", h, best(70, 0, h))
	}
	// "Against an opponent on {rule.race70} or more, the same player keeps
	// rolling until they reach 100": no hold below 30 from there up, and
	// one just below it.
	r := figures.RaceFrom(tab, 70)
	for j := r; j < 100; j++ {
		for k := 0; k < 30; k++ {
			if best(70, j, k) != sim.Roll {
				t.Fatalf("70 against %d, turn total %d: %v, but the lesson says it rolls on from %d", j, k, best(70, j, k), r)
			}
		}
	}
	held := false
	for k := 0; k < 30; k++ {
		held = held || best(70, r-1, k) == sim.Hold
	}
	if !held || r < 40 || r > 60 {
		t.Errorf("the race starts at %d (held at %d: %v); the audit found about 50", r, r-1, held)
	}
	figs, err := a.srv.views.figures(i18n.For("en"))
	if err != nil {
		t.Fatal(err)
	}
	if figs["rule.hold70"] != strconv.Itoa(h) || figs["rule.race70"] != strconv.Itoa(r) || figs["equal50.first"] != "44.12%" {
		t.Errorf("figures %q %q %q", figs["rule.hold70"], figs["rule.race70"], figs["equal50.first"])
	}
	// The sentence the audit found false is gone.
	for _, l := range a.srv.views.lessons {
		for _, m := range l.Maths {
			if strings.Contains(m, "needs 30 to win should keep rolling") {
				t.Errorf("%s still says %q", l.Slug, m)
			}
		}
	}
}

// TestThreePlayerPhase: the "Is going first fair?" lesson's last phase
// plays Pig to 50 with three seats, students together and the
// perfect-play bot in the empty seats, and its prompts carry the exact
// three-player figures.
func TestThreePlayerPhase(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	for _, nick := range []string{"Ana", "Bo", "Cy", "Di"} {
		join(t, a, code, nick)
	}
	if err := a.srv.room.SetLesson(t.Context(), operator(t, a, code), "5-is-going-first-fair", 3); err != nil {
		t.Fatal(err)
	}
	doc := teacher.post("/t/"+code+"/lesson/start", nil)
	if got := doc.Find(`[data-testid="lesson-phase"]`).Text(); !strings.Contains(got, "Phase 4 of 4") || !strings.Contains(got, "Three players") {
		t.Fatalf("phase: %q", got)
	}
	if got := doc.Find(`[data-testid="lesson"]`).Text(); !strings.Contains(got, "the first 38.06%, the second 33.00%, the third 28.94%") {
		t.Errorf("the prompts' figures: %q", got)
	}
	ms := a.srv.room.Hall().Matches()
	if len(ms) != 2 {
		t.Fatalf("%d matches for four students in threes", len(ms))
	}
	for _, m := range ms {
		if m.Variant.Seats != 3 || m.Variant.Target != 50 {
			t.Errorf("a match of %v", m.Variant)
		}
	}
}

// lessonClaims are the claims about the bots a lesson's words might make,
// each with what the product must do for the claim to hold: a test reads
// every lesson, in every language, against them.
var lessonClaims = []struct {
	says  *regexp.Regexp
	holds func(r *classroom.Room, v sim.Variant) bool // of a phase's variant
	what  string
}{
	{regexp.MustCompile(`(?i)only knows two-player|solo conoce el Pig de dos jugadores|only plays? (the )?two-player`),
		func(r *classroom.Room, v sim.Variant) bool { return v.Seats <= 2 || !play.ExactBots(v) },
		"the perfect-play bot knows only two-player Pig, yet a phase of more players plays its exact table"},
	{regexp.MustCompile(`(?i)perfect-play bot (is|plays) (an )?approximat|bot de juego perfecto (es|juega) (de forma )?aproximad`),
		func(r *classroom.Room, v sim.Variant) bool { return !play.ExactBots(v) },
		"the perfect-play bot approximates, yet the phase's table is exact"},
}

// TestLessonsSayWhatTheBotsDo: no lesson's words, in any language, claim
// of the bots what the product contradicts (lessonClaims).
func TestLessonsSayWhatTheBotsDo(t *testing.T) {
	a := newApp(t)
	for _, l := range a.srv.views.lessons {
		for _, lang := range []string{"en", "es"} {
			text := l.In(lang)
			var lines []string
			lines = append(append(lines, text.Goals...), text.Maths...)
			for _, p := range text.Phases {
				lines = append(lines, p.Prompts...)
			}
			for _, line := range lines {
				for _, c := range lessonClaims {
					if !c.says.MatchString(line) {
						continue
					}
					for _, p := range l.Phases {
						if p.Plays() && !c.holds(a.srv.room, p.Variant) {
							t.Errorf("%s (%s): %q: %s (%v)", l.Slug, lang, line, c.what, p.Variant)
						}
					}
				}
			}
		}
	}
	old := "The perfect-play bot only knows two-player Pig. Why can't its table simply be used here?"
	three := sim.Variant{Game: sim.Pig, Target: 100, Seats: 3}
	if !lessonClaims[0].says.MatchString(old) || lessonClaims[0].holds(a.srv.room, three) {
		t.Error("the claims cannot find the sentence lesson 3 used to say")
	}
}

// TestLessonStepAsksBeforeEndingARound: the bar's next step, pressed while
// the phase's round is still being played, asks first (naming the
// matches that would stop) and ends nothing; confirmed, it moves on.
// With no match playing it moves on at once.
func TestLessonStepAsksBeforeEndingARound(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	if err := a.srv.room.SetLesson(t.Context(), operator(t, a, code), "2-why-20", 0); err != nil {
		t.Fatal(err)
	}
	join(t, a, code, "Ana")
	join(t, a, code, "Bo")
	teacher.post(paths.LessonStart.For(code), nil) // phase 1: two matches begin
	if mustClass(t, a, code).Phase != 0 || len((operator(t, a, code)).Matches()) == 0 {
		t.Fatal("phase 1 did not start its round")
	}
	doc := teacher.post(paths.LessonNext.For(code), nil)
	if teacher.path() != paths.ConfirmStep.For(code) || !strings.Contains(doc.Text(), "2 matches still playing stop") {
		t.Fatalf("the next step during a round: at %s, %q", teacher.path(), doc.Find("main").Text())
	}
	playing := 0
	for _, m := range (operator(t, a, code)).Matches() {
		if !m.Over() {
			playing++
		}
	}
	if playing != 2 || mustClass(t, a, code).Phase != 0 {
		t.Errorf("asking ended %d matches, or moved the phase to %d", 2-playing, mustClass(t, a, code).Phase)
	}
	form := doc.Find(`form[action="` + paths.LessonNext.For(code) + `"]`)
	if form.Length() != 1 {
		t.Fatal("the confirm page has no button for the step")
	}
	teacher.post(paths.LessonNext.For(code), url.Values{"confirm": {"yes"}})
	if mustClass(t, a, code).Phase != 1 {
		t.Errorf("confirmed, the lesson is at phase %d", mustClass(t, a, code).Phase)
	}
}

// TestFormRoundLeavesTheLesson (issue 32, item 6): a round started from
// the form in a class following a lesson leaves the lesson: the dashboard
// says so and where the lesson waits, instead of the phase's questions;
// the projector shows the round, without the phase's line, questions or
// chart; the state lasts a restart. Playing it again stays off the
// lesson; starting a phase brings the class back.
func TestFormRoundLeavesTheLesson(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStartLesson(t, teacher, "1-roll-or-hold")
	join(t, a, code, "Ana")
	teacher.post(paths.LessonStart.For(code), nil)
	if c := mustClass(t, a, code); c.OffLesson || c.Projector != "class-dice" {
		t.Fatalf("phase 1: off %v, projector %q", c.OffLesson, c.Projector)
	}
	doc := teacher.post(paths.Rounds.For(code), url.Values{"game": {"hog"}, "target": {"100"}, "max_dice": {"10"}, "mode": {"bot"}, "bot": {"dice:5"}})
	left := doc.Find(`[data-testid="lesson-left"]`).Text()
	if !strings.Contains(left, "Off the lesson") || !strings.Contains(left, "phase 1") || doc.Find(`[data-testid="lesson-phase"]`).Length() != 0 ||
		strings.Contains(doc.Find(`[data-testid="lesson"]`).Text(), "What is the only number you are afraid of") {
		t.Errorf("the dashboard after a round from the form: %q\n%s", left, doc.Find(`[data-testid="lesson"]`).Text())
	}
	if c := mustClass(t, a, code); !c.OffLesson || c.Projector != "" {
		t.Errorf("off the lesson: off %v, projector chart %q", c.OffLesson, c.Projector)
	}
	proj := teacher.get(paths.TeacherProjector.Page.For(code)).Text()
	if strings.Contains(proj, "Phase 1 of 3") || strings.Contains(proj, "What is the only number") || !strings.Contains(proj, "Hog to 100") {
		t.Errorf("the projector off the lesson shows the phase, or not the round:\n%s", proj)
	}
	teacher.post(paths.RoundsAgain.For(code), nil)
	if c := mustClass(t, a, code); !c.OffLesson {
		t.Error("playing the form's round again went back to the lesson")
	}
	// The state is the class's, on disk.
	a.stop()
	a2 := openApp(t, a.path, a.clock)
	if c, _ := a2.store.ClassByCode(t.Context(), code); !c.OffLesson {
		t.Error("a restart forgot the class left its lesson")
	}
	teacher.app = a2
	teacher.post(paths.LessonStart.For(code), url.Values{"confirm": {"yes"}})
	doc = teacher.get(paths.Teacher.For(code))
	if c := mustClass(t, a2, code); c.OffLesson || doc.Find(`[data-testid="lesson-left"]`).Length() != 0 ||
		!strings.Contains(doc.Find(`[data-testid="lesson-phase"]`).Text(), "Phase 1 of 3") {
		t.Errorf("starting the phase again: off %v, panel %q", c.OffLesson, doc.Find(`[data-testid="lesson"]`).Text())
	}
}

// TestSkunkFromTheDashboard (issue 32, item 4): any class starts Skunk
// for the whole room from the dashboard, with the rounds it asks for;
// over a round being played it asks first; a class following a lesson
// leaves it (the teacher's own game); a bad number of rounds says what
// to type.
func TestSkunkFromTheDashboard(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStartLesson(t, teacher, "1-roll-or-hold")
	ana := join(t, a, code, "Ana")
	join(t, a, code, "Bo")
	if teacher.get(paths.Teacher.For(code)).Find(`[data-testid="skunk-start"]`).Length() != 1 {
		t.Fatal("the dashboard offers no Skunk")
	}
	teacher.post(paths.SkunkStart.For(code), url.Values{"rounds": {"11"}})
	if teacher.status() != http.StatusUnprocessableEntity || !strings.Contains(teacher.body, "a whole number from 1 to 10") {
		t.Errorf("11 rounds: %d", teacher.status())
	}
	teacher.post(paths.LessonStart.For(code), nil) // phase 1 plays a round
	doc := teacher.post(paths.SkunkStart.For(code), url.Values{"rounds": {"3"}})
	if !strings.HasPrefix(teacher.path(), paths.ConfirmSkunk.For(code)) || (operator(t, a, code)).Skunk() != nil {
		t.Fatalf("Skunk over a round being played did not ask first: at %s", teacher.path())
	}
	action := doc.Find(`[data-testid="confirm"] form`).AttrOr("action", "")
	teacher.post(action, url.Values{"confirm": {"yes"}})
	k := (operator(t, a, code)).Skunk()
	if k == nil || k.Rounds != 3 || k.Over {
		t.Fatalf("Skunk after confirming: %+v", k)
	}
	if c := mustClass(t, a, code); !c.OffLesson || len(a.srv.room.Hall().Matches()) != 0 {
		t.Errorf("the class after Skunk from the dashboard: off the lesson %v, %d matches still live", c.OffLesson, len(a.srv.room.Hall().Matches()))
	}
	if ana.get(paths.StudentSkunk.For(code)).Find(`[data-testid="skunk"]`).Length() != 1 {
		t.Error("Ana's page shows no Skunk")
	}
}

// TestConfirmStepWithoutALesson: the lesson step's confirmation, asked of
// a class that follows no lesson while a round plays, goes back to the
// dashboard saying so (it once failed with no error and panicked).
func TestConfirmStepWithoutALesson(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	join(t, a, code, "Ana")
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	doc := teacher.get(paths.ConfirmStep.For(code) + "?step=1")
	if teacher.status() != http.StatusOK || teacher.path() != paths.Teacher.For(code) || !strings.Contains(doc.Find(".notice").Text(), "This class follows no lesson") {
		t.Errorf("confirm a step without a lesson: %d at %s, %q", teacher.status(), teacher.path(), doc.Find(".notice").Text())
	}
}

// TestSkunkCountsOnTheDashboard (issue 32, item 10): a game of Skunk
// counts on the dashboard's cards as in students.csv: each finished game,
// each win, each stand or sit; the same after a restart.
func TestSkunkCountsOnTheDashboard(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana, bo := join(t, a, code, "Ana"), join(t, a, code, "Bo")
	// One round: its first roll scores, then Ana and Bo sit on it, which
	// ends the round and the game.
	a.deal(t, "Skunk's first roll scores", func(s *sim.Seed) bool { f := s.RollFaces(0, 0, 0, 2); return f.Ones() == 0 })
	teacher.post(paths.SkunkStart.For(code), url.Values{"rounds": {"1"}})
	teacher.post(paths.SkunkRoll.For(code), nil)
	for _, s := range []*browser{ana, bo} {
		board := s.get(paths.StudentSkunk.For(code)).Find(`[data-testid="skunk"]`)
		s.post(paths.SkunkSit.For(code), url.Values{"moment": {board.AttrOr("data-moment", "")}})
	}
	if k := (operator(t, a, code)).Skunk(); !k.Over || k.Scores[0] == 0 || k.Scores[0] != k.Scores[1] {
		t.Fatalf("one roll and two sits: over %v, scores %v", k.Over, k.Scores)
	}
	cards := func(a *app) map[string]string {
		out := map[string]string{}
		teacher.app = a
		teacher.get(paths.Teacher.For(code)).Find(`[data-testid="student-row"]`).Each(func(_ int, r *goquery.Selection) {
			out[strings.TrimSpace(r.Find(".name").Text())] = strings.Join(strings.Fields(r.Find(".figures").Text()), " ")
		})
		return out
	}
	csv := map[string]map[string]string{}
	for _, r := range teacher.csvRows("/t/" + code + "/students.csv") {
		csv[r["student"]] = r
	}
	check := func(when string, got map[string]string) {
		for _, nick := range []string{"Ana", "Bo"} {
			r := csv[nick]
			want := fmt.Sprintf("%s game", r["games"])
			if r["games"] != "1" {
				t.Fatalf("students.csv for %s: %v", nick, r)
			}
			if !strings.HasPrefix(got[nick], want) || !strings.Contains(got[nick], r["decisions"]+" decision") {
				t.Errorf("%s, %s's card: %q; students.csv: %s games, %s wins, %s decisions", when, nick, got[nick], r["games"], r["wins"], r["decisions"])
			}
		}
	}
	check("live", cards(a))
	a.stop()
	check("after a restart", cards(openApp(t, a.path, a.clock)))
}

// TestTheBarWalksEveryLesson (issue 59, item 1): in a class started with
// a lesson plan, for every lesson of the registry, the dashboard bar's
// main step names each phase in turn, "Start phase 1" first, and pressing
// it starts that phase; after the last phase the bar offers no step. A
// first phase with no round (a discussion, tables, Skunk) moves the bar
// on like any other.
func TestTheBarWalksEveryLesson(t *testing.T) {
	a := newApp(t)
	for _, l := range a.srv.views.lessons {
		t.Run(l.Slug, func(t *testing.T) {
			a.clock.add(time.Minute) // a class a minute: more lessons than the door lets one address start in one
			teacher := a.browser()
			code := teacherStartLesson(t, teacher, l.Slug)
			for _, nick := range []string{"Ana", "Bo"} {
				join(t, a, code, nick)
			}
			text := l.In("en")
			for i := range l.Phases {
				dash := teacher.get(paths.Teacher.For(code))
				bar := dash.Find(`[data-testid="bar-next-step"]`)
				want := fmt.Sprintf("Start phase %d: %s", i+1, text.Phases[i].Name)
				if got := strings.TrimSpace(bar.Text()); got != want {
					t.Fatalf("before phase %d the bar reads %q, want %q", i+1, got, want)
				}
				action, _ := bar.Closest("form").Attr("action")
				dash = teacher.post(action, url.Values{"confirm": {"yes"}})
				if got, want := dash.Find(`[data-testid="lesson-phase"]`).Text(), fmt.Sprintf("Phase %d of %d", i+1, len(l.Phases)); !strings.Contains(got, want) {
					t.Fatalf("the bar's step %d: the lesson is at %q, want %q", i+1, got, want)
				}
			}
			if n := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="bar-next-step"]`).Length(); n != 0 {
				t.Errorf("the bar offers a step after the last phase")
			}
		})
	}
}

// TestThePhonesFollowTheLessonsPhases (issue 59, item 8): in lesson 8's
// Design phase a student's phone says the phase and opens the strategy
// editor ("Design a strategy", a tap away), not "Waiting for the teacher
// to start a round"; a phase the teacher leads says to look at the shared
// screen; and a waiting page's poll takes the phone on when the lesson
// moves, as it does for a round.
func TestThePhonesFollowTheLessonsPhases(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStartLesson(t, teacher, "8-design-a-strategy")
	ana := join(t, a, code, "Ana")
	teacher.post(paths.LessonStart.For(code), url.Values{"confirm": {"yes"}}) // Play first
	played := anaMatch(t, a, code)
	teacher.post(paths.LessonNext.For(code), url.Values{"confirm": {"yes"}}) // Design
	// Her board of Play first, ended by the step, keeps its result and
	// says beside it what Design asks (however late it was drawn; issue
	// 81 has the result stay until she leaves it).
	board := ana.get(paths.ClassBoard.With(code, played))
	if got := board.Find(`[data-testid="phase-asks"]`).Text(); got != "Phase 2: Design. Design your strategy now:" {
		t.Errorf("Design: her finished board says %q beside its result", got)
	}
	next := board.Find(`[data-testid="next-poll"]`).AttrOr("hx-get", "")
	if ana.get(next); next == "" || ana.status() != http.StatusNoContent {
		t.Errorf("Design: her finished board's poll %q answers %d, HX-Redirect %q", next, ana.status(), ana.last.Header.Get("HX-Redirect"))
	}
	page := ana.get(paths.Student.For(code))
	if got := page.Find(`[data-testid="waiting-words"]`).Text(); got != "Phase 2: Design. Design your strategy now:" {
		t.Errorf("Design: the phone says %q", got)
	}
	if href := page.Find(`[data-testid="waiting"] [data-testid="plan-now"]`).AttrOr("href", ""); href != paths.StudentPlan.For(code) {
		t.Errorf("Design: the waiting card opens %q, not the strategy editor", href)
	}
	poll := page.Find(`[data-testid="waiting"]`).AttrOr("hx-get", "")
	if ana.get(poll); ana.status() != http.StatusNoContent {
		t.Fatalf("the lesson where it was: the poll answers %d, want 204", ana.status())
	}
	teacher.post(paths.LessonNext.For(code), url.Values{"confirm": {"yes"}}) // Enter and watch
	if ana.get(poll); ana.last.Header.Get("HX-Redirect") != paths.Student.For(code) {
		t.Fatalf("the lesson moved on: the poll answers %d, HX-Redirect %q", ana.status(), ana.last.Header.Get("HX-Redirect"))
	}
	page = ana.get(paths.Student.For(code))
	if got := page.Find(`[data-testid="waiting-words"]`).Text(); got != "Phase 3: Enter and watch. Your teacher leads this part: look at the shared screen." || page.Find(`[data-testid="plan-now"]`).Length() != 0 {
		t.Errorf("Enter and watch: the phone says %q (the editor's button: %d)", got, page.Find(`[data-testid="plan-now"]`).Length())
	}
}
