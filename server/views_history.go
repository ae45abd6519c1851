package server

import (
	"context"
	"math"

	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/server/report"
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
		if m.Status == play.Playing {
			continue
		}
		v.History = append(v.History, templates.HistoryRow{URL: paths.Match(class.Code, m.ID), Title: matchTitle(l, m), Result: historyResult(l, m, studentID)})
	}
	if len(v.History) > 0 {
		v.ChartsURL = paths.StudentCharts.For(class.Code)
	}
	v.MyDataURL = paths.MyData.For(class.Code)
	if mine, ok := who.MyStats(); ok && mine.Analysed == 0 {
		return nil // no analysed decision yet: no progress to read (a page polled while waiting)
	}
	p, err := w.reports.StudentProgress(ctx, who, studentID)
	if err != nil {
		return err
	}
	v.Progress = progressWords(l, p, "")
	return nil
}

// gamesLost says a chance of winning given away a game as a student
// reads it: about 1 game in N (a chance of 1/N a game is one game more
// lost in N), or hardly any game below 1 in 1,000.
func gamesLost(l *i18n.Localizer, perGame float64) string {
	switch {
	case perGame < 0.001:
		return l.T("progress.none")
	case perGame >= 0.75:
		return l.T("progress.every") // not "about 1 game in 1" (issue 81)
	}
	return l.T("progress.one_in", "N", l.Int(int(math.Round(1/perGame))))
}

// progressWords says a student's play day by day in plain words, to the
// student ("your choices"), or to the teacher (name given): the chance
// of winning given away a game, with the range chance leaves (or that
// there are too few different games to tell), and whether the change
// since the first day is more than luck, by report's rule (Progress).
// Nil before any analysed decision.
func progressWords(l *i18n.Localizer, p report.Progress, name string) *templates.ProgressView {
	if len(p.Days) == 0 {
		return nil
	}
	prefix, who := "progress.", []any{}
	if name != "" {
		prefix, who = "progress.teacher.", []any{"Name", name}
	}
	v := &templates.ProgressView{Heading: l.T(prefix+"heading", who...)}
	for _, d := range p.Days {
		args := append([]any{"Date", d.Day, "PerGame", l.Pct(d.PerGame, 1), "Lost", gamesLost(l, d.PerGame)}, who...)
		line := l.N(prefix+pick(d.Homework, "homework", "day"), d.Games, args...)
		sure := l.T("progress.range", "Lo", l.Pct(d.Lo, 1), "Hi", l.Pct(d.Hi, 1))
		switch {
		case !d.Told:
			sure = l.T("progress.range_few")
		case d.Cut:
			sure = l.T("progress.range_cut", "Hi", l.Pct(d.Hi, 1))
		}
		if name != "" {
			line += " " + sure // the teacher reads the range beside the figure
		} else {
			v.Sure = append(v.Sure, d.Day+": "+sure) // the student, on asking
		}
		v.Days = append(v.Days, line)
	}
	if p.Compared {
		v.Better = p.Change < 0
		key := prefix + pick(v.Better, "less.", "more.") + pick(p.Sure, "sure", "maybe")
		switch {
		case p.Change == 0:
			key = prefix + "same"
		case !p.Judged:
			key = prefix + "untold"
		}
		first, last := l.Pct(p.ChangeFrom.PerGame, 1), l.Pct(p.ChangeTo.PerGame, 1)
		if name == "" {
			first, last = gamesLost(l, p.ChangeFrom.PerGame), gamesLost(l, p.ChangeTo.PerGame)
		}
		v.Change = l.T(key, append([]any{"First", first, "Last", last}, who...)...)
	}
	return v
}
