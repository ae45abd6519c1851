package classroom

import (
	"errors"
	"slices"

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
	if !v.Game.ChoosesDice() {
		roll, hold := adv.Roll, adv.Hold
		out.WinIfRoll, out.WinIfHold = &roll, &hold
	}
	out.WinIfChosen, _ = adv.Win(a)
	out.Cost, _ = adv.Cost(a)
	return out, false
}

// Advise returns the advice for the player to move in st, and whether it
// is an approximation. It never waits for a solve: the error is
// solve.ErrSolving while the table it reads is being solved, or the
// solver's refusal.
//
// A player out (resigned, or forfeited) no longer plays, so the game is
// that of the players still in, in their order of play. Two of them: the
// two-player table, exact. Three or more: their exact table once it is
// solved (in the background, within solve.MultiBudget: three players to
// 110, four to 31). Otherwise the approximation, named in the glossary
// and the README: with four or more players in, the exact three-player
// table against the two leading opponents (kept in their order of play)
// once it is solved; else the two-player table against the leader. Equal
// turns with more than two seats read the two-player equal-turns table
// against the leader, an approximation too.
func Advise(tables *solve.Cache, st *sim.State) (adv solve.Advice, approximate bool, err error) {
	v := st.Variant
	if v.EqualTurns {
		e, err := tables.ReadyEqual(v)
		if err != nil {
			return solve.Advice{}, false, err
		}
		return e.Advise(st.Position()), v.Seats > 2, nil
	}
	pos := st.Position()
	in := pos.Scores()
	if len(in) > 2 {
		if m, ready := tables.Multi(seats(v, len(in))); ready {
			return m.Advise(in, st.TurnTotal), false, nil
		}
		if len(in) > 3 {
			if m, ready := tables.Multi(seats(v, 3)); ready {
				return m.Advise(leadingTwo(in), st.TurnTotal), true, nil
			}
		}
	}
	t, err := tables.Ready(v)
	if err != nil {
		return solve.Advice{}, false, err
	}
	return t.Advise(in[0], slices.Max(in[1:]), st.TurnTotal), len(in) > 2, nil
}

// leadingTwo returns, of the scores in (the mover's first, then the
// others in order of play), the mover's and the two highest of the
// others, these two in their order of play (of equal scores, the earlier
// to play).
func leadingTwo(in []int) []int {
	a, b := 1, 2 // the two leaders' places in in, a before b once sorted
	if in[b] > in[a] {
		a, b = b, a
	}
	for x := 3; x < len(in); x++ {
		switch {
		case in[x] > in[a]:
			a, b = x, a
		case in[x] > in[b]:
			b = x
		}
	}
	if a > b {
		a, b = b, a
	}
	return []int{in[0], in[a], in[b]}
}

// seats returns v for n players.
func seats(v sim.Variant, n int) sim.Variant {
	v.Seats = n
	return v
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
// table is ready, from fillIn). The perfect-play bot plays Advise's best
// option: the exact table of the players still in once it is solved, the
// approximation until then or beyond it.
func (r *Room) botMove(bot sim.Strategy, st *sim.State) (sim.Action, bool) {
	if _, perfect := bot.(perfectBot); !perfect {
		return bot.Decide(st.Position()), true
	}
	adv, _, err := Advise(r.tables, st)
	if err != nil {
		return sim.Action{}, false
	}
	return adv.Best, true
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
