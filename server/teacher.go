package server

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/url"
	"pigclass/server/paths"
	"pigclass/server/report"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/server/charts"
	"pigclass/server/classroom"
	"pigclass/server/i18n"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
)

// teacherOnly lets a request through only with the class's teacher secret,
// from the cookie or from the secret link's ?key=. Anything else is a 404:
// the page does not exist for whoever lacks the secret.
func (s *Server) teacherOnly(c *gin.Context) {
	code := normalizeCode(c.Param("code"))
	if key := c.Query("key"); key != "" {
		v, err := s.room.Identify(c.Request.Context(), classroom.Credentials{Code: code, TeacherSecret: key})
		if err == nil && v.Teacher() {
			setCookie(c, teacherPrefix+code, key, 365*24*3600)
			c.Redirect(http.StatusSeeOther, paths.Teacher.For(code))
			c.Abort()
			return
		}
	}
	s.gate(c, classroom.Viewer.Teacher)
}

// gate lets a request through to a class's page only if the room finds
// the viewer is let in by may (the class's teacher, its projector);
// anything else is the teacher pages' 404, the same for a class that
// exists and one that does not.
func (s *Server) gate(c *gin.Context, may func(classroom.Viewer) bool) {
	v, err := s.viewer(c)
	if err != nil {
		c.Abort()
		fail(c, err)
		return
	}
	if !may(v) {
		refuseTeacherPage(c)
		return
	}
	setViewer(c, v)
	c.Next()
}

func (s *Server) dashboard(c *gin.Context) {
	game := sim.Pig
	if g, err := sim.ParseGame(c.Query("game")); err == nil {
		game = g // the round form for another game: it chooses nothing else
	}
	v, err := s.dashboardView(c, defaultRoundForm(game))
	if err != nil {
		fail(c, err)
		return
	}
	render(c, http.StatusOK, templates.DashboardView(v))
}

// defaultRoundForm is the round form of a game with a default that
// plays: hold at 20 in the Pig games, expected-value play (5 dice) in Hog.
func defaultRoundForm(g sim.Game) templates.RoundForm {
	bot := "hold:20"
	if g == sim.Hog {
		bot = "ev"
	}
	return templates.RoundForm{
		Game: templates.Field{Value: g.String()}, Target: templates.Field{Value: "100"}, MaxDice: templates.Field{Value: "10"},
		Mode: templates.Field{Value: "bot"}, Bot: templates.Field{Value: bot}, Seats: templates.Field{Value: "2"},
	}
}

// roundBots are the bots that can play game g, for its round form.
func (s *Server) roundBots(l *i18n.Localizer, game, selected string) []templates.Choice {
	g, err := sim.ParseGame(game)
	if err != nil {
		g = sim.Pig
	}
	var out []templates.Choice
	for _, b := range botChoices(l, selected) {
		if _, err := solve.ParseStrategy(b.Value, sim.Standard(g), s.tables); err == nil {
			out = append(out, b)
		}
	}
	return out
}

func (s *Server) dashboardView(c *gin.Context, form templates.RoundForm) (templates.Dashboard, error) {
	class, l := classFrom(c), loc(c)
	live, err := s.dashLive(c.Request.Context(), l, class)
	if err != nil {
		return templates.Dashboard{}, err
	}
	secret, _ := c.Cookie(teacherPrefix + class.Code)
	rounds, err := s.reports.Rounds(c.Request.Context(), viewerFrom(c))
	if err != nil {
		return templates.Dashboard{}, err
	}
	approximate := false
	for _, r := range rounds {
		approximate = approximate || r.Variant.Seats > 2
	}
	// One chart at a time: the one asked for, or the projector's, or the
	// first; the others are a tab away.
	shown := c.Query("chart")
	if !slices.Contains(charts.ClassKeys, shown) {
		shown = class.Projector
	}
	if !slices.Contains(charts.ClassKeys, shown) {
		shown = charts.ClassKeys[0]
	}
	var tabs []templates.Choice
	for _, k := range charts.ClassKeys {
		tabs = append(tabs, templates.Choice{Value: k, Label: charts.Title(l, k), Selected: k == shown})
	}
	cs, err := s.classCharts(c.Request.Context(), l, viewerFrom(c), []string{shown}, 0)
	if err != nil {
		return templates.Dashboard{}, err
	}
	lesson, err := s.lessonView(l, class.Class)
	if err != nil {
		return templates.Dashboard{}, err
	}
	var sk *templates.SkunkBoard
	if k := s.room.Skunk(class.ID); k != nil {
		b := s.skunkBoard(l, class, k, 0, true, paths.TeacherSkunk.For(class.Code))
		sk = &b
	}
	var exports []templates.Export
	for _, f := range report.Files {
		u := paths.CSV(class.Code, f.Name)
		exports = append(exports, templates.Export{Name: f.Name + ".csv", URL: u, ExcelURL: u + "?excel=1", About: l.T("csv." + f.Name + ".about")})
	}
	return templates.Dashboard{
		Exports: exports, Approximate: approximate, Charts: cs, ChartTabs: tabs, Projector: class.Projector, Lesson: lesson, Skunk: sk,
		ProjectorURL: s.publicURL(c.Request) + paths.ReadOnlyProjector.Page.For(class.Code) + "?key=" + classroom.ProjectorKey(class), CanPlayAgain: len(rounds) > 0,
		Code: class.Code, JoinURL: s.publicURL(c.Request) + paths.JoinCode.For(class.Code),
		TeacherURL: s.publicURL(c.Request) + paths.Teacher.For(class.Code) + "?key=" + secret,
		Locked:     class.Locked, Paused: class.Paused, Anonymous: class.Anonymous,
		Live: live, Games: gameChoices(l, form.Game.Value), Bots: s.roundBots(l, form.Game.Value, form.Bot.Value), Round: form,
		RoundActive: live.Round != "", Notice: takeFlash(c, class.Code), Language: class.Language,
	}, nil
}

