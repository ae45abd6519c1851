package server

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"pigclass/server/play"
	"pigclass/server/report"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates/paths"
)

// tableDevice is the device in the middle of a table: a student's
// browser that enters every player's turn.
type tableDevice struct {
	b       *browser
	code    string
	faces   []string // the throws read off the table, in turn ("4"; "3 5" for two pieces)
	holdAt  int
	entries int
	last    *goquery.Document // the device's page after its last entry
	htmx    bool              // enter as the page does, the board swapped in reply
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
		form.Set("faces", d.faces[d.entries%len(d.faces)])
	}
	d.entries++
	var headers []string
	if d.htmx {
		headers = []string{"HX-Request", "true"}
	}
	after := d.b.post(throw.AttrOr("action", ""), form, headers...)
	d.last = after
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
	dev := &tableDevice{b: ana, code: code, faces: strings.Fields("4 6 3 5 2 6 1 5 4 3 6 2 5"), holdAt: 15}
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
	// The first student given moves first, the bot last (the seed deals
	// the first seat, and the players sit round the table from it).
	doc := dev.b.get("/c/" + dev.code)
	if doc.Find(`[data-testid="table-entry"]`).Length() == 0 {
		t.Fatalf("the table's first player has nothing to enter:\n%s", dev.b.body)
	}
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
	if dev.b.status() != http.StatusConflict || !strings.Contains(doc.Find(`[data-testid="board-error"]`).Text(), "last throw") {
		t.Errorf("a throw entered again after a hold: %d %q", dev.b.status(), doc.Find(`[data-testid="board-error"]`).Text())
	}
}

