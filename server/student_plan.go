package server

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// studentPlan is a student's strategy editor (issue 46): their saved
// plan and its chances, the three forms, the class's tournament.
func (s *Server) studentPlan(c *gin.Context) {
	class, me, ok := s.studentOf(c)
	if !ok {
		return
	}
	ps, err := s.planStateOf(c, class, me)
	if err != nil {
		fail(c, err)
		return
	}
	pg := s.planPage(c, class, me, ps, nil)
	pg.Notice = takeFlashAt(c, paths.StudentPlan.For(class.Code))
	followClass(c)
	render(c, http.StatusOK, templates.PlanView(pg))
}

// savePlan saves the plan posted (one of the three forms); a plan with
// a number out of its range comes back with the message, as typed.
func (s *Server) savePlan(c *gin.Context) {
	class, me, ok := s.studentOf(c)
	if !ok {
		return
	}
	l := loc(c)
	ps, err := s.planStateOf(c, class, me)
	if err != nil {
		fail(c, err)
		return
	}
	pl, problem := readPlan(c, l, ps.v)
	if problem == "" {
		if err := s.contest.Save(c.Request.Context(), class.ID, me.ID, pl); err != nil {
			fail(c, err)
			return
		}
		doneAt(c, paths.StudentPlan.For(class.Code), l.T("plan.saved.notice"))
		return
	}
	pg := s.planPage(c, class, me, ps, &pl)
	pg.Error, pg.Form = problem, pl.Form
	followClass(c)
	render(c, http.StatusUnprocessableEntity, templates.PlanView(pg))
}

// planChances is the saved plan's chances, for the editor's poll.
func (s *Server) planChances(c *gin.Context) {
	class, me, ok := s.studentOf(c)
	if !ok {
		return
	}
	saved, err := s.contest.PlanOf(c.Request.Context(), class.ID, me.ID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		fail(c, err)
		return
	}
	var ch templates.PlanChances
	if err == nil {
		ch = s.chancesWords(c, loc(c), saved)
	}
	render(c, http.StatusOK, templates.PlanChancesView(ch))
}

// planJSON downloads the saved plan, as "pigclass duel --first" reads it.
func (s *Server) planJSON(c *gin.Context) {
	class, me, ok := s.studentOf(c)
	if !ok {
		return
	}
	saved, err := s.contest.PlanOf(c.Request.Context(), class.ID, me.ID)
	if errors.Is(err, store.ErrNotFound) {
		refuse(c, http.StatusNotFound, loc(c).T("plan.none"))
		return
	}
	if err != nil {
		fail(c, err)
		return
	}
	saved.Name = me.Nickname
	c.Header("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-plan.json"`, class.Code))
	c.JSON(http.StatusOK, saved)
}

// readPlan reads a posted plan for v, or says what to fix (the plan
// then holds what was typed that could be read).
func readPlan(c *gin.Context, l *i18n.Localizer, v sim.Variant) (sim.Plan, string) {
	pl := sim.Plan{Form: c.PostForm("form"), Game: v.Game.String(), Target: v.Target}
	num := func(name string, lo, hi int, label string) (int, string) {
		n, err := strconv.Atoi(c.PostForm(name))
		if err != nil || n < lo || n > hi {
			return n, l.T("plan.error.number", "Field", label, "Min", l.Int(lo), "Max", l.Int(hi))
		}
		return n, ""
	}
	var problem string
	switch pl.Form {
	case sim.PlanHold:
		pl.Hold, problem = num("hold", 1, v.Target, l.T("plan.hold"))
	case sim.PlanRule:
		for _, f := range ruleFields(l) {
			lo, hi := f.bounds(v)
			n, p := num(f.name, lo, hi, f.label)
			*f.of(&pl) = n
			if problem == "" {
				problem = p
			}
		}
	case sim.PlanMap:
		pl.Cells, problem = readCells(c, l, v)
	default:
		return pl, l.T("plan.error.form")
	}
	if problem == "" {
		if err := pl.Check(v); err != nil {
			problem = l.T("plan.error.check", "Error", err.Error())
		}
	}
	return pl, problem
}

// readCells reads a posted map's cells.
func readCells(c *gin.Context, l *i18n.Localizer, v sim.Variant) ([][]int, string) {
	n := sim.MapSize(v.Target)
	cells, problem := make([][]int, n), ""
	for a := range n {
		cells[a] = make([]int, n)
		for b := range n {
			h, err := strconv.Atoi(c.PostForm(fmt.Sprintf("cell-%d-%d", a, b)))
			cells[a][b] = h
			if (err != nil || h < 1 || h > v.Target) && problem == "" {
				problem = l.T("plan.error.cell", "Mine", l.Int(a*sim.MapCell), "Other", l.Int(b*sim.MapCell), "Target", l.Int(v.Target))
			}
		}
	}
	return cells, problem
}