// maxMatchRows is how many matches in progress the dashboard lists; the
// roster says who plays whom for the rest.
const maxMatchRows = 40

// liveEvery is how often a class's live part is drawn at most: every
// teacher screen polling within it gets the same answer.
const liveEvery = 500 * time.Millisecond

// liveCache holds each class's last drawn live part.
type liveCache struct {
	mu      sync.Mutex
	at      time.Time
	version int64
	body    []byte
}

// dashboardLive is the dashboard's live part. A poll whose ?v= is the
// version it was drawn at gets 204: nothing changed, nothing drawn. Under
// load the part is drawn at most every liveEvery for all the class's
// teacher screens together.
func (s *Server) dashboardLive(c *gin.Context) {
	class := classFrom(c)
	activity := s.room.Activity(class.ID)
	if v := c.Query("v"); v != "" && v == strconv.FormatInt(activity, 10) {
		c.Status(http.StatusNoContent)
		return
	}
	lc := liveCacheOf(class, loc(c).Lang())
	lc.mu.Lock()
	defer lc.mu.Unlock()
	now := time.Now()
	if lc.body == nil || lc.version != activity && now.Sub(lc.at) >= liveEvery {
		live, err := s.dashLive(c.Request.Context(), loc(c), class)
		if err != nil {
			fail(c, err)
			return
		}
		var b bytes.Buffer
		if err := templates.DashLiveView(live).Render(c.Request.Context(), &b); err != nil {
			fail(c, err)
			return
		}
		lc.at, lc.version, lc.body = now, activity, b.Bytes()
	}
	if v := c.Query("v"); v != "" && v == strconv.FormatInt(lc.version, 10) {
		c.Status(http.StatusNoContent)
		return
	}
	c.Data(http.StatusOK, "text/html; charset=utf-8", lc.body)
}

// liveCacheOf returns a class's live-part cache in one language. It is
// kept with the class in the room, so it goes when the class does
// (deleted, or swept), and no other class can ever be served it.
func liveCacheOf(class *classroom.Class, lang string) *liveCache {
	lc, _ := class.Drawings().LoadOrStore(lang, &liveCache{})
	return lc.(*liveCache)
}

