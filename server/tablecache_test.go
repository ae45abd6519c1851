package server

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"pigclass/server/report"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates/paths"
)

// TestThreeSeatRoundFirst: the first request for a game and target comes
// from a three-seat round with the perfect-play bot (no table of Pig to 97
// is solved yet, in a cache of its own). Every effect the table cache's
// old key had is checked: the dashboard and the students' charts answer,
// the three-seat decisions are analysed (approximately) and the two-seat
// decisions after them exactly, a two-seat round with the perfect-play
// bot starts, and a restart with the three-seat round in progress serves
// again and plays on.
func TestThreeSeatRoundFirst(t *testing.T) {
	tables := &solve.Cache{}
	fresh := func(c *Config) { c.Tables = tables }
	a := newAppConfig(t, fresh)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 1}
	round := url.Values{"game": {"pig"}, "target": {"97"}, "mode": {"bot"}, "bot": {"optimal"}, "seats": {"3"}}
	teacher.post("/t/"+code+"/rounds", round)
	if teacher.status() != http.StatusOK {
		t.Fatalf("three-seat round: %d %s", teacher.status(), teacher.body)
	}
	for ana.actions < 2 {
		if !ana.step(t, code) {
			t.Fatal("the three-seat match ended before the restart")
		}
	}

	// The server restarts with the round in play, on tables of its own
	// (none solved yet but the defaults).
	path, clk := a.path, a.clock
	a.stop()
	tables = &solve.Cache{}
	b := openAppWith(t, path, clk, store.Options{}, fresh)
	teacher.moveTo(b)
	ana.b.moveTo(b)
	for ana.step(t, code) {
	}
	for _, page := range []struct {
		who  *browser
		path string
	}{{teacher, "/t/" + code}, {ana.b, "/c/" + code + "/charts"}} {
		page.who.get(page.path)
		if page.who.status() != http.StatusOK {
			t.Errorf("GET %s: %d", page.path, page.who.status())
		}
	}

	round.Set("seats", "2")
	teacher.post("/t/"+code+"/rounds", round)
	if teacher.status() != http.StatusOK {
		t.Fatalf("two-seat round with the perfect-play bot after it: %d %s", teacher.status(), teacher.body)
	}
	ana.holdAt = 20
	for ana.step(t, code) {
	}
	got := map[string]map[string]int{}
	for _, r := range teacher.csvRows("/t/" + code + "/decisions.csv") {
		if r["by"] == "timeout" {
			continue
		}
		if got[r["seats"]] == nil {
			got[r["seats"]] = map[string]int{}
		}
		got[r["seats"]][r["analysis"]]++
	}
	// Three seats: approximate until their own table is solved in the
	// background, exact after; never none.
	if got["3"]["none"] > 0 || got["3"]["approximate"]+got["3"]["exact"] == 0 {
		t.Errorf("three-seat decisions analysed %v", got["3"])
	}
	if got["2"]["none"] > 0 || got["2"]["exact"] == 0 || got["2"]["approximate"] > 0 {
		t.Errorf("two-seat decisions analysed %v, want exact only", got["2"])
	}
	// students.csv counts the approximate ones apart.
	approximate := 0
	for _, r := range teacher.csvRows(paths.DecisionsCSV.For(code)) {
		if r["by"] == "student" && r["analysis"] == "approximate" {
			approximate++
		}
	}
	if st := teacher.csvRows(paths.StudentsCSV.For(code)); st[0]["approximate"] != strconv.Itoa(approximate) {
		t.Errorf("students.csv counts %s approximate decisions, decisions.csv %d", st[0]["approximate"], approximate)
	}
}

// TestThreeSeatsExact: once the table of three players is solved, a
// three-seat round's decisions are analysed exactly: the first decision's
// chances are the table's at (0, 0, 0), and decisions.csv says exact.
func TestThreeSeatsExact(t *testing.T) {
	v := sim.Variant{Game: sim.Pig, Target: 30, Seats: 3}
	m, err := sharedTables.MultiWait(v)
	if err != nil {
		t.Fatal(err)
	}
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 10}
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"3"}})
	for ana.step(t, code) {
	}
	rows := teacher.csvRows(paths.DecisionsCSV.For(code))
	first := rows[0]
	for _, r := range rows {
		if r["analysis"] != "exact" && r["by"] != "timeout" {
			t.Fatalf("a three-seat decision analysed %q: %v", r["analysis"], r)
		}
	}
	if st := teacher.csvRows(paths.StudentsCSV.For(code)); st[0]["approximate"] != "0" || st[0]["analysed"] == "0" {
		t.Errorf("students.csv: %v", st[0])
	}
	adv := m.Advise([]int{0, 0, 0}, 0)
	if got := first["win_if_roll_pct"]; got != report.PctCell(adv.Roll) {
		t.Errorf("the first decision's chance if rolling: %s, the table's %s", got, report.PctCell(adv.Roll))
	}
}
