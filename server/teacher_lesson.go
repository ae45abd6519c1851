package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/lessons"
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
		start.Round = &classroom.RoundSpec{Variant: p.Variant, Mode: play.Mode(p.Mode), Bot: p.Bot, SameSeed: p.SameSeed, Arms: p.Arms}
	case p.Game == "skunk":
		start.Skunk = p.Rounds
	}
	round, n, err := s.room.StartPhase(ctx, v, start)
	if err == nil || errors.Is(err, classroom.ErrNoStudents) {
		if lerr := s.phaseLab(ctx, v, p.Lab); lerr != nil {
			return "", lerr
		}
	}
	note := lc.T("notice.phase", "N", lc.Int(phase+1), "Name", i18n.Sentence(lc.Own(l.In(lc.Lang()).Phases[phase].Name)))
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

// phaseLab poses a phase's lab question (runs of it already made stay)
// and shows or hides its exact answer as the phase says; a phase without
// one leaves the lab as it is.
func (s *Server) phaseLab(ctx context.Context, v classroom.Viewer, lab *lessons.Lab) error {
	if lab == nil {
		return nil
	}
	q := classroom.LabQuestion{Variant: lab.Variant, First: lab.First, Second: lab.Second}
	if posed, ok := v.Class().LabQuestion(); !ok || posed != q {
		if err := s.room.PoseLab(ctx, v, q); err != nil {
			return err
		}
	}
	return s.room.RevealLab(ctx, v, lab.Reveal)
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
		phase := class.Phase + delta
		if class.Phase < 0 { // a plan just chosen: every step starts its first phase
			phase = 0
		}
		note, err := s.applyPhase(c.Request.Context(), loc(c), viewerFrom(c), phase)
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
		if !m.Over() && !m.AtTable { // a table is not the round's: it goes on
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

// setLessonPlan is the teacher's choice of the lesson plan the class
// follows next ("" for none), waiting at its first phase for the bar's
// "Start phase 1": the class, its code, roster, homework and files go on,
// and each day keeps the plans it played. A round being played goes on as
// the teacher's own until that phase starts.
func (s *Server) setLessonPlan(c *gin.Context) {
	class, l, v := classFrom(c), loc(c), viewerFrom(c)
	slug := c.PostForm("lesson")
	plan, ok := s.views.lesson(slug)
	if slug != "" && !ok {
		var titles []string
		for _, p := range s.views.lessons {
			titles = append(titles, l.Own(p.In(l.Lang()).Title))
		}
		refuse(c, http.StatusUnprocessableEntity, l.T("error.lesson_plan", "Plans", strings.Join(titles, "; ")))
		return
	}
	ctx := c.Request.Context()
	phase := 0
	if slug != "" {
		phase = -1 // chosen, its first phase not started
	}
	if err := s.room.SetLesson(ctx, v, slug, phase); err != nil {
		fail(c, err)
		return
	}
	if s.playing(c) > 0 {
		if err := s.room.LeaveLesson(ctx, v); err != nil {
			fail(c, err)
			return
		}
	}
	if slug == "" {
		done(c, class.Code, l.T("notice.lesson_none"))
		return
	}
	done(c, class.Code, l.T("notice.lesson_plan", "Title", l.Own(plan.In(l.Lang()).Title)))
}

// lessonCountdown starts a countdown for the lesson's phase (minutes, 1
// to 60), or stops it (stop): the shared screen, the phones and the
// dashboard count it down. A class off its lesson, or whose plan is not
// started, has no phase to count.
func (s *Server) lessonCountdown(c *gin.Context) {
	class, l := classFrom(c), loc(c)
	if !class.InPhase() {
		refuse(c, http.StatusConflict, l.T("error.countdown_phase"))
		return
	}
	var d time.Duration
	note := l.T("notice.countdown_stopped")
	if c.PostForm("stop") == "" {
		n, err := strconv.Atoi(strings.TrimSpace(c.PostForm("minutes")))
		if err != nil || n < 1 || time.Duration(n)*time.Minute > classroom.MaxCountdown {
			refuse(c, http.StatusBadRequest, l.T("error.countdown", "Max", l.Int(int(classroom.MaxCountdown/time.Minute))))
			return
		}
		d, note = time.Duration(n)*time.Minute, l.N("notice.countdown", n)
	}
	if err := s.room.SetCountdown(c.Request.Context(), viewerFrom(c), d); err != nil {
		fail(c, err)
		return
	}
	done(c, class.Code, note)
}