// checkTableRecords checks the finished table's files: every decision
// with the exact chances of its position, the entered throws labelled,
// the record verified, the review open to each player.
func checkTableRecords(t *testing.T, a *app, teacher *browser, code string, players []*browser) {
	t.Helper()
	m := lastTable(t, a, code)
	link := paths.ClassMatch.With(code, m.ID)
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
	// The verify page says the players' throws apart from the seed's.
	page := players[0].post(paths.Verify.String(), url.Values{"record": {string(rec)}})
	if entered := page.Find(`[data-testid="check-entered"]`); entered.AttrOr("data-ok", "") != "true" ||
		!strings.Contains(entered.Text(), fmt.Sprintf("%d throws, entered by the players", got.Entered)) || got.Entered == 0 {
		t.Errorf("the verify page of a table's record: %q (%d entered)", page.Find(`[data-testid="verify-result"]`).Text(), got.Entered)
	}
	advise := tableAdvice(t, a, record.Variant)
	replay, _ := sim.NewMatch(record.Variant, record.Seed)
	var want []sim.State // the position before each event
	for _, e := range record.Events {
		want = append(want, replay.State())
		if e.Entered {
			_, err = replay.Enter(e.Seat, e.Action, e.Faces)
		} else {
			_, err = replay.Apply(e.Seat, e.Action)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	id := strconv.FormatInt(m.ID, 10)
	rows, i, entered := teacher.csvRows(paths.DecisionsCSV.For(code)), 0, 0
	for _, r := range rows {
		if r["match"] != id {
			continue
		}
		pre, e := want[i], record.Events[i]
		i++
		wantSource := map[bool]string{true: "entered", false: "seed"}[e.Entered]
		if e.Faces.Len() == 0 {
			wantSource = "" // a hold throws nothing
		}
		if r["by"] == "bot" {
			if r["source"] != wantSource || e.Entered {
				t.Errorf("a bot's move %v: source %q, want %q", r, r["source"], wantSource)
			}
			continue
		}
		if r["source"] != wantSource || r["analysis"] != "exact" {
			t.Errorf("row %v: source %q analysis %q, want %s and exact", r, r["source"], r["analysis"], wantSource)
		}
		if e.Entered {
			entered++
		}
		adv := advise(&pre)
		roll, _ := strconv.ParseFloat(r["win_if_roll_pct"], 64)
		hold, _ := strconv.ParseFloat(r["win_if_hold_pct"], 64)
		if math.Abs(roll/100-adv.Roll) > 1e-9 || math.Abs(hold/100-adv.Hold) > 1e-9 || r["best_action"] != adv.Best.String() {
			t.Errorf("row %v: the solved table says roll %.9f hold %.9f best %s", r, adv.Roll, adv.Hold, adv.Best)
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

// TestAPaperGameTypedIn (issue 45): a game of Pig played at a table on
// paper and typed in afterwards, a turn a row as the score sheet has it,
// gives decisions.csv the same rows as the same game entered throw by
// throw as it was played; a row whose turn ends before its end is
// refused whole; the teacher's blank score sheet prints a column a player.
func TestAPaperGameTypedIn(t *testing.T) {
	a, teacher, code, ana, ids := anaAndBen(t)
	v := sim.Standard(sim.Pig)
	v.Target = 30
	if _, err := a.srv.tables.Get(v); err != nil {
		t.Fatal(err)
	}
	open := func() {
		teacher.post(paths.Tables.For(code), url.Values{"game": {"pig"}, "target": {"30"}, "student": ids})
		if teacher.status() != http.StatusOK {
			t.Fatalf("open a table: %d\n%s", teacher.status(), teacher.body)
		}
	}
	// The sheet, turn by turn: Ana first, as she was ticked first.
	sheet := []string{"6 5 4 h", "3 1", "6 6 h", "5 5 5 h", "2 2"}
	board := func() (string, string) {
		b := ana.get("/c/" + code).Find(`[data-testid="board"]`)
		return b.AttrOr("data-seq", ""), b.Find(`form[data-testid="table-throw"]`).AttrOr("action", "")
	}
	open()
	for _, row := range sheet { // live: each throw and hold as it came
		for _, f := range strings.Fields(row) {
			seq, enter := board()
			form := url.Values{"seq": {seq}, "action": {"roll"}, "faces": {f}}
			if f == "h" {
				form = url.Values{"seq": {seq}, "action": {"hold"}}
			}
			ana.post(enter, form)
		}
	}
	open()
	seq, enter := board()
	doc := ana.post(enter, url.Values{"seq": {seq}, "turn": {"6 1 4 h"}})
	if !strings.Contains(doc.Find(`[data-testid="board-error"]`).Text(), "Nothing of it was entered") {
		t.Errorf("a row going on past a 1: %q", doc.Find(`[data-testid="board-error"]`).Text())
	}
	// The score written after a hold is checked (issue 59, item 7): a
	// wrong one refuses the row, and nothing of it is entered.
	doc = ana.post(enter, url.Values{"seq": {seq}, "turn": {"6 5 4 h 16"}})
	if got := doc.Find(`[data-testid="board-error"]`).Text(); got != "The row says the score is 16, but its throws make 15: check the row against the sheet. Nothing was entered." {
		t.Errorf("a row whose score is written wrong: %q", got)
	}
	if now, _ := board(); now != seq {
		t.Fatalf("a row refused for its score moved the game from %s to %s", seq, now)
	}
	written := map[string]string{"6 5 4 h": "6 5 4 h 15", "6 6 h": "6 6 h 27", "5 5 5 h": "5 5 5 h 15"}
	for _, row := range sheet { // on paper: a turn a row, the score after each hold
		if w, ok := written[row]; ok {
			row = w
		}
		seq, enter = board()
		if enter == "" {
			t.Fatalf("no entry before the row %q:\n%s", row, ana.body)
		}
		doc = ana.post(enter, url.Values{"seq": {seq}, "turn": {row}})
		if e := doc.Find(`[data-testid="board-error"]`).Text(); e != "" {
			t.Fatalf("the row %q: %s", row, e)
		}
	}
	byMatch := map[string][]string{}
	skip := map[string]bool{"match": true, "at": true, "local_time": true}
	for _, r := range teacher.csvRows(paths.DecisionsCSV.For(code)) {
		var cells []string
		for _, c := range report.DecisionsFile.Header() {
			if !skip[c] {
				cells = append(cells, c+"="+r[c])
			}
		}
		byMatch[r["match"]] = append(byMatch[r["match"]], strings.Join(cells, " "))
	}
	live, paper := byMatch["1"], byMatch["2"]
	if len(live) != 15 || !slices.Equal(live, paper) {
		t.Errorf("the game played live (%d rows) and typed in from paper (%d rows) differ:\n%s\n%s", len(live), len(paper), strings.Join(live, "\n"), strings.Join(paper, "\n"))
	}
	if !strings.Contains(live[0], "student=Ana") || !strings.Contains(live[0], "analysis=exact") || !strings.Contains(live[0], "source=entered") {
		t.Errorf("the first decision: %s", live[0])
	}
	// A class that played only at tables has today's podium of them.
	res := teacher.get(paths.TeacherProjector.Results.For(code) + "?scope=today")
	if res.Find(`[data-testid="award"]`).Length() == 0 || !strings.Contains(res.Find("main").Text(), "Ana") {
		t.Errorf("today's podium of a class that played at tables: %d awards\n%s", res.Find(`[data-testid="award"]`).Length(), res.Find("main").Text())
	}
	print := teacher.get(paths.TableSheet.For(code) + "?game=pass-the-pigs&players=3")
	if print.Find(`[data-testid="sheet-player"]`).Length() != 3 || print.Find(`[data-testid="sheet"] tbody tr`).Length() != sheetTurns {
		t.Errorf("the score sheet of 3 players: %d columns, %d rows", print.Find(`[data-testid="sheet-player"]`).Length(), print.Find(`[data-testid="sheet"] tbody tr`).Length())
	}
	// The pigs' sheet says what number each landing is written as, and no
	// die's number (issue 59, item 7).
	legend := print.Find(`[data-testid="sheet-legend"]`).Text()
	for m, want := range []string{"1 ", "2 ", "7 "} {
		if !strings.Contains(legend, want) {
			t.Errorf("the pigs' sheet's legend %q lacks mark %d", legend, m+1)
		}
	}
	if how := print.Find(`[data-testid="sheet"]`).Text(); strings.Contains(how, "a die's number") || legend == "" {
		t.Errorf("the pigs' sheet says how to write a throw as %q, legend %q", how, legend)
	}
	// Pig's sheet writes the score after the turn, and its example is a
	// row the entry takes (above).
	if pig := teacher.get(paths.TableSheet.For(code) + "?game=pig&players=2").Find(`[data-testid="sheet"]`).Text(); !strings.Contains(pig, "Such as 4 6 h 10.") {
		t.Errorf("Pig's sheet: %q", pig)
	}
}

// lastTable is the class's latest match at a table.
func lastTable(t *testing.T, a *app, code string) play.Match {
	t.Helper()
	ms, err := a.store.Matches(t.Context(), store.MatchFilter{ClassID: mustClass(t, a, code).ID})
	if err != nil {
		t.Fatal(err)
	}
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].AtTable {
			return ms[i]
		}
	}
	t.Fatal("no table in the class")
	return play.Match{}
}

// tableEvents are the events of the class's latest table, as stored.
func tableEvents(t *testing.T, a *app, code string) []play.Event {
	t.Helper()
	evs, err := a.store.Events(t.Context(), store.EventFilter{MatchID: lastTable(t, a, code).ID})
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// tableAdvice is the solved game's advice at a position of variant v, as
// pigclass advise gives it: the two players' table, or for more players
// the table of that many (the others' scores in the order they move
// after the mover).
func tableAdvice(t *testing.T, a *app, v sim.Variant) func(st *sim.State) solve.Advice {
	t.Helper()
	if v.Seats == 2 {
		tab, err := a.srv.tables.Get(v)
		if err != nil {
			t.Fatal(err)
		}
		return func(st *sim.State) solve.Advice {
			return tab.Advise(st.Scores[st.Seat], st.Scores[1-st.Seat], st.TurnTotal)
		}
	}
	multi, err := a.srv.tables.MultiWait(v)
	if err != nil {
		t.Fatal(err)
	}
	return func(st *sim.State) solve.Advice {
		var p []int
		for o := range v.Seats {
			p = append(p, st.Scores[(st.Seat+o)%v.Seats])
		}
		return multi.Advise(p, st.TurnTotal)
	}
}

// TestALessonPhaseAtTables (issue 45): lesson 9's phase played at tables
// starts no round; its bar links to the tables page with the phase's game
// and target picked, and a table opened there plays them.
func TestALessonPhaseAtTables(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStartLesson(t, teacher, "9-are-our-dice-fair")
	join(t, a, code, "Ana")
	join(t, a, code, "Ben")
	teacher.post(paths.LessonStart.For(code), nil) // phase 1: guess first
	doc := teacher.post(paths.LessonNext.For(code), nil)
	link := doc.Find(`[data-testid="lesson-tables"]`).AttrOr("href", "")
	if !strings.Contains(link, "game=pig") || !strings.Contains(link, "target=50") {
		t.Fatalf("phase 2's bar links to %q (at %s):\n%s", link, teacher.path(), doc.Find(`[data-testid="lesson"]`).Text())
	}
	if len(operator(t, a, code).Matches()) != 0 || mustClass(t, a, code).Phase != 1 {
		t.Fatal("the phase at tables started a round, or did not start")
	}
	page := teacher.get(link)
	if page.Find(`#table-target`).AttrOr("value", "") != "50" || page.Find(`[data-testid="table-game-pig"][aria-current="true"]`).Length() != 1 {
		t.Fatalf("the tables page from the lesson: target %q", page.Find(`#table-target`).AttrOr("value", ""))
	}
	var ids []string
	page.Find(`input[name="student"]`).Each(func(_ int, s *goquery.Selection) { ids = append(ids, s.AttrOr("value", "")) })
	page = teacher.post(paths.Tables.For(code), url.Values{"game": {"pig"}, "target": {"50"}, "student": ids})
	if m := lastTable(t, a, code); m.Variant.Target != 50 || m.Variant.Seats != 2 || !m.AtTable {
		t.Errorf("the table opened from the lesson: %v", m.Variant)
	}
	// The next table is offered the same game and target, and the page
	// says the table opened (issue 59, item 2).
	if page.Find(`#table-target`).AttrOr("value", "") != "50" || page.Find(`[data-testid="table-game-pig"][aria-current="true"]`).Length() != 1 ||
		page.Find(".notice").Length() == 0 {
		t.Errorf("after the first table (at %s): target %q, a notice %d", teacher.path(), page.Find(`#table-target`).AttrOr("value", ""), page.Find(".notice").Length())
	}
	// The score sheet printed from that page plays to the same target.
	sheet := page.Find(`[data-testid="tables-sheet"] form`)
	q := url.Values{"players": {"4"}}
	sheet.Find(`input[type="hidden"]`).Each(func(_ int, in *goquery.Selection) { q.Set(in.AttrOr("name", ""), in.AttrOr("value", "")) })
	if rules := teacher.get(sheet.AttrOr("action", "") + "?" + q.Encode()).Text(); !strings.Contains(rules, "First to 50 wins") {
		t.Errorf("the score sheet printed after the first table (%v) does not say 'First to 50 wins'", q)
	}
	// The day counts its games at tables and names the lesson they
	// played, not "0 rounds" (issue 59, item 5).
	teacher.post(paths.Tables.For(code), url.Values{"game": {"pig"}, "target": {"50"}, "student": ids})
	day := strings.Join(strings.Fields(teacher.get(paths.Teacher.For(code)).Find(`[data-testid="day"]`).Text()), " ")
	if !strings.Contains(day, "· Are our dice fair? · 2 games at tables") || strings.Contains(day, "round") {
		t.Errorf("the day of two tables of lesson 9 reads %q", day)
	}
}

// TestATeachersOwnTableCountsOnItsDay (issue 59, item 5): a table the
// teacher opens outside any lesson is counted on its day, which names no
// lesson.
func TestATeachersOwnTableCountsOnItsDay(t *testing.T) {
	_, teacher, code, _, ids := anaAndBen(t)
	teacher.post(paths.Tables.For(code), url.Values{"game": {"pig"}, "target": {"30"}, "student": ids})
	day := strings.Join(strings.Fields(teacher.get(paths.Teacher.For(code)).Find(`[data-testid="day"]`).Text()), " ")
	if !strings.HasSuffix(day, "today · 1 game at tables") {
		t.Errorf("the day of one table reads %q", day)
	}
}

// anaAndBen is a class of Ana and Ben: the app, the teacher, the code,
// Ana's browser (the table's device) and the two students' IDs, Ana's
// first, as the tables form posts them.
func anaAndBen(t *testing.T) (*app, *browser, string, *browser, []string) {
	t.Helper()
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	join(t, a, code, "Ben")
	ids := []string{strconv.FormatInt(studentID(t, a, code, "Ana"), 10), strconv.FormatInt(studentID(t, a, code, "Ben"), 10)}
	return a, teacher, code, ana, ids
}

// TestNewcomersJoinAtTheTable (issue 45): players who have not joined
// the class join it at the table, by nickname, and sit after the students
// ticked, who play in the order the teacher numbers them; a nickname the class has is refused with the
// join's own words, and a table of newcomers alone (no device) too; a
// newcomer takes their seat later on a device of their own with the
// rejoin code on their page of the dashboard.
func TestNewcomersJoinAtTheTable(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	anaID := strconv.FormatInt(studentID(t, a, code, "Ana"), 10)
	doc := teacher.post(paths.Tables.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "newcomers": {"Ben"}})
	if !strings.Contains(doc.Find(`[data-testid="tables-error"]`).Text(), "joined on a device") {
		t.Errorf("newcomers alone: %q", doc.Find(`[data-testid="tables-error"]`).Text())
	}
	doc = teacher.post(paths.Tables.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "student": {anaID}, "newcomers": {"Ben\nAna"}})
	if e := doc.Find(`[data-testid="tables-error"]`).Text(); !strings.Contains(e, "Ana could not join") || doc.Find(`[data-testid="table-newcomers"]`).Text() != "Ana" {
		t.Errorf("a newcomer named as Ana: %q, the field keeps %q", e, doc.Find(`[data-testid="table-newcomers"]`).Text())
	}
	benID := strconv.FormatInt(studentID(t, a, code, "Ben"), 10) // joined before the refusal
	// The teacher numbers the places: Ben first, then Ana; then Cy, who
	// joins here.
	doc = teacher.post(paths.Tables.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "student": {anaID, benID}, "order-" + anaID: {"1"}, "order-" + benID: {"1"}})
	if !strings.Contains(doc.Find(`[data-testid="tables-error"]`).Text(), "each used once") {
		t.Errorf("two players at place 1: %q", doc.Find(`[data-testid="tables-error"]`).Text())
	}
	teacher.post(paths.Tables.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "student": {anaID, benID}, "order-" + anaID: {"2"}, "order-" + benID: {"1"}, "newcomers": {" Cy \n\n"}})
	m := lastTable(t, a, code)
	var order []string
	for o := range m.Variant.Seats {
		order = append(order, m.Seats[(m.FirstSeat+o)%m.Variant.Seats].Nickname)
	}
	if strings.Join(order, " ") != "Ben Ana Cy" {
		t.Fatalf("the table plays in the order %v, want Ben Ana Cy", order)
	}
	if ana.get("/c/"+code).Find(`[data-testid="table-ask"]`).Text() != "Ben rolls: what landed?" {
		t.Error("Ana's device does not enter Ben's first turn")
	}
	// Cy takes his seat on his own phone with the rejoin code.
	rejoin := teacher.get(paths.TeacherStudent.With(code, studentID(t, a, code, "Cy"))).Find(`[data-testid="student-rejoin-code"]`).Text()
	cy := a.browser()
	cy.post("/join", url.Values{"code": {code}, "nickname": {"Cy"}, "rejoin": {rejoin}})
	if cy.path() != "/c/"+code || cy.get("/c/"+code).Find(`[data-testid="board"]`).Length() != 1 {
		t.Errorf("Cy with his rejoin code %q: at %s, no table", rejoin, cy.path())
	}
}

