package server

import (
	"context"
	"strconv"
	"testing"

	"pigclass/server/charts"
	"pigclass/server/store"
	"pigclass/sim"
)

// BenchmarkAct is the decision path: a student's roll or hold checked,
// applied, analysed by the solver, answered by the bot and stored, as one
// acknowledged action.
func BenchmarkAct(b *testing.B) {
	a := newApp(b)
	ctx := context.Background()
	player, err := a.srv.addStudent(ctx, 0, "Bench", newToken())
	if err != nil {
		b.Fatal(err)
	}
	newMatch := func() *liveMatch {
		row := newMatchRow(sim.Standard(sim.Pig), sim.NewSeed(), []store.Seat{{Seat: 0, StudentID: player.ID, TokenHash: player.TokenHash}, {Seat: 1, Bot: "hold:20"}})
		if row.ID, err = a.store.CreateMatch(ctx, row); err != nil {
			b.Fatal(err)
		}
		if err := a.srv.start(ctx, []store.Match{row}); err != nil {
			b.Fatal(err)
		}
		return a.srv.liveByID(row.ID)
	}
	lm := newMatch()
	b.ReportAllocs()
	for b.Loop() {
		lm.mu.Lock()
		st, n, ended := lm.m.State(), lm.m.Len(), lm.ended
		lm.mu.Unlock()
		if ended {
			lm = newMatch()
			continue
		}
		if err := a.srv.Act(ctx, lm.row.ID, player.ID, n, sim.HoldAt(20).Decide(st.Position())); err != nil {
			b.Fatal(err)
		}
	}
}

// playedClass makes a class of 30 students who have each played a whole
// match of Pig against hold:20 (about 2,500 decisions), through Act.
func playedClass(b *testing.B) (*app, store.Class) {
	a := newApp(b)
	ctx := context.Background()
	class, err := a.store.CreateClass(ctx, "BENCH7", hashToken("secret"))
	if err != nil {
		b.Fatal(err)
	}
	for i := range 30 {
		if _, err := a.srv.addStudent(ctx, class.ID, "s"+strconv.Itoa(i), newToken()); err != nil {
			b.Fatal(err)
		}
	}
	if _, _, err := a.srv.beginRound(ctx, class, roundSpec{variant: sim.Standard(sim.Pig), mode: "bot", bot: "hold:20"}); err != nil {
		b.Fatal(err)
	}
	for _, lm := range a.srv.liveWhere(func(*liveMatch) bool { return true }) {
		student := lm.row.Seats[0].StudentID
		for {
			lm.mu.Lock()
			st, n, ended := lm.m.State(), lm.m.Len(), lm.ended
			lm.mu.Unlock()
			if ended {
				break
			}
			if err := a.srv.Act(ctx, lm.row.ID, student, n, sim.HoldAt(20).Decide(st.Position())); err != nil {
				b.Fatal(err)
			}
		}
	}
	return a, class
}

// BenchmarkDashboardLive is the part of the teacher's dashboard polled every
// second, for a class of 30 that has played a round.
func BenchmarkDashboardLive(b *testing.B) {
	a, class := playedClass(b)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := a.srv.dashLive(ctx, class); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkClassData is what the exports read: the class replayed.
func BenchmarkClassData(b *testing.B) {
	a, class := playedClass(b)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := a.srv.classData(ctx, class); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkClassCharts builds the dashboard's nine charts for a class of 30
// that has played a round.
func BenchmarkClassCharts(b *testing.B) {
	a, class := playedClass(b)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := a.srv.classCharts(ctx, class, charts.ClassKeys, 0); err != nil {
			b.Fatal(err)
		}
	}
}
