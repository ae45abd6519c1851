package server

import (
	"net/url"
	"strings"
	"testing"

	"pigclass/server/charts"
	"pigclass/sim"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// TestAToyGameIsWholeInItsFile (issue 40, item 4): a game of a test's own
// (a coin: heads adds 1 to the turn total, tails loses it), declared as a
// game file declares one, its pieces a plain token the board has no
// picture of, with its words in English, plays a class round through
// HTTP: the dashboard, the board, the review, every class chart and the
// CSV files show its words, no message key (the suite's browser fails any
// page that shows one) and no other game's picture. Nothing else of the
// program names it.
func TestAToyGameIsWholeInItsFile(t *testing.T) {
	coin, drop := sim.AddGame(sim.GameRules{
		Name: "coin-toss", Title: "Coin toss", Order: 99, Turn: sim.ManyRolls, Pieces: 1,
		Piece: sim.Piece{Name: "coin", Weights: []int{1, 1}, Marks: []string{"heads", "tails"}},
		Points: func(f *sim.Faces) (int, sim.Effect) {
			if f.At(0) == 1 {
				return 1, sim.Adds
			}
			return 0, sim.Busts
		},
		Target: 10, HoldAt: 2,
	})
	t.Cleanup(drop)
	if err := i18n.AddWords("en", map[string]string{
		"game.coin-toss":    "Coin toss",
		"howto.coin-toss":   "Toss a coin as often as you like: heads adds 1 to the turn total, tails loses it. Hold to bank the turn total. First to {{.Target}} wins.",
		"piece.coin.heads":  "heads",
		"piece.coin.tails":  "tails",
		"piece.coin.pieces": "Coin",
		// A coin is tossed: the game's own verb (issue 59, item 13).
		"move.coin.rolled_total":     "{{.Name}} tossed {{.Faces}}: turn total {{.Total}}.",
		"move.coin.rolled_total_you": "You tossed {{.Faces}}: turn total {{.Total}}.",
		"move.coin.bust":             "{{.Name}} tossed {{.Faces}}: the turn is over.",
		"move.coin.bust_you":         "You tossed {{.Faces}}: your turn is over.",
		"table.coin.ask":             "{{.Name}} tosses the coin: what landed?",
	}); err != nil {
		t.Fatal(err)
	}
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	students := []*student{{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 2}, {b: join(t, a, code, "Bo"), nick: "Bo", holdAt: 3}}
	teacher.post(paths.Rounds.For(code), url.Values{"game": {coin.String()}, "target": {"10"}, "mode": {"pairs"}, "bot": {"hold:2"}})
	if got := teacher.get(paths.Teacher.For(code)).Text(); !strings.Contains(got, "Coin toss") {
		t.Fatalf("the dashboard does not name the round's game (%d)", teacher.status())
	}

	// The board draws the coin as a token with its side's name, never as a
	// die or a pig.
	sawToken, moves := false, ""
	for range 2000 {
		busy := false
		for _, s := range students {
			board := s.b.get(paths.Student.For(code))
			if board.Find(`figure.pig, svg.die`).Length() > 0 {
				t.Fatalf("%s's board draws another game's piece: %s", s.nick, board.Find(".dice").Text())
			}
			moves += board.Find(`.recent li`).Text()
			if face := board.Find(`.dice [data-testid="token"]`).Text(); face != "" {
				sawToken = true
				if face != "heads" && face != "tails" {
					t.Errorf("the token says %q", face)
				}
			}
			if s.step(t, code) {
				busy = true
			}
		}
		if !busy {
			break
		}
	}
	if !sawToken {
		t.Error("no board drew the coin")
	}
	m := matchOf(t, a, "Ana")
	review := students[0].b.get(paths.Match(code, m))
	if !strings.Contains(review.Find("h1").Text(), "Coin toss") || review.Find(`figure.pig, svg.die`).Length() > 0 {
		t.Errorf("the review: %q", review.Find("h1").Text())
	}
	// The throws are told with the coin's verb, and the review's column
	// is named after the coin, not dice.
	if !strings.Contains(moves, "tossed") || strings.Contains(moves, "rolled") {
		t.Errorf("the moves are not told as tosses: %q", moves)
	}
	if head := review.Find(`[data-testid="review"] thead`).Text(); !strings.Contains(head, "Coin") || strings.Contains(head, "Dice") {
		t.Errorf("the review's columns: %q", head)
	}
	for _, key := range charts.ClassKeys {
		teacher.get(paths.Teacher.For(code) + "?chart=" + key)
	}
	decisions := 0
	for _, r := range teacher.csvRows(paths.DecisionsCSV.For(code)) {
		if r["game"] != coin.String() {
			t.Errorf("a decision of game %q", r["game"])
		}
		decisions++
		for _, v := range r {
			if keyShape.MatchString(v) {
				t.Errorf("decisions.csv holds a message key: %v", r)
			}
		}
	}
	if decisions == 0 {
		t.Error("decisions.csv holds no decision of the coin")
	}
}
