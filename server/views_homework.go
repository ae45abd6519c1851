package server

import (
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/lessons"
	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// dueLayout is how a due time is typed (a datetime-local field) and read,
// in the server's time zone.
const dueLayout = "2006-01-02T15:04"

// dueShown is how a due time is shown, in the server's time zone.
const dueShown = "2006-01-02 15:04"

// homeworkTitle names an assignment: its game, its bot, its games.
func homeworkTitle(l *i18n.Localizer, v sim.Variant, bot string, games int) string {
	return l.N("homework.title", games, "Game", gameTitle(l, v), "Bot", botLabel(l, bot, v.Game.Rules().HoldAt))
}

// homeworkPanel is the dashboard's homework: each assignment with what
// each student did of it, and its controls.
func (s *Server) homeworkPanel(c *gin.Context) ([]templates.HomeworkRow, error) {
	class, l := classFrom(c), loc(c)
	as, done, err := s.assignments(c)
	if err != nil {
		return nil, err
	}
	var out []templates.HomeworkRow
	for _, a := range as {
		row := templates.HomeworkRow{Title: homeworkTitle(l, a.Variant, a.Bot, a.Games), Due: l.T("homework.due", "Due", a.Due.In(time.Local).Format(dueShown)), Closed: a.Closed,
			CloseURL: paths.HomeworkClose.With(class.Code, a.ID), OpenURL: paths.HomeworkOpen.With(class.Code, a.ID), DueURL: paths.HomeworkDue.With(class.Code, a.ID),
			DueValue: a.Due.In(time.Local).Add(24 * time.Hour).Format(dueLayout)}
		finished := 0
		for _, st := range class.Students {
			h := doneOf(done, a.ID, st.ID)
			row.Students = append(row.Students, templates.HomeworkStudent{Name: st.Nickname, Done: homeworkDone(l, h, a.Games), Finished: h.Done >= a.Games})
			if h.Done >= a.Games {
				finished++
			}
		}
		row.Summary = l.T("homework.summary", "Finished", l.Int(finished), "Students", l.Int(len(class.Students)))
		out = append(out, row)
	}
	return out, nil
}

// doneOf is what a student did of an assignment.
func doneOf(done []store.HomeworkDone, assignment, student int64) store.HomeworkDone {
	for _, h := range done {
		if h.AssignmentID == assignment && h.StudentID == student {
			return h
		}
	}
	return store.HomeworkDone{}
}

// homeworkDone says how many of an assignment's games a student finished,
// and how many of those late.
func homeworkDone(l *i18n.Localizer, h store.HomeworkDone, games int) string {
	done := min(h.Done, games) // games past what is due are practice, counted apart
	s := l.T("homework.done", "Done", l.Int(done), "Games", l.Int(games))
	if h.Late > 0 {
		s = l.T("homework.done_late", "Done", l.Int(done), "Games", l.Int(games), "Late", l.Int(h.Late))
	}
	if extra := h.Done - games; extra > 0 {
		s += l.N("homework.practice", extra)
	}
	return s
}

// studentHomework is the student's list of the class's assignments, with
// what they did of each and the button to play.
func (s *Server) studentHomework(c *gin.Context, code string) ([]templates.StudentHomework, error) {
	l := loc(c)
	as, done, err := s.assignments(c)
	if err != nil {
		return nil, err
	}
	me, _ := viewerFrom(c).Student()
	var out []templates.StudentHomework
	for _, a := range as {
		h := doneOf(done, a.ID, me.ID)
		out = append(out, templates.StudentHomework{Title: homeworkTitle(l, a.Variant, a.Bot, a.Games), Due: l.T("homework.due", "Due", a.Due.In(time.Local).Format(dueShown)),
			Done: homeworkDone(l, h, a.Games), Closed: a.Closed, Finished: h.Done >= a.Games, Playing: h.Playing != 0,
			PlayURL: paths.PlayHomework.With(code, a.ID)})
	}
	return out, nil
}

// defaultDue is the homework form's due time until the teacher types
// one: tomorrow at 6 pm, in the server's time zone.
func defaultDue(now time.Time) string {
	t := now.In(time.Local).AddDate(0, 0, 1)
	return time.Date(t.Year(), t.Month(), t.Day(), 18, 0, 0, 0, time.Local).Format(dueLayout)
}

// matchTitle names a class's match in a list: its round and game, or, a
// game of homework or at a table (no round), that and its game.
func matchTitle(l *i18n.Localizer, m play.Match) string {
	if m.AssignmentID != 0 {
		return l.T("homework.match", "Game", gameTitle(l, m.Variant))
	}
	if m.AtTable {
		return l.T("table.match", "Game", gameTitle(l, m.Variant))
	}
	return l.T("round.title", "N", l.Int(m.RoundIndex), "Game", gameTitle(l, m.Variant))
}

// playingPhase is the phase of the class's lesson numbered phase (from 1)
// if it plays a game.
func (w *views) playingPhase(class store.Class, phase string) (lessons.Phase, bool) {
	l, ok := w.lesson(class.Lesson)
	n, err := strconv.Atoi(phase)
	if !ok || err != nil || n < 1 || n > len(l.Phases) || !l.Phases[n-1].Plays() {
		return lessons.Phase{}, false
	}
	return l.Phases[n-1], true
}

// homeworkPhases are the phases of the class's lesson that play a game, to
// set as homework: "Phase 2: Play the rule of thumb (Pig to 100)".
func (w *views) homeworkPhases(l *i18n.Localizer, class store.Class, selected string) []templates.Choice {
	ls, ok := w.lesson(class.Lesson)
	if !ok {
		return nil
	}
	text := ls.In(l.Lang())
	var out []templates.Choice
	for i, p := range ls.Phases {
		if p.Plays() {
			n := strconv.Itoa(i + 1)
			out = append(out, templates.Choice{Value: n, Selected: n == selected,
				Label: l.T("homework.set.phase_item", "N", l.Int(i+1), "Name", l.Own(text.Phases[i].Name), "Game", gameTitle(l, p.Variant))})
		}
	}
	return out
}

// assignments are the class's assignments and what its students (or the
// student asking) did of each.
func (s *Server) assignments(c *gin.Context) ([]store.Assignment, []store.HomeworkDone, error) {
	ctx, who := c.Request.Context(), viewerFrom(c)
	as, err := s.room.Assignments(ctx, who)
	if err != nil || len(as) == 0 {
		return nil, nil, err // no homework: nothing was done of it
	}
	done, err := s.room.Homework(ctx, who)
	return as, done, err
}