// TestATableOutlivesARestart (issue 45): a table's entered throws are
// its log: after a restart the table is where it was (the turn total the
// entered throws made, the player to move), its device goes on entering,
// and its record still verifies.
func TestATableOutlivesARestart(t *testing.T) {
	a, teacher, code, ana, ids := anaAndBen(t)
	teacher.post(paths.Tables.For(code), url.Values{"game": {"two-dice"}, "target": {"100"}, "student": ids})
	board := ana.get("/c/" + code).Find(`[data-testid="board"]`)
	enter := board.Find(`form[data-testid="table-throw"]`).AttrOr("action", "")
	ana.post(enter, url.Values{"seq": {"0"}, "turn": {"66 54"}}) // Ana: 12 + 9
	before := ana.get("/c/" + code).Find(`[data-testid="board"]`)
	if got := before.Find(`[data-testid="turn-total"]`).Text(); got != "21" {
		t.Fatalf("before the restart: turn total %s, want 21", got)
	}
	path, clk := a.path, a.clock
	a.stop()
	b := openApp(t, path, clk)
	ana.moveTo(b)
	teacher.moveTo(b)
	after := ana.get("/c/" + code).Find(`[data-testid="board"]`)
	if after.Find(`[data-testid="turn-total"]`).Text() != "21" || after.AttrOr("data-seq", "") != "2" || after.Find(`[data-testid="table-entry"]`).Length() != 1 {
		t.Fatalf("after the restart: turn total %q at seq %q", after.Find(`[data-testid="turn-total"]`).Text(), after.AttrOr("data-seq", ""))
	}
	dev := &tableDevice{b: ana, code: code, faces: []string{"3 4", "5 6", "2 3", "6 6", "4 2", "1 5"}, holdAt: 20}
	for i := 0; i < 2000 && dev.step(t); i++ {
	}
	checkTableRecords(t, b, teacher, code, []*browser{ana})
}

