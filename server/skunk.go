package server

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"

	"github.com/gin-gonic/gin"

	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
)

// liveSkunk is a class's game of Skunk in memory; its log on disk is the
// truth, as for matches.
type liveSkunk struct {
	mu   sync.Mutex
	game store.SkunkGame
	g    *sim.Skunk
	rows []store.SkunkEvent
}

// skunkEV is expected-value play for Skunk: the Two-Dice Pig rule, stand
// while one more roll adds more on average than it risks.
var skunkEV = solve.NewEVPlay(sim.Standard(sim.TwoDice))

func evStand(score, roundTotal int) string {
	if skunkEV.Decide(sim.Position{Variant: sim.Standard(sim.TwoDice), Score: score, TurnTotal: roundTotal}) == sim.Roll {
		return "stand"
	}
	return "sit"
}

// startSkunk ends the class's current Skunk game, if any, and starts one
// with every student.
func (s *Server) startSkunk(ctx context.Context, class store.Class, rounds int) error {
	if err := s.store.EndSkunk(ctx, class.ID); err != nil {
		return err
	}
	s.mu.Lock()
	delete(s.skunks, class.ID)
	s.mu.Unlock()
	students, err := s.store.Students(ctx, class.ID)
	if err != nil {
		return err
	}
	if len(students) == 0 {
		return errNoStudents
	}
	ids := make([]int64, len(students))
	for i, st := range students {
		ids[i] = st.ID
	}
	seed := sim.NewSeed()
	id, err := s.store.CreateSkunk(ctx, class.ID, seed, rounds, ids)
	if err != nil {
		return err
	}
	games, err := s.store.SkunkGames(ctx, class.ID, store.Playing)
	if err != nil {
		return err
	}
	for _, g := range games {
		if g.ID == id {
			return s.liveSkunkFrom(g, nil)
		}
	}
	return fmt.Errorf("server: skunk game %d vanished", id)
}

// replaySkunk rebuilds the engine from the stored log: its rolls and sits
// (stand rows are decisions, not moves of the game).
func replaySkunk(game store.SkunkGame, rows []store.SkunkEvent) (*sim.Skunk, error) {
	var evs []sim.SkunkEvent
	for _, r := range rows {
		switch r.Action {
		case "roll":
			evs = append(evs, sim.SkunkEvent{Action: sim.Roll})
		case "sit":
			evs = append(evs, sim.SkunkEvent{Action: sim.Hold, Participant: r.Participant})
		}
	}
	return sim.ReplaySkunk(game.Seed, len(game.Students), game.Rounds, evs)
}

// liveSkunkFrom registers a game, replaying its log.
func (s *Server) liveSkunkFrom(game store.SkunkGame, rows []store.SkunkEvent) error {
	g, err := replaySkunk(game, rows)
	if err != nil {
		return fmt.Errorf("server: skunk game %d: %w", game.ID, err)
	}
	s.mu.Lock()
	s.skunks[game.ClassID] = &liveSkunk{game: game, g: g, rows: rows}
	s.mu.Unlock()
	return nil
}

// restoreSkunk rebuilds the Skunk games still playing.
func (s *Server) restoreSkunk(ctx context.Context) error {
	games, err := s.store.SkunkGames(ctx, 0, store.Playing)
	if err != nil {
		return err
	}
	for _, g := range games {
		rows, err := s.store.SkunkEvents(ctx, g.ID)
		if err != nil {
			return err
		}
		if err := s.liveSkunkFrom(g, rows); err != nil {
			return err
		}
	}
	return nil
}

func (s *Server) skunkOf(classID int64) *liveSkunk {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.skunks[classID]
}

