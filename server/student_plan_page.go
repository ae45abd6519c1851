package server

import (
	"errors"
	"strconv"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/contest"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// planState is what a student's editor is built from, read once a
// request: the class's latest tournament (hasTour), the student's saved
// plan (hasPlan), and the game the editor is for: the open tournament's,
// else the saved plan's, else Pig to 100.
type planState struct {
	tour             contest.Status
	saved            sim.Plan
	hasTour, hasPlan bool
	v                sim.Variant
}

// planStateOf reads the student's plan and the class's tournament.
func (s *Server) planStateOf(c *gin.Context, class *classroom.Class, me store.Student) (planState, error) {
	ctx := c.Request.Context()
	var ps planState
	var err error
	if ps.tour, err = s.contest.Status(ctx, class.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
		return ps, err
	}
	ps.hasTour = err == nil
	if ps.saved, err = s.contest.PlanOf(ctx, class.ID, me.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
		return ps, err
	}
	ps.hasPlan = err == nil
	ps.v = sim.Standard(sim.Pig)
	switch {
	case ps.hasTour && ps.tour.ClosedAt.IsZero():
		ps.v = ps.tour.Variant
	case ps.hasPlan:
		if v, err := contest.VariantOf(ps.saved); err == nil {
			ps.v = v
		}
	}
	return ps, nil
}

// planPage is the editor for a student: typed (a refused post) or the
// saved plan, else the starting points, in the three forms.
func (s *Server) planPage(c *gin.Context, class *classroom.Class, me store.Student, ps planState, typed *sim.Plan) templates.PlanPage {
	l, v, code := loc(c), ps.v, class.Code
	pg := templates.PlanPage{Code: code, Nickname: me.Nickname, BackURL: paths.Student.For(code), For: gameTitle(l, v), Target: v.Target,
		PostURL: paths.StudentPlan.For(code), JSONURL: paths.PlanJSON.For(code), Form: sim.PlanHold}
	if ps.hasPlan && ps.saved.Check(v) == nil {
		pg.Saved, pg.Form = planWords(l, ps.saved), ps.saved.Form
		pg.Chances = s.chancesWords(c, l, ps.saved)
	}
	shown := ps.saved
	if typed != nil {
		shown = *typed
	}
	s.fillForms(c, l, v, shown, &pg)
	if ps.hasTour {
		pg.Tournament, pg.Row = tournamentForStudent(l, class, me, ps.tour)
	}
	return pg
}

// fillForms puts plan pl's numbers in its form and starting points in the
// others; a map starts from ?start= (perfect play, the rule, the rule of
// thumb) when asked.
func (s *Server) fillForms(c *gin.Context, l *i18n.Localizer, v sim.Variant, pl sim.Plan, pg *templates.PlanPage) {
	rule, thumb := sim.KeepPacePlan(v), sim.HoldAt(v.Game.Rules().HoldAt)
	hold := int(thumb)
	mapOf := sim.MapOf(thumb, v, "")
	switch pl.Form {
	case sim.PlanHold:
		hold = pl.Hold
	case sim.PlanRule:
		rule = &pl
	case sim.PlanMap:
		if len(pl.Cells) == sim.MapSize(v.Target) {
			mapOf = &pl
		}
	}
	switch c.Query("start") {
	case "perfect":
		if t, err := s.tables.Get(v); err == nil {
			mapOf = sim.MapOf(solve.Optimal{T: t}, v, "")
		}
	case "rule":
		mapOf = sim.MapOf(rule, v, "")
	case "hold":
		mapOf = sim.MapOf(sim.HoldAt(hold), v, "") // the student's number
	}
	if c.Query("start") != "" {
		pg.Form = sim.PlanMap
	}
	pg.Hold = templates.Field{Value: strconv.Itoa(hold)}
	for _, f := range ruleFields(l) {
		lo, hi := f.bounds(v)
		pg.Rule = append(pg.Rule, templates.PlanField{Name: f.name, Label: f.label, Min: lo, Max: hi, Field: templates.Field{Value: strconv.Itoa(*f.of(rule))}})
	}
	for a, row := range mapOf.Cells {
		pg.MapScores = append(pg.MapScores, a*sim.MapCell)
		var fields []templates.Field
		for _, h := range row {
			fields = append(fields, templates.Field{Value: strconv.Itoa(h)})
		}
		pg.Map = append(pg.Map, fields)
	}
	here := paths.StudentPlan.For(pg.Code)
	for _, start := range []string{"perfect", "rule", "hold"} {
		pg.StartURLs = append(pg.StartURLs, templates.Choice{Value: paths.Query(here, "start", start), Label: l.T("plan.start." + start)})
	}
}

// planWords says a saved plan in a sentence.
func planWords(l *i18n.Localizer, pl sim.Plan) string {
	switch pl.Form {
	case sim.PlanRule:
		return l.T("plan.saved.rule", "N", l.Int(pl.Hold))
	case sim.PlanMap:
		return l.N("plan.saved.map", len(pl.Cells)*len(pl.Cells), "Cells", l.Int(len(pl.Cells)*len(pl.Cells)))
	}
	return l.T("plan.saved.hold", "N", l.Int(pl.Hold))
}

// chancesWords are a plan's chances in words, or that they are being
// worked out (the fragment then polls).
func (s *Server) chancesWords(c *gin.Context, l *i18n.Localizer, pl sim.Plan) templates.PlanChances {
	ch := s.contest.ChancesOf(pl)
	switch {
	case !ch.Ready:
		return templates.PlanChances{URL: paths.PlanChances.For(classFrom(c).Code), Lines: []string{l.T("plan.chances.working")}}
	case ch.Err != nil:
		return templates.PlanChances{Lines: []string{l.T("plan.chances.error", "Error", ch.Err.Error())}}
	}
	v, _ := contest.VariantOf(pl)
	var out templates.PlanChances
	for i, three := range [][3]float64{ch.RuleOfThumb, ch.Perfect} {
		bot := []string{sim.HoldAt(v.Game.Rules().HoldAt).String(), sim.PerfectBot}[i]
		out.Lines = append(out.Lines, l.T("plan.chances.line", "Bot", l.Say(botName(bot, v.Game.Rules().HoldAt)),
			"First", l.Pct(three[0], 1), "Second", l.Pct(three[1], 1), "Average", l.Pct(three[2], 1)))
	}
	return out
}

// tournamentForStudent is the class's tournament in a sentence for the
// student, and their own row once played. An open tournament is always
// for the editor's game (planState).
func tournamentForStudent(l *i18n.Localizer, class *classroom.Class, me store.Student, st contest.Status) (string, []string) {
	switch {
	case st.ClosedAt.IsZero():
		line := l.T("plan.tournament.open", "Game", gameTitle(l, st.Variant))
		if !st.ClosesAt.IsZero() {
			line += " " + l.T("plan.tournament.closes", "Time", st.ClosesAt.Local().Format("15:04"))
		}
		return line, nil
	case st.Result == nil:
		return l.T("plan.tournament.playing", "Done", l.Int(st.Done), "Of", l.Int(st.Of)), nil
	}
	return l.T("plan.tournament.over"), tournamentRow(l, class, me, st)
}

// tournamentRow is a student's own row of a played tournament: rank, best
// and worst opponents, and where the map differs most from perfect play.
func tournamentRow(l *i18n.Localizer, class *classroom.Class, me store.Student, st contest.Status) []string {
	res := st.Result
	for _, row := range res.Standings {
		e := res.Entries[row.Entry]
		if e.Student != me.ID {
			continue
		}
		name := func(i int) string { return entrantName(l, class, res.Entries[i], st.Variant, class.Anonymous) }
		out := []string{
			l.T("plan.row.rank", "Rank", l.Int(row.Rank), "N", l.Int(len(res.Entries)), "Average", l.Pct(row.Average, 1)),
			l.T("plan.row.best", "Name", name(row.Best), "Chance", l.Pct(row.BestChance, 1), "Other", name(row.Worst), "OtherChance", l.Pct(row.WorstChance, 1)),
		}
		for _, d := range e.Differs {
			out = append(out, l.T("plan.row.cell", "Mine", l.Int(d.Score), "Other", l.Int(d.Other), "Hold", l.Int(d.Hold), "Perfect", l.Int(d.Perfect), "Cost", l.Pct(d.Cost, 1)))
		}
		return out
	}
	return nil
}

// entrantName names an entry of a tournament: a student's nickname (the
// generated name when anonymous), or a bot's short name.
func entrantName(l *i18n.Localizer, class *classroom.Class, e contest.Entrant, v sim.Variant, anonymous bool) string {
	if e.Bot != "" {
		return l.Say(botName(e.Bot, v.Game.Rules().HoldAt))
	}
	for _, st := range append(append([]store.Student{}, class.Students...), class.Removed...) {
		if st.ID == e.Student {
			if anonymous {
				return anonIn(l, st.AnonName)
			}
			return st.Nickname
		}
	}
	return l.T("plan.row.gone")
}

// ruleField is one number of a rule: its form name, label, whether it is
// a hold value (1 up) or a gap (0 leaves it out), and where it goes.
type ruleField struct {
	name, label string
	hold        bool
	of          func(*sim.Plan) *int
}

// bounds are what the field takes in a game of v: a hold from 1 to the
// target; a gap (how far behind or ahead, how near the end) from 0, left
// out, to one under the target (sim.Plan.Check).
func (f ruleField) bounds(v sim.Variant) (lo, hi int) {
	if f.hold {
		return 1, v.Target
	}
	return 0, v.Target - 1
}

func ruleFields(l *i18n.Localizer) []ruleField {
	return []ruleField{
		{"hold", l.T("plan.rule.hold"), true, func(p *sim.Plan) *int { return &p.Hold }},
		{"behind_by", l.T("plan.rule.behind_by"), false, func(p *sim.Plan) *int { return &p.BehindBy }},
		{"behind_hold", l.T("plan.rule.behind_hold"), true, func(p *sim.Plan) *int { return &p.BehindHold }},
		{"ahead_by", l.T("plan.rule.ahead_by"), false, func(p *sim.Plan) *int { return &p.AheadBy }},
		{"ahead_hold", l.T("plan.rule.ahead_hold"), true, func(p *sim.Plan) *int { return &p.AheadHold }},
		{"end_race", l.T("plan.rule.end_race"), false, func(p *sim.Plan) *int { return &p.EndRace }},
	}
}
