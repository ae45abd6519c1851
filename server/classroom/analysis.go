package classroom

import (
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
)

// DefaultVariants are solved at start-up so the first lesson waits for
// nothing; others are solved on first use and kept.
func DefaultVariants() []sim.Variant {
	fifty := sim.Standard(sim.Pig)
	fifty.Target = 50
	return []sim.Variant{sim.Standard(sim.Pig), fifty, sim.Standard(sim.Hog), sim.Standard(sim.BigPig), sim.Standard(sim.TwoDice)}
}

// Analyse returns the solver's view of action a taken in state pre: the win
// probability of every option, the best, the expected-value one and the cost
// of the choice. With three or more seats it reads their exact table once
// it is solved (in the background, started by the first such decision or
// round), and until then, or with a player out, or under equal turns, the
// two-player table against the leading opponent, marked approximate. It
// returns nil for a resignation, a timeout (the server holds for the
// student: not their decision) and variants the solver does not cover.
func Analyse(tables *solve.Cache, pre *sim.State, a sim.Action) *store.Analysis {
	v := pre.Variant
	switch {
	case a.Kind == sim.ResignKind, v.Target > solve.MaxTarget:
		return nil
	case a.Kind == sim.TimeoutKind:
		return nil // the server's, not the student's: not a decision
	}
	adv, approximate, ok := Advise(tables, pre)
	if !ok {
		return nil
	}
	out := &store.Analysis{Options: map[sim.Action]float64{}, Best: adv.Best, EV: adv.EV, Approximate: approximate}
	for _, o := range adv.Options() {
		out.Options[o.Action] = o.Win
	}
	if v.Game != sim.Hog {
		roll, hold := adv.Roll, adv.Hold
		out.WinIfRoll, out.WinIfHold = &roll, &hold
	}
	out.WinIfChosen, _ = adv.Win(a)
	out.Cost, _ = adv.Cost(a)
	return out
}

// Advise returns the advice for the player to move in st, and whether it
// is the approximation (see Analyse).
func Advise(tables *solve.Cache, st *sim.State) (adv solve.Advice, approximate, ok bool) {
	v := st.Variant
	pos := st.Position()
	if v.Seats > 2 && !v.EqualTurns && allPlaying(st) {
		if m, ready := tables.Multi(v); ready {
			p := make([]int, v.Seats)
			for r := range p {
				p[r] = st.Scores[(st.Seat+r)%v.Seats]
			}
			return m.Advise(p, st.TurnTotal), false, true
		}
	}
	approximate = v.Seats > 2
	if !v.EqualTurns {
		t, err := tables.Get(v)
		if err != nil {
			return solve.Advice{}, false, false
		}
		return t.Advise(pos.Score, pos.Opponent, pos.TurnTotal), approximate, true
	}
	e, err := tables.GetEqual(v)
	if err != nil {
		return solve.Advice{}, false, false
	}
	return e.Advise(pos), approximate, true
}

// allPlaying reports whether no player of st is out (resigned or
// forfeited): an exact table of N players reads every seat.
func allPlaying(st *sim.State) bool {
	for seat := range st.Variant.Seats {
		if !st.Playing(seat) {
			return false
		}
	}
	return true
}

// botMove is a bot's move in st. The perfect-play bot with three or four
// players plays the exact N-player table once it is solved (Advise's best
// option); until then, and with a player out or under equal turns, it
// reads the two-player table against the leader (solve.Optimal).
func (r *Room) botMove(bot sim.Strategy, st *sim.State) sim.Action {
	if _, optimal := bot.(solve.Optimal); optimal && st.Variant.Seats > 2 {
		if adv, approximate, ok := Advise(r.tables, st); ok && !approximate {
			return adv.Best
		}
	}
	return bot.Decide(st.Position())
}

// ExactBots reports whether the perfect-play bot of a match of v plays
// the exact table: always with two players, with more once their table is
// solved (and no one is out, which the board does not know: it says so
// when the table is ready).
func (r *Room) ExactBots(v sim.Variant) bool {
	if v.Seats <= 2 {
		return true
	}
	if v.EqualTurns {
		return false
	}
	_, ready := r.tables.Multi(v)
	return ready
}
