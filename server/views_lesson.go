package server

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"pigclass/lessons"
	"pigclass/lessons/figures"
	"pigclass/server/charts"
	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim/solve"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// loadLessons reads and checks the lesson plans.
func (w *views) loadLessons() error {
	r := lessons.Rules{Charts: map[string]bool{}, Figures: map[string]bool{}}
	for _, k := range charts.ClassKeys {
		r.Charts[k] = true
	}
	for _, f := range figures.All {
		r.Figures[f.Name] = true
	}
	r.Strategy = solve.CheckStrategy
	ls, err := lessons.Load(r)
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	w.lessons = ls
	// The tables a lesson reads stay whatever the cache's budget.
	for _, f := range figures.All {
		w.tables.Pin(f.Variant, f.Variant.EqualTurns)
	}
	for _, l := range ls {
		for _, p := range l.Phases {
			if p.Plays() || p.AtTables() {
				w.tables.Pin(p.Variant, p.Variant.EqualTurns)
			}
		}
	}
	return nil
}

// lesson returns the lesson with a slug.
func (w *views) lesson(slug string) (lessons.Lesson, bool) {
	for _, l := range w.lessons {
		if l.Slug == slug {
			return l, true
		}
	}
	return lessons.Lesson{}, false
}

// lessonChoices are the lesson plans offered (the front page's, the
// dashboard's), current selected ("" for none).
func (w *views) lessonChoices(l *i18n.Localizer, current string) []templates.Choice {
	out := []templates.Choice{{Value: "", Label: l.T("lesson.none"), Selected: current == ""}}
	for _, ls := range w.lessons {
		t := ls.In(l.Lang())
		out = append(out, templates.Choice{Value: ls.Slug, Label: l.T("lesson.choice", "Title", l.Own(t.Title), "Level", l.Own(t.Level), "N", l.Int(ls.Minutes)), Selected: ls.Slug == current})
	}
	return out
}

// figures computes every figure a lesson may name, once for the server's
// tables, written in the reader's format (53.06% or 53,06 %).
func (w *views) figures(l *i18n.Localizer) (map[string]string, error) {
	f := w.figs
	f.once.Do(func() { f.values, f.err = figures.Compute(w.tables) })
	if f.err != nil {
		return nil, f.err
	}
	out := make(map[string]string, len(f.values))
	for k, v := range f.values {
		out[k] = figureWords(l, v)
	}
	return out, nil
}

// figureWords writes a figure as its kind says, in the reader's format.
func figureWords(l *i18n.Localizer, f figures.Value) string {
	switch f.Kind {
	case figures.Percent:
		return l.Pct(f.X, 2)
	case figures.Whole:
		return l.Int(int(f.X))
	case figures.Decimal1:
		return l.Dec(f.X, 1)
	case figures.Decimal2:
		return l.Dec(f.X, 2)
	}
	return l.T("figure.skunk_stand", "Zero", l.Int(f.Pair[0]), "Fifty", l.Int(f.Pair[1]))
}

// lessonView is the class's lesson at its phase, figures filled in.
// The words are the lesson's in the reader's language (English when it
// has no translation), the numbers in the reader's format.
func (w *views) lessonView(lc *i18n.Localizer, class store.Class) (*templates.LessonView, error) {
	l, ok := w.lesson(class.Lesson)
	if !ok {
		return nil, nil
	}
	figs, err := w.figures(lc)
	if err != nil {
		return nil, err
	}
	at := max(0, min(class.Phase, len(l.Phases)-1)) // -1: the plan is chosen, its first phase not started
	phase, text := l.Phases[at], l.In(lc.Lang())
	v := &templates.LessonView{Code: class.Code, Title: lc.Own(text.Title), Level: lc.Own(text.Level), Minutes: l.Minutes,
		Phase: at, Phases: len(l.Phases), Chosen: class.Phase < 0, PhaseName: lc.Own(text.Phases[at].Name), Charts: phase.Charts, Setup: phaseSetup(lc, phase), Game: phase.Game, Student: phase.Student}
	if phase.AtTables() {
		v.TablesURL = paths.Query(paths.Tables.For(class.Code), "game", phase.Game, "target", strconv.Itoa(phase.Variant.Target), "bot", phase.Bot)
	}
	for _, g := range text.Goals {
		v.Goals = append(v.Goals, lc.Own(g))
	}
	for _, m := range text.Maths {
		v.Maths = append(v.Maths, lc.Own(lessons.Fill(m, figs)))
	}
	if class.OffLesson {
		v.Left = lc.T("lesson.left", "N", lc.Int(at+1), "Name", v.PhaseName)
	} else {
		v.Clock = w.phaseClock(lc, class)
		for _, p := range text.Phases[at].Prompts {
			v.Prompts = append(v.Prompts, lc.Own(lessons.Fill(p, figs)))
		}
	}
	v.StartLabel = lc.T("lesson.start_phase", "N", lc.Int(at+1), "Name", v.PhaseName)
	if at+1 < len(l.Phases) {
		v.NextLabel = lc.T("lesson.start_phase", "N", lc.Int(at+2), "Name", lc.Own(text.Phases[at+1].Name))
	}
	if at > 0 {
		v.BackLabel = lc.T("lesson.start_phase", "N", lc.Int(at), "Name", lc.Own(text.Phases[at-1].Name))
	}
	return v, nil
}

