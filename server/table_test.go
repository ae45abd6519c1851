package server

import (
	"encoding/json"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pigclass/sim"
	"pigclass/templates/paths"
)

// tableDevice is the device in the middle of a table: a student's
// browser that enters every player's turn.
type tableDevice struct {
	b       *browser
	code    string
	faces   []int // the throws read off the table, in turn
	holdAt  int
	entries int
}

// step enters the turn of the player to move (roll and what landed, or
// hold at holdAt) and reports whether the table's match goes on.
func (d *tableDevice) step(t *testing.T) bool {
	t.Helper()
	doc := d.b.get("/c/" + d.code)
	board := doc.Find(`[data-testid="board"]`)
	if board.Length() == 0 {
		return false
	}
	entry := board.Find(`[data-testid="table-entry"]`)
	if entry.Length() == 0 {
		return board.Find(`[data-testid="result"]`).Length() == 0 // a bot's turn, or over
	}
	seq := board.AttrOr("data-seq", "")
	k, _ := strconv.Atoi(board.Find(`[data-testid="turn-total"]`).Text())
	throw := entry.Find(`form[data-testid="table-throw"]`)
	form := url.Values{"seq": {seq}, "action": {"roll"}}
	if k >= d.holdAt {
		form.Set("action", "hold")
	} else {
		f := d.faces[d.entries%len(d.faces)]
		form.Set("faces", strconv.Itoa(f))
	}
	d.entries++
	after := d.b.post(throw.AttrOr("action", ""), form)
	if d.b.status() != http.StatusOK {
		t.Fatalf("entry %v: %d\n%s", form, d.b.status(), d.b.body)
	}
	if e := after.Find(`[data-testid="board-error"]`).Text(); e != "" {
		t.Fatalf("entry %v: %s", form, e)
	}
	return true
}

// TestATableOfThree (issue 45): the teacher opens a table of Pig for two
// students and a bot; one device (Ana's) enters every throw of both
// students, read off real dice, and the bot throws its own. A repeated
// entry is not doubled, one ahead of the match is refused, the last throw
// entered may be entered again until the next decision; every decision is
// in decisions.csv with the exact chances of three players (the table
// `pigclass advise --others` reads, at each position the record replays
// to), the entered throws labelled so, and the record verifies.
func TestATableOfThree(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana, ben := join(t, a, code, "Ana"), join(t, a, code, "Ben")
	page := teacher.get(paths.Tables.For(code))
	if page.Find(`[data-testid="table-form"] input[name="student"]`).Length() != 2 {
		t.Fatalf("the tables page lists %d students", page.Find(`input[name="student"]`).Length())
	}
	anaID, benID := strconv.FormatInt(studentID(t, a, code, "Ana"), 10), strconv.FormatInt(studentID(t, a, code, "Ben"), 10)
	// A table of one player is refused with what to fix.
	doc := teacher.post(paths.Tables.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "student": {anaID}, "bot": {""}})
	if teacher.status() != http.StatusUnprocessableEntity || !strings.Contains(doc.Find(`[data-testid="tables-error"]`).Text(), "2 to 10 players") {
		t.Fatalf("a table of one: %d %q", teacher.status(), doc.Find(`[data-testid="tables-error"]`).Text())
	}
	// The three players' table is solved first, so that every decision
	// is analysed as it is made (a table of a new kind fills its
	// analyses in when the table is ready, as a round does).
	three := sim.Standard(sim.Pig)
	three.Seats = 3
	if _, err := a.srv.tables.MultiWait(three); err != nil {
		t.Fatal(err)
	}
	teacher.post(paths.Tables.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "student": {anaID, benID}, "bot": {"hold:20"}})
	if teacher.status() != http.StatusOK || teacher.path() != paths.Tables.For(code) {
		t.Fatalf("open a table: %d at %s\n%s", teacher.status(), teacher.path(), teacher.body)
	}
	dev := &tableDevice{b: ana, code: code, faces: []int{4, 6, 3, 5, 2, 6, 1, 5, 4, 3, 6, 2, 5}, holdAt: 15}
	// Ben's own phone sees the table too, and may enter.
	if ben.get("/c/"+code).Find(`[data-testid="board"]`).Length() == 0 {
		t.Fatal("Ben's class page does not show the table")
	}
	checkTableEntries(t, dev)
	for i := 0; i < 2000 && dev.step(t); i++ {
	}
	checkTableRecords(t, a, teacher, code, []*browser{ana, ben})
}

