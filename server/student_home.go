package server

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/store"
	"pigclass/templates"
	"pigclass/templates/paths"
)

// studentHome is a student's page in a class: the match being played, or a
// note that the next round has not started with their past matches. While
// a match is played it is drawn from memory alone.
func (s *Server) studentHome(c *gin.Context) {
	ctx := c.Request.Context()
	code := classroom.NormalizeCode(c.Param("code"))
	viewer := viewerFrom(c)
	me, ok := viewer.Student()
	if !ok && validCode(code) {
		// Not a student of the class, or no such class: the join page,
		// alike; a browser whose seat moved to another device is told
		// why there (only the browser that held it knows its token).
		to := paths.JoinCode.For(code)
		if t, err := c.Cookie(playerCookie); err == nil && s.room.Moved(ctx, code, classroom.HashToken(t)) {
			to += "?moved=1"
		}
		c.Redirect(http.StatusSeeOther, to)
		return
	}
	if !ok {
		fail(c, store.ErrNotFound)
		return
	}
	class := viewer.Class()
	classLanguage(c, class, false)
	l := loc(c)
	v := templates.StudentHome{Code: class.Code, Nickname: me.Nickname, Waiting: l.T("student.waiting"),
		NextURL:    nextIn(l, class.Code, 0) + "&hw=" + strconv.FormatInt(viewer.HomeworkVersion(), 10) + "&lesson=" + url.QueryEscape(lessonAt(class.Class)),
		RejoinCode: s.room.RejoinCode(class, me)}
	if class.Anonymous {
		v.SharedName = anonIn(l, me.AnonName)
	}
	if class.Paused {
		v.Waiting = l.T("board.paused")
	} else if asks, err := s.views.phaseAsks(l, class.Class); err != nil {
		fail(c, err)
		return
	} else if asks.Words != "" {
		v.Waiting, v.Asks = asks.Words, asks
	}
	if k := viewer.Skunk(); k != nil && k.Participant(me.ID) >= 0 {
		b := s.views.skunkBoard(l, class, k, me.ID, false, paths.StudentSkunk.For(class.Code))
		v.Skunk = &b
	}
	if m := s.room.Showing(viewer); m != nil && !m.Over() {
		b := s.views.matchBoard(l, class, m, m.SeatOf(me.ID))
		v.Board = &b
	}
	if v.Board == nil {
		v.Clock = s.views.phaseClock(l, class.Class) // a board shows its own
	}
	if v.Board == nil && v.Skunk == nil {
		err := s.views.history(ctx, l, viewer, me.ID, &v)
		if err == nil {
			v.Homework, err = s.studentHomework(c, class.Code)
		}
		if err != nil {
			fail(c, err)
			return
		}
	}
	render(c, http.StatusOK, templates.StudentHomeView(v))
}

// studentNext answers a waiting page's, or a finished board's, question:
// has the student's next match, or a game of Skunk, begun? Until then 204
// (htmx leaves the page alone); then it sends the browser to the class page.
// It reads memory only, so a thousand waiting students cost next to nothing.
func (s *Server) studentNext(c *gin.Context) {
	class, me, ok := s.studentOf(c)
	if !ok {
		return
	}
	// A page shown in another language than the class's now (the teacher
	// changed it) is drawn again in it.
	if reloadIfLanguageChanged(c) {
		return
	}
	after, _ := strconv.ParseInt(c.Query("after"), 10, 64)
	// A page that lists the class's homework is drawn again once the
	// assignments changed: a new one shows within a poll, as rounds do.
	hw, listed := strconv.ParseInt(c.Query("hw"), 10, 64)
	// A waiting page is drawn again when the lesson moves on: what its
	// phase asks of the students is on it.
	at, asked := c.GetQuery("lesson")
	moved := asked && at != lessonAt(class.Class)
	next := moved || listed == nil && hw != (viewerFrom(c)).HomeworkVersion()
	game := false
	if m := (viewerFrom(c)).Playing(); m != nil && m.ID != after && !m.Over() {
		game = true
	}
	if k := (viewerFrom(c)).Skunk(); k != nil && k.Participant(me.ID) >= 0 && !k.Over {
		game = true
	}
	switch {
	case game:
	case after != 0 && moved:
		// A finished board (it names its match) keeps its result when
		// the lesson moves on: it is drawn again in its place, with what
		// the new phase asks beside it (issue 81); only the student's
		// next game takes it to the class's page.
		m, err := s.see(c.Request.Context(), viewerFrom(c), after, false)
		if err != nil {
			refuseMatch(c, after, err)
			return
		}
		c.Header("HX-Retarget", "#board")
		c.Header("HX-Reswap", "outerHTML")
		render(c, http.StatusOK, templates.BoardFragment(s.drawMatch(c, m).board))
		return
	case !next:
		c.Status(http.StatusNoContent)
		return
	}
	c.Header("HX-Redirect", paths.Student.For(class.Code))
	c.Status(http.StatusOK)
}
