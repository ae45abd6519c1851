package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"pigclass/server/paths"
	"pigclass/server/report"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"pigclass/server/charts"
	"pigclass/server/classroom"
	"pigclass/server/i18n"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/templates"
)

// studentHome is a student's page in a class: the match being played, or a
// note that the next round has not started with their past matches. While
// a match is played it is drawn from memory alone.
func (s *Server) studentHome(c *gin.Context) {
	ctx := c.Request.Context()
	code := normalizeCode(c.Param("code"))
	viewer, err := s.viewer(c)
	if err != nil {
		fail(c, err)
		return
	}
	me, ok := viewer.Student()
	if !ok && validCode(code) {
		// Not a student of the class, or no such class: the join page,
		// alike.
		c.Redirect(http.StatusSeeOther, paths.JoinCode.For(code))
		return
	}
	if !ok {
		fail(c, store.ErrNotFound)
		return
	}
	class := viewer.Class()
	classLanguage(c, class, false)
	l := loc(c)
	v := templates.StudentHome{Code: class.Code, Nickname: me.Nickname, Waiting: l.T("student.waiting"), NextURL: paths.Next(class.Code, 0),
		RejoinCode: rejoinCode(class.TeacherHash, me.TokenHash)}
	if class.Paused {
		v.Waiting = l.T("board.paused")
	}
	if k := s.room.Skunk(class.ID); k != nil && k.Participant(me.ID) >= 0 {
		b := s.skunkBoard(l, class, k, me.ID, false, paths.StudentSkunk.For(class.Code))
		v.Skunk = &b
	}
	if m := s.room.Playing(class.ID, me.ID); m != nil && !m.Over() {
		b := s.boardView(l, class, m, m.SeatOf(me.ID))
		v.Board = &b
	}
	if v.Board == nil && v.Skunk == nil {
		if err := s.history(ctx, l, viewer, me.ID, &v); err != nil {
			fail(c, err)
			return
		}
	}
	render(c, http.StatusOK, templates.StudentHomeView(v))
}

// history adds a waiting student's past matches and charts to their page.
func (s *Server) history(ctx context.Context, l *i18n.Localizer, who classroom.Viewer, studentID int64, v *templates.StudentHome) error {
	class := who.Class()
	past, err := s.reports.History(ctx, who)
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
	return nil
}

// studentCharts sets a student's play beside the class's. It is its own
// page, asked for, not part of the class page: its cost grows with the
// class, and a thousand students ending a round at once must not all pay it.
func (s *Server) studentCharts(c *gin.Context) {
	class, me, ok := s.studentOf(c)
	if !ok {
		return
	}
	cs, err := s.classCharts(c.Request.Context(), loc(c), viewerFrom(c), []string{charts.HoldPointsKey, charts.SkillLuckKey}, me.ID)
	if err != nil {
		fail(c, err)
		return
	}
	render(c, http.StatusOK, templates.StudentChartsView(templates.StudentCharts{Code: class.Code, Nickname: me.Nickname, BackURL: paths.Student.For(class.Code), Charts: cs}))
}

// historyResult says how a past match went for a student.
func historyResult(l *i18n.Localizer, m store.Match, studentID int64) string {
	if m.Status == store.Ended {
		return l.T("history.ended")
	}
	for _, s := range m.Seats {
		if s.StudentID == studentID && m.Result != nil {
			if m.Winner == s.Seat {
				return l.T("history.won", "Score", l.Int(m.Result.Scores[s.Seat]), "Other", l.Int(bestOther(m.Result.Scores, s.Seat)))
			}
			return l.T("history.lost", "Score", l.Int(m.Result.Scores[s.Seat]), "Other", l.Int(m.Result.Scores[m.Winner]))
		}
	}
	return ""
}

func bestOther(scores []int, seat int) int {
	best := 0
	for i, sc := range scores {
		if i != seat && sc > best {
			best = sc
		}
	}
	return best
}

// matchID reads the :id of a match route.
func matchID(c *gin.Context) (int64, bool) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		refuse(c, http.StatusNotFound, loc(c).T("error.nomatch"))
		return 0, false
	}
	return id, true
}

// matchView is a match as the room let the viewer see it, and its board.
type matchView struct {
	*classroom.MatchView
	board templates.Board
}

// code is the join code of the match's class, "" for practice.
func (mv *matchView) code() string {
	if mv.Class == nil {
		return ""
	}
	return mv.Class.Code
}

