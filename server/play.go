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
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/templates"
)

// studentHome is a student's page in a class: the match being played, or a
// note that the next round has not started, and their past matches.
func (s *Server) studentHome(c *gin.Context) {
	ctx := c.Request.Context()
	code := normalizeCode(c.Param("code"))
	class, err := s.store.ClassByCode(ctx, code)
	if err != nil {
		fail(c, err)
		return
	}
	me, err := s.store.StudentByToken(ctx, class.ID, hashToken(playerToken(c)))
	if errors.Is(err, store.ErrNotFound) {
		c.Redirect(http.StatusSeeOther, "/join/"+class.Code)
		return
	} else if err != nil {
		fail(c, err)
		return
	}
	v := templates.StudentHome{Code: class.Code, Nickname: me.Nickname, Waiting: "Waiting for the teacher to start a round…"}
	if class.Paused {
		v.Waiting = "The teacher has paused play."
	}
	if b, ok := s.skunkBoard(class, me.ID, false); ok && b.You != nil {
		v.Skunk = &b
	}
	for _, lm := range s.liveWhere(func(lm *liveMatch) bool { return lm.row.ClassID == class.ID }) {
		lm.mu.Lock()
		if seat := lm.seatOf(me.ID); seat >= 0 && !lm.ended {
			b := s.boardView(lm.row, lm.m, lm.rows, lm.last, seat, class.Anonymous, class.Paused)
			v.Board = &b
		}
		lm.mu.Unlock()
	}
	past, err := s.store.Matches(ctx, store.MatchFilter{ClassID: class.ID, StudentID: me.ID})
	if err != nil {
		fail(c, err)
		return
	}
	for i := len(past) - 1; i >= 0; i-- {
		m := past[i]
		if m.Status == store.Playing {
			continue
		}
		v.History = append(v.History, templates.HistoryRow{URL: fmt.Sprintf("/m/%d", m.ID), Title: fmt.Sprintf("Round %d: %s", m.RoundIndex, gameTitle(m.Variant)), Result: historyResult(m, me.ID)})
	}
	if len(v.History) > 0 {
		if v.Charts, err = s.classCharts(ctx, class, []string{charts.HoldPointsKey, charts.SkillLuckKey}, me.ID); err != nil {
			fail(c, err)
			return
		}
	}
	render(c, http.StatusOK, templates.StudentHomeView(v))
}