// dashLive is the roster and the matches in progress, from memory alone:
// the class's snapshot, its students' totals and its matches' snapshots.
func (s *Server) dashLive(ctx context.Context, l *i18n.Localizer, class *classroom.Class) (templates.DashLive, error) {
	activity := s.room.Activity(class.ID)
	stats, total := s.room.Stats(class.ID)
	v := templates.DashLive{Code: class.Code, Paused: class.Paused, Locked: class.Locked, Round: roundLabel(l, class.Round), Decisions: total,
		PollURL: paths.Poll(paths.TeacherLive.For(class.Code), activity), JoinsLastMinute: s.classJoins.count(class.Code), JoinCap: s.cfg.ClassJoins,
		JoinsUnlimited: class.JoinsUnlimited}
	playing := map[int64]string{}
	for _, m := range s.room.Matches(class.ID) {
		if m.Over() {
			continue
		}
		st := m.State
		var names []string
		decisions := 0
		for _, e := range m.Events {
			if report.IsDecision(e) {
				decisions++
			}
		}
		for _, seat := range m.Seats {
			names = append(names, seatName(l, seat, false)+" "+l.Int(st.Scores[seat.Seat]))
			if seat.StudentID != 0 {
				playing[seat.StudentID] = l.T("status.playing", "Score", l.Int(st.Scores[seat.Seat]), "Other", l.Int(st.Leader(seat.Seat)))
			}
		}
		if len(v.Matches) < maxMatchRows {
			v.Matches = append(v.Matches, templates.MatchRow{ID: m.ID, Players: strings.Join(names, " – "), Status: l.T("status.match_playing"), Decisions: decisions})
		} else {
			v.MoreMatches++
		}
	}
	for _, st := range class.Students {
		stat := stats[st.ID]
		row := templates.StudentRow{ID: st.ID, Name: st.Nickname, Anon: anonIn(l, st.AnonName), Status: l.T("status.waiting"), Games: stat.Games, Wins: stat.Wins, Decisions: stat.Decisions}
		if p, ok := playing[st.ID]; ok {
			row.Status = p
		}
		if stat.Analysed > 0 {
			row.AgreeOptimal = percent(l, float64(stat.AgreeOptimal)/float64(stat.Analysed))
			row.Cost = l.Dec(100*stat.Cost, 2)
		}
		v.Students = append(v.Students, row)
	}
	for _, st := range class.Removed {
		v.Removed = append(v.Removed, templates.StudentRow{ID: st.ID, Name: st.Nickname, Anon: anonIn(l, st.AnonName), Status: l.T("status.removed")})
	}
	return v, nil
}

