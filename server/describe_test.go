package server

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"pigclass/server/charts"
	"pigclass/server/play"
	"pigclass/sim"
	"pigclass/templates/i18n"
)

// TestEveryThrowSaysWhatItScored: a Hog throw is told with its points, 0
// when a 1 shows, in both languages and for the viewer's own throws.
func TestEveryThrowSaysWhatItScored(t *testing.T) {
	names := []i18n.Msg{i18n.Text("Bot"), i18n.Text("Ana")}
	for _, tc := range []struct {
		lang   string
		dice   []int
		seat   int
		viewer int
		want   string
	}{
		{"en", []int{1, 5, 3, 3, 4}, 0, 1, "Bot threw 1 5 3 3 4: 0 points."},
		{"en", []int{6, 5, 3, 3, 4}, 0, 1, "Bot threw 6 5 3 3 4: 21 points."},
		{"en", []int{2}, 1, 1, "You threw 2: 2 points."},
		{"es", []int{4, 1}, 1, 1, "Lanzaste y sacaste 4 1: 0 puntos."},
		{"es", []int{4, 6}, 0, 1, "Bot lanzó y sacó 4 6: 10 puntos."},
	} {
		faces, err := sim.FacesOf(tc.dice...)
		if err != nil {
			t.Fatal(err)
		}
		e := play.Event{Seat: tc.seat, Action: sim.Dice(len(tc.dice)), Faces: faces}
		if got := i18n.For(tc.lang).Say(describe(e, names, tc.viewer, sim.Hog)); got != tc.want {
			t.Errorf("%s %v: %q, want %q", tc.lang, tc.dice, got, tc.want)
		}
	}
}

// TestAThrowSaysItsPiecesVerb (issue 59, item 13): a throw is told with
// its pieces' verb, from the game's pieces: dice are rolled, pigs thrown,
// in every language; and the review's column and the table's question
// name the game's pieces.
func TestAThrowSaysItsPiecesVerb(t *testing.T) {
	names := []i18n.Msg{i18n.Text("Bot"), i18n.Text("Ana")}
	trotter, err := sim.FacesOf(3, 1) // a Trotter and a side: 5 points
	if err != nil {
		t.Fatal(err)
	}
	four, err := sim.FacesOf(4)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		lang   string
		g      sim.Game
		faces  sim.Faces
		seat   int
		want   string
		ask    string
		pieces string
	}{
		{"en", sim.Pig, four, 0, "Bot rolled 4: turn total 4.", "Bot rolls: what landed?", "Dice"},
		{"en", sim.Pig, four, 1, "You rolled 4: turn total 4.", "", ""},
		{"en", sim.PassPigs, trotter, 0, "Bot threw Trotter and side, dot up: turn total 5.", "Bot throws the pigs: how did they land?", "Pigs"},
		{"en", sim.PassPigs, trotter, 1, "You threw Trotter and side, dot up: turn total 5.", "", ""},
		{"de", sim.Pig, four, 0, "Bot hat 4 gewürfelt: Zugsumme 4.", "Bot würfelt: Was ist gefallen?", "Würfel"},
		{"de", sim.PassPigs, trotter, 0, "Bot hat auf den Beinen (Trotter) und Seite, Punkt oben geworfen: Zugsumme 5.", "Bot wirft die Schweinchen: Wie sind sie gelandet?", "Schweinchen"},
		{"fr", sim.PassPigs, trotter, 1, "Tu as lancé les cochons : debout (Trotter) et sur le côté, point en haut, total du tour 5.", "", "Cochons"},
	} {
		l := i18n.For(tc.lang)
		e := play.Event{Seat: tc.seat, Action: sim.Roll, Faces: tc.faces}
		if got := l.Say(describe(e, names, 1, tc.g)); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.lang, tc.g, got, tc.want)
		}
		if tc.ask != "" {
			if got := l.T(tableAsk(tc.g), "Name", "Bot"); got != tc.ask {
				t.Errorf("%s %s: the table asks %q, want %q", tc.lang, tc.g, got, tc.ask)
			}
		}
		if tc.pieces != "" {
			if got := charts.PiecesWord(l, tc.g); got != tc.pieces {
				t.Errorf("%s %s: the pieces are called %q, want %q", tc.lang, tc.g, got, tc.pieces)
			}
		}
	}
}

// TestHowToPlay: a student's board says how the game is played, in a few
// lines with the match's own target (and deadline), open until their first
// move and a tap away after it, for every game.
func TestHowToPlay(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	for _, c := range []struct {
		game, want string
	}{{"pig", "A 1 loses the turn total"}, {"two-dice", "two 1s lose your whole score"}, {"big-pig", "double 1s add 25"}, {"hog", "any 1 scores nothing"}} {
		doc := teacher.post("/t/"+code+"/rounds", url.Values{"game": {c.game}, "target": {"100"}, "mode": {"bot"}, "bot": {map[bool]string{true: "dice:5", false: "hold:20"}[c.game == "hog"]}, "deadline": {"30"}, "max_dice": {"10"}})
		if !strings.Contains(doc.Find(".notice").Text(), "started") {
			t.Fatalf("%s: the round did not start: %q %q", c.game, doc.Find(".notice").Text(), doc.Find(".field-error").Text())
		}
		var st boardState
		waitFor(t, func() bool { doc = ana.get("/c/" + code); s, ok := readBoard(doc); st = s; return ok && s.yourTurn })
		h := doc.Find(`[data-testid="howto"]`)
		if _, open := h.Attr("open"); !open || !strings.Contains(h.Text(), c.want) || !strings.Contains(h.Text(), "First to 100 wins") || !strings.Contains(h.Text(), "30 seconds for each move") {
			t.Errorf("%s: how to play before the first move: open %v, %q", c.game, open, h.Text())
		}
		ana.post(st.act, url.Values{"seq": {strconv.Itoa(st.seq)}, "action": {st.actions[0]}})
		waitFor(t, func() bool { doc = ana.get("/c/" + code); _, ok := readBoard(doc); return ok })
		if h := doc.Find(`[data-testid="howto"]`); h.Length() == 1 {
			if _, open := h.Attr("open"); open {
				t.Errorf("%s: how to play stays open after the first move", c.game)
			}
		}
		teacher.post("/t/"+code+"/rounds/end", url.Values{"confirm": {"yes"}})
	}
}
