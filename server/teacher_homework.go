package server

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/store"
	"pigclass/templates"
	"pigclass/templates/paths"
)

// setHomework sets the round form's game, against its bot, as homework:
// a number of games, due at a time. A bad field comes back on the form.
func (s *Server) setHomework(c *gin.Context) {
	class, l := classFrom(c), loc(c)
	form, v, ok := s.parseRound(c)
	form.Games, form.Due = templates.Field{Value: strings.TrimSpace(c.PostForm("games"))}, templates.Field{Value: strings.TrimSpace(c.PostForm("due"))}
	games, err := strconv.Atoi(form.Games.Value)
	if err != nil || games < 1 || games > classroom.MaxHomeworkGames {
		form.Games.Error, ok = l.T("homework.error.games", "Max", l.Int(classroom.MaxHomeworkGames)), false
	}
	due, err := time.ParseInLocation(dueLayout, form.Due.Value, time.Local)
	if err != nil {
		form.Due.Error, ok = l.T("homework.error.due"), false
	}
	if form.Phase.Value = c.PostForm("phase"); form.Phase.Value != "" {
		// A phase of the class's lesson: its game and its bot, whatever the
		// form's game says.
		p, found := s.views.playingPhase(class.Class, form.Phase.Value)
		if !found {
			form.Phase.Error = l.T("homework.error.phase")
		}
		v, form.Bot.Value, ok = p.Variant, p.Bot, found && form.Games.Error == "" && form.Due.Error == ""
	}
	if ok {
		v.Seats = max(v.Seats, 2)
		_, err = s.room.SetHomework(c.Request.Context(), viewerFrom(c), classroom.HomeworkSpec{Variant: v, Bot: form.Bot.Value, Games: games, Due: due})
		if err == nil {
			done(c, class.Code, l.T("notice.homework_set", "Title", homeworkTitle(l, v, form.Bot.Value, games), "Due", due.Format(dueShown)))
			return
		}
		_, form.Error = explain(l, err)
	}
	render(c, http.StatusUnprocessableEntity, templates.RoundFormView(s.formView(c, form)))
}

// closeHomework closes an assignment (no game may start) or reopens it.
func (s *Server) closeHomework(closed bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		class, l := classFrom(c), loc(c)
		id, _ := strconv.ParseInt(c.Param("id"), 10, 64)
		if err := s.room.SetAssignment(c.Request.Context(), viewerFrom(c), id, closed, time.Time{}); err != nil {
			fail(c, err)
			return
		}
		done(c, class.Code, l.T(pick(closed, "notice.homework_closed", "notice.homework_opened")))
	}
}

// moveHomework gives an assignment a new due time (and opens it).
func (s *Server) moveHomework(c *gin.Context) {
	class, l := classFrom(c), loc(c)
	id, _ := strconv.ParseInt(c.Param("id"), 10, 64)
	due, err := time.ParseInLocation(dueLayout, strings.TrimSpace(c.PostForm("due")), time.Local)
	if err != nil {
		refuse(c, http.StatusUnprocessableEntity, l.T("homework.error.due"))
		return
	}
	if err := s.room.SetAssignment(c.Request.Context(), viewerFrom(c), id, false, due); err != nil {
		fail(c, err)
		return
	}
	done(c, class.Code, l.T("notice.homework_moved", "Due", due.Format(dueShown)))
}

// playHomework takes a student to their game of an assignment: the one
// they are playing, or a new one.
func (s *Server) playHomework(c *gin.Context) {
	class, _, ok := s.studentOf(c)
	if !ok {
		return
	}
	id, _ := strconv.ParseInt(c.Param("id"), 10, 64)
	m, err := s.room.PlayHomework(c.Request.Context(), viewerFrom(c), id, clientKey(c))
	switch {
	case errors.Is(err, classroom.ErrHomeworkClosed):
		refuse(c, http.StatusConflict, loc(c).T("error.homework_closed"))
		return
	case errors.Is(err, store.ErrNotFound):
		refuse(c, http.StatusNotFound, loc(c).T("error.nopage"))
		return
	case err != nil:
		fail(c, err)
		return
	}
	c.Redirect(http.StatusSeeOther, paths.Match(class.Code, m.ID))
}