// pickProjectorChart chooses the chart on the projector ("" for none).
func (s *Server) pickProjectorChart(c *gin.Context) {
	class := classFrom(c)
	key := c.PostForm("chart")
	if !slices.Contains(charts.ClassKeys, key) && key != "" {
		refuse(c, http.StatusUnprocessableEntity, loc(c).T("error.chart"))
		return
	}
	if err := s.room.SetProjector(c.Request.Context(), viewerFrom(c), key); err != nil {
		fail(c, err)
		return
	}
	c.Redirect(http.StatusSeeOther, paths.Teacher.For(class.Code)+"#charts")
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// classFlags is what setFlag changes.
type classFlags = classroom.Flags

// setFlag turns one of the class's switches.
func (s *Server) setFlag(change func(*classFlags), notice string) gin.HandlerFunc {
	return func(c *gin.Context) {
		class := classFrom(c)
		if _, err := s.room.SetFlags(c.Request.Context(), viewerFrom(c), change); err != nil {
			fail(c, err)
			return
		}
		done(c, class.Code, loc(c).T(notice))
	}
}

// setJoinsUnlimited lifts the cap on joins a minute, or puts it back.
func (s *Server) setJoinsUnlimited(unlimited bool, notice string) gin.HandlerFunc {
	return func(c *gin.Context) {
		class := classFrom(c)
		if err := s.room.SetJoinsUnlimited(viewerFrom(c), unlimited); err != nil {
			fail(c, err)
			return
		}
		done(c, class.Code, loc(c).T(notice, "N", loc(c).Int(s.cfg.ClassJoins)))
	}
}

// flashCookie carries a notice to the next dashboard page, once: the
// address never holds it, so a reload or Back shows nothing old and a link
// cannot put words on the teacher's screen.
const flashCookie = "pigclass_flash"

// done tells the teacher that an action happened and goes back to the
// dashboard.
func done(c *gin.Context, code, notice string) {
	http.SetCookie(c.Writer, &http.Cookie{Name: flashCookie, Value: url.QueryEscape(notice), Path: paths.Teacher.For(code), MaxAge: 60,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: overHTTPS(c)})
	c.Redirect(http.StatusSeeOther, paths.Teacher.For(code))
}

// takeFlash reads the notice left for this page and clears it.
func takeFlash(c *gin.Context, code string) string {
	v, err := c.Cookie(flashCookie)
	if err != nil || v == "" {
		return ""
	}
	http.SetCookie(c.Writer, &http.Cookie{Name: flashCookie, Value: "", Path: paths.Teacher.For(code), MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode})
	notice, err := url.QueryUnescape(v)
	if err != nil {
		return ""
	}
	return notice
}

// startRound starts a round: every student in a match, against the chosen
// bot or paired (an odd student plays the bot), one seed for all on request.
func (s *Server) startRound(c *gin.Context) {
	ctx := c.Request.Context()
	class := classFrom(c)
	form, v, ok := s.parseRound(c)
	if !ok {
		d, err := s.dashboardView(c, form)
		if err != nil {
			fail(c, err)
			return
		}
		render(c, http.StatusUnprocessableEntity, templates.DashboardView(d))
		return
	}
	round, n, err := s.room.StartRound(ctx, viewerFrom(c), classroom.RoundSpec{Variant: v, Mode: form.Mode.Value, Bot: form.Bot.Value, SameSeed: form.SameSeed})
	if errors.Is(err, classroom.ErrNoStudents) {
		form.Error = loc(c).T("notice.nostudents")
		d, err := s.dashboardView(c, form)
		if err != nil {
			fail(c, err)
			return
		}
		render(c, http.StatusConflict, templates.DashboardView(d))
		return
	}
	if err != nil {
		fail(c, err)
		return
	}
	done(c, class.Code, loc(c).N("notice.round_started", n, "Round", loc(c).Int(round.Number)))
}

// parseRound reads the round form; every bad field gets its message.
func (s *Server) parseRound(c *gin.Context) (templates.RoundForm, sim.Variant, bool) {
	f := templates.RoundForm{
		Game: templates.Field{Value: c.PostForm("game")}, Target: templates.Field{Value: strings.TrimSpace(c.PostForm("target"))},
		MaxDice: templates.Field{Value: strings.TrimSpace(c.PostForm("max_dice"))}, Deadline: templates.Field{Value: strings.TrimSpace(c.PostForm("deadline"))},
		Mode: templates.Field{Value: c.PostForm("mode")}, Bot: templates.Field{Value: c.PostForm("bot")},
		Seats:      templates.Field{Value: strings.TrimSpace(c.PostForm("seats"))},
		EqualTurns: c.PostForm("equal_turns") == "on", SameSeed: c.PostForm("same_seed") == "on",
	}
	ok, l := true, loc(c)
	bad := func(field *templates.Field, msg string) { field.Error, ok = msg, false }
	g, err := sim.ParseGame(f.Game.Value)
	if err != nil {
		bad(&f.Game, l.T("error.game", "Games", strings.Join(gameNamesIn(l), ", ")))
	}
	v := sim.Standard(g)
	v.EqualTurns = f.EqualTurns
	if n, err := strconv.Atoi(f.Target.Value); err != nil || n < sim.MinTarget || n > solve.MaxTarget {
		bad(&f.Target, l.T("roundform.target", "Min", l.Int(sim.MinTarget), "Max", l.Int(solve.MaxTarget)))
	} else {
		v.Target = n
	}
	if g == sim.Hog {
		if n, err := strconv.Atoi(f.MaxDice.Value); err != nil || n < 1 || n > sim.MaxDiceLimit {
			bad(&f.MaxDice, l.T("roundform.maxdice", "Max", l.Int(sim.MaxDiceLimit)))
		} else {
			v.MaxDice = n
		}
	}
	if f.Deadline.Value != "" {
		if n, err := strconv.Atoi(f.Deadline.Value); err != nil || n < 3 || n > 600 {
			bad(&f.Deadline, l.T("roundform.deadline"))
		} else {
			v.Deadline = sim.Duration(time.Duration(n) * time.Second)
		}
	}
	if f.Mode.Value != "bot" && f.Mode.Value != "pairs" {
		bad(&f.Mode, l.T("roundform.mode"))
	}
	if f.Seats.Value == "" {
		f.Seats.Value = "2" // an older form, or none sent: two players
	}
	if n, err := strconv.Atoi(f.Seats.Value); err != nil || n < sim.MinSeats || n > sim.MaxSeats {
		bad(&f.Seats, l.T("roundform.seats", "Min", l.Int(sim.MinSeats), "Max", l.Int(sim.MaxSeats)))
	} else {
		v.Seats = n
	}
	if ok {
		if _, err := solve.ParseStrategy(f.Bot.Value, v, s.tables); err != nil {
			switch id := "roundform.bot"; {
			case g == sim.Hog && (strings.HasPrefix(f.Bot.Value, "hold:") || f.Bot.Value == "kper"):
				bad(&f.Bot, l.T(id+"_hog"))
			case g != sim.Hog && strings.HasPrefix(f.Bot.Value, "dice:"):
				bad(&f.Bot, l.T(id+"_dice", "Game", gameName(l, g)))
			default:
				bad(&f.Bot, l.T(id, "Game", gameName(l, g)))
			}
		}
	}
	return f, v, ok
}

// playAgain starts a round like the last one: same game, rules,
// opponents and bot.
func (s *Server) playAgain(c *gin.Context) {
	class := classFrom(c)
	rounds, err := s.reports.Rounds(c.Request.Context(), viewerFrom(c))
	if err != nil {
		fail(c, err)
		return
	}
	if len(rounds) == 0 {
		done(c, class.Code, loc(c).T("notice.noround_yet"))
		return
	}
	last := rounds[len(rounds)-1]
	round, n, err := s.room.StartRound(c.Request.Context(), viewerFrom(c), classroom.RoundSpec{Variant: last.Variant, Mode: last.Mode, Bot: last.Bot, SameSeed: last.SameSeed})
	if errors.Is(err, classroom.ErrNoStudents) {
		done(c, class.Code, loc(c).T("notice.nostudents"))
		return
	}
	if err != nil {
		fail(c, err)
		return
	}
	done(c, class.Code, loc(c).N("notice.round_again", n, "Round", loc(c).Int(round.Number)))
}

func (s *Server) endRound(c *gin.Context) {
	class := classFrom(c)
	if !confirmed(c, paths.ConfirmEndRound.For(class.Code)) {
		return
	}
	if err := s.room.EndRound(c.Request.Context(), viewerFrom(c)); err != nil {
		fail(c, err)
		return
	}
	done(c, class.Code, loc(c).T("notice.round_ended"))
}

func (s *Server) removeStudent(c *gin.Context) {
	class := classFrom(c)
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		refuse(c, http.StatusNotFound, loc(c).T("error.nostudent"))
		return
	}
	if !confirmed(c, paths.ConfirmRemove.With(class.Code, id)) {
		return
	}
	if err := s.room.RemoveStudent(c.Request.Context(), viewerFrom(c), id); err != nil {
		fail(c, err)
		return
	}
	done(c, class.Code, loc(c).T("notice.removed"))
}

