package server

import (
	"bytes"
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/server/charts"
	"pigclass/server/classroom"
	"pigclass/server/report"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

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
// plays: the game's rule of thumb (hold at 20 in Pig), or expected-value
// play (5 dice in Hog) where a turn is one throw of chosen dice.
func defaultRoundForm(g sim.Game) templates.RoundForm {
	r := g.Rules()
	bot, dice := "hold:"+strconv.Itoa(r.HoldAt), "10"
	if g.ChoosesDice() {
		bot, dice = sim.EVBot, strconv.Itoa(r.MaxPieces)
	}
	return templates.RoundForm{
		Game: templates.Field{Value: g.String()}, Target: templates.Field{Value: strconv.Itoa(r.Target)}, MaxDice: templates.Field{Value: dice},
		Mode: templates.Field{Value: "bot"}, Bot: templates.Field{Value: bot}, Seats: templates.Field{Value: "2"}, ChoosesDice: g.ChoosesDice(),
	}
}

// studentRow is one student's line of the roster: their status and their
// figures so far.
func studentRow(l *i18n.Localizer, code string, st store.Student, stat store.StudentStats, status string, playing bool) templates.StudentRow {
	row := templates.StudentRow{ID: st.ID, Name: st.Nickname, Anon: anonIn(l, st.AnonName), Status: status, Playing: playing,
		Games: stat.Games, Wins: stat.Wins, Decisions: stat.Decisions}
	if stat.Analysed > 0 {
		row.AgreeOptimal = percent(l, float64(stat.AgreeOptimal)/float64(stat.Analysed))
		row.Cost = l.Dec(100*stat.Cost, 2)
		if stat.Games > 0 {
			row.CostPerGame = percent(l, stat.Cost/float64(stat.Games))
		}
	}
	if stat.Games > 0 || playing {
		row.ReviewURL = paths.TeacherStudent.With(code, st.ID)
	}
	return row
}

// roundBots are the bots that can play game g, for its round form.
func (s *Server) roundBots(l *i18n.Localizer, game, selected string) []templates.Choice {
	g, err := sim.ParseGame(game)
	if err != nil {
		g = sim.Pig
	}
	var out []templates.Choice
	for _, b := range botChoicesHolding(l, selected, g.Rules().HoldAt) {
		if err := solve.CheckStrategy(b.Value, sim.Standard(g)); err == nil {
			out = append(out, b)
		}
	}
	return out
}

// dashChartsOf is the dashboard's one chart at a time: the one asked for
// (?chart=), or the projector's, or the first; the others are a tab away.
func (s *Server) dashChartsOf(c *gin.Context) ([]templates.Choice, []templates.Chart, error) {
	class, l := classFrom(c), loc(c)
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
	return tabs, cs, err
}

// dashboardCharts is the dashboard's charts section alone, for its tabs.
func (s *Server) dashboardCharts(c *gin.Context) {
	tabs, cs, err := s.dashChartsOf(c)
	if err != nil {
		fail(c, err)
		return
	}
	class := classFrom(c)
	render(c, http.StatusOK, templates.DashCharts(templates.Dashboard{Code: class.Code, Charts: cs, ChartTabs: tabs, Projector: class.Projector}))
}

func (s *Server) dashboardView(c *gin.Context, form templates.RoundForm) (templates.Dashboard, error) {
	class, l := classFrom(c), loc(c)
	live, err := s.dashLive(c.Request.Context(), l, viewerFrom(c))
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
	tabs, cs, err := s.dashChartsOf(c)
	if err != nil {
		return templates.Dashboard{}, err
	}
	lesson, err := s.lessonView(l, class.Class)
	if err != nil {
		return templates.Dashboard{}, err
	}
	var sk *templates.SkunkBoard
	if k := s.room.Skunk(viewerFrom(c)); k != nil {
		b := s.skunkBoard(l, class, k, 0, true, paths.TeacherSkunk.For(class.Code))
		sk = &b
	}
	// The lesson's next step: its first phase is started by a press like
	// every other; a later phase is reached only by starting it, so it has.
	var next *templates.Step
	if lesson != nil {
		lesson.Started = lesson.Phase > 0 || class.Round != nil || len(rounds) > 0 || sk != nil
		switch {
		case !lesson.Started:
			next = &templates.Step{Label: lesson.StartLabel, URL: paths.LessonStart.For(class.Code), Start: true}
		case lesson.NextLabel != "":
			next = &templates.Step{Label: lesson.NextLabel, URL: paths.LessonNext.For(class.Code)}
		}
	}
	var exports []templates.Export
	for _, f := range report.Files {
		u := paths.CSV(class.Code, f.Name)
		exports = append(exports, templates.Export{Name: f.Name + ".csv", URL: u, ExcelURL: u + "?excel=1", About: l.T("csv." + f.Name + ".about")})
	}
	return templates.Dashboard{
		NextStep: next, Exports: exports, Approximate: approximate, Charts: cs, ChartTabs: tabs, Projector: class.Projector, Lesson: lesson, Skunk: sk,
		ProjectorURL: s.publicURL(c.Request) + paths.ReadOnlyProjector.Page.For(class.Code) + "?key=" + s.room.ProjectorKey(class), CanPlayAgain: len(rounds) > 0,
		Code: class.Code, JoinURL: s.publicURL(c.Request) + paths.JoinCode.For(class.Code),
		TeacherURL: s.publicURL(c.Request) + paths.Teacher.For(class.Code) + "?key=" + secret,
		Locked:     class.Locked, Paused: class.Paused, Anonymous: class.Anonymous,
		Live: live, Games: gameChoices(l, form.Game.Value), Bots: s.roundBots(l, form.Game.Value, form.Bot.Value), Round: form,
		// Ending a round applies while any of its matches still plays.
		RoundActive: live.RoundActive, Notice: takeFlash(c, class.Code), Language: class.Language,
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
	activity := s.room.Activity(viewerFrom(c))
	if v := c.Query("v"); v != "" && v == strconv.FormatInt(activity, 10) {
		c.Status(http.StatusNoContent)
		return
	}
	lc := liveCacheOf(class, loc(c).Lang())
	lc.mu.Lock()
	defer lc.mu.Unlock()
	now := time.Now()
	if lc.body == nil || lc.version != activity && now.Sub(lc.at) >= liveEvery {
		live, err := s.dashLive(c.Request.Context(), loc(c), viewerFrom(c))
		if err != nil {
			fail(c, err)
			return
		}
		live.OOB = true
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
func (s *Server) dashLive(ctx context.Context, l *i18n.Localizer, who classroom.Viewer) (templates.DashLive, error) {
	class := who.Class()
	activity := s.room.Activity(who)
	stats, total := s.room.Stats(who)
	joins, joinCap := s.room.JoinsLastMinute(class)
	students := 0
	for _, st := range stats {
		students += st.Decisions
	}
	v := templates.DashLive{Code: class.Code, Paused: class.Paused, Locked: class.Locked, Round: roundLabel(l, class.Round), Decisions: students, OtherMoves: total - students,
		PollURL: paths.Poll(paths.TeacherLive.For(class.Code), activity), JoinsLastMinute: joins, JoinCap: joinCap,
		JoinsUnlimited: class.JoinsUnlimited}
	playing := map[int64]string{}
	forfeited := map[int64]bool{}
	done := 0
	for _, m := range s.room.Matches(who) {
		if m.Over() {
			done++
			// A forfeit on time-outs is named as such, not as waiting.
			for _, seat := range m.Seats {
				if seat.StudentID != 0 && m.State.Out[seat.Seat] && m.State.Timeouts[seat.Seat] >= sim.TimeoutsResign {
					forfeited[seat.StudentID] = true
				}
			}
			continue
		}
		st := m.State
		decisions := 0
		for _, e := range m.Events {
			if report.IsDecision(e) {
				decisions++
			}
		}
		names := seatNames(l, m.Match, -1, false, "") // the teacher sees the nicknames
		for _, seat := range m.Seats {
			names[seat.Seat] += " " + l.Int(st.Scores[seat.Seat])
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
	going := len(v.Matches) + v.MoreMatches // the matches still played
	v.RoundActive = class.Round != nil && going > 0
	if class.Round != nil {
		v.Progress = l.T("live.progress", "Round", l.Int(class.Round.Number), "Playing", l.N("projector.playing", going), "Finished", l.N("projector.finished", done))
	}
	for _, st := range class.Students {
		status, isPlaying := playing[st.ID]
		if !isPlaying {
			status = pick(forfeited[st.ID], l.T("status.forfeited"), l.T("status.waiting"))
		}
		v.Students = append(v.Students, studentRow(l, class.Code, st, stats[st.ID], status, isPlaying))
	}
	for _, st := range class.Removed {
		v.Removed = append(v.Removed, templates.StudentRow{ID: st.ID, Name: st.Nickname, Anon: anonIn(l, st.AnonName), Status: l.T("status.removed")})
	}
	return v, nil
}