// TestARoundLeavesTheTables (issue 45): a round the teacher starts while
// a table plays, and its end, leave the table playing: its players find
// it again on their pages where it was, and it is not ended on disk.
func TestARoundLeavesTheTables(t *testing.T) {
	a, teacher, code, ana, ids := anaAndBen(t)
	join(t, a, code, "Cy")
	teacher.post(paths.Tables.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "student": ids})
	board := ana.get("/c/" + code).Find(`[data-testid="board"]`)
	ana.post(board.Find(`form[data-testid="table-throw"]`).AttrOr("action", ""), url.Values{"seq": {"0"}, "turn": {"6 5"}})
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	if teacher.status() != http.StatusOK {
		t.Fatalf("a round beside a table: %d", teacher.status())
	}
	if ana.get("/c/"+code).Find(`[data-testid="table-entry"]`).Length() != 0 {
		t.Error("during the round Ana's page shows the table, not her round's match")
	}
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"50"}, "mode": {"bot"}, "bot": {"hold:20"}}) // another round: the first ends
	teacher.post(paths.RoundsEnd.For(code), url.Values{"confirm": {"yes"}})
	after := ana.get("/c/" + code).Find(`[data-testid="board"]`)
	if after.Find(`[data-testid="table-entry"]`).Length() != 1 || after.Find(`[data-testid="turn-total"]`).Text() != "11" {
		t.Fatalf("after the rounds, Ana's page: table %d, turn total %q", after.Find(`[data-testid="table-entry"]`).Length(), after.Find(`[data-testid="turn-total"]`).Text())
	}
	if m := lastTable(t, a, code); m.Status != play.Playing {
		t.Errorf("the table after two rounds ended: %s", m.Status)
	}
}

