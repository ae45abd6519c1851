package server

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// tablesOfClass is the teacher's page of tables (issue 45): a form that opens a
// table (a game, its target, its players from the roster, a bot if any)
// and the class's tables being played.
func (s *Server) tablesOfClass(c *gin.Context) {
	// A lesson's phase played at tables links here with its game, target
	// and bot picked.
	form := tableForm{game: c.DefaultQuery("game", sim.Pig.String()), target: c.DefaultQuery("target", strconv.Itoa(sim.DefaultTarget)), bot: c.Query("bot")}
	render(c, http.StatusOK, templates.TablesView(s.tablesPage(c, form)))
}

// openTable opens the table posted; a refusal comes back on the form,
// with what was ticked.
func (s *Server) openTable(c *gin.Context) {
	l := loc(c)
	form := tableForm{game: c.PostForm("game"), target: strings.TrimSpace(c.PostForm("target")), bot: c.PostForm("bot"),
		students: c.PostFormArray("student"), newcomers: c.PostForm("newcomers"), order: map[string]string{}}
	for _, id := range form.students {
		form.order[id] = strings.TrimSpace(c.PostForm("order-" + id))
	}
	spec, problem := form.spec(l)
	if problem == "" {
		problem = s.joinNewcomers(c, &form, &spec)
	}
	if problem == "" {
		spec.Lesson = s.tablesLesson(classFrom(c).Class)
		_, err := s.room.OpenTable(c.Request.Context(), viewerFrom(c), spec)
		if err == nil {
			// The next table is offered the same game, target and bot:
			// a lesson's phase opens its tables one after another.
			doneAt(c, paths.Query(paths.Tables.For(classFrom(c).Code), "game", form.game, "target", form.target, "bot", form.bot), "notice.table_opened")
			return
		}
		if problem = tableProblem(l, err); problem == "" {
			fail(c, err)
			return
		}
	}
	pg := s.tablesPage(c, form)
	pg.Error = problem
	render(c, http.StatusUnprocessableEntity, templates.TablesView(pg))
}

// tableProblem words a table's refusal the form can say, or "".
func tableProblem(l *i18n.Localizer, err error) string {
	var limited *play.LimitError
	var room *solve.RoomError
	switch {
	case errors.Is(err, classroom.ErrTableSize):
		return l.T("table.error.size", "Min", l.Int(sim.MinSeats), "Max", l.Int(sim.MaxSeats))
	case errors.Is(err, classroom.ErrTableStudent):
		return l.T("table.error.student")
	case errors.As(err, &limited), errors.As(err, &room), errors.Is(err, play.ErrMysteryWaits):
		_, msg := explain(l, err)
		return msg
	}
	return ""
}

// tableForm is the open-a-table form as posted (or its defaults).
type tableForm struct {
	game, target, bot string
	students          []string
	// order is each ticked student's place at the table, as typed (1
	// moves first; empty: after those numbered, in the roster's order).
	order map[string]string
	// newcomers are players who have not joined the class, a nickname a
	// line: they join it at the table (joinNewcomers).
	newcomers string
}

// ordered is the students ticked in their order of play: those numbered
// by their number, then the others in the roster's order; or what to
// fix (a number that is not a place at a table, or two alike).
func (f tableForm) ordered(l *i18n.Localizer) ([]string, string) {
	place := map[string]int{}
	seen := map[int]bool{}
	for _, id := range f.students {
		typed := f.order[id]
		if typed == "" {
			continue
		}
		n, err := strconv.Atoi(typed)
		if err != nil || n < 1 || n > sim.MaxSeats || seen[n] {
			return nil, l.T("table.error.order", "Max", l.Int(sim.MaxSeats))
		}
		place[id], seen[n] = n, true
	}
	out := slices.Clone(f.students)
	slices.SortStableFunc(out, func(a, b string) int {
		pa, pb := place[a], place[b]
		switch {
		case pa == 0 && pb == 0:
			return 0
		case pa == 0:
			return 1
		case pb == 0:
			return -1
		}
		return pa - pb
	})
	return out, ""
}