// viewer is who the request is from, as the room finds them: the
// browser's player token, and the teacher's secret and projector key it
// holds for the class of the address. It makes no cookie.
func (s *Server) viewer(c *gin.Context) (classroom.Viewer, error) {
	code := normalizeCode(c.Param("code"))
	cr := classroom.Credentials{Code: code}
	if t, err := c.Cookie(playerCookie); err == nil && len(t) == 64 {
		cr.TokenHash = classroom.HashToken(t)
	}
	if code != "" {
		cr.TeacherSecret, _ = c.Cookie(teacherPrefix + code)
		cr.ProjectorKey, _ = c.Cookie(projectorPrefix + code)
	}
	return s.room.Identify(c.Request.Context(), cr)
}

// seeMatch asks the room for match :id as the request's viewer may see it
// (with teacher, the class's teacher too), answering a refusal itself: a
// stranger's answer is the same for a real match as for none, and only a
// match's own player is sent from its old address to its class's.
func (s *Server) seeMatch(c *gin.Context, teacher bool) (*matchView, bool) {
	id, ok := matchID(c)
	if !ok {
		return nil, false
	}
	v, err := s.viewer(c)
	if err != nil {
		fail(c, err)
		return nil, false
	}
	mv, err := s.room.SeeMatch(c.Request.Context(), v, id, teacher)
	if err != nil {
		refuseMatch(c, id, err)
		return nil, false
	}
	return s.drawMatch(c, mv), true
}

// refuseMatch answers a match the room refused: sent on to its class's
// address for one of its players, else as if there were no such match.
func refuseMatch(c *gin.Context, id int64, err error) {
	var m *classroom.MovedError
	if errors.As(err, &m) {
		moved(c, id, paths.Match(m.Code, id))
		return
	}
	fail(c, err)
}

// drawMatch puts the page in the class's language and draws the board.
func (s *Server) drawMatch(c *gin.Context, m *classroom.MatchView) *matchView {
	classLanguage(c, m.Class, false)
	mv := &matchView{MatchView: m, board: s.boardView(loc(c), m.Class, m.Match, m.Seat)}
	if m.Class != nil && mv.board.Over {
		mv.board.NextURL = paths.Next(m.Class.Code, m.ID)
	}
	return mv
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
	after, _ := strconv.ParseInt(c.Query("after"), 10, 64)
	next := false
	if m := s.room.Playing(class.ID, me.ID); m != nil && m.ID != after && !m.Over() {
		next = true
	}
	if k := s.room.Skunk(class.ID); k != nil && k.Participant(me.ID) >= 0 && !k.Over {
		next = true
	}
	if !next {
		c.Status(http.StatusNoContent)
		return
	}
	c.Header("HX-Redirect", paths.Student.For(class.Code))
	c.Status(http.StatusOK)
}

// matchPage is the play page while the match goes on, and the review of
// the viewer's decisions once it is over.
func (s *Server) matchPage(c *gin.Context) {
	mv, ok := s.seeMatch(c, false)
	if !ok {
		return
	}
	if !mv.board.Over {
		render(c, http.StatusOK, templates.PlayView(mv.board))
		return
	}
	render(c, http.StatusOK, templates.ReviewView(s.reviewView(loc(c), mv)))
}

// board is the play area alone, for htmx polling. A poll whose ?v= is the
// version of the board now gets 204: nothing new, nothing drawn.
func (s *Server) board(c *gin.Context) {
	id, ok := matchID(c)
	if !ok {
		return
	}
	v, err := s.viewer(c)
	if err != nil {
		fail(c, err)
		return
	}
	m, err := s.room.SeeMatch(c.Request.Context(), v, id, false)
	if err != nil {
		refuseMatch(c, id, err)
		return
	}
	if ver := c.Query("v"); ver != "" && m.Live && boardVersion(m.Match, m.Class) == ver {
		c.Status(http.StatusNoContent)
		return
	}
	mv := s.drawMatch(c, m)
	if !reloadIfLanguageChanged(c) {
		render(c, http.StatusOK, templates.BoardFragment(mv.board))
	}
}

// boardVersion names what a board shows: the match's version and its
// class's (pause and names).
func boardVersion(m *classroom.Match, class *classroom.Class) string {
	if class == nil {
		return strconv.FormatInt(m.Version, 10)
	}
	return fmt.Sprintf("%d.%d", m.Version, class.Version)
}

// moved sends an old address of match id to its new place, keeping the
// method (308) and what follows the match's address (/act, /board).
func moved(c *gin.Context, id int64, to string) {
	to += strings.TrimPrefix(c.Request.URL.Path, paths.PracticeMatch.With("", id))
	if q := c.Request.URL.RawQuery; q != "" {
		to += "?" + q
	}
	c.Redirect(http.StatusPermanentRedirect, to)
	c.Abort()
}

