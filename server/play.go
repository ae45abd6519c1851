package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

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
	class, err := s.studentClass(c, code)
	if errors.Is(err, store.ErrNotFound) && validCode(code) {
		// An unknown code answers as a class one has not joined: the
		// answer tells a guesser nothing.
		c.Redirect(http.StatusSeeOther, joinURL(code))
		return
	}
	if err != nil {
		fail(c, err)
		return
	}
	me, ok := class.Student(hashToken(playerToken(c)))
	if !ok {
		c.Redirect(http.StatusSeeOther, joinURL(class.Code))
		return
	}
	l := loc(c)
	v := templates.StudentHome{Code: class.Code, Nickname: me.Nickname, Waiting: l.T("student.waiting"), NextURL: nextURL(class.Code, 0),
		RejoinCode: rejoinCode(class.TeacherHash, me.TokenHash)}
	if class.Paused {
		v.Waiting = l.T("board.paused")
	}
	if k := s.room.Skunk(class.ID); k != nil && k.Participant(me.ID) >= 0 {
		b := s.skunkBoard(l, class, k, me.ID, false, classURL(class.Code)+"/skunk")
		v.Skunk = &b
	}
	if m := s.room.Playing(class.ID, me.ID); m != nil && !m.Over() {
		b := s.boardView(l, class, m, m.SeatOf(me.ID))
		v.Board = &b
	}
	if v.Board == nil && v.Skunk == nil {
		if err := s.history(ctx, l, class, me.ID, &v); err != nil {
			fail(c, err)
			return
		}
	}
	render(c, http.StatusOK, templates.StudentHomeView(v))
}

// history adds a waiting student's past matches and charts to their page.
func (s *Server) history(ctx context.Context, l *i18n.Localizer, class *classroom.Class, studentID int64, v *templates.StudentHome) error {
	past, err := s.store.Matches(ctx, store.MatchFilter{ClassID: class.ID, StudentID: studentID})
	if err != nil {
		return err
	}
	for i := len(past) - 1; i >= 0; i-- {
		m := past[i]
		if m.Status == store.Playing {
			continue
		}
		v.History = append(v.History, templates.HistoryRow{URL: matchURL(class.Code, m.ID), Title: l.T("round.title", "N", l.Int(m.RoundIndex), "Game", gameTitle(l, m.Variant)), Result: historyResult(l, m, studentID)})
	}
	if len(v.History) > 0 {
		v.ChartsURL = classURL(class.Code) + "/charts"
	}
	return nil
}