// readmitStudent lets a removed student back in.
func (s *Server) readmitStudent(c *gin.Context) {
	class := classFrom(c)
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		refuse(c, http.StatusNotFound, loc(c).T("error.nostudent"))
		return
	}
	switch err := s.room.Readmit(c.Request.Context(), viewerFrom(c), id); {
	case errors.Is(err, store.ErrNicknameTaken):
		refuse(c, http.StatusConflict, loc(c).T("error.readmit_taken"))
		return
	case err != nil:
		fail(c, err)
		return
	}
	done(c, class.Code, loc(c).T("notice.readmitted"))
}

// confirmed reports whether a post that cannot be undone carries the
// confirmation of its page; if not, the teacher is sent to that page
// (without JavaScript a click goes through a page that asks).
func confirmed(c *gin.Context, page string) bool {
	if c.PostForm("confirm") == "yes" {
		return true
	}
	c.Redirect(http.StatusSeeOther, page)
	return false
}

// confirmPage asks before an action that cannot be undone: ending the
// round, removing a student, deleting the class.
func (s *Server) confirmPage(what string) gin.HandlerFunc {
	return func(c *gin.Context) {
		class, l := classFrom(c), loc(c)
		v := templates.Confirm{Code: class.Code, CancelURL: paths.Teacher.For(class.Code)}
		switch what {
		case "end-round":
			if class.Round == nil {
				done(c, class.Code, l.T("notice.noround"))
				return
			}
			v.Title, v.Action, v.Button = l.T("confirm.end.title", "N", l.Int(class.Round.Number)), paths.RoundsEnd.For(class.Code), l.T("dash.endround")
			v.Message = l.T("confirm.end.message")
		case "remove":
			id, _ := strconv.ParseInt(c.Param("id"), 10, 64)
			var name string
			for _, st := range class.Students {
				if st.ID == id {
					name = st.Nickname
				}
			}
			if name == "" {
				refuse(c, http.StatusNotFound, l.T("error.nostudent_class"))
				return
			}
			v.Title, v.Action, v.Button = l.T("confirm.remove.title", "Name", name), paths.RemoveStudent.With(class.Code, id), l.T("live.remove_label", "Name", name)
			v.Message = l.T("confirm.remove.message", "Name", name)
		case "delete":
			v.Title, v.Action, v.Button = l.T("confirm.delete.title", "Code", class.Code), paths.DeleteClass.For(class.Code), l.T("confirm.delete.button")
			v.Message = l.T("confirm.delete.message")
			v.Danger = true
		}
		render(c, http.StatusOK, templates.ConfirmView(v))
	}
}

// deleteClass deletes the class and every row that belongs to it.
func (s *Server) deleteClass(c *gin.Context) {
	class := classFrom(c)
	if !confirmed(c, paths.ConfirmDelete.For(class.Code)) {
		return
	}
	if err := s.room.DeleteClass(c.Request.Context(), viewerFrom(c)); err != nil {
		fail(c, err)
		return
	}
	setCookie(c, teacherPrefix+class.Code, "", -1)
	c.Redirect(http.StatusSeeOther, "/")
}
