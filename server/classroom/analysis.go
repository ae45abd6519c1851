package classroom

import (
	"errors"

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
// student: not their decision) and variants the solver does not cover;
// nil and pending while the table it reads is being solved (the analysis
// is filled in when it is ready: fillIn).
func Analyse(tables *solve.Cache, pre *sim.State, a sim.Action) (an *store.Analysis, pending bool) {
	v := pre.Variant
	switch {
	case a.Kind == sim.ResignKind, v.Target > solve.MaxTarget:
		return nil, false
	case a.Kind == sim.TimeoutKind:
		return nil, false // the server's, not the student's: not a decision
	}
	adv, approximate, err := Advise(tables, pre)
	if err != nil {
		return nil, errors.Is(err, solve.ErrSolving)
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
	return out, false
}

// Advise returns the advice for the player to move in st, and whether it
// is the approximation (see Analyse). It never waits for a solve: the
// error is solve.ErrSolving while the table is being solved, or the
// solver's refusal.
func Advise(tables *solve.Cache, st *sim.State) (adv solve.Advice, approximate bool, err error) {
	v := st.Variant
	pos := st.Position()
	if v.Seats > 2 && !v.EqualTurns && allPlaying(st) {
		if m, ready := tables.Multi(v); ready {
			p := make([]int, v.Seats)
			for r := range p {
				p[r] = st.Scores[(st.Seat+r)%v.Seats]
			}
			return m.Advise(p, st.TurnTotal), false, nil
		}
	}
	approximate = v.Seats > 2
	if !v.EqualTurns {
		t, err := tables.Ready(v)
		if err != nil {
			return solve.Advice{}, false, err
		}
		return t.Advise(pos.Score, pos.Opponent, pos.TurnTotal), approximate, nil
	}
	e, err := tables.ReadyEqual(v)
	if err != nil {
		return solve.Advice{}, false, err
	}
	return e.Advise(pos), approximate, nil
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

// perfectBot is the perfect-play bot of a match. It reads its table from
// the cache at each move (Room.botMove), so a match starts before its
// table is solved and the bot moves once it is.
type perfectBot struct{}

// Decide is never called: Room.botMove plays a perfectBot.
func (perfectBot) Decide(sim.Position) sim.Action {
	panic("classroom: perfectBot is played by botMove")
}

func (perfectBot) String() string { return "optimal" }

// newBot returns the bot a seat names, without solving anything: the
// perfect-play bot is checked against the rules and reads its table when
// it moves.
func newBot(name string, v sim.Variant) (sim.Strategy, error) {
	if name == "optimal" {
		if err := solve.CheckStrategy(name, v); err != nil {
			return nil, err
		}
		return perfectBot{}, nil
	}
	return solve.ParseStrategy(name, v, nil)
}

// botMove is a bot's move in st, and false if the bot waits for its table
// (the perfect-play bot of a kind of round being solved: it moves when the
// table is ready, from fillIn). The perfect-play bot with three or more
// players plays the exact N-player table once it is solved (Advise's best
// option); until then, and with a player out or under equal turns, it
// reads the two-player table against the leader (solve.Optimal).
func (r *Room) botMove(bot sim.Strategy, st *sim.State) (sim.Action, bool) {
	if _, perfect := bot.(perfectBot); !perfect {
		return bot.Decide(st.Position()), true
	}
	v := st.Variant
	if v.Seats > 2 {
		if adv, approximate, err := Advise(r.tables, st); err == nil && !approximate {
			return adv.Best, true
		}
	}
	if v.EqualTurns {
		e, err := r.tables.ReadyEqual(v)
		if err != nil {
			return sim.Action{}, false
		}
		return e.Decide(st.Position()), true
	}
	t, err := r.tables.Ready(v)
	if err != nil {
		return sim.Action{}, false
	}
	return solve.Optimal{T: t}.Decide(st.Position()), true
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
