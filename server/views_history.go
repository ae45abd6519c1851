package server

import (
	"context"

	"pigclass/server/classroom"
	"pigclass/server/store"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// history adds a waiting student's past matches and charts to their page.
func (w *views) history(ctx context.Context, l *i18n.Localizer, who classroom.Viewer, studentID int64, v *templates.StudentHome) error {
	class := who.Class()
	past, err := w.reports.History(ctx, who)
	if err != nil {
		return err
	}
	for i := len(past) - 1; i >= 0; i-- {
		m := past[i]
		if m.Status == store.Playing {
			continue
		}
		v.History = append(v.History, templates.HistoryRow{URL: paths.Match(class.Code, m.ID), Title: l.T("round.title", "N", l.Int(m.RoundIndex), "Game", gameTitle(l, m.Variant)), Result: historyResult(l, m, studentID)})
	}
	if len(v.History) > 0 {
		v.ChartsURL = paths.StudentCharts.For(class.Code)
	}
	v.MyDataURL = paths.MyData.For(class.Code)
	return nil
}
