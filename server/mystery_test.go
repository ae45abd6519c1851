package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates/paths"
)

// TestMysteryBot (issue 32, the mystery bot): the round form offers the
// mystery bot for Pig, not for Hog; a round of it starts only once its
// perfect-play table is ready (before, the form says to try again in
// seconds); during the match the board names it the mystery bot and not
// its strength; it plays exactly the strength the seed draws for its seat
// (each of its moves the hold point's, or perfect play's best option);
// the review, once the seed is published, says which strength it was.
func TestMysteryBot(t *testing.T) {
	a := newAppConfig(t, func(c *Config) { c.Tables = &solve.Cache{} }) // Pig to 30 not solved yet
	teacher := a.browser()
	code := teacherStart(t, teacher)
	page := teacher.get(paths.Teacher.For(code) + "?game=pig")
	if page.Find(`#round-bot option[value="mystery"]`).Text() != "mystery bot" {
		t.Errorf("the Pig round form does not offer the mystery bot")
	}
	if teacher.get(paths.Teacher.For(code)+"?game=hog").Find(`#round-bot option[value="mystery"]`).Length() != 0 {
		t.Errorf("the Hog round form offers the mystery bot")
	}
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	round := url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"mystery"}}
	teacher.post(paths.Rounds.For(code), round)
	if teacher.status() != http.StatusConflict || !strings.Contains(teacher.body, "The mystery bot needs its perfect-play table") {
		t.Fatalf("a mystery round before its table: %d", teacher.status())
	}
	waitFor(t, func() bool {
		teacher.post(paths.Rounds.For(code), round)
		return teacher.status() == http.StatusOK
	})
	board := ana.b.get(paths.Student.For(code))
	players := board.Find(".players").Text()
	if !strings.Contains(players, "mystery bot") {
		t.Errorf("the board does not name the mystery bot: %q", players)
	}
	for _, told := range []string{"beginner", "rule of thumb", "perfect play", "hold at"} {
		if strings.Contains(players, told) {
			t.Errorf("the board tells the strength: %q", players)
		}
	}
	live := a.srv.room.Live()
	if len(live) != 1 {
		t.Fatalf("%d matches", len(live))
	}
	id := live[0].ID
	if got := ana.b.get(paths.Match(code, id)).Find(`[data-testid="mystery-reveal"]`).Length(); got != 0 {
		t.Error("the review tells the strength while the match is played")
	}
	playRound(t, code, []*student{ana})
	review := ana.b.get(paths.Match(code, id))
	seed, err := sim.ParseSeed(review.Find(`[data-testid="seed"]`).Text())
	if err != nil {
		t.Fatalf("the review's seed: %v", err)
	}
	bot := -1
	for _, seat := range live[0].Seats {
		if seat.Bot == sim.MysteryBot {
			bot = seat.Seat
		}
	}
	strength := sim.MysteryStrength(sim.Pig, &seed, bot)
	words := map[string]string{sim.BeginnerBot: "beginner, hold at 10", "hold:20": "rule of thumb, hold at 20", sim.PerfectBot: "perfect play"}[strength]
	if got, want := review.Find(`[data-testid="mystery-reveal"]`).Text(), "Bot (mystery bot) played as: "+words+"."; got != want {
		t.Errorf("the review says %q, want %q", got, want)
	}
	// The review asks for a guess first: the strength is inside the
	// details the student opens; what each decision ruled out never names
	// the strength it was.
	if got := review.Find(`details[data-testid="mystery"] > summary`).Text(); !strings.HasPrefix(got, "Which strength was the mystery bot") {
		t.Errorf("the review does not ask for a guess first: %q", got)
	}
	if review.Find(`details[data-testid="mystery"] [data-testid="mystery-reveal"]`).Length() != 1 {
		t.Error("the strength is not inside the details")
	}
	review.Find(`[data-testid="mystery-trail"] li`).Each(func(_ int, li *goquery.Selection) {
		step := li.Text()
		ruled := step[strings.Index(step, "rules out")+len("rules out"):]
		if !strings.Contains(step, "rules out") || strings.Contains(ruled[:strings.Index(ruled, ".")], words) {
			t.Errorf("a decision rules out the strength it was (%s): %q", words, step)
		}
		t.Log(step)
	})
	// The signed record names the strength, and verify checks it.
	ana.b.get(paths.Record(code, id))
	var rec sim.Record
	if err := json.Unmarshal([]byte(ana.b.body), &rec); err != nil {
		t.Fatalf("the record: %v", err)
	}
	if want := []sim.MysterySeat{{Seat: bot, Strength: strength}}; !slices.Equal(rec.Mystery, want) {
		t.Errorf("the record's mystery %v, want %v", rec.Mystery, want)
	}
	if v, err := sim.VerifyJSON([]byte(ana.b.body)); err != nil || !v.Signature.Valid() {
		t.Errorf("the record does not verify: %v (signature %v)", err, v.Signature)
	}
	// Every move of the bot is its strength's.
	moves := 0
	for _, r := range teacher.csvRows(paths.DecisionsCSV.For(code)) {
		if r["by"] != "bot" {
			continue
		}
		moves++
		total, _ := strconv.Atoi(r["turn_total"])
		score, _ := strconv.Atoi(r["score"])
		want := r["best_action"]
		if strength != sim.PerfectBot {
			n, _ := strconv.Atoi(strings.TrimPrefix(strength, "hold:"))
			want = "hold"
			if total < n && score+total < 30 {
				want = "roll"
			}
		}
		if r["action"] != want {
			t.Errorf("the mystery bot (%s) played %s where its strength plays %s: %v", strength, r["action"], want, r)
		}
	}
	if moves == 0 {
		t.Error("the mystery bot never moved")
	}
	t.Logf("the mystery bot played as %s, %d moves", strength, moves)
}
