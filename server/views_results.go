package server

import (
	"context"
	"slices"

	"pigclass/server/classroom"
	"pigclass/server/report"
	"pigclass/templates"
	"pigclass/templates/i18n"
)

// results is the podium of a round (report.Podium) in the reader's words:
// shared screens get generated names in anonymous mode (and no footnote
// on approximate analyses: the teacher's dashboard explains those), tied
// winners are named in alphabetical order, and a prize too many share
// says there is no winner this time.
func (w *views) results(ctx context.Context, l *i18n.Localizer, who classroom.Viewer, shared bool, sc report.PodiumScope) (*templates.Results, error) {
	p, err := w.reports.PodiumOf(ctx, who, sc)
	if err != nil || p == nil {
		return nil, err
	}
	anonymous := shared && who.Class().Anonymous
	v := &templates.Results{Round: p.Round.Number, Title: gameTitle(l, p.Round.Variant), Playing: p.Playing}
	switch {
	case sc.Unit:
		v.Heading = l.T("results.unit")
	case sc.Day != "":
		v.Heading = l.T("results.day", "Date", sc.Day)
	}
	if !shared {
		v.Approximate = p.Approximate // explained to the teacher, not to the class's screen
	}
	for _, a := range p.Awards {
		var names []string
		for _, seat := range a.Students {
			names = append(names, pick(anonymous, anonIn(l, seat.AnonName), seat.Nickname))
		}
		label, value := awardWords(l, a, shared, len(names))
		award := templates.Award{Label: label, Value: value, Tied: len(names)}
		award.Names, award.More = namedTie(l, names)
		v.Awards = append(v.Awards, award)
	}
	return v, nil
}

// MaxNamed is how many of a tie the podium names; the rest it counts.
const MaxNamed = 5

// namedTie is who a prize names, in order, at most MaxNamed, and "and N
// more" for the rest ("" when there are none).
func namedTie(l *i18n.Localizer, names []string) ([]string, string) {
	names = slices.Sorted(slices.Values(names))
	if len(names) <= MaxNamed {
		return names, ""
	}
	return names[:MaxNamed], l.T("award.more", "N", l.Int(len(names)-MaxNamed))
}

// awardWords are a prize's name and its winners' figure: on the class's
// shared screen (shared) in plain words, with no chance in percent. The
// figure of a prize shared by several is each one's ("1 win each").
func awardWords(l *i18n.Localizer, a report.Award, shared bool, winners int) (label, value string) {
	switch a.Kind {
	case report.MostWins:
		if winners > 1 {
			return l.T("award.wins"), l.N("award.wins_each", a.Wins)
		}
		return l.T("award.wins"), l.N("award.wins_value", a.Wins)
	case report.BestDecisions:
		if shared {
			return l.T("award.decisions"), l.N("award.decisions_plain", a.Decisions)
		}
		return l.T("award.decisions"), l.T("award.decisions_value", "P", l.Pct(a.CostPerDecision, 2), "N", l.Int(a.Decisions))
	case report.LuckiestDice:
		if shared {
			return l.T("award.luck"), l.T("award.luck_plain")
		}
		return l.T("award.luck"), l.T("award.luck_value", "P", l.Pct(a.Luck, 1))
	}
	return l.T("award.bold"), l.T("award.bold_value", "N", l.Int(a.Boldest))
}
