package server

import (
	"context"
	"net/http"
	"sort"
	"strings"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/i18n"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/templates"
)

// results is the podium of a round: the most wins, the best
// decision-maker (the lowest cost per decision), the luckiest dice and the
// boldest hold; shared screens get generated names in anonymous mode.
func (s *Server) results(ctx context.Context, l *i18n.Localizer, who classroom.Viewer, shared bool) (*templates.Results, error) {
	class := who.Class()
	rounds, err := s.reports.Rounds(ctx, who)
	if err != nil || len(rounds) == 0 {
		return nil, err
	}
	round := rounds[len(rounds)-1]
	ms, err := s.reports.RoundMatches(ctx, who, round.ID)
	if err != nil {
		return nil, err
	}
	type tally struct {
		name            string
		wins, decisions int
		cost, luck      float64
		boldest         int
		hasHold         bool
	}
	by := map[int64]*tally{}
	get := func(seat store.Seat) *tally {
		t := by[seat.StudentID]
		if t == nil {
			t = &tally{name: pick(shared && class.Anonymous, anonIn(l, seat.AnonName), seat.Nickname)}
			by[seat.StudentID] = t
		}
		return t
	}
	playing := 0
	for _, m := range ms {
		if m.Status == store.Playing {
			playing++
		}
		for _, seat := range m.Seats {
			if seat.StudentID == 0 {
				continue
			}
			t := get(seat)
			if m.Result != nil && m.Winner == seat.Seat {
				t.wins++
			}
		}
	}
	ds, err := s.reports.Decisions(ctx, who, store.ChartFilter{RoundID: round.ID}, true)
	if err != nil {
		return nil, err
	}
	approximate := 0
	for _, d := range ds {
		t := by[d.StudentID]
		if t == nil {
			continue
		}
		if d.Analysed {
			t.cost += d.Cost
			t.decisions++
			if d.Approximate {
				approximate++
			}
		}
		if d.HasLuck {
			t.luck += d.Luck
		}
		if d.Action.Kind == sim.HoldKind && d.TurnTotal > t.boldest {
			t.boldest, t.hasHold = d.TurnTotal, true
		}
	}
	var all []*tally
	for _, t := range by {
		all = append(all, t)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].name < all[j].name })
	v := &templates.Results{Round: round.Number, Title: gameTitle(l, round.Variant), Playing: playing, Approximate: approximate}
	// Each award names everyone who shares the top (in alphabetical
	// order), never one of them picked by name.
	best := func(label string, better func(a, b *tally) bool, ok func(*tally) bool, value func(*tally) string) {
		var top *tally
		for _, t := range all {
			if ok(t) && (top == nil || better(t, top)) {
				top = t
			}
		}
		if top == nil {
			return
		}
		var names []string
		for _, t := range all {
			if ok(t) && !better(t, top) && !better(top, t) {
				names = append(names, t.name)
			}
		}
		v.Awards = append(v.Awards, templates.Award{Label: label, Name: strings.Join(names, ", "), Value: value(top), Tied: len(names)})
	}
	best(l.T("award.wins"), func(a, b *tally) bool { return a.wins > b.wins }, func(t *tally) bool { return t.wins > 0 },
		func(t *tally) string { return l.N("award.wins_value", t.wins) })
	best(l.T("award.decisions"), func(a, b *tally) bool { return a.cost/float64(a.decisions) < b.cost/float64(b.decisions) },
		func(t *tally) bool { return t.decisions >= 5 },
		func(t *tally) string {
			return l.T("award.decisions_value", "Points", l.Dec(100*t.cost/float64(t.decisions), 2), "N", l.Int(t.decisions))
		})
	best(l.T("award.luck"), func(a, b *tally) bool { return a.luck > b.luck }, func(t *tally) bool { return t.luck > 0 },
		func(t *tally) string {
			return l.T("award.luck_value", "Points", l.Dec(100*t.luck, 1))
		})
	best(l.T("award.bold"), func(a, b *tally) bool { return a.boldest > b.boldest }, func(t *tally) bool { return t.hasHold },
		func(t *tally) string { return l.T("award.bold_value", "N", l.Int(t.boldest)) })
	return v, nil
}

// resultsPage shows the podium of the last round, on the projector.
func (b projectorBase) resultsPage(s *Server) gin.HandlerFunc {
	return func(c *gin.Context) {
		class := classFrom(c)
		v, err := s.results(c.Request.Context(), loc(c), viewerFrom(c), true)
		if err != nil {
			fail(c, err)
			return
		}
		if v == nil {
			v = &templates.Results{}
		}
		v.Code, v.BackURL = class.Code, b.paths().Page.For(class.Code)
		render(c, http.StatusOK, templates.ResultsView(*v))
	}
}
