package store

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"pigclass/server/play"
	"pigclass/sim"
)

// smallClass stores a fixed class: Ana and Bo each play one Pig match to
// 100 against hold:20 (Ana's first player wins, Bo's loses), and Ana one Hog
// match still playing.
func smallClass(t *testing.T, db string) (*Store, int64, [2]int64) {
	t.Helper()
	s := mustOpenOn(t, db)
	ctx := context.Background()
	class, _ := s.CreateClass(ctx, "AAAAAA", "h")
	ana, _ := s.AddStudent(ctx, Student{ClassID: class.ID, Nickname: "Ana", AnonName: "Calm Otter", TokenHash: "a"})
	bo, _ := s.AddStudent(ctx, Student{ClassID: class.ID, Nickname: "Bo", AnonName: "Keen Lynx", TokenHash: "b"})
	at := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	p := func(x float64) *float64 { return &x }
	tick := 0
	match := func(v sim.Variant, student int64, first int, events []play.Event, res *sim.Result) {
		id, err := s.CreateMatch(ctx, play.Match{ClassID: class.ID, Variant: v, Seed: testSeeds.Seed(), FirstSeat: first,
			Seats: []play.Seat{{Seat: 0, StudentID: student}, {Seat: 1, Bot: "hold:20"}}})
		if err != nil {
			t.Fatal(err)
		}
		for i := range events {
			tick++
			events[i].MatchID, events[i].Seq, events[i].At = id, i+1, at.Add(time.Duration(tick)*time.Second)
			if events[i].Scores == nil {
				events[i].Scores = []int{events[i].Score, events[i].OpponentScore}
			}
		}
		if err := s.AppendEvents(ctx, id, events, res); err != nil {
			t.Fatal(err)
		}
	}
	an := func(best sim.Action, roll, hold float64) *play.Analysis {
		chosen := roll
		return &play.Analysis{WinIfRoll: p(roll), WinIfHold: p(hold), WinIfChosen: chosen, Options: map[sim.Action]float64{sim.Roll: roll, sim.Hold: hold}, Best: best, EV: sim.Roll}
	}
	match(sim.Standard(sim.Pig), ana.ID, 0, []play.Event{
		{Seat: 0, Action: sim.Roll, Faces: faces(5), By: play.ByStudent, TurnTotal: 0, Analysis: an(sim.Roll, .53, .47)},
		{Seat: 0, Action: sim.Hold, By: play.ByStudent, TurnTotal: 5, Roll: 1, Analysis: &play.Analysis{WinIfChosen: .49, Options: map[sim.Action]float64{sim.Roll: .55, sim.Hold: .49}, Best: sim.Roll, EV: sim.Roll, Cost: .06}},
		{Seat: 1, Action: sim.Roll, Faces: faces(1), By: play.ByBot, OpponentScore: 5, Analysis: an(sim.Roll, .45, .40)},
	}, &sim.Result{Winner: 0, Scores: []int{100, 40}, Places: []int{1, 2}})
	match(sim.Standard(sim.Pig), bo.ID, 0, []play.Event{
		{Seat: 0, Action: sim.Roll, Faces: faces(2), By: play.ByStudent, Analysis: an(sim.Roll, .53, .47)},
	}, &sim.Result{Winner: 1, Scores: []int{10, 100}, Places: []int{2, 1}})
	match(sim.Standard(sim.Hog), ana.ID, 1, []play.Event{
		{Seat: 0, Action: sim.Dice(3), Faces: faces(6, 6, 1), By: play.ByStudent, Dice: 3, Analysis: &play.Analysis{WinIfChosen: .5, Options: map[sim.Action]float64{sim.Dice(3): .5, sim.Dice(6): .52}, Best: sim.Dice(6), EV: sim.Dice(5), Cost: .02}},
	}, nil)
	return s, class.ID, [2]int64{ana.ID, bo.ID}
}

func TestChartQueries(t *testing.T) {
	engines(t, func(t *testing.T, db string) {
		s, class, students := smallClass(t, db)
		ctx := context.Background()
		pig := ChartFilter{ClassID: class, Game: OnlyGame(sim.Pig), Target: 100}
		ds, err := s.Decisions(ctx, pig, true)
		if err != nil {
			t.Fatal(err)
		}
		type row struct {
			Student, Action, Best string
			TurnTotal             int
			BestWin, Cost         float64
		}
		var got []row
		for _, d := range ds {
			got = append(got, row{d.Student, d.Action.String(), d.Best.String(), d.TurnTotal, d.BestWin, d.Cost})
		}
		want := []row{{"Ana", "roll", "roll", 0, .53, 0}, {"Ana", "hold", "roll", 5, .55, .06}, {"Bo", "roll", "roll", 0, .53, 0}}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("student Pig decisions (-want +got):\n%s", d)
		}
		all, _ := s.Decisions(ctx, pig, false)
		if len(all) != 4 || all[2].By != "bot" || all[2].Student != "hold:20" {
			t.Errorf("with bots: %d decisions, third %+v", len(all), all[2])
		}
		pig.StudentID = students[1]
		if bo, _ := s.Decisions(ctx, pig, true); len(bo) != 1 || bo[0].Student != "Bo" {
			t.Errorf("Bo's decisions: %+v", bo)
		}
		hog, _ := s.Decisions(ctx, ChartFilter{ClassID: class, Game: OnlyGame(sim.Hog)}, true)
		if len(hog) != 1 || hog[0].Action != sim.Dice(3) || hog[0].Best != sim.Dice(6) || hog[0].BestWin != .52 {
			t.Errorf("Hog decisions: %+v", hog)
		}

		faces, _ := s.Faces(ctx, class)
		if d := cmp.Diff([]int{5, 1, 2, 6, 6, 1}, faces); d != "" {
			t.Errorf("faces in the order thrown (-want +got):\n%s", d)
		}
		games, wins, _ := s.FirstPlayerResults(ctx, ChartFilter{ClassID: class, Game: OnlyGame(sim.Pig), Target: 100})
		if games != 2 || wins != 1 {
			t.Errorf("first player won %d of %d, want 1 of 2", wins, games)
		}
		if targets, _ := s.PigTargets(ctx, class); len(targets) != 1 || targets[0] != 100 {
			t.Errorf("targets %v", targets)
		}
	})
}

// TestClassStats: the totals behind the dashboard and students.csv, worked
// out by hand on the small class.
func TestClassStats(t *testing.T) {
	engines(t, func(t *testing.T, db string) {
		s, class, students := smallClass(t, db)
		stats, total, err := s.ClassStats(context.Background(), class)
		if err != nil {
			t.Fatal(err)
		}
		want := map[int64]StudentStats{
			// Ana: won her Pig match; roll (agrees with both), hold (neither),
			// dice:3 (neither); cost 0 + .06 + .02.
			students[0]: {Games: 1, Wins: 1, Decisions: 3, Analysed: 3, AgreeOptimal: 1, AgreeEV: 1, Cost: .08},
			// Bo: lost his; one roll that agrees with both.
			students[1]: {Games: 1, Wins: 0, Decisions: 1, Analysed: 1, AgreeOptimal: 1, AgreeEV: 1, Cost: 0},
		}
		if d := cmp.Diff(want, stats, cmpopts.EquateApprox(0, 1e-12)); d != "" {
			t.Errorf("stats (-want +got):\n%s", d)
		}
		if total != 5 {
			t.Errorf("%d decisions in the class, want 5 (the bot's roll too)", total)
		}
	})
}