// historyResult says how a past match went for a student.
func historyResult(m store.Match, studentID int64) string {
	if m.Status == store.Ended {
		return "ended by the teacher"
	}
	for _, s := range m.Seats {
		if s.StudentID == studentID && m.Result != nil {
			if m.Winner == s.Seat {
				return fmt.Sprintf("won, %d to %d", m.Result.Scores[s.Seat], bestOther(m.Result.Scores, s.Seat))
			}
			return fmt.Sprintf("lost, %d to %d", m.Result.Scores[s.Seat], m.Result.Scores[m.Winner])
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
		refuse(c, http.StatusNotFound, "There is no such match.")
		return 0, false
	}
	return id, true
}

// matchView is a match as a viewer sees it, live or finished.
type matchView struct {
	row    store.Match
	m      *sim.Match
	rows   []store.Event
	viewer int
	class  store.Class
	board  templates.Board
}

// loadMatch builds the view of match id for the browser's player.
func (s *Server) loadMatch(ctx context.Context, c *gin.Context, id int64) (*matchView, error) {
	h := hashToken(playerToken(c))
	var mv matchView
	if lm := s.liveByID(id); lm != nil {
		lm.mu.Lock()
		mv = matchView{row: lm.row, m: lm.m, rows: append([]store.Event(nil), lm.rows...), viewer: viewerSeat(lm.row, h)}
		last := lm.last
		lm.mu.Unlock()
		if err := s.classOf(ctx, &mv); err != nil {
			return nil, err
		}
		mv.board = s.boardView(mv.row, mv.m, mv.rows, last, mv.viewer, mv.class.Anonymous, mv.class.Paused)
		return &mv, nil
	}
	row, err := s.store.MatchByID(ctx, id)
	if err != nil {
		return nil, err
	}
	rows, err := s.store.Events(ctx, store.EventFilter{MatchID: id})
	if err != nil {
		return nil, err
	}
	m, err := replayStored(row, rows)
	if err != nil {
		return nil, err
	}
	mv = matchView{row: row, m: m, rows: rows, viewer: viewerSeat(row, h)}
	if err := s.classOf(ctx, &mv); err != nil {
		return nil, err
	}
	mv.board = s.boardView(row, m, rows, s.cfg.Now(), mv.viewer, mv.class.Anonymous, false)
	if mv.class.Code != "" {
		mv.board.NextURL = fmt.Sprintf("/c/%s/next?after=%d", mv.class.Code, id)
	}
	return &mv, nil
}

// studentNext answers a waiting page's, or a finished board's, question:
// has the student's next match, or a game of Skunk, begun? Until then 204
// (htmx leaves the page alone); then it sends the browser to the class page.
// It reads memory only, so thirty waiting students cost next to nothing.
func (s *Server) studentNext(c *gin.Context) {
	class, me, ok := s.classStudent(c)
	if !ok {
		return
	}
	after, _ := strconv.ParseInt(c.Query("after"), 10, 64)
	next := len(s.liveWhere(func(lm *liveMatch) bool {
		return lm.row.ClassID == class.ID && lm.row.ID != after && lm.seatOf(me.ID) >= 0
	})) > 0
	if b, ok := s.skunkBoard(class, me.ID, false); ok && b.You != nil && !b.Over {
		next = true
	}
	if !next {
		c.Status(http.StatusNoContent)
		return
	}
	c.Header("HX-Redirect", "/c/"+class.Code)
	c.Status(http.StatusOK)
}

func (s *Server) classOf(ctx context.Context, mv *matchView) error {
	if mv.row.ClassID == 0 {
		return nil
	}
	class, err := s.store.ClassByID(ctx, mv.row.ClassID)
	mv.class = class
	return err
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
	render(c, http.StatusOK, templates.ReviewView(s.reviewView(mv)))
}

// board is the play area alone, for htmx polling.
func (s *Server) board(c *gin.Context) {
	if mv, ok := s.seatedMatch(c); ok {
		render(c, http.StatusOK, templates.BoardView(mv.board))
	}
}

// seatedMatch loads match :id for the browser's player and refuses anyone
// not seated in it.
func (s *Server) seatedMatch(c *gin.Context) (*matchView, bool) {
	id, ok := matchID(c)
	if !ok {
		return nil, false
	}
	mv, err := s.loadMatch(c.Request.Context(), c, id)
	if err != nil {
		fail(c, err)
		return nil, false
	}
	if mv.viewer < 0 {
		fail(c, errNotSeated)
		return nil, false
	}
	return mv, true
}

// act takes a form post with action and seq. A repeated or stale seq does
// nothing, so double clicks and resent forms are harmless.
func (s *Server) act(c *gin.Context) {
	ctx := c.Request.Context()
	id, ok := matchID(c)
	if !ok {
		return
	}
	problem, home := "", fmt.Sprintf("/m/%d", id)
	seq, err := strconv.Atoi(c.PostForm("seq"))
	if err != nil || seq < 0 {
		problem = "seq: the form must carry the number of moves it answers; reload the page."
	}
	a, err := sim.ParseAction(c.PostForm("action"))
	if err != nil && problem == "" {
		problem = "action: " + err.Error() + "."
	}
	status := http.StatusOK
	if problem == "" {
		h := hashToken(playerToken(c))
		var studentID int64
		var classID int64
		if lm := s.liveByID(id); lm != nil {
			lm.mu.Lock()
			if seat := viewerSeat(lm.row, h); seat >= 0 {
				studentID = lm.row.Seats[seat].StudentID
			}
			classID = lm.row.ClassID
			lm.mu.Unlock()
		}
		if class, err := s.store.ClassByID(ctx, classID); classID != 0 && err == nil {
			home = "/c/" + class.Code // without JavaScript, back to the class page
		}
		switch err := s.Act(ctx, id, studentID, seq, a); {
		case err == nil, errors.Is(err, errStale):
		default:
			status, problem = explain(err)
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
	if status == http.StatusForbidden {
		refuse(c, status, problem) // not this player's match: show nothing of it
		return
	}
	mv, err := s.loadMatch(ctx, c, id)
	if err != nil {
		fail(c, err)
		return
	}
	mv.board.Error = problem
	if isHTMX(c) {
		render(c, http.StatusOK, templates.BoardView(mv.board)) // htmx swaps 2xx only
		return
	}
	render(c, status, templates.PlayView(mv.board))
}

// record serves a finished match's record (with its seed) for verify.
func (s *Server) record(c *gin.Context) {
	ctx := c.Request.Context()
	id, ok := matchID(c)
	if !ok {
		return
	}
	if s.liveByID(id) != nil {
		refuse(c, http.StatusConflict, "The seed is published when the match ends.")
		return
	}
	mv, err := s.loadMatch(ctx, c, id)
	if err != nil {
		fail(c, err)
		return
	}
	rec := mv.m.Record()
	c.Header("Content-Disposition", fmt.Sprintf(`attachment; filename="match-%d.json"`, id))
	b, _ := json.MarshalIndent(rec, "", "  ")
	c.Data(http.StatusOK, "application/json", b)
}

// reviewView lists the viewer's decisions beside hold-at-20 and optimal.
func (s *Server) reviewView(mv *matchView) templates.Review {
	v := templates.Review{
		Title: gameTitle(mv.row.Variant), Result: mv.board.Result, Seed: mv.row.Seed.String(), Commitment: mv.row.Seed.Commitment(),
		RecordURL: fmt.Sprintf("/m/%d/record.json", mv.row.ID), VerifyURL: fmt.Sprintf("/verify?match=%d", mv.row.ID), BackURL: "/",
	}
	if mv.class.Code != "" {
		v.BackURL = "/c/" + mv.class.Code
	}
	total := 0.0
	for _, e := range mv.rows {
		if e.Seat != mv.viewer || e.Action == "resign" {
			continue
		}
		r := templates.ReviewRow{N: len(v.Rows) + 1, Turn: e.Turn, Score: e.Score, Opponent: e.OpponentScore, TurnTotal: e.TurnTotal, Action: e.Action, Faces: e.Faces}
		if a := e.Analysis; a != nil {
			v.Analysed = true
			best := a.Options[a.Best]
			r.EV, r.Best, r.Before, r.After, r.Cost = a.EV, a.Best, percent(best), percent(a.WinIfChosen), fmt.Sprintf("%.2f", 100*a.Cost)
			r.AgreesOptimal, r.AgreesEV = chosenAction(e) == a.Best, chosenAction(e) == a.EV
			total += a.Cost
		}
		v.Rows = append(v.Rows, r)
	}
	v.TotalCost = fmt.Sprintf("%.2f percentage points", 100*total)
	v.Timeline = timeline(mv)
	return v
}

// chosenAction is the option a decision took (a timeout holds).
func chosenAction(e store.Event) string {
	if e.Action == "timeout" {
		return "hold"
	}
	return e.Action
}