// TestAnotherEntryAtATakenPlace (issue 58, item 9): Ana's device enters
// a 2 at a table; Ben's device, which had not seen it, sends a 4 at the
// same place: refused with 409 (with or without htmx), naming both, and
// nothing of it stored; the same 2 sent again is taken as already there.
// A hold and a throw at one place, and a throw entered again after play
// went on, are refused alike.
func TestAnotherEntryAtATakenPlace(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana, ben := join(t, a, code, "Ana"), join(t, a, code, "Ben")
	ids := []string{strconv.FormatInt(studentID(t, a, code, "Ana"), 10), strconv.FormatInt(studentID(t, a, code, "Ben"), 10)}
	teacher.post(paths.Tables.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "student": ids})
	board := ana.get("/c/" + code).Find(`[data-testid="board"]`)
	enter := board.Find(`form[data-testid="table-throw"]`).AttrOr("action", "")
	if enter == "" || board.AttrOr("data-seq", "") != "0" {
		t.Fatalf("the table's board has no entry form at seq 0:\n%s", ana.body)
	}
	if q := board.AttrOr("data-queue", ""); q != enter {
		t.Errorf("the board names its queue %q, want the entry address %q", q, enter)
	}
	ana.post(enter, url.Values{"seq": {"0"}, "action": {"roll"}, "faces": {"2"}})
	refused := func(b *browser, form url.Values, there, entered string, headers ...string) {
		t.Helper()
		doc := b.post(enter, form, headers...)
		said := doc.Find(`[data-testid="board-error"]`).Text()
		if b.status() != http.StatusConflict || !strings.Contains(said, "already has "+there) || !strings.Contains(said, "sent "+entered) {
			t.Errorf("%v %v: %d %q, want 409 naming %q there and %q sent", form, headers, b.status(), said, there, entered)
		}
	}
	refused(ben, url.Values{"seq": {"0"}, "action": {"roll"}, "faces": {"4"}}, "a throw of 2", "a throw of 4")
	refused(ben, url.Values{"seq": {"0"}, "action": {"roll"}, "faces": {"4"}}, "a throw of 2", "a throw of 4", "HX-Request", "true")
	refused(ben, url.Values{"seq": {"0"}, "action": {"hold"}}, "a throw of 2", "a hold")
	if ben.post(enter, url.Values{"seq": {"0"}, "action": {"roll"}, "faces": {"2"}}); ben.status() != http.StatusOK || ben.path() != paths.ClassMatch.With(code, 1) {
		t.Errorf("the 2 sent again: %d at %s, want it taken as there (303 to its board)", ben.status(), ben.path())
	}
	ana.post(enter, url.Values{"seq": {"1"}, "action": {"hold"}})
	refused(ben, url.Values{"seq": {"1"}, "action": {"roll"}, "faces": {"5"}}, "a hold", "a throw of 5")
	// The 2, entered again as a 3 once Ana has held: its place is taken.
	refused(ben, url.Values{"seq": {"1"}, "action": {"roll"}, "faces": {"3"}, "correct": {"1"}}, "a throw of 2", "a throw of 3")
	var got []string
	for _, e := range tableEvents(t, a, code) {
		got = append(got, strings.TrimSuffix(e.Action.String()+":"+e.Faces.String(), ":"))
	}
	if want := "roll:2 hold"; strings.Join(got, " ") != want {
		t.Fatalf("the table stored %v, want %s", got, want)
	}
}