// joinNewcomers has the form's newcomers join the class, as a browser
// joining would (the same checks of their nicknames), each with a token
// no device holds: their seat is theirs to take on a device of their own
// later with the rejoin code the teacher renews for them. They sit after
// the students ticked. A table needs a student ticked: it is played on
// the class page of one who joined on a device. It returns what to fix,
// or "" (those who joined before a refusal stay in the class, ticked).
func (s *Server) joinNewcomers(c *gin.Context, form *tableForm, spec *classroom.TableSpec) string {
	l, code := loc(c), classFrom(c).Code
	var names []string
	for _, line := range strings.Split(form.newcomers, "\n") {
		if name := strings.TrimSpace(line); name != "" {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	if len(spec.Students) == 0 {
		return l.T("table.error.device")
	}
	for i, name := range names {
		e, err := s.room.Enter(c.Request.Context(), classroom.Knock{Code: code, Nickname: name, NewTokenHash: classroom.HashToken(newToken())})
		var no *classroom.JoinRefusal
		switch {
		case errors.As(err, &no):
			var v templates.Join
			joinRefusal(l, &v, code, no)
			form.newcomers = strings.Join(names[i:], "\n") // the ones to fix stay on the form
			return strings.TrimSpace(l.T("table.error.newcomer", "Name", name) + " " + v.Error + v.Nickname.Error)
		case err != nil:
			return l.T("error.internal")
		}
		spec.Students = append(spec.Students, e.Student.ID)
		form.students = append(form.students, strconv.FormatInt(e.Student.ID, 10))
	}
	return ""
}

// spec reads the form: the game, its target, the students ticked (in the
// roster's order) and the bot; else what to fix.
func (f tableForm) spec(l *i18n.Localizer) (classroom.TableSpec, string) {
	g, err := sim.ParseGame(f.game)
	if err != nil {
		return classroom.TableSpec{}, l.T("error.game", "Games", strings.Join(gameNamesIn(l), ", "))
	}
	v := sim.Standard(g)
	n, err := strconv.Atoi(f.target)
	if err != nil || n < sim.MinTarget || n > solve.MaxTarget {
		return classroom.TableSpec{}, l.T("roundform.target", "Min", l.Int(sim.MinTarget), "Max", l.Int(solve.MaxTarget))
	}
	v.Target = n
	spec := classroom.TableSpec{Variant: v, Bot: f.bot}
	students, problem := f.ordered(l)
	if problem != "" {
		return spec, problem
	}
	for _, s := range students {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return spec, l.T("table.error.student")
		}
		spec.Students = append(spec.Students, id)
	}
	if f.bot != "" {
		if problem := botProblem(l, v, f.bot); problem != "" {
			return spec, problem
		}
	}
	return spec, ""
}

// tablesPage is the tables page with form's values, and the class's
// tables being played.
func (s *Server) tablesPage(c *gin.Context, form tableForm) templates.TablesPage {
	class, l, who := classFrom(c), loc(c), viewerFrom(c)
	code := class.Code
	pg := templates.TablesPage{Code: code, BackURL: paths.Teacher.For(code), PostURL: paths.Tables.For(code),
		Games: gameChoices(l, form.game), Target: form.target, SheetURL: paths.TableSheet.For(code), SheetGame: form.game, Newcomers: form.newcomers}
	if takeFlashAt(c, pg.PostURL) == "notice.table_opened" {
		pg.Notice = l.T("notice.table_opened")
	}
	pg.Bots = append([]templates.Choice{{Value: "", Label: l.T("table.nobot"), Selected: form.bot == ""}}, s.views.roundBots(l, form.game, form.bot)...)
	if form.bot != "" && !slices.ContainsFunc(pg.Bots, func(b templates.Choice) bool { return b.Selected }) {
		pg.Bots[0].Selected = true
	}
	if snap := who.Class(); snap != nil {
		for _, st := range snap.Students {
			id := strconv.FormatInt(st.ID, 10)
			pg.Students = append(pg.Students, templates.TableSeat{Choice: templates.Choice{Value: id, Label: st.Nickname, Selected: slices.Contains(form.students, id)},
				Order: form.order[id], OrderLabel: l.T("table.order", "Name", st.Nickname)})
		}
	}
	for _, m := range who.Matches() {
		if !m.AtTable {
			continue
		}
		pg.Open = append(pg.Open, tableRowOf(l, m, false))
	}
	return pg
}

// tableSheet is a blank score sheet to print for a table playing on paper
// (issue 45): the game's rules, how to write a turn so that its row is
// typed in afterwards as it stands, a column a player, a row a turn.
func (s *Server) tableSheet(c *gin.Context) {
	l, code := loc(c), classFrom(c).Code
	g, err := sim.ParseGame(c.Query("game"))
	if err != nil {
		g = sim.Pig
	}
	players, err := strconv.Atoi(c.DefaultQuery("players", "4"))
	if err != nil || players < sim.MinSeats || players > sim.MaxSeats {
		refuse(c, http.StatusUnprocessableEntity, l.T("roundform.seats", "Min", l.Int(sim.MinSeats), "Max", l.Int(sim.MaxSeats)))
		return
	}
	// The sheet's target is the one the tables page offers (a lesson's
	// phase picks it), the game's own when none is given.
	v := sim.Standard(g)
	if t := c.Query("target"); t != "" {
		n, err := strconv.Atoi(t)
		if err != nil || n < sim.MinTarget || n > solve.MaxTarget {
			refuse(c, http.StatusUnprocessableEntity, l.T("roundform.target", "Min", l.Int(sim.MinTarget), "Max", l.Int(solve.MaxTarget)))
			return
		}
		v.Target = n
	}
	how := "table.sheet.how"
	switch {
	case g.ChoosesDice():
		how = "table.sheet.how_hog"
	case !g.Rules().Piece.Numbered:
		how = "table.sheet.how_marks" // the legend below says each mark's number
	}
	render(c, http.StatusOK, templates.TableSheetView(templates.TableSheet{
		Title: l.T("table.sheet.title", "Game", gameTitle(l, v)), Rules: l.Say(rulesWords(v)),
		HowToWrite: l.T(how, "Example", tableRowExample(g)), BackURL: paths.Query(paths.Tables.For(code), "game", g.String(), "target", strconv.Itoa(v.Target)),
		Legend: markLegend(l, g), Players: players, Turns: sheetTurns}))
}

// sheetTurns is how many turns a score sheet has rows for: a page.
const sheetTurns = 25

// tablesLesson is the lesson plan whose phase is played at tables now in
// class ("" when the class is at no such phase): a table opened then is
// that lesson's, and its day names it.
func (s *Server) tablesLesson(class store.Class) string {
	l, ok := s.views.lesson(class.Lesson)
	if !ok || !class.InPhase() || class.Phase >= len(l.Phases) || !l.Phases[class.Phase].AtTables() {
		return ""
	}
	return class.Lesson
}
