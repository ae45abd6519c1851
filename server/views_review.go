package server

import (
	"slices"
	"strings"

	"pigclass/server/charts"
	"pigclass/server/report"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// mysteryWords says, for the review once the seed is published, what
// each mystery bot's moves ruled out, decision by decision, and the
// strength it played at (the seed drew it: sim.MysteryStrength).
func mysteryWords(l *i18n.Localizer, mv *matchView) (said, trail []string) {
	var names []i18n.Msg
	rule := mv.Variant.Game.Rules().HoldAt
	for _, seat := range mv.Seats {
		if seat.Bot != sim.MysteryBot {
			continue
		}
		if names == nil {
			names = seatWordsAll(mv.Match.Match, -1, false, i18n.Msg{})
		}
		trail = append(trail, mysteryTrail(l, mv, seat.Seat)...)
		strength := sim.MysteryStrength(mv.Variant.Game, &mv.Seed, seat.Seat)
		said = append(said, l.T("review.mystery", "Bot", l.Say(names[seat.Seat]), "Strength", botLabel(l, strength, rule)))
	}
	return said, trail
}

// mysteryTrail is what the moves of the mystery bot at seat ruled out,
// each decision that ruled out a strength in a line (one in three each at
// the start; those that agree with every move so far share the chance).
func mysteryTrail(l *i18n.Localizer, mv *matchView, seat int) []string {
	g := mv.Variant.Game
	strengths := sim.MysteryStrengths(g)
	possible := make([]bool, len(strengths))
	for i := range possible {
		possible[i] = true
	}
	var out []string
	n := 0
	for _, e := range mv.Events {
		if e.Seat != seat || e.By != store.ByBot || e.Analysis == nil {
			continue
		}
		n++
		p := sim.Position{Variant: mv.Variant, Score: e.Score, Opponent: e.OpponentScore, TurnTotal: e.TurnTotal}
		var out1, left []string
		for i, agrees := range sim.MysteryAgrees(p, e.Action, e.Analysis.Best) {
			name := botLabel(l, strengths[i], g.Rules().HoldAt)
			switch {
			case possible[i] && !agrees:
				possible[i] = false
				out1 = append(out1, name)
			case possible[i]:
				left = append(left, name)
			}
		}
		if len(out1) > 0 && len(left) > 0 {
			out = append(out, l.T("review.mystery_step", "N", l.Int(n), "Move", charts.ActionWord(l, e.Action), "Total", l.Int(e.TurnTotal), "Out", strings.Join(out1, "; "))+" "+
				l.N("review.mystery_left", len(left), "List", strings.Join(left, "; ")))
		}
	}
	return out
}

// reviewView lists the viewer's decisions beside the rule of thumb and
// perfect play, in words a student reads: chances in percent, the same
// mistake made again and again said once.
func (w *views) reviewView(l *i18n.Localizer, mv *matchView) templates.Review {
	code := mv.code()
	v := templates.Review{
		Title: gameTitle(l, mv.Variant), Result: mv.board.Result, Commitment: mv.Seed.Commitment(),
		RecordURL: paths.Record(code, mv.ID), VerifyURL: paths.VerifyMatch(code, mv.ID), BackURL: "/",
		NextURL: mv.board.NextURL, InClass: code != "", Hog: mv.Variant.Game.ChoosesDice(),
	}
	switch {
	case !mv.Over():
		v.SeedLater = l.T("review.seedplaying") // the teacher's look at a match in play
	case mv.SharingDice > 0:
		v.SeedLater = l.N("review.seedlater", mv.SharingDice)
	default:
		v.Seed = mv.Seed.String()
		v.Mystery, v.MysteryTrail = mysteryWords(l, mv)
	}
	if code != "" {
		v.BackURL = paths.Student.For(code)
	}
	total := 0.0
	for _, e := range mv.Events {
		v.Pending = v.Pending || e.Pending
		if e.Seat != mv.Seat || e.Action.Kind == sim.ResignKind {
			continue
		}
		r := templates.ReviewRow{N: len(v.Rows) + 1, Turn: e.Turn, Score: e.Score, Opponent: e.OpponentScore, TurnTotal: e.TurnTotal, Action: charts.ActionWord(l, e.Action), Faces: charts.ThrowWords(l, mv.Variant.Game, &e.Faces)}
		if a := e.Analysis; a != nil {
			v.Analysed = true
			v.Approximate = v.Approximate || a.Approximate
			best := a.Options[a.Best]
			r.EV, r.Best, r.Before, r.After, r.Cost = charts.ActionWord(l, a.EV), charts.ActionWord(l, a.Best), percent(l, best), percent(l, a.WinIfChosen), percent(l, a.Cost)
			r.AgreesOptimal, r.AgreesEV = report.ChosenAction(e) == a.Best, report.ChosenAction(e) == a.EV
			total += a.Cost
			v.Decisions++
			if !r.AgreesOptimal {
				v.Differs = append(v.Differs, r)
			}
		}
		v.Rows = append(v.Rows, r)
	}
	v.TotalCost = percent(l, total)
	if v.Decisions > 0 {
		v.PerDecision = percent(l, total/float64(v.Decisions))
	}
	v.TwoPlayers = mv.Variant.Seats == 2
	v.Differs, v.Patterns = reviewPatterns(l, v.Differs, v.Hog)
	v.Timeline = timeline(l, mv)
	return v
}

// minPattern is how many times the same choice against perfect play's
// makes a pattern, said once with its count.
const minPattern = 3

// reviewPatterns takes the choices a student made against perfect play's
// the same way minPattern times or more (holding where it rolls, say) out
// of differs, as one line each with their count and the turn totals they
// were made at; the rest stay cards of their own.
func reviewPatterns(l *i18n.Localizer, differs []templates.ReviewRow, hog bool) ([]templates.ReviewRow, []templates.ReviewPattern) {
	type choice struct{ chose, best string }
	groups := map[choice][]templates.ReviewRow{}
	var order []choice
	for _, r := range differs {
		k := choice{r.Action, r.Best}
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	var single []templates.ReviewRow
	var patterns []templates.ReviewPattern
	for _, k := range order {
		rows := groups[k]
		if len(rows) < minPattern {
			single = append(single, rows...)
			continue
		}
		lo, hi := rows[0].TurnTotal, rows[0].TurnTotal
		for _, r := range rows {
			lo, hi = min(lo, r.TurnTotal), max(hi, r.TurnTotal)
		}
		text := l.T("review.pattern", "Chose", k.chose, "Best", k.best, "N", l.Int(len(rows)), "Lo", l.Int(lo), "Hi", l.Int(hi))
		if hog {
			text = l.T("review.pattern_hog", "Chose", k.chose, "Best", k.best, "N", l.Int(len(rows)))
		}
		patterns = append(patterns, templates.ReviewPattern{Text: text, Cards: rows})
	}
	slices.SortStableFunc(single, func(a, b templates.ReviewRow) int { return a.N - b.N })
	return single, patterns
}
