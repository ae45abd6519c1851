package server

import (
	"pigclass/server/charts"
	"pigclass/server/report"
	"pigclass/sim"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// reviewView lists the viewer's decisions beside hold-at-20 and optimal.
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
			r.EV, r.Best, r.Before, r.After, r.Cost = charts.ActionWord(l, a.EV), charts.ActionWord(l, a.Best), percent(l, best), percent(l, a.WinIfChosen), l.Dec(100*a.Cost, 2)
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
		v.PerDecision = l.Points(total / float64(v.Decisions))
	}
	v.Timeline = timeline(l, mv)
	return v
}
