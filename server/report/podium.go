package report

import (
	"context"
	"slices"

	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
)

// AwardKind is one prize of a round's podium.
type AwardKind int

// The prizes, in the order the podium shows them.
const (
	MostWins      AwardKind = iota // the most matches won
	BestDecisions                  // the lowest cost per analysed decision, of MinDecisions or more
	LuckiestDice                   // the most luck (points of chance the dice gave), when above zero
	BoldestHold                    // the highest turn total held
)

// A prize means something only when it picks someone out:
//   - MinDecisions is how many analysed decisions a student needs for the
//     best decision-maker's prize (fewer say too little);
//   - students within DecisionGap of the best cost per decision (a tenth
//     of a percentage point), or within LuckGap of the most luck (one
//     point), share the prize: the difference is noise;
//   - a prize every student of the round would share, when they are
//     more than MaxAllTied, picks no one out and is not given (a 16-way
//     tie at one win each is no title); any other tie names everyone in
//     it.
const (
	MinDecisions = 10
	DecisionGap  = 0.001
	LuckGap      = 0.01
	MaxAllTied   = 3
)

// Award is one prize and who shares it: every student at the top, tied
// ones together, never one of them picked.
type Award struct {
	Kind AwardKind
	// Students are the winners' seats (their nickname and generated name),
	// in the order of their student IDs; the page orders them by the name
	// it shows.
	Students []play.Seat
	// The winners' figure: the wins, the cost per decision (a chance,
	// 0.01 for a point) and their number, the luck (a chance), the turn
	// total held.
	Wins            int
	CostPerDecision float64
	Decisions       int
	Luck            float64
	Boldest         int
}

// Podium is the podium of a class's last round.
type Podium struct {
	Round play.Round
	// Playing is the round's matches still being played.
	Playing int
	// Approximate is the analysed decisions read approximately.
	Approximate int
	Awards      []Award
}

// Podium returns the podium of the class's last round, nil when it has
// played none, for its members.
func (r *Reports) Podium(ctx context.Context, v classroom.Viewer) (*Podium, error) {
	return r.PodiumOf(ctx, v, PodiumScope{})
}

// PodiumScope is what a podium counts: the class's last round (the zero
// value), one day of the class (its rounds and its homework), or the
// whole unit.
type PodiumScope struct {
	Day  string
	Unit bool
}

// PodiumOf returns the podium of the scope's matches, nil when the class
// has played none of them, for its members. Its Round is the last round
// (of a class that played only at tables, no round: the last table's
// game).
func (r *Reports) PodiumOf(ctx context.Context, v classroom.Viewer, sc PodiumScope) (*Podium, error) {
	rounds, err := r.Rounds(ctx, v)
	if err != nil || len(rounds) == 0 && !sc.Unit && sc.Day == "" {
		return nil, err
	}
	var round play.Round
	if len(rounds) > 0 {
		round = rounds[len(rounds)-1]
	}
	f := store.ChartFilter{RoundID: round.ID}
	var ms []play.Match
	if sc.Unit || sc.Day != "" {
		f = store.ChartFilter{Day: sc.Day}
		all, err := r.ClassMatches(ctx, v)
		if err != nil {
			return nil, err
		}
		for _, m := range all {
			if sc.Unit || m.Day == sc.Day {
				ms = append(ms, m)
			}
		}
	} else if ms, err = r.RoundMatches(ctx, v, round.ID); err != nil {
		return nil, err
	}
	if len(rounds) == 0 {
		if len(ms) == 0 {
			return nil, nil
		}
		round.Variant = ms[len(ms)-1].Variant // tables alone
	}
	ds, err := r.Decisions(ctx, v, f, true)
	if err != nil {
		return nil, err
	}
	return podium(round, ms, ds), nil
}

// tally is one student's round.
type tally struct {
	seat            play.Seat
	wins, decisions int
	cost, luck      float64
	boldest         int
	hasHold         bool
}

// podium tallies a round's matches and its students' decisions.
func podium(round play.Round, ms []play.Match, ds []store.Decision) *Podium {
	p := &Podium{Round: round}
	by := map[int64]*tally{}
	var order []int64
	for _, m := range ms {
		if m.Status == play.Playing {
			p.Playing++
		}
		for _, seat := range m.Seats {
			if seat.StudentID == 0 {
				continue
			}
			t := by[seat.StudentID]
			if t == nil {
				t = &tally{seat: seat}
				by[seat.StudentID] = t
				order = append(order, seat.StudentID)
			}
			if m.Result != nil && m.Winner == seat.Seat {
				t.wins++
			}
		}
	}
	for _, d := range ds {
		t := by[d.StudentID]
		if t == nil {
			continue
		}
		if d.Analysed {
			t.cost += d.Cost
			t.decisions++
			if d.Approximate {
				p.Approximate++
			}
		}
		if d.HasLuck {
			t.luck += d.Luck
		}
		if d.Action.Kind == sim.HoldKind && d.TurnTotal > t.boldest {
			t.boldest, t.hasHold = d.TurnTotal, true
		}
	}
	slices.Sort(order)
	all := make([]*tally, len(order))
	for i, id := range order {
		all[i] = by[id]
	}
	for _, prize := range prizes {
		if a, ok := award(all, prize); ok {
			p.Awards = append(p.Awards, a)
		}
	}
	return p
}

// prize is how one award is decided: better orders two students, near
// says the second shares the first's prize, counts who may have it.
type prize struct {
	kind   AwardKind
	better func(a, b *tally) bool
	near   func(top, t *tally) bool
	counts func(*tally) bool
}

func perDecision(t *tally) float64 { return t.cost / float64(t.decisions) }

var prizes = []prize{
	{MostWins, func(a, b *tally) bool { return a.wins > b.wins },
		func(top, t *tally) bool { return t.wins == top.wins }, func(t *tally) bool { return t.wins > 0 }},
	{BestDecisions, func(a, b *tally) bool { return perDecision(a) < perDecision(b) },
		func(top, t *tally) bool { return perDecision(t)-perDecision(top) < DecisionGap }, func(t *tally) bool { return t.decisions >= MinDecisions }},
	{LuckiestDice, func(a, b *tally) bool { return a.luck > b.luck },
		func(top, t *tally) bool { return top.luck-t.luck < LuckGap }, func(t *tally) bool { return t.luck > 0 }},
	{BoldestHold, func(a, b *tally) bool { return a.boldest > b.boldest },
		func(top, t *tally) bool { return t.boldest == top.boldest }, func(t *tally) bool { return t.hasHold }},
}

// award is a prize given to every student at the top of p.better (and
// those near it) among those it counts; false when none counts, or when
// every student of the round (more than MaxAllTied) would share it.
func award(all []*tally, p prize) (Award, bool) {
	var top *tally
	for _, t := range all {
		if p.counts(t) && (top == nil || p.better(t, top)) {
			top = t
		}
	}
	if top == nil {
		return Award{}, false
	}
	a := Award{Kind: p.kind, Wins: top.wins, Decisions: top.decisions, Luck: top.luck, Boldest: top.boldest}
	if top.decisions > 0 {
		a.CostPerDecision = perDecision(top)
	}
	for _, t := range all {
		if p.counts(t) && p.near(top, t) {
			a.Students = append(a.Students, t.seat)
		}
	}
	if len(all) > MaxAllTied && len(a.Students) == len(all) {
		return Award{}, false
	}
	return a, true
}