// phaseSetup describes what a phase plays.
func phaseSetup(l *i18n.Localizer, p lessons.Phase) string {
	switch {
	case p.AtTables() && p.Bot != "":
		return l.T("lesson.setup.tables_bot", "Game", gameTitle(l, p.Variant), "Bot", botLabel(l, p.Bot, p.Variant.Game.Rules().HoldAt))
	case p.AtTables():
		return l.T("lesson.setup.tables", "Game", gameTitle(l, p.Variant))
	}
	switch p.Game {
	case "none":
		return l.T("lesson.setup.none")
	case "skunk":
		return l.N("lesson.setup.skunk", p.Rounds, "N", l.Int(p.Rounds))
	}
	return l.T("lesson.setup.game", "Game", gameTitle(l, p.Variant), "Against", against(l, play.Mode(p.Mode), p.Bot, p.Variant))
}

// checkLessonField reads the front page's lesson field.
func (w *views) checkLessonField(v string) (string, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", true
	}
	_, ok := w.lesson(v)
	return v, ok
}

// days are the days the class played, oldest first, each with the title
// of its lesson plan in the reader's language and what was played.
func (w *views) days(ctx context.Context, l *i18n.Localizer, who classroom.Viewer) ([]templates.DayRow, error) {
	ds, err := w.reports.ClassDays(ctx, who)
	if err != nil {
		return nil, err
	}
	today := w.reports.Today()
	var out []templates.DayRow
	for _, d := range ds {
		var played []string
		if d.Rounds > 0 || d.Skunks == 0 && d.Homework == 0 && d.Tables == 0 {
			played = append(played, l.N("dash.days.rounds", d.Rounds))
		}
		if d.Tables > 0 {
			played = append(played, l.N("dash.days.tables", d.Tables))
		}
		if d.Skunks > 0 {
			played = append(played, l.N("dash.days.skunks", d.Skunks))
		}
		if d.Homework > 0 {
			played = append(played, l.N("dash.days.homework", d.Homework))
		}
		row := templates.DayRow{Date: d.Day, Today: d.Day == today, Played: strings.Join(played, ", ")}
		var titles []string
		for _, slug := range strings.Split(d.Lesson, ",") {
			if ls, ok := w.lesson(slug); ok {
				titles = append(titles, l.Own(ls.In(l.Lang()).Title))
			}
		}
		row.Lesson = strings.Join(titles, "; ")
		out = append(out, row)
	}
	return out, nil
}

// phaseAsks says, on a student's waiting page and beside a finished
// board, what the lesson's phase without a game asks of them: to look at
// the shared screen, to design their strategy (the editor a tap away) or
// to run the lab. Its Words are "" when the class is at no such phase.
func (w *views) phaseAsks(l *i18n.Localizer, class store.Class) (templates.PhaseAsks, error) {
	a := templates.PhaseAsks{Code: class.Code}
	if !class.InPhase() {
		return a, nil // the plan chosen and not started, or left for a round of the teacher's
	}
	lesson, err := w.lessonView(l, class)
	if err != nil || lesson == nil || lesson.Game != "none" {
		return a, err
	}
	a.Plan, a.Lab = lesson.Student == "plan", lesson.Student == "lab"
	words := "student.waiting_phase"
	switch {
	case a.Plan:
		words = "student.waiting_plan"
	case a.Lab:
		words = "student.waiting_lab"
	}
	a.Words = l.T(words, "N", l.Int(lesson.Phase+1), "Name", i18n.Sentence(lesson.PhaseName)) // "Is it luck?", not "Is it luck?."
	return a, nil
}

// lessonAt is where the class's lesson stands, as a waiting page's poll
// carries it: the page is drawn again when the lesson moves on, or its
// countdown starts or stops.
func lessonAt(class store.Class) string {
	if class.Lesson == "" {
		return ""
	}
	// The phase's countdown too: set or stopped, the page shows it.
	return fmt.Sprintf("%s.%d.%t.%d", class.Lesson, class.Phase, class.OffLesson, class.Countdown.Unix())
}

// afterGame reports whether the class's lesson is at a phase whose phase
// before played a game: its podium belongs beside the phase's discussion.
func (w *views) afterGame(class store.Class) bool {
	l, ok := w.lesson(class.Lesson)
	return ok && class.InPhase() && class.Phase > 0 && class.Phase <= len(l.Phases) && l.Phases[class.Phase-1].Game != "none"
}