// act takes a form post with action and seq. The room decides first who
// may act: anyone but the match's player is answered as for a match that
// does not exist, whatever the form says. A repeated or stale seq does
// nothing, so double clicks and resent forms are harmless. A move the disk
// refused is answered 503 "not saved, try again": the match is as before.
func (s *Server) act(c *gin.Context) {
	ctx, l := c.Request.Context(), loc(c)
	id, ok := matchID(c)
	if !ok {
		return
	}
	v, err := s.viewer(c)
	if err != nil {
		fail(c, err)
		return
	}
	seq, seqErr := strconv.Atoi(c.PostForm("seq"))
	a, actionErr := sim.ParseAction(c.PostForm("action"))
	status, problem := http.StatusOK, ""
	var m *classroom.MatchView
	if seqErr != nil || seq < 0 || actionErr != nil {
		// The form is wrong; it is said only to the match's player.
		if m, err = s.room.SeeMatch(ctx, v, id, false); err == nil {
			status, problem = http.StatusUnprocessableEntity, l.T("error.action", "Action", c.PostForm("action"))
			if seqErr != nil || seq < 0 {
				problem = l.T("error.seq")
			}
		}
	} else if m, err = s.room.Act(ctx, v, id, seq, a); m != nil && err != nil {
		if !errors.Is(err, classroom.ErrStale) {
			if status, problem = explain(l, err); status == http.StatusInternalServerError {
				c.Error(err)
			}
		}
		err = nil
	}
	if err != nil {
		refuseMatch(c, id, err)
		return
	}
	mv := s.drawMatch(c, m)
	if problem == "" && !isHTMX(c) {
		home := paths.Match("", id)
		if m.Class != nil {
			home = paths.Student.For(m.Class.Code) // without JavaScript, back to the class page
		}
		c.Redirect(http.StatusSeeOther, home)
		return
	}
	mv.board.Error = problem
	if isHTMX(c) {
		if status == http.StatusServiceUnavailable {
			c.Header("Retry-After", "1")
		}
		render(c, http.StatusOK, templates.BoardFragment(mv.board)) // htmx swaps 2xx only
		return
	}
	render(c, status, templates.PlayView(mv.board))
}

// record serves a finished match's record (with its seed) for verify, to
// the match's players and its class's teacher (who may share the file),
// once no other match plays with its dice.
func (s *Server) record(c *gin.Context) {
	id, ok := matchID(c)
	if !ok {
		return
	}
	v, err := s.viewer(c)
	if err != nil {
		fail(c, err)
		return
	}
	rec, m, err := s.room.Record(c.Request.Context(), v, id)
	if m == nil {
		refuseMatch(c, id, err)
		return
	}
	classLanguage(c, m.Class, false)
	if err != nil {
		fail(c, err)
		return
	}
	c.Header("Content-Disposition", fmt.Sprintf(`attachment; filename="match-%d.json"`, id))
	b, _ := json.MarshalIndent(rec, "", "  ")
	c.Data(http.StatusOK, "application/json", b)
}

// reviewView lists the viewer's decisions beside hold-at-20 and optimal.
func (s *Server) reviewView(l *i18n.Localizer, mv *matchView) templates.Review {
	code := mv.code()
	v := templates.Review{
		Title: gameTitle(l, mv.Variant), Result: mv.board.Result, Commitment: mv.Seed.Commitment(),
		RecordURL: paths.Record(code, mv.ID), VerifyURL: paths.VerifyMatch(code, mv.ID), BackURL: "/",
		Approximate: mv.Variant.Seats > 2, NextURL: mv.board.NextURL,
	}
	if mv.SharingDice > 0 {
		v.SeedLater = l.N("review.seedlater", mv.SharingDice)
	} else {
		v.Seed = mv.Seed.String()
	}
	if code != "" {
		v.BackURL = paths.Student.For(code)
	}
	total := 0.0
	for _, e := range mv.Events {
		if e.Seat != mv.Seat || e.Action.Kind == sim.ResignKind {
			continue
		}
		r := templates.ReviewRow{N: len(v.Rows) + 1, Turn: e.Turn, Score: e.Score, Opponent: e.OpponentScore, TurnTotal: e.TurnTotal, Action: charts.ActionWord(l, e.Action.String()), Faces: e.Faces.String()}
		if a := e.Analysis; a != nil {
			v.Analysed = true
			best := a.Options[a.Best]
			r.EV, r.Best, r.Before, r.After, r.Cost = charts.ActionWord(l, a.EV), charts.ActionWord(l, a.Best), percent(l, best), percent(l, a.WinIfChosen), l.Dec(100*a.Cost, 2)
			r.AgreesOptimal, r.AgreesEV = report.ChosenAction(e) == a.Best, report.ChosenAction(e) == a.EV
			total += a.Cost
		}
		v.Rows = append(v.Rows, r)
	}
	v.TotalCost = l.Points(total)
	v.Timeline = timeline(l, mv)
	return v
}
