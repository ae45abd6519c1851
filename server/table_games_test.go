package server

import (
	"net/http"
	"net/url"
	"testing"

	"pigclass/sim"
	"pigclass/templates/paths"
)

// TestTablesOfEveryGame (issue 45): a table of each game whose throws a
// person can read takes a throw as its board offers it (a face's button,
// a piece at a time, the dice typed in Hog, the pigs that touch on their
// own button) and stores it as entered, scored as the game's rules say.
func TestTablesOfEveryGame(t *testing.T) {
	a, teacher, code, ana, ids := anaAndBen(t)
	for _, c := range []struct {
		game   string
		form   string // the form the board offers for it
		fields url.Values
		faces  string
		score  int // the turn total after it (Hog: Ana's score)
	}{
		{"pig", "table-throw", url.Values{"faces": {"5"}}, "5", 5},
		{"two-dice", "table-throw", url.Values{"piece1": {"6"}, "piece2": {"3"}}, "6 3", 9},
		{"big-pig", "table-throw", url.Values{"piece1": {"4"}, "piece2": {"4"}}, "4 4", 16},
		{"hog", "table-throw", url.Values{"faces": {"352"}}, "3 5 2", 10},
		{"pass-the-pigs", "table-throw", url.Values{"piece1": {"5"}, "piece2": {"3"}}, "5 3", 15},
		{"pass-the-pigs", "table-touching", url.Values{"faces": {"7 7"}}, "7 7", 0},
	} {
		teacher.post(paths.Tables.For(code), url.Values{"game": {c.game}, "target": {"100"}, "student": ids})
		if teacher.status() != http.StatusOK {
			t.Fatalf("%s: open a table: %d", c.game, teacher.status())
		}
		board := ana.get("/c/" + code).Find(`[data-testid="board"]`)
		form := board.Find(`form[data-testid="` + c.form + `"]`)
		if form.Length() == 0 {
			form = board.Find(`[data-testid="` + c.form + `"]`).Closest("form")
		}
		if form.Length() != 1 {
			t.Fatalf("%s: no %s form on the table's board", c.game, c.form)
		}
		fields := url.Values{"seq": {board.AttrOr("data-seq", "")}, "action": {form.Find(`input[name="action"]`).AttrOr("value", "")}}
		for k, v := range c.fields {
			fields[k] = v
		}
		doc := ana.post(form.AttrOr("action", ""), fields)
		if e := doc.Find(`[data-testid="board-error"]`).Text(); e != "" || ana.status() != http.StatusOK {
			t.Fatalf("%s: %v: %d %s", c.game, fields, ana.status(), e)
		}
		evs := tableEvents(t, a, code)
		if len(evs) == 0 || evs[0].Faces.String() != c.faces || !evs[0].Entered || evs[0].By != "student" {
			t.Fatalf("%s: stored %+v, want the throw %s entered", c.game, evs, c.faces)
		}
		m := lastTable(t, a, code)
		st, err := sim.Replay(m.Variant, m.Seed, []sim.Event{{Seat: evs[0].Seat, Action: evs[0].Action, Turn: evs[0].Turn, Roll: evs[0].Roll, Faces: evs[0].Faces, Entered: true}})
		if err != nil {
			t.Fatal(err)
		}
		got := st.State().TurnTotal
		if c.game == "hog" {
			got = st.State().Scores[evs[0].Seat]
		}
		if got != c.score {
			t.Errorf("%s: %s scores %d, want %d", c.game, c.faces, got, c.score)
		}
	}
}
