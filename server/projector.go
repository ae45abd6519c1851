package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/contest"
	"pigclass/server/play"
	"pigclass/server/report"
	"pigclass/server/store"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// The projector is what the class sees: the join code, who has joined, the
// chart the teacher picked, Skunk and the results of a round. The teacher
// opens it at /t/{code}/projector (with the teacher's controls for
// Skunk); the classroom's computer opens the read-only projector link,
// /p/{code}?key=..., whose key shows what the projector shows and grants
// nothing else.

// projectorOnly lets a request through with the class's projector key (the
// cookie, or ?key= from the link) or the teacher's secret; anything else
// is the teacher pages' 404.
func (s *Server) projectorOnly(c *gin.Context) {
	code := classroom.NormalizeCode(c.Param("code"))
	if key := c.Query("key"); key != "" {
		v, err := s.room.Identify(c.Request.Context(), classroom.Credentials{Code: code, ProjectorKey: key})
		if err == nil && v.Projector() {
			setCookie(c, projectorPrefix+code, key, 365*24*3600)
			c.Redirect(http.StatusSeeOther, paths.ReadOnlyProjector.Page.For(code))
			c.Abort()
			return
		}
	}
	s.gate(c, classroom.Viewer.Projector)
}

// projectorBase is where a projector view lives: the teacher's, with the
// Skunk controls, or the read-only one.
type projectorBase struct {
	teacher bool
}

// routes registers the projector's pages with get, every one in the
// class's language.
func (b projectorBase) routes(get func(paths.Route, ...gin.HandlerFunc), s *Server) {
	p := b.paths()
	for _, r := range []struct {
		route paths.Route
		h     gin.HandlerFunc
	}{{p.Page, b.page(s)}, {p.Live, b.live(s)}, {p.Chart, b.chart(s)}, {p.Skunk, b.skunk(s)}, {p.Results, b.resultsPage(s)}} {
		get(r.route, func(c *gin.Context) {
			b.language(c)
			r.h(c)
		})
	}
}

// paths are this projector's addresses.
func (b projectorBase) paths() paths.Projector {
	if b.teacher {
		return paths.TeacherProjector
	}
	return paths.ReadOnlyProjector
}

// language sets a projector page in the class's language: the class's
// shared screen always shows it, and has no switcher (the teacher sets
// the class's language on the dashboard).
func (b projectorBase) language(c *gin.Context) {
	classLanguage(c, classFrom(c), true)
}

// skunkBoard is the Skunk board drawn for this projector: large, shared
// names, the roll and end controls on the teacher's.
func (b projectorBase) skunkBoard(s *Server, c *gin.Context, class *classroom.Class, k *classroom.Skunk) templates.SkunkBoard {
	sk := s.views.skunkBoard(loc(c), class, k, 0, false, b.paths().Skunk.For(class.Code))
	sk.Projector, sk.Teacher = true, b.teacher
	return sk
}

// page is the whole projector view.
func (b projectorBase) page(s *Server) gin.HandlerFunc {
	return func(c *gin.Context) {
		v, err := b.screen(s, c, "")
		if err != nil {
			fail(c, err)
			return
		}
		render(c, http.StatusOK, templates.ProjectorView(*v))
	}
}

// live is the projector's screen again, for its poll; an unchanged state
// (?v=) gets 204.
func (b projectorBase) live(s *Server) gin.HandlerFunc {
	return func(c *gin.Context) {
		if reloadIfLanguageChanged(c) {
			return
		}
		v, err := b.screen(s, c, c.Query("v"))
		switch {
		case err != nil:
			fail(c, err)
		case v == nil:
			c.Status(http.StatusNoContent)
		default:
			render(c, http.StatusOK, templates.ProjectorScreenView(*v))
		}
	}
}

