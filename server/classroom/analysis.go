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
// of the choice. With three or four seats it reads the two-player table
// against the leading opponent. It returns nil for a resignation, a
// timeout (the server holds for the student: not their decision) and
// variants the solver does not cover.
func Analyse(tables *solve.Cache, pre *sim.State, a sim.Action) *store.Analysis {
	v := pre.Variant
	switch {
	case a.Kind == sim.ResignKind, v.Target > solve.MaxTarget:
		return nil
	case a.Kind == sim.TimeoutKind:
		return nil // the server's, not the student's: not a decision
	}
	adv, ok := Advise(tables, pre)
	if !ok {
		return nil
	}
	out := &store.Analysis{Options: map[sim.Action]float64{}, Best: adv.Best, EV: adv.EV}
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

// Advise returns the advice for the player to move in st.
func Advise(tables *solve.Cache, st *sim.State) (solve.Advice, bool) {
	v := st.Variant
	pos := st.Position()
	if !v.EqualTurns {
		t, err := tables.Get(v)
		if err != nil {
			return solve.Advice{}, false
		}
		return t.Advise(pos.Score, pos.Opponent, pos.TurnTotal), true
	}
	e, err := tables.GetEqual(v)
	if err != nil {
		return solve.Advice{}, false
	}
	return e.Advise(pos), true
}