// skunkRoll throws the shared dice. Every participant still standing has
// decided to stand for this roll: each such decision is recorded with its
// state and the expected-value choice, with the roll, in one transaction.
func (s *Server) skunkRoll(c *gin.Context) {
	ctx := c.Request.Context()
	class := classFrom(c)
	ls := s.skunkOf(class.ID)
	if ls == nil {
		refuse(c, http.StatusConflict, "No game of Skunk is being played: start it from a lesson's Skunk phase.")
		return
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.g.Over() {
		refuse(c, http.StatusConflict, "This game of Skunk is over.")
		return
	}
	round, roll, total := ls.g.Round(), ls.g.Rolls(), ls.g.RoundTotal()
	var rows []store.SkunkEvent
	seq := len(ls.rows)
	now := s.cfg.Now()
	for p := range ls.g.Participants() {
		if ls.g.Standing(p) {
			seq++
			score := ls.g.Score(p)
			rows = append(rows, store.SkunkEvent{GameID: ls.game.ID, Seq: seq, Action: "stand", Participant: p, Round: round, Roll: roll,
				RoundTotal: total, Score: score, EV: evStand(score, total), At: now})
		}
	}
	e, err := ls.g.Roll()
	if err != nil {
		fail(c, err)
		return
	}
	for i := range rows {
		rows[i].Faces = e.Faces.String()
	}
	seq++
	rows = append(rows, store.SkunkEvent{GameID: ls.game.ID, Seq: seq, Action: "roll", Participant: -1, Round: round, Roll: roll, Faces: e.Faces.String(), RoundTotal: total, At: now})
	if err := s.store.AppendSkunk(ctx, ls.game.ID, rows, ls.g.Over()); err != nil {
		s.rebuildSkunk(ls)
		fail(c, err)
		return
	}
	ls.rows = append(ls.rows, rows...)
	c.Redirect(http.StatusSeeOther, "/t/"+class.Code)
}

// rebuildSkunk puts a game back as its stored log says.
func (s *Server) rebuildSkunk(ls *liveSkunk) {
	g, err := replaySkunk(ls.game, ls.rows)
	if err != nil {
		s.log.Error("skunk rollback", "game", ls.game.ID, "err", err)
		return
	}
	ls.g = g
}

// skunkSit sits a student down. The form carries the moment (round and
// roll) the student's page showed: a sit sent before a roll or a new round
// that has happened since is stale and does nothing, and sitting twice
// changes nothing.
func (s *Server) skunkSit(c *gin.Context) {
	ctx := c.Request.Context()
	class, me, ok := s.classStudent(c)
	if !ok {
		return
	}
	ls := s.skunkOf(class.ID)
	if ls == nil {
		refuse(c, http.StatusConflict, "No game of Skunk is being played.")
		return
	}
	moment := c.PostForm("moment")
	if moment == "" {
		refuse(c, http.StatusUnprocessableEntity, "moment: the form must carry the moment of the game it answers; reload the page.")
		return
	}
	ls.mu.Lock()
	p := -1
	for i, id := range ls.game.Students {
		if id == me.ID {
			p = i
		}
	}
	var failed error
	if p >= 0 && moment == skunkMoment(ls.g) && !ls.g.Over() && ls.g.Standing(p) {
		round, roll, total, score := ls.g.Round(), ls.g.Rolls(), ls.g.RoundTotal(), ls.g.Score(p)
		if _, err := ls.g.Sit(p); err == nil {
			row := store.SkunkEvent{GameID: ls.game.ID, Seq: len(ls.rows) + 1, Action: "sit", Participant: p, Round: round, Roll: roll,
				RoundTotal: total, Score: score, EV: evStand(score, total), At: s.cfg.Now()}
			if err := s.store.AppendSkunk(ctx, ls.game.ID, []store.SkunkEvent{row}, ls.g.Over()); err != nil {
				s.rebuildSkunk(ls)
				failed = err
			} else {
				ls.rows = append(ls.rows, row)
			}
		}
	}
	ls.mu.Unlock()
	if failed != nil {
		fail(c, failed)
		return
	}
	if !isHTMX(c) {
		c.Redirect(http.StatusSeeOther, "/c/"+class.Code)
		return
	}
	b, ok := s.skunkBoard(class, me.ID, false)
	if !ok {
		refuse(c, http.StatusConflict, "No game of Skunk is being played.")
		return
	}
	render(c, http.StatusOK, templates.SkunkView(b, "/c/"+class.Code+"/skunk"))
}

// skunkMoment names the point of the game a sit answers: the round and the
// roll in it.
func skunkMoment(g *sim.Skunk) string { return fmt.Sprintf("%d.%d", g.Round(), g.Rolls()) }

func countRolls(rows []store.SkunkEvent) int {
	n := 0
	for _, r := range rows {
		if r.Action == "roll" {
			n++
		}
	}
	return n
}

// skunkBoard is the board for a viewer: studentID for a student's own
// view, teacher for the roll button; shared screens get generated names in
// anonymous mode.
func (s *Server) skunkBoard(class store.Class, studentID int64, teacher bool) (templates.SkunkBoard, bool) {
	ls := s.skunkOf(class.ID)
	if ls == nil {
		return templates.SkunkBoard{}, false
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	g := ls.g
	names := ls.game.Names
	if class.Anonymous && !teacher {
		names = ls.game.Anon
	}
	v := templates.SkunkBoard{Code: class.Code, Round: min(g.Round()+1, g.Rounds()), Rounds: g.Rounds(), RoundTotal: g.RoundTotal(),
		Over: g.Over(), Rolls: countRolls(ls.rows), Moment: skunkMoment(g), Teacher: teacher}
	letters := strings.Repeat(sim.SkunkLetters, (g.Rounds()+4)/5)
	for r := range g.Rounds() {
		v.Letters = append(v.Letters, templates.SkunkLetter{Char: letters[r : r+1], Done: r < g.Round()})
	}
	for i := len(ls.rows) - 1; i >= 0; i-- {
		if r := ls.rows[i]; r.Action == "roll" {
			f := strings.Fields(r.Faces)
			for _, x := range f {
				v.LastFaces = append(v.LastFaces, int(x[0]-'0'))
			}
			v.Announce = skunkAnnounce(r.Faces)
			break
		}
	}
	for p := range g.Participants() {
		if g.Standing(p) {
			v.Standing = append(v.Standing, names[p])
		} else {
			v.Sitting++
		}
		if ls.game.Students[p] == studentID {
			v.You = &templates.SkunkYou{Standing: g.Standing(p), Score: g.Score(p), SitURL: "/c/" + class.Code + "/skunk/sit"}
		}
	}
	scores := g.Scores()
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return scores[order[a]] > scores[order[b]] })
	for _, p := range order[:min(5, len(order))] {
		v.Leaders = append(v.Leaders, templates.SkunkScore{Name: names[p], Score: scores[p]})
	}
	if g.Over() {
		var w []string
		for _, p := range g.Winners() {
			w = append(w, names[p])
		}
		v.Winners = fmt.Sprintf("Winner: %s with %d points!", strings.Join(w, ", "), scores[g.Winners()[0]])
	}
	return v, true
}

