package server

import (
	"context"
	"testing"

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
