package report

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
)

// TestPodium: the prizes of a round from its matches and decisions,
// without HTTP: ties share a prize (for decisions, costs within a tenth of
// a point a decision tie), the best decision-maker needs ten analysed
// decisions, luck must be above zero, only holds count as bold, bots win
// nothing, and matches still played and approximate decisions are
// counted; a prize more than three would share names no one.
func TestPodium(t *testing.T) {
	ana := play.Seat{Seat: 0, StudentID: 1, Nickname: "Ana", AnonName: "Brave Otter"}
	bo := play.Seat{Seat: 1, StudentID: 2, Nickname: "Bo", AnonName: "Calm Lynx"}
	cy := play.Seat{Seat: 0, StudentID: 3, Nickname: "Cy", AnonName: "Eager Gecko"}
	bot := play.Seat{Seat: 1, Bot: "hold:20"}
	won := &sim.Result{}
	ms := []play.Match{
		{ID: 1, Status: play.Over, Result: won, Winner: 0, Seats: []play.Seat{ana, bo}}, // Ana wins
		{ID: 2, Status: play.Over, Result: won, Winner: 1, Seats: []play.Seat{cy, bot}}, // the bot wins
		{ID: 3, Status: play.Over, Result: won, Winner: 0, Seats: []play.Seat{cy, bot}}, // Cy wins
		{ID: 4, Status: play.Playing, Seats: []play.Seat{ana, bo}},
	}
	decide := func(student int64, cost float64, approximate bool) store.Decision {
		return store.Decision{StudentID: student, Action: sim.Roll, Analysed: true, Cost: cost, Approximate: approximate}
	}
	var ds []store.Decision
	for range 10 {
		// Ana and Cy tie: 2 points a decision and 2.05, within a tenth.
		ds = append(ds, decide(1, 0.02, false), decide(3, 0.0205, true))
	}
	for range 9 {
		ds = append(ds, decide(2, 0, false)) // Bo is perfect, but in nine decisions only
	}
	ds = append(ds,
		store.Decision{StudentID: 2, Action: sim.Roll, HasLuck: true, Luck: 0.10},
		store.Decision{StudentID: 1, Action: sim.Roll, HasLuck: true, Luck: -0.30},
		store.Decision{StudentID: 1, Action: sim.Hold, TurnTotal: 31},
		store.Decision{StudentID: 3, Action: sim.Hold, TurnTotal: 12},
		store.Decision{StudentID: 0, Action: sim.Hold, TurnTotal: 60}, // a bot's: no student
	)
	got := podium(play.Round{Number: 3}, ms, ds)
	want := &Podium{Round: play.Round{Number: 3}, Playing: 1, Approximate: 10, Awards: []Award{
		{Kind: MostWins, Students: []play.Seat{ana, cy}, Wins: 1, Decisions: 10, CostPerDecision: 0.02, Luck: -0.30, Boldest: 31},
		{Kind: BestDecisions, Students: []play.Seat{ana, cy}, Wins: 1, Decisions: 10, CostPerDecision: 0.02, Luck: -0.30, Boldest: 31},
		{Kind: LuckiestDice, Students: []play.Seat{bo}, Decisions: 9, Luck: 0.10},
		{Kind: BoldestHold, Students: []play.Seat{ana}, Wins: 1, Decisions: 10, CostPerDecision: 0.02, Luck: -0.30, Boldest: 31},
	}}
	if d := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-12)); d != "" {
		t.Errorf("podium (-want +got):\n%s", d)
	}
	// Four students with a win each and the same boldest hold: no title
	// picks anyone out, and none is given. With a fifth who lost and held
	// lower, the four share both titles, each named.
	var four []play.Match
	var holds []store.Decision
	var kids []play.Seat
	for i := range int64(4) {
		kid := play.Seat{Seat: 0, StudentID: 10 + i, Nickname: string(rune('A' + i))}
		kids = append(kids, kid)
		four = append(four, play.Match{ID: 10 + i, Status: play.Over, Result: won, Winner: 0, Seats: []play.Seat{kid, bot}})
		holds = append(holds, store.Decision{StudentID: 10 + i, Action: sim.Hold, TurnTotal: 20})
	}
	if got = podium(play.Round{Number: 4}, four, holds); len(got.Awards) != 0 {
		t.Errorf("a tie of everyone: %+v", got.Awards)
	}
	eve := play.Seat{Seat: 0, StudentID: 20, Nickname: "E"}
	five := append(slices.Clone(four), play.Match{ID: 20, Status: play.Over, Result: won, Winner: 1, Seats: []play.Seat{eve, bot}})
	got = podium(play.Round{Number: 4}, five, append(slices.Clone(holds), store.Decision{StudentID: 20, Action: sim.Hold, TurnTotal: 12}))
	want = &Podium{Round: play.Round{Number: 4}, Awards: []Award{
		{Kind: MostWins, Students: kids, Wins: 1, Boldest: 20},
		{Kind: BoldestHold, Students: kids, Wins: 1, Boldest: 20},
	}}
	if d := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-12)); d != "" {
		t.Errorf("a four-way tie of five (-want +got):\n%s", d)
	}
	if p := podium(play.Round{}, nil, nil); len(p.Awards) != 0 {
		t.Errorf("an empty round's podium: %+v", p)
	}
}
