package server

import (
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/sim"
	"pigclass/templates"
)

// labPanel is the dashboard's lab: the question posed and its runs, and
// the form to pose another.
func (s *Server) labPanel(c *gin.Context, class *classroom.Class) templates.LabPanel {
	l := loc(c)
	p := templates.LabPanel{Games: gameChoices(l, "pig"), Target: 100, First: labChoices(c, "hold:25"), Second: labChoices(c, "hold:20"), Revealed: class.LabRevealed}
	q, ok := class.LabQuestion()
	if !ok {
		return p
	}
	p.Question = labWords(l, q)
	p.Games, p.Target = gameChoices(l, q.Variant.Game.String()), q.Variant.Target
	p.First, p.Second = labChoices(c, q.First), labChoices(c, q.Second)
	if pool, _, err := s.views.labPool(c, viewerFrom(c), q, false); err == nil {
		p.Runs = l.N("lab.runs", len(pool.Runs), "Games", l.Int(pool.Games))
	}
	return p
}

// poseLab poses the lab's question: a game, its target, and the strategy
// moving first against the other. A question that cannot be asked says
// what can.
func (s *Server) poseLab(c *gin.Context) {
	l, class := loc(c), classFrom(c)
	q, problem := labQuestionIn(c)
	if problem == "" && (sim.IsPlanName(q.First) || sim.IsPlanName(q.Second)) {
		problem = l.T("lab.error.teacher_plan") // a student's plan is theirs to ask with, on their own page
	}
	if problem != "" {
		refuse(c, http.StatusUnprocessableEntity, problem)
		return
	}
	if err := s.room.PoseLab(c.Request.Context(), viewerFrom(c), q); err != nil {
		fail(c, err)
		return
	}
	done(c, class.Code, l.T("lab.posed", "Question", labWords(l, q)))
}

// revealLab shows (reveal=1) or hides the exact answer of the lab's
// question on its chart.
func (s *Server) revealLab(c *gin.Context) {
	l, class := loc(c), classFrom(c)
	on := c.PostForm("reveal") == "1"
	err := s.room.RevealLab(c.Request.Context(), viewerFrom(c), on)
	switch {
	case errors.Is(err, classroom.ErrNoLab):
		refuse(c, http.StatusConflict, l.T("lab.error.none_posed"))
	case err != nil:
		fail(c, err)
	default:
		done(c, class.Code, l.T(pick(on, "lab.revealed", "lab.hidden")))
	}
}