// TestATableEndsWithWordsForAll (issue 59, item 9): the device of a
// table is read by all its players; when Ben wins on Ana's device, the
// board names the winner and says the game is over to everyone, never
// "Not this time. Dice can be cruel" to the device's owner.
func TestATableEndsWithWordsForAll(t *testing.T) {
	_, teacher, code, ana, ids := anaAndBen(t)
	teacher.post(paths.Tables.For(code), url.Values{"game": {"pig"}, "target": {"10"}, "student": ids})
	// Ana moves first (the first player given): a 1; then Ben throws 6
	// and 6, and reaches 10.
	dev := &tableDevice{b: ana, code: code, faces: []string{"1", "6", "6"}, holdAt: 100, htmx: true}
	for i := 0; i < 10 && dev.step(t); i++ {
	}
	board := dev.last.Find(`[data-testid="board"]`)
	if got := board.Find(`[data-testid="result"]`).Text(); !strings.Contains(got, "Ben won, 12 to 0") {
		t.Fatalf("the table's result on Ana's device: %q (%d entries)", got, dev.entries)
	}
	if board.Find(`[data-testid="encourage"], [data-testid="celebrate"]`).Length() != 0 || !strings.Contains(board.Find(`[data-testid="table-over"]`).Text(), "well played, everyone") {
		t.Errorf("the table's end on Ana's device: %q", board.Find(".result ~ p").Text())
	}
	// Her list of matches names it a table's, not "Round 0".
	if got := ana.get("/c/" + code).Find("main").Text(); !strings.Contains(got, "At a table: Pig to 10") || strings.Contains(got, "Round 0") {
		t.Errorf("Ana's matches: %q", got)
	}
}