// checkTableEntries enters a throw for the player to move, sends it
// again (nothing doubles), sends one ahead (refused), and enters the
// last throw again with another face.
func checkTableEntries(t *testing.T, dev *tableDevice) {
	t.Helper()
	for i := 0; i < 50; i++ { // to a student's turn (the bot may move first)
		doc := dev.b.get("/c/" + dev.code)
		if doc.Find(`[data-testid="table-entry"]`).Length() > 0 {
			break
		}
	}
	doc := dev.b.get("/c/" + dev.code)
	board := doc.Find(`[data-testid="board"]`)
	seq, _ := strconv.Atoi(board.AttrOr("data-seq", ""))
	enter := board.Find(`form[data-testid="table-throw"]`).AttrOr("action", "")
	if enter == "" {
		t.Fatalf("no entry form on the table's board:\n%s", dev.b.body)
	}
	if n := board.Find(`[data-testid^="mark-"]`).Length(); n != 6 {
		t.Errorf("Pig's entry has %d face buttons, want 6", n)
	}
	k, _ := strconv.Atoi(board.Find(`[data-testid="turn-total"]`).Text())
	roll := url.Values{"seq": {strconv.Itoa(seq)}, "action": {"roll"}, "faces": {"3"}}
	dev.b.post(enter, roll)
	dev.b.post(enter, roll) // the network dropped: sent again
	after := dev.b.get("/c/" + dev.code).Find(`[data-testid="board"]`)
	if got, _ := strconv.Atoi(after.Find(`[data-testid="turn-total"]`).Text()); got != k+3 || after.AttrOr("data-seq", "") != strconv.Itoa(seq+1) {
		t.Fatalf("a 3 entered twice: turn total %d at seq %s, want %d at %d", got, after.AttrOr("data-seq", ""), k+3, seq+1)
	}
	doc = dev.b.post(enter, url.Values{"seq": {strconv.Itoa(seq + 5)}, "action": {"hold"}})
	if !strings.Contains(doc.Find(`[data-testid="board-error"]`).Text(), "has not arrived") {
		t.Errorf("an entry ahead of the match: %d %q", dev.b.status(), doc.Find(`[data-testid="board-error"]`).Text())
	}
	// Read wrong: the 3 was a 5.
	if after.Find(`[data-testid="table-correct"]`).Length() == 0 {
		t.Fatal("the last throw entered cannot be entered again")
	}
	dev.b.post(enter, url.Values{"seq": {strconv.Itoa(seq + 1)}, "action": {"roll"}, "faces": {"5"}, "correct": {"1"}})
	after = dev.b.get("/c/" + dev.code).Find(`[data-testid="board"]`)
	if got, _ := strconv.Atoi(after.Find(`[data-testid="turn-total"]`).Text()); got != k+5 || after.AttrOr("data-seq", "") != strconv.Itoa(seq+1) {
		t.Errorf("the 3 entered again as a 5: turn total %d at seq %s, want %d at %d", got, after.AttrOr("data-seq", ""), k+5, seq+1)
	}
	// A hold, then the throw before it can no longer change.
	dev.b.post(enter, url.Values{"seq": {strconv.Itoa(seq + 1)}, "action": {"hold"}})
	doc = dev.b.post(enter, url.Values{"seq": {strconv.Itoa(seq + 2)}, "action": {"roll"}, "faces": {"6"}, "correct": {"1"}})
	if dev.b.status() != http.StatusConflict && !strings.Contains(doc.Find(`[data-testid="board-error"]`).Text(), "last throw") {
		t.Errorf("a throw entered again after a hold: %d %q", dev.b.status(), doc.Find(`[data-testid="board-error"]`).Text())
	}
}

// checkTableRecords checks the finished table's files: every decision
// with the exact chances of its position, the entered throws labelled,
// the record verified, the review open to each player.
func checkTableRecords(t *testing.T, a *app, teacher *browser, code string, players []*browser) {
	t.Helper()
	home := players[0].get("/c/" + code)
	link := home.Find(`a[href^="/c/`+code+`/m/"]`).AttrOr("href", "")
	if link == "" {
		t.Fatalf("no finished table on Ana's page:\n%s", players[0].body)
	}
	players[0].get(link + "/record.json")
	rec := []byte(players[0].body)
	got, err := sim.VerifyJSON(rec)
	if err != nil || !got.State.Over {
		t.Fatalf("the table's record: %v", err)
	}
	var record sim.Record
	if err := json.Unmarshal(rec, &record); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(record.Events, func(e sim.Event) bool { return e.Entered }) {
		t.Error("the record does not say its throws were entered")
	}
	three := sim.Standard(sim.Pig)
	three.Seats = 3
	multi, err := a.srv.tables.MultiWait(three)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := sim.NewMatch(record.Variant, record.Seed)
	var want []sim.State // the position before each event
	for _, e := range record.Events {
		want = append(want, m.State())
		if e.Entered {
			_, err = m.Enter(e.Seat, e.Action, e.Faces)
		} else {
			_, err = m.Apply(e.Seat, e.Action)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	id := strings.TrimPrefix(link, "/c/"+code+"/m/")
	rows, i, entered := teacher.csvRows(paths.DecisionsCSV.For(code)), 0, 0
	for _, r := range rows {
		if r["match"] != id {
			continue
		}
		pre, e := want[i], record.Events[i]
		i++
		if r["by"] == "bot" {
			if r["source"] != "seed" {
				t.Errorf("a bot's throw %v: source %q", r, r["source"])
			}
			continue
		}
		if wantSource := map[bool]string{true: "entered", false: "seed"}[e.Entered]; r["source"] != wantSource || r["analysis"] != "exact" {
			t.Errorf("row %v: source %q analysis %q, want %s and exact", r, r["source"], r["analysis"], wantSource)
		}
		if e.Entered {
			entered++
		}
		p := []int{pre.Scores[pre.Seat]}
		for o := 1; o < 3; o++ {
			p = append(p, pre.Scores[(pre.Seat+o)%3])
		}
		adv := multi.Advise(p, pre.TurnTotal)
		roll, _ := strconv.ParseFloat(r["win_if_roll_pct"], 64)
		hold, _ := strconv.ParseFloat(r["win_if_hold_pct"], 64)
		if math.Abs(roll/100-adv.Roll) > 1e-9 || math.Abs(hold/100-adv.Hold) > 1e-9 || r["best_action"] != adv.Best.String() {
			t.Errorf("row %v: the three players' table says roll %.9f hold %.9f best %s", r, adv.Roll, adv.Hold, adv.Best)
		}
	}
	if i != len(record.Events) || entered == 0 {
		t.Errorf("%d rows of the table's match for %d events, %d entered", i, len(record.Events), entered)
	}
	for _, b := range players {
		review := b.get(link)
		if b.status() != http.StatusOK || review.Find(`[data-testid="review"]`).Length() == 0 {
			t.Errorf("a player's review of the table: %d", b.status())
		}
	}
}
