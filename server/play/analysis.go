package play

import (
	"errors"
	"slices"

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
// of the choice, from the table Advise reads. It returns nil for a
// resignation, a timeout (the server holds for the student: not their
// decision) and variants the solver does not cover; nil and pending while
// the table is being solved, or waits for room (the analysis is filled in
// when it is ready: fillIn). A decision is never analysed with an
// approximation where an exact table fits: it waits for that table.
func Analyse(tables *solve.Cache, pre *sim.State, a sim.Action) (an *Analysis, pending bool) {
	v := pre.Variant
	switch {
	case a.Kind == sim.ResignKind, v.Target > solve.MaxTarget:
		return nil, false
	case a.Kind == sim.TimeoutKind:
		return nil, false // the server's, not the student's: not a decision
	}
	adv, approximate, err := Advise(tables, pre)
	if err != nil {
		return nil, waits(err)
	}
	out := &Analysis{Options: map[sim.Action]float64{}, Best: adv.Best, EV: adv.EV, Approximate: approximate}
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

// waits reports whether an error of Advise means its table is coming
// (being solved, or waiting for room) rather than refused.
func waits(err error) bool {
	return errors.Is(err, solve.ErrSolving) || errors.Is(err, solve.ErrNoRoom)
}

// Advise returns the advice for the player to move in st, and whether it
// is an approximation. It never waits for a solve: the error is
// solve.ErrSolving while the table it reads is being solved (ErrNoRoom
// while it waits for room), or the solver's refusal.
//
// It reads one table, the one tableFor names: the exact table of the
// players still in wherever it fits the classroom's budget (two players,
// three to 128, four to 34), and only beyond that the approximation,
// named in the glossary. A player out (resigned, or
// forfeited) no longer plays, so the game is that of the players still
// in, in their order of play.
func Advise(tables *solve.Cache, st *sim.State) (adv solve.Advice, approximate bool, err error) {
	v := st.Variant
	pos := st.Position()
	in := pos.Scores()
	switch key, kind := tableFor(v, len(in)); kind {
	case equalTable:
		e, err := tables.ReadyEqual(key)
		if err != nil {
			return solve.Advice{}, false, err
		}
		return e.Advise(pos), v.Seats > 2, nil
	case exactMulti, leadingThree:
		m, err := tables.MultiReady(key)
		if err != nil {
			return solve.Advice{}, false, err
		}
		if kind == leadingThree {
			return m.Advise(leadingTwo(in), st.TurnTotal), true, nil
		}
		return m.Advise(in, st.TurnTotal), false, nil
	default:
		t, err := tables.Ready(key)
		if err != nil {
			return solve.Advice{}, false, err
		}
		return t.Advise(in[0], slices.Max(in[1:]), st.TurnTotal), kind == leaderTwo, nil
	}
}

// tableKind is how a decision is read from its table.
type tableKind int

const (
	exactTwo     tableKind = iota // two players in: the two-player table
	exactMulti                    // three or more in, within the budget: their table
	leadingThree                  // beyond it, four or more in: the three-player table against the two leading opponents
	leaderTwo                     // beyond it otherwise: the two-player table against the leader
	equalTable                    // equal turns: the two-player equal-turns table (against the leader)
)

// tableFor returns the table a decision of v with in players still in
// reads (a cache key) and how: see Advise.
func tableFor(v sim.Variant, in int) (sim.Variant, tableKind) {
	switch {
	case v.EqualTurns:
		return solve.Key(v, true), equalTable
	case in <= 2:
		return solve.Key(v, false), exactTwo
	case solve.ExactFits(seats(v, in)):
		return solve.MultiKey(seats(v, in)), exactMulti
	case in > 3 && solve.ExactFits(seats(v, 3)):
		return solve.MultiKey(seats(v, 3)), leadingThree
	}
	return solve.Key(v, false), leaderTwo
}

// tablesOf returns the keys of every table a match of v may read: its
// decisions' tables for each number of players still in (see tableFor).
func tablesOf(v sim.Variant) []sim.Variant {
	var out []sim.Variant
	for in := v.Seats; in >= 2; in-- {
		if k, _ := tableFor(v, in); !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
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
// the cache at each move (Hall.botMove), so a match starts before its
// table is solved and the bot moves once it is.
type perfectBot struct{}

// Decide is never called: Hall.botMove plays a perfectBot.
func (perfectBot) Decide(sim.Position) sim.Action {
	panic("play: perfectBot is played by botMove")
}

func (perfectBot) String() string { return sim.PerfectBot }

// newBot returns the bot a seat of a match with seed names, without
// solving anything: the perfect-play bot is checked against the rules and
// reads its table when it moves; the mystery bot is the strength the seed
// draws for the seat (sim.MysteryStrength).
func newBot(name string, v sim.Variant, seed *sim.Seed, seat int) (sim.Strategy, error) {
	if name == sim.MysteryBot {
		if err := solve.CheckStrategy(name, v); err != nil {
			return nil, err
		}
		name = sim.MysteryStrength(v.Game, seed, seat)
	}
	if name == sim.PerfectBot {
		if err := solve.CheckStrategy(name, v); err != nil {
			return nil, err
		}
		return perfectBot{}, nil
	}
	return solve.ParseStrategy(name, v, nil)
}

// mysteryAgrees keeps with a mystery bot's analysed decision e, made
// from pre in match row, the strengths that would have made the same one
// (sim.MysteryAgrees): the review rules strengths out by them.
func mysteryAgrees(row Match, pre *sim.State, e *Event) {
	a := e.Analysis
	if a == nil || e.By != ByBot || !slices.ContainsFunc(row.Seats, func(s Seat) bool { return s.Seat == e.Seat && s.Bot == sim.MysteryBot }) {
		return
	}
	names := sim.MysteryStrengths(pre.Variant.Game)
	a.Agrees = []string{}
	for i, agrees := range sim.MysteryAgrees(pre.Position(), e.Action, a.Best) {
		if agrees {
			a.Agrees = append(a.Agrees, names[i])
		}
	}
}

// botMove is a bot's move in st, and false if the bot waits for its table
// (the perfect-play bot of a kind of round being solved: it moves when the
// table is ready, from fillIn). The perfect-play bot plays Advise's best
// option: the exact table of the players still in once it is solved, the
// approximation until then or beyond it.
func (h *Hall) botMove(bot sim.Strategy, st *sim.State) (sim.Action, bool) {
	if _, perfect := bot.(perfectBot); !perfect {
		return bot.Decide(st.Position()), true
	}
	adv, _, err := Advise(h.tables, st)
	if err != nil {
		return sim.Action{}, false
	}
	return adv.Best, true
}

// BotReady reports whether a bot of v moves at once from the start: the
// perfect play of the mystery bot's strongest strength has its table.
func (h *Hall) BotReady(v sim.Variant) bool {
	st := sim.NewState(v, 0)
	_, _, err := Advise(h.tables, &st)
	return err == nil
}

// ExactBots reports whether the perfect-play bot of a match of v plays
// an exact table: with two players, and with more wherever their table
// fits the classroom's budget (the bot waits for it, and the board says
// so); not under equal turns with more than two players, nor beyond the
// budget, where it plays the approximation.
func ExactBots(v sim.Variant) bool {
	_, kind := tableFor(v, v.Seats)
	return kind == exactTwo || kind == exactMulti || kind == equalTable && v.Seats <= 2
}
