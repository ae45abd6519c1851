package server

import (
	"cmp"
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/templates"
	"pigclass/templates/paths"
)

// skunkRoll throws the shared dice (the teacher's button).
func (s *Server) skunkRoll(c *gin.Context) {
	class := classFrom(c)
	if _, err := s.room.SkunkRoll(c.Request.Context(), viewerFrom(c)); err != nil {
		fail(c, err)
		return
	}
	c.Redirect(http.StatusSeeOther, skunkBack(c, class.Code))
}

// teacherSkunk is the Skunk board for the dashboard's polling.
func (s *Server) teacherSkunk(c *gin.Context) {
	class := classFrom(c)
	k := (viewerFrom(c)).Skunk()
	if k == nil {
		c.String(http.StatusOK, "")
		return
	}
	if unchanged(c, k, class) {
		return
	}
	render(c, http.StatusOK, templates.SkunkView(s.views.skunkBoard(loc(c), class, k, 0, true, paths.TeacherSkunk.For(class.Code))))
}

// endSkunk stops the class's game of Skunk.
func (s *Server) endSkunk(c *gin.Context) {
	class := classFrom(c)
	if err := s.room.EndSkunk(c.Request.Context(), viewerFrom(c)); err != nil {
		fail(c, err)
		return
	}
	c.Redirect(http.StatusSeeOther, skunkBack(c, class.Code))
}

// Skunk from the dashboard: a game of the whole room of 1 to maxSkunkRounds
// rounds (the lesson plans' Skunk phases play 5).
const (
	defaultSkunkRounds = 5
	maxSkunkRounds     = 10
)

// startSkunk starts whole-class Skunk from the dashboard, in any class:
// asked first when it would end a round being played, and, in a class
// following a lesson, off the lesson (the teacher's own game).
func (s *Server) startSkunk(c *gin.Context) {
	class, l := classFrom(c), loc(c)
	rounds, err := strconv.Atoi(cmp.Or(c.PostForm("rounds"), c.Query("rounds"), strconv.Itoa(defaultSkunkRounds)))
	if err != nil || rounds < 1 || rounds > maxSkunkRounds {
		refuse(c, http.StatusUnprocessableEntity, l.T("error.skunk_rounds", "Max", l.Int(maxSkunkRounds)))
		return
	}
	if s.playing(c) > 0 && !confirmed(c, paths.ConfirmSkunk.For(class.Code)+"?rounds="+strconv.Itoa(rounds)) {
		return
	}
	ctx, v := c.Request.Context(), viewerFrom(c)
	if err := s.room.StartSkunk(ctx, v, rounds); errors.Is(err, classroom.ErrNoStudents) {
		done(c, class.Code, l.T("notice.nostudents"))
		return
	} else if err != nil {
		fail(c, err)
		return
	}
	if err := s.room.LeaveLesson(ctx, v); err != nil {
		fail(c, err)
		return
	}
	done(c, class.Code, l.T("notice.skunk_started"))
}

// confirmSkunk asks before Skunk ends the round being played.
func (s *Server) confirmSkunk(c *gin.Context) {
	class, l := classFrom(c), loc(c)
	n := s.playing(c)
	if n == 0 || class.Round == nil {
		done(c, class.Code, "") // nothing would end: back to the dashboard, which offers Skunk
		return
	}
	rounds := cmp.Or(c.Query("rounds"), strconv.Itoa(defaultSkunkRounds))
	v := templates.Confirm{Code: class.Code, CancelURL: paths.Teacher.For(class.Code), Action: paths.SkunkStart.For(class.Code) + "?rounds=" + url.QueryEscape(rounds),
		Button: l.T("dash.skunk.start"), Title: l.T("confirm.step.title", "Step", l.T("dash.skunk.start")),
		Message: l.N("confirm.step.message", n, "N", l.Int(class.Round.Number))}
	render(c, http.StatusOK, templates.ConfirmView(v))
}