// studentCharts sets a student's play beside the class's. It is its own
// page, asked for, not part of the class page: its cost grows with the
// class, and a thousand students ending a round at once must not all pay it.
func (s *Server) studentCharts(c *gin.Context) {
	class, me, ok := s.classStudent(c)
	if !ok {
		return
	}
	cs, err := s.classCharts(c.Request.Context(), loc(c), class.Class, []string{charts.HoldPointsKey, charts.SkillLuckKey}, me.ID)
	if err != nil {
		fail(c, err)
		return
	}
	render(c, http.StatusOK, templates.StudentChartsView(templates.StudentCharts{Code: class.Code, Nickname: me.Nickname, BackURL: classURL(class.Code), Charts: cs}))
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

// matchView is a match as a viewer sees it, live or finished.
type matchView struct {
	snap   *classroom.Match // the match with its log
	live   bool             // from memory (still in the room)
	viewer int
	class  *classroom.Class // nil for practice
	board  templates.Board
}

// code is the join code of the match's class, "" for practice.
func (mv *matchView) code() string {
	if mv.class == nil {
		return ""
	}
	return mv.class.Code
}

// loadMatch builds the view of match id for the browser's player: from the
// room while it is there, else from the disk. code is the class code of the
// URL ("" for the practice URL /m/{id}).
func (s *Server) loadMatch(ctx context.Context, c *gin.Context, code string, id int64) (*matchView, error) {
	h := hashToken(playerToken(c))
	mv := &matchView{snap: s.room.Match(id)}
	if mv.snap != nil {
		mv.live = true
	} else {
		row, err := s.store.MatchByID(ctx, id)
		if err != nil {
			return nil, err
		}
		rows, err := s.store.Events(ctx, store.EventFilter{MatchID: id})
		if err != nil {
			return nil, err
		}
		m, err := sim.Replay(row.Variant, row.Seed, store.SimEvents(rows))
		if err != nil {
			return nil, fmt.Errorf("server: match %d: %w", id, err)
		}
		mv.snap = &classroom.Match{Match: row, State: m.State(), Events: rows, Last: s.cfg.Now()}
	}
	if mv.snap.ClassID != 0 {
		class, err := s.room.ClassByID(ctx, mv.snap.ClassID)
		if err != nil {
			return nil, err
		}
		mv.class = class
	}
	if code != mv.code() && code != "" {
		return nil, store.ErrNotFound // a match of another class: as if none
	}
	mv.viewer = mv.snap.SeatOfToken(h)
	classLanguage(c, mv.class, false)
	mv.board = s.boardView(loc(c), mv.class, mv.snap, mv.viewer)
	if mv.class != nil && mv.board.Over {
		mv.board.NextURL = nextURL(mv.class.Code, id)
	}
	return mv, nil
}

// studentNext answers a waiting page's, or a finished board's, question:
// has the student's next match, or a game of Skunk, begun? Until then 204
// (htmx leaves the page alone); then it sends the browser to the class page.
// It reads memory only, so a thousand waiting students cost next to nothing.
func (s *Server) studentNext(c *gin.Context) {
	class, me, ok := s.classStudent(c)
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
	c.Header("HX-Redirect", classURL(class.Code))
	c.Status(http.StatusOK)
}

// matchPage is the play page while the match goes on, and the review of
// the viewer's decisions once it is over.
func (s *Server) matchPage(c *gin.Context) {
	mv, ok := s.seatedMatch(c)
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
	if v := c.Query("v"); v != "" {
		if m := s.room.Match(id); m != nil {
			if class, ok := s.classOfMatch(c, m); ok && boardVersion(m, class) == v && m.SeatOfToken(hashToken(playerToken(c))) >= 0 {
				c.Status(http.StatusNoContent)
				return
			}
		}
	}
	if mv, ok := s.seatedMatch(c); ok && !reloadIfLanguageChanged(c) {
		render(c, http.StatusOK, templates.BoardFragment(mv.board))
	}
}

// classOfMatch returns the class of a live match from memory (nil for
// practice).
func (s *Server) classOfMatch(c *gin.Context, m *classroom.Match) (*classroom.Class, bool) {
	if m.ClassID == 0 {
		return nil, true
	}
	class, err := s.room.ClassByID(c.Request.Context(), m.ClassID)
	return class, err == nil
}

// boardVersion names what a board shows: the match's version and its
// class's (pause and names).
func boardVersion(m *classroom.Match, class *classroom.Class) string {
	if class == nil {
		return strconv.FormatInt(m.Version, 10)
	}
	return fmt.Sprintf("%d.%d", m.Version, class.Version)
}

// seatedMatch loads match :id for the browser's player and refuses anyone
// not seated in it. The old address of a class match, /m/{id}, moves to
// /c/{code}/m/{id}.
func (s *Server) seatedMatch(c *gin.Context) (*matchView, bool) {
	id, ok := matchID(c)
	if !ok {
		return nil, false
	}
	code := normalizeCode(c.Param("code"))
	mv, err := s.loadMatch(c.Request.Context(), c, code, id)
	if errors.Is(err, store.ErrNotFound) && code != "" {
		err = errNotSeated // no such class, match, or match of the class: answered alike
	}
	if err != nil {
		fail(c, err)
		return nil, false
	}
	if mv.viewer < 0 {
		fail(c, errNotSeated)
		return nil, false
	}
	if code == "" && mv.class != nil {
		moved(c, matchURL(mv.class.Code, id))
		return nil, false
	}
	return mv, true
}

// moved sends an old address to its new place, keeping the method (308).
func moved(c *gin.Context, to string) {
	rest := c.Request.URL.Path
	if i := len("/m/") + len(c.Param("id")); i <= len(rest) {
		to += rest[i:]
	}
	if q := c.Request.URL.RawQuery; q != "" {
		to += "?" + q
	}
	c.Redirect(http.StatusPermanentRedirect, to)
	c.Abort()
}

// act takes a form post with action and seq. A repeated or stale seq does
// nothing, so double clicks and resent forms are harmless. A move the disk
// refused is answered 503 "not saved, try again": the match is as before.
func (s *Server) act(c *gin.Context) {
	ctx := c.Request.Context()
	id, ok := matchID(c)
	if !ok {
		return
	}
	code := normalizeCode(c.Param("code"))
	problem, home := "", matchURL(code, id)
	seq, err := strconv.Atoi(c.PostForm("seq"))
	if err != nil || seq < 0 {
		problem = loc(c).T("error.seq")
	}
	a, err := sim.ParseAction(c.PostForm("action"))
	if err != nil && problem == "" {
		problem = loc(c).T("error.action", "Action", c.PostForm("action"))
	}
	status := http.StatusOK
	if problem == "" {
		m := s.room.Match(id)
		if m != nil && m.ClassID != 0 {
			class, ok := s.classOfMatch(c, m)
			if !ok || class.Code != code {
				if code == "" && ok {
					moved(c, matchURL(class.Code, id))
					return
				}
				fail(c, errNotSeated)
				return
			}
			home = classURL(class.Code) // without JavaScript, back to the class page
		}
		var studentID int64
		if m != nil {
			if seat := m.SeatOfToken(hashToken(playerToken(c))); seat >= 0 {
				studentID = m.Seats[seat].StudentID
			}
		}
		switch _, err := s.room.Act(ctx, id, studentID, seq, a); {
		case err == nil, errors.Is(err, classroom.ErrStale):
		default:
			status, problem = explain(loc(c), err)
			if status == http.StatusInternalServerError {
				c.Error(err)
			}
		}
	} else {
		status = http.StatusUnprocessableEntity
	}
	if problem == "" && !isHTMX(c) {
		c.Redirect(http.StatusSeeOther, home)
		return
	}
	if status == http.StatusForbidden || status == http.StatusNotFound {
		refuse(c, status, problem) // not this player's match: show nothing of it
		return
	}
	mv, err := s.loadMatch(ctx, c, code, id)
	if err != nil {
		fail(c, err)
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
// the match's players and its class's teacher (who may share the file).
func (s *Server) record(c *gin.Context) {
	mv, ok := s.playerOrTeacher(c)
	if !ok {
		return
	}
	if !mv.snap.Over() {
		refuse(c, http.StatusConflict, loc(c).T("error.seedlater"))
		return
	}
	rec, err := matchRecord(mv.snap)
	if err != nil {
		fail(c, err)
		return
	}
	c.Header("Content-Disposition", fmt.Sprintf(`attachment; filename="match-%d.json"`, mv.snap.ID))
	b, _ := json.MarshalIndent(rec, "", "  ")
	c.Data(http.StatusOK, "application/json", b)
}

// playerOrTeacher loads match :id for one of its players or its class's
// teacher, refusing anyone else as it refuses a match that does not
// exist; old addresses of class matches move.
func (s *Server) playerOrTeacher(c *gin.Context) (*matchView, bool) {
	id, ok := matchID(c)
	if !ok {
		return nil, false
	}
	code := normalizeCode(c.Param("code"))
	mv, err := s.loadMatch(c.Request.Context(), c, code, id)
	if err == nil && !mv.mayRead(c) {
		err = errNotSeated
	}
	if errors.Is(err, store.ErrNotFound) {
		err = errNotSeated
	}
	if err != nil {
		fail(c, err)
		return nil, false
	}
	if code == "" && mv.class != nil {
		moved(c, matchURL(mv.class.Code, id))
		return nil, false
	}
	return mv, true
}

// mayRead reports whether the browser is one of the match's players or
// its class's teacher.
func (mv *matchView) mayRead(c *gin.Context) bool {
	if mv.viewer >= 0 {
		return true
	}
	if mv.class == nil {
		return false
	}
	secret, _ := c.Cookie(teacherPrefix + mv.class.Code)
	return sameHash(secret, mv.class.TeacherHash)
}

// matchRecord is the record of a match: variant, seed, events, result.
func matchRecord(m *classroom.Match) (sim.Record, error) {
	replayed, err := sim.Replay(m.Variant, m.Seed, store.SimEvents(m.Events))
	if err != nil {
		return sim.Record{}, fmt.Errorf("server: match %d: %w", m.ID, err)
	}
	return replayed.Record(), nil
}

// reviewView lists the viewer's decisions beside hold-at-20 and optimal.
func (s *Server) reviewView(l *i18n.Localizer, mv *matchView) templates.Review {
	code := mv.code()
	v := templates.Review{
		Title: gameTitle(l, mv.snap.Variant), Result: mv.board.Result, Seed: mv.snap.Seed.String(), Commitment: mv.snap.Seed.Commitment(),
		RecordURL: recordURL(code, mv.snap.ID), VerifyURL: verifyURL(code, mv.snap.ID), BackURL: "/",
		Approximate: mv.snap.Variant.Seats > 2, NextURL: mv.board.NextURL,
	}
	if code != "" {
		v.BackURL = classURL(code)
	}
	total := 0.0
	for _, e := range mv.snap.Events {
		if e.Seat != mv.viewer || e.Action.Kind == sim.ResignKind {
			continue
		}
		r := templates.ReviewRow{N: len(v.Rows) + 1, Turn: e.Turn, Score: e.Score, Opponent: e.OpponentScore, TurnTotal: e.TurnTotal, Action: charts.ActionWord(l, e.Action.String()), Faces: e.Faces.String()}
		if a := e.Analysis; a != nil {
			v.Analysed = true
			best := a.Options[a.Best]
			r.EV, r.Best, r.Before, r.After, r.Cost = charts.ActionWord(l, a.EV), charts.ActionWord(l, a.Best), percent(l, best), percent(l, a.WinIfChosen), l.Dec(100*a.Cost, 2)
			r.AgreesOptimal, r.AgreesEV = chosenAction(e) == a.Best, chosenAction(e) == a.EV
			total += a.Cost
		}
		v.Rows = append(v.Rows, r)
	}
	v.TotalCost = l.Points(total)
	v.Timeline = timeline(l, mv)
	return v
}

// chosenAction is the option a decision took (a timeout holds).
func chosenAction(e store.Event) string {
	if e.Action.Kind == sim.TimeoutKind {
		return "hold"
	}
	return e.Action.String()
}