// TestATableBoardListsThePlayingOrder (issue 59, item 6): the teacher
// numbers a table's players in the order they play; the seed deals the
// first seat, and the board lists them from the first to move (here the
// seed puts Ana, who moves first, in seat 1), not by seat.
func TestATableBoardListsThePlayingOrder(t *testing.T) {
	a, teacher, code, ana, ids := anaAndBen(t)
	a.deal(t, "the first seat of two is 1", func(s *sim.Seed) bool { return s.FirstSeat(2) == 1 })
	teacher.post(paths.Tables.For(code), url.Values{"game": {"pig"}, "target": {"30"}, "student": ids})
	if m := lastTable(t, a, code); m.FirstSeat != 1 || m.Seats[1].StudentID == 0 {
		t.Fatalf("the table's first seat %d", m.FirstSeat)
	}
	var names []string
	ana.get("/c/" + code).Find(`[data-testid="board"] .players .name`).Each(func(_ int, s *goquery.Selection) {
		names = append(names, strings.TrimSpace(s.Text()))
	})
	if len(names) != 2 || !strings.HasPrefix(names[0], "Ana") || !strings.HasPrefix(names[1], "Ben") {
		t.Errorf("the board lists %q, want Ana then Ben", names)
	}
}

// TestTheSharedScreenFollowsTheTables (issue 59, item 14): while tables
// play, the shared screen shows each table's players in playing order
// with their scores, not the lobby, and a hold entered at a table shows
// there at its next look.
func TestTheSharedScreenFollowsTheTables(t *testing.T) {
	_, teacher, code, ana, ids := anaAndBen(t)
	teacher.post(paths.Tables.For(code), url.Values{"game": {"pig"}, "target": {"30"}, "student": ids})
	screen := func() (string, string, []string) {
		page := teacher.get("/t/" + code + "/projector")
		var rows []string
		page.Find(`[data-testid="projector-tables"] li`).Each(func(_ int, li *goquery.Selection) { rows = append(rows, li.Text()) })
		return page.Find(`[data-testid="projector"]`).AttrOr("data-state", ""), page.Find(`[data-testid="projector-progress"]`).Text(), rows
	}
	if state, progress, rows := screen(); state != "tables" || progress != "1 table playing · 0 finished" || !slices.Equal(rows, []string{"Ana 0 · Ben 0"}) {
		t.Fatalf("a table open: the screen is %q, %q, %q", state, progress, rows)
	}
	b := ana.get("/c/" + code).Find(`[data-testid="board"]`)
	ana.post(b.Find(`form[data-testid="table-throw"]`).AttrOr("action", ""), url.Values{"seq": {b.AttrOr("data-seq", "")}, "turn": {"6 5 4 h"}})
	if _, _, rows := screen(); !slices.Equal(rows, []string{"Ana 15 · Ben 0"}) {
		t.Errorf("Ana held at 15: the screen shows %q", rows)
	}
}
