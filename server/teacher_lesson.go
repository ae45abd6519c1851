package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// applyPhase moves a class to a phase of its lesson, as one operation of
// the room: the phase's round starts (when students have joined), or its
// game of Skunk, and the projector shows its first chart.
func (s *Server) applyPhase(ctx context.Context, lc *i18n.Localizer, v classroom.Viewer, phase int) (string, error) {
	class := v.Class()
	l, ok := s.views.lesson(class.Lesson)
	if !ok || phase < 0 || phase >= len(l.Phases) {
		return "", store.ErrNotFound
	}
	p := l.Phases[phase]
	start := classroom.PhaseStart{Lesson: class.Lesson, Phase: phase}
	if len(p.Charts) > 0 {
		start.Chart = p.Charts[0]
	}
	switch {
	case p.Plays():
		start.Round = &classroom.RoundSpec{Variant: p.Variant, Mode: play.Mode(p.Mode), Bot: p.Bot, SameSeed: p.SameSeed}
	case p.Game == "skunk":
		start.Skunk = p.Rounds
	}
	round, n, err := s.room.StartPhase(ctx, v, start)
	note := lc.T("notice.phase", "N", lc.Int(phase+1), "Name", lc.Own(l.In(lc.Lang()).Phases[phase].Name))
	switch {
	case errors.Is(err, classroom.ErrNoStudents):
		return note + " " + lc.T("notice.nostudents_phase"), nil
	case err != nil:
		return "", err
	case start.Round != nil:
		note += " " + lc.N("notice.round_started", n, "Round", lc.Int(round.Number))
	case start.Skunk > 0:
		note += " " + lc.T("notice.skunk_started")
	}
	return note, nil
}

// stepLesson moves the class's lesson by delta phases (0: start the
// current phase again).
func (s *Server) stepLesson(delta int) gin.HandlerFunc {
	return func(c *gin.Context) {
		class := classFrom(c)
		if class.Lesson == "" {
			refuse(c, http.StatusConflict, loc(c).T("error.nolesson"))
			return
		}
		// A step ends the round being played: asked first, as "End the
		// round" is.
		if s.playing(c) > 0 && !confirmed(c, paths.ConfirmStep.For(class.Code)+"?step="+strconv.Itoa(delta)) {
			return
		}
		note, err := s.applyPhase(c.Request.Context(), loc(c), viewerFrom(c), class.Phase+delta)
		if err != nil {
			fail(c, err)
			return
		}
		done(c, class.Code, note)
	}
}

// playing counts the class's matches of its open round still being played.
func (s *Server) playing(c *gin.Context) int {
	n := 0
	for _, m := range (viewerFrom(c)).Matches() {
		if !m.Over() {
			n++
		}
	}
	return n
}

// confirmStep asks before a lesson step (?step=1 next, -1 back, 0 the
// first) that would end the round being played, naming the matches that
// stop.
func (s *Server) confirmStep(c *gin.Context) {
	class, l := classFrom(c), loc(c)
	step, _ := strconv.Atoi(c.Query("step"))
	action := map[int]paths.Route{1: paths.LessonNext, -1: paths.LessonBack}[step]
	if action == "" {
		action, step = paths.LessonStart, 0
	}
	n := s.playing(c)
	if n == 0 || class.Round == nil {
		done(c, class.Code, "") // nothing would end: back to the dashboard, which offers the step
		return
	}
	lesson, err := s.views.lessonView(l, class.Class)
	if err != nil {
		fail(c, err)
		return
	}
	if lesson == nil {
		done(c, class.Code, loc(c).T("error.nolesson")) // no lesson, no step to confirm
		return
	}
	label := map[int]string{1: lesson.NextLabel, -1: lesson.BackLabel, 0: lesson.StartLabel}[step]
	v := templates.Confirm{Code: class.Code, CancelURL: paths.Teacher.For(class.Code), Action: action.For(class.Code), Button: label,
		Title:   stepQuestion(l, label),
		Message: l.N("confirm.step.message", n, "N", l.Int(class.Round.Number))}
	render(c, http.StatusOK, templates.ConfirmView(v))
}

// stepQuestion asks whether to take a step named label: "Start phase 2?",
// or the label itself when it asks already ("Which bot did you play?",
// not "...play??").
func stepQuestion(l *i18n.Localizer, label string) string {
	if strings.HasSuffix(strings.TrimSpace(label), "?") || strings.HasSuffix(strings.TrimSpace(label), "？") {
		return label
	}
	return l.T("confirm.step.title", "Step", label)
}