// skunkAnnounce tells a roll in words.
func skunkAnnounce(faces string) string {
	switch {
	case faces == "1 1":
		return "Double 1s! Everyone standing loses the whole score."
	case strings.Contains(faces, "1"):
		return "A 1 (" + faces + "): the round is over, and everyone standing gets nothing."
	}
	return "Rolled " + faces + "."
}

// classStudent finds the class of :code and the browser's student in it.
func (s *Server) classStudent(c *gin.Context) (store.Class, store.Student, bool) {
	ctx := c.Request.Context()
	class, err := s.store.ClassByCode(ctx, normalizeCode(c.Param("code")))
	if err != nil {
		fail(c, err)
		return class, store.Student{}, false
	}
	me, err := s.store.StudentByToken(ctx, class.ID, hashToken(playerToken(c)))
	if err != nil {
		refuse(c, http.StatusForbidden, "Join the class first: you are not in class "+class.Code+".")
		return class, me, false
	}
	return class, me, true
}

// studentSkunk is the Skunk board alone, for a student's polling.
func (s *Server) studentSkunk(c *gin.Context) {
	class, me, ok := s.classStudent(c)
	if !ok {
		return
	}
	b, ok := s.skunkBoard(class, me.ID, false)
	if !ok {
		c.Header("HX-Refresh", "true")
		c.String(http.StatusOK, "")
		return
	}
	render(c, http.StatusOK, templates.SkunkView(b, "/c/"+class.Code+"/skunk"))
}

// teacherSkunk is the Skunk board for the dashboard's polling.
func (s *Server) teacherSkunk(c *gin.Context) {
	class := classFrom(c)
	b, ok := s.skunkBoard(class, 0, true)
	if !ok {
		c.String(http.StatusOK, "")
		return
	}
	render(c, http.StatusOK, templates.SkunkView(b, "/t/"+class.Code+"/skunk"))
}

// endSkunk stops the class's game of Skunk.
func (s *Server) endSkunk(c *gin.Context) {
	class := classFrom(c)
	if err := s.store.EndSkunk(c.Request.Context(), class.ID); err != nil {
		fail(c, err)
		return
	}
	s.mu.Lock()
	delete(s.skunks, class.ID)
	s.mu.Unlock()
	c.Redirect(http.StatusSeeOther, "/t/"+class.Code)
}

// projectorSkunk is the Skunk board for the projector: no buttons, and
// generated names in anonymous mode.
func (s *Server) projectorSkunk(c *gin.Context) {
	class := classFrom(c)
	b, ok := s.skunkBoard(class, 0, false)
	if !ok {
		c.String(http.StatusOK, "")
		return
	}
	render(c, http.StatusOK, templates.SkunkView(b, "/t/"+class.Code+"/projector/skunk"))
}