// screen is what the projector shows of the class's state, or nil when
// that state is shown already (its key is shown). The key moves with the
// class (roster, joining, rounds, chart, lesson), the open round's
// progress and Skunk: each changes what the screen shows.
func (b projectorBase) screen(s *Server, c *gin.Context, shown string) (*templates.ProjectorScreen, error) {
	ctx, l, who := c.Request.Context(), loc(c), viewerFrom(c)
	class := who.Class()
	playing, finished := who.RoundProgress()
	k := who.Skunk()
	skunk := "none"
	if k != nil {
		skunk = fmt.Sprintf("%t", k.Over)
	}
	tour, err := s.contest.Status(ctx, class.ID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	tables := tablesOn(l, who, class.Anonymous)
	key := fmt.Sprintf("%d.%d.%d.%s.%d.%d.%t.%s", class.Version, playing, finished, skunk, tour.ID, tour.Done, tour.Result != nil, tables.key)
	if shown == key {
		return nil, nil
	}
	pc, err := s.views.projectorChart(ctx, l, who, b.paths().Chart)
	if err != nil {
		return nil, err
	}
	public := s.publicURL(c.Request)
	v := &templates.ProjectorScreen{Code: class.Code, JoinURL: public + paths.Join.String(), QR: paths.JoinQR.For(class.Code), Alone: s.reach(public) == reachAlone,
		PollURL: b.paths().Live.For(class.Code) + "?" + url.Values{"v": {key}, "lang": {l.Lang()}}.Encode(),
		Live:    projectorData(l, class), Chart: pc, Join: "corner"}
	lesson, err := s.views.lessonView(l, class.Class)
	if err != nil {
		return nil, err
	}
	// A game of Skunk stays on the screen until the lesson moves on to a
	// phase of its own (Skunk's discussion: its question and chart).
	movedOn := k != nil && lesson != nil && lesson.Left == "" && lesson.Game != "skunk"
	switch {
	case k != nil && !movedOn:
		v.State = "skunk"
		sk := b.skunkBoard(s, c, class, k)
		v.Skunk = &sk
	case class.Round != nil && playing > 0:
		v.State, v.Heading = "round", roundLabel(l, class.Round)
		v.Progress = l.N("projector.playing", playing) + " · " + l.N("projector.finished", finished)
	case len(tables.rows) > 0:
		// Tables at play: each one's players and scores, as they go.
		v.State, v.Heading, v.Tables = "tables", l.T("projector.tables"), tables.rows
		v.Progress = l.N("projector.tables_playing", len(tables.rows)) + " · " + l.N("projector.finished", tables.over)
	default:
		if err := betweenRounds(ctx, s, l, who, lesson, v); err != nil {
			return nil, err
		}
	}
	tournamentScreen(l, class, tour, v)
	switch {
	case class.Locked:
		v.Join = "closed"
	case v.State == "lobby":
		v.Join = "big"
	}
	if lesson != nil && lesson.Left == "" { // off the lesson, the round is the teacher's own
		v.PhaseLine = l.T("lesson.phase", "N", l.Int(lesson.Phase+1), "Of", l.Int(lesson.Phases)) + " " + lesson.PhaseName
		v.Prompts, v.Clock = lesson.Prompts, lesson.Clock
	}
	return v, nil
}

// betweenRounds sets the screen while nothing is played: the lobby, the
// last round's podium, or a lesson's discussion.
func betweenRounds(ctx context.Context, s *Server, l *i18n.Localizer, who classroom.Viewer, lesson *templates.LessonView, v *templates.ProjectorScreen) error {
	res, err := s.views.results(ctx, l, who, true, report.PodiumScope{})
	if err != nil {
		return err
	}
	v.State = "lobby"
	if res != nil {
		v.State, v.Results = "results", res
		v.Heading = l.T("results.heading", "N", l.Int(res.Round), "Title", res.Title)
	}
	if lesson != nil && lesson.Left == "" && lesson.Game == "none" && len(who.Class().Students) > 0 {
		// A discussion: the question and the chart are the screen; the
		// round's podium sits beside them when the phase before played
		// it (lesson 1's "Talk it over"), not a podium of another day's
		// (issue 81: day 1's podium stayed through day 3's lab), the join
		// code in its corner. Before any round, who joined does: the
		// count and the last names to join (a class of 30 fits beside
		// the question).
		v.State, v.Heading = "discuss", ""
		if !s.views.afterGame(who.Class().Class) {
			v.Results = nil
		}
		if n := len(v.Live.Names); n > discussNames {
			v.Live.Names = v.Live.Names[n-discussNames:]
		}
	}
	return nil
}

// tablesAtPlay is the class's tables for the shared screen: those still
// playing, each its players and scores in playing order (generated names
// in anonymous mode), how many are over, and a key that moves with every
// score.
type tablesAtPlay struct {
	rows []templates.TableRow
	over int
	key  string
}

func tablesOn(l *i18n.Localizer, who classroom.Viewer, anonymous bool) tablesAtPlay {
	var t tablesAtPlay
	banked := 0
	for _, m := range who.Matches() {
		if !m.AtTable {
			continue
		}
		if m.Over() {
			t.over++
			continue
		}
		for _, sc := range m.State.Scores {
			banked += sc
		}
		t.rows = append(t.rows, tableRowOf(l, m, anonymous))
	}
	t.key = fmt.Sprintf("%d.%d.%d", len(t.rows), t.over, banked)
	return t
}

// tableRowOf is a table's line for the teacher's tables page and the
// shared screen: its game, and its players in playing order, each with
// their score (generated names in anonymous mode).
func tableRowOf(l *i18n.Localizer, m *play.Match, anonymous bool) templates.TableRow {
	row := templates.TableRow{Game: gameTitle(l, m.Variant), Over: m.Over()}
	names := seatNames(l, *m, -1, anonymous, "")
	for i := range m.Variant.Seats {
		seat := (m.FirstSeat + i) % m.Variant.Seats
		row.Players = append(row.Players, names[seat]+" "+l.Int(m.State.Scores[seat]))
	}
	return row
}

// discussNames is how many of the last names to join a discussion's
// screen shows beside its question (the count says how many joined).
const discussNames = 8

// tournamentScreen puts the class's tournament on the screen in place of
// the lobby, the podium or a discussion, when it is shown.
func tournamentScreen(l *i18n.Localizer, class *classroom.Class, tour contest.Status, v *templates.ProjectorScreen) {
	if v.State != "skunk" && v.State != "round" && v.State != "tables" && tournamentShown(class, tour) {
		v.State, v.Heading, v.Progress = "tournament", l.T("contest.heading"), tournamentLine(l, tour)
		v.Standings = projectorStandings(l, class, tour)
	}
}

// tournamentShown reports whether the projector shows the class's
// tournament: while its duels are played, and once played until the next
// round starts.
func tournamentShown(class *classroom.Class, st contest.Status) bool {
	switch {
	case st.ID == 0 || st.ClosedAt.IsZero() || st.Err != nil:
		return false
	case st.Result == nil:
		return true
	}
	return class.Round == nil || class.Round.StartedAt.Before(st.ClosedAt)
}

// projectorStandings are the tournament's first ten entries (so far,
// while its duels are played), by the names
// a shared screen shows (generated ones in anonymous mode).
func projectorStandings(l *i18n.Localizer, class *classroom.Class, st contest.Status) []templates.StandingRow {
	res := st.Result
	if res == nil {
		res = st.Partial // the standings fill in as the duels are played
	}
	if res == nil {
		return nil
	}
	var out []templates.StandingRow
	for _, row := range res.Standings[:min(10, len(res.Standings))] {
		rank, average := standingWords(l, row, len(res.Entries))
		out = append(out, templates.StandingRow{Rank: rank, Name: entrantName(l, class, res.Entries[row.Entry], st.Variant, class.Anonymous), Average: average})
	}
	return out
}

// chart is the chart fragment, refreshed every few seconds.
func (b projectorBase) chart(s *Server) gin.HandlerFunc {
	return func(c *gin.Context) {
		pc, err := s.views.projectorChart(c.Request.Context(), loc(c), viewerFrom(c), b.paths().Chart)
		if err != nil {
			fail(c, err)
			return
		}
		render(c, http.StatusOK, templates.ProjectorChartView(pc))
	}
}

// skunk is the Skunk board for the projector: generated names in
// anonymous mode, the teacher's controls on the teacher's projector.
func (b projectorBase) skunk(s *Server) gin.HandlerFunc {
	return func(c *gin.Context) {
		class := classFrom(c)
		k := (viewerFrom(c)).Skunk()
		if k == nil {
			c.Header("HX-Refresh", "true") // the game ended: show the projector again
			c.String(http.StatusOK, "")
			return
		}
		if unchanged(c, k, class) {
			return
		}
		render(c, http.StatusOK, templates.SkunkView(b.skunkBoard(s, c, class, k)))
	}
}

// projectorData is who has joined, on a shared screen: generated names in
// anonymous mode.
func projectorData(l *i18n.Localizer, class *classroom.Class) templates.ProjectorLive {
	v := templates.ProjectorLive{Count: len(class.Students)}
	v.Names = make([]string, len(class.Students))
	for i, st := range class.Students {
		yieldAt(i)
		v.Names[i] = st.Nickname
		if class.Anonymous {
			v.Names[i] = anonIn(l, st.AnonName)
		}
	}
	return v
}

// resultsPage shows a podium on the projector: today's once the class has
// played today, else the last round's; the last round's, today's or the
// whole unit's on request (?scope=round, today, unit).
func (b projectorBase) resultsPage(s *Server) gin.HandlerFunc {
	return func(c *gin.Context) {
		class, l := classFrom(c), loc(c)
		scope := c.Query("scope")
		if scope != "round" && scope != "today" && scope != "unit" {
			// Today's podium once the class has played today, else the
			// last round's.
			day, err := s.views.chartDay(c.Request.Context(), viewerFrom(c), false)
			if err != nil {
				fail(c, err)
				return
			}
			scope = pick(day != "", "today", "round")
		}
		sc := report.PodiumScope{Unit: scope == "unit"}
		if scope == "today" {
			sc.Day = s.reports.Today()
		}
		v, err := s.views.results(c.Request.Context(), l, viewerFrom(c), true, sc)
		if err != nil {
			fail(c, err)
			return
		}
		if v == nil {
			v = &templates.Results{}
		}
		v.Code, v.BackURL = class.Code, b.paths().Page.For(class.Code)
		if b.teacher && v.Round > 0 {
			for _, o := range []struct{ value, id string }{{"round", "results.scope.round"}, {"today", "results.scope.today"}, {"unit", "results.scope.unit"}} {
				v.Scopes = append(v.Scopes, templates.Choice{Value: b.paths().Results.For(class.Code) + "?scope=" + o.value, Label: l.T(o.id), Selected: o.value == scope})
			}
		}
		render(c, http.StatusOK, templates.ResultsView(*v))
	}
}
