package server

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/server/charts"
	"pigclass/server/classroom"
	"pigclass/server/report"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/static"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// dashboard is the teacher's page. Its round form holds the last round's
// choices (the teacher's next round is most often like it), or a game's
// defaults when the form asks for another game (?game=).
func (s *Server) dashboard(c *gin.Context) {
	form := defaultRoundForm(sim.Pig)
	if g, err := sim.ParseGame(c.Query("game")); err == nil {
		form = defaultRoundForm(g) // the round form for another game: it chooses nothing else
	} else if rounds, err := s.reports.Rounds(c.Request.Context(), viewerFrom(c)); err == nil && len(rounds) > 0 {
		form = roundFormOf(rounds[len(rounds)-1])
	}
	v, err := s.dashboardView(c, form)
	if err != nil {
		fail(c, err)
		return
	}
	render(c, http.StatusOK, templates.DashboardView(v))
}

// chartsView is the dashboard's charts section: the chart shown, the tabs
// of every chart and of the two scopes (today, the unit), the one shown.
type chartsView struct {
	Tabs, Scopes []templates.Choice
	Scope        string
	Charts       []templates.Chart
}

// dashChartsOf is the dashboard's one chart at a time: the one asked for
// (?chart=), else the projector's, else the first; of today once the
// class has played today, or of the whole unit (?scope=unit, or before
// the class plays today): tabs for the charts and for the two scopes.
func (s *Server) dashChartsOf(c *gin.Context) (chartsView, error) {
	class, l := classFrom(c), loc(c)
	shown := c.Query("chart")
	if !slices.Contains(charts.ClassKeys, shown) {
		shown = class.Projector
	}
	if !slices.Contains(charts.ClassKeys, shown) {
		shown = charts.ClassKeys[0]
	}
	var v chartsView
	for _, k := range charts.ClassKeys {
		v.Tabs = append(v.Tabs, templates.Choice{Value: k, Label: charts.Title(l, k), Selected: k == shown})
	}
	day, err := s.views.chartDay(c.Request.Context(), viewerFrom(c), c.Query("scope") == "unit")
	if err != nil {
		return v, err
	}
	if c.Query("scope") == "today" {
		day = s.reports.Today()
	}
	v.Scope = pick(day == "", "unit", "today")
	v.Scopes = []templates.Choice{{Value: "today", Label: l.T("dash.scope.today", "Date", s.reports.Today()), Selected: day != ""},
		{Value: "unit", Label: l.T("dash.scope.unit"), Selected: day == ""}}
	v.Charts, err = s.views.classCharts(c.Request.Context(), l, viewerFrom(c), []string{shown}, 0, day)
	return v, err
}

// dashboardCharts is the dashboard's charts section alone, for its tabs.
func (s *Server) dashboardCharts(c *gin.Context) {
	cv, err := s.dashChartsOf(c)
	if err != nil {
		fail(c, err)
		return
	}
	class := classFrom(c)
	render(c, http.StatusOK, templates.DashCharts(templates.Dashboard{Code: class.Code, Charts: cv.Charts, ChartTabs: cv.Tabs, ChartScopes: cv.Scopes, ChartScope: cv.Scope, Projector: class.Projector}))
}

func (s *Server) dashboardView(c *gin.Context, form templates.RoundForm) (templates.Dashboard, error) {
	class, l := classFrom(c), loc(c)
	live, err := s.views.dashLive(c.Request.Context(), l, viewerFrom(c), rosterViewOf(c))
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
	cv, err := s.dashChartsOf(c)
	if err != nil {
		return templates.Dashboard{}, err
	}
	lesson, err := s.views.lessonView(l, class.Class)
	if err != nil {
		return templates.Dashboard{}, err
	}
	var sk *templates.SkunkBoard
	if k := (viewerFrom(c)).Skunk(); k != nil {
		b := s.views.skunkBoard(l, class, k, 0, true, paths.TeacherSkunk.For(class.Code))
		sk = &b
	}
	next := lessonStep(lesson, class.Code)
	unit, err := s.unitOf(c)
	if err != nil {
		return templates.Dashboard{}, err
	}
	form.Due.Value = cmp.Or(form.Due.Value, defaultDue(s.cfg.Now()))
	form.HomeworkPhases = s.views.homeworkPhases(l, class.Class, form.Phase.Value)
	exports, err := s.exports(c)
	if err != nil {
		return templates.Dashboard{}, err
	}
	platform, err := s.platformPart(c.Request.Context(), class)
	if err != nil {
		return templates.Dashboard{}, err
	}
	public := s.publicURL(c.Request)
	return templates.Dashboard{
		NextStep: next, Exports: exports, Approximate: approximate, Charts: cv.Charts, ChartTabs: cv.Tabs, ChartScopes: cv.Scopes, ChartScope: cv.Scope, Projector: class.Projector, Lesson: lesson, Skunk: sk,
		ProjectorURL: public + paths.ReadOnlyProjector.Page.For(class.Code) + "?key=" + s.room.ProjectorKey(class), CanPlayAgain: len(rounds) > 0,
		Code: class.Code, JoinURL: public + paths.JoinCode.For(class.Code), Reach: s.reachWarning(l, public),
		TeacherURL: public + paths.Teacher.For(class.Code) + "?key=" + secret,
		Locked:     class.Locked, Paused: class.Paused, Anonymous: class.Anonymous, Platform: platform, ListHidden: class.ListHidden,
		Live: live, Games: gameChoices(l, form.Game.Value), Bots: s.views.roundBots(l, form.Game.Value, form.Bot.Value), Round: form,
		// Ending a round applies while any of its matches still plays.
		RoundActive: live.RoundActive, Notice: takeFlash(c, class.Code), Language: class.Language, LessonPlans: s.views.lessonChoices(l, class.Lesson), Retention: unit.retention, Days: unit.days, Homework: unit.homework,
		Tournament: unit.contest, Lab: s.labPanel(c, class),
	}, nil
}

// lessonStep is the lesson's next step on the dashboard's bar, nil for
// none: its first phase is started by a press like every other (a plan
// waits at phase -1, chosen, until then), and once a phase is started the
// step is the next phase. It marks the lesson started, and its countdown
// settable, as it goes.
func lessonStep(lesson *templates.LessonView, code string) *templates.Step {
	if lesson == nil {
		return nil
	}
	lesson.Started = !lesson.Chosen
	if lesson.Started && lesson.Left == "" {
		lesson.CountdownURL = paths.LessonCountdown.For(code)
	}
	switch {
	case !lesson.Started:
		return &templates.Step{Label: lesson.StartLabel, URL: paths.LessonStart.For(code), Start: true}
	case lesson.NextLabel != "":
		return &templates.Step{Label: lesson.NextLabel, URL: paths.LessonNext.For(code)}
	}
	return nil
}

// formView is the round form alone (templates.RoundFormView), with the
// values and errors of form: what a refused round or homework redraws.
func (s *Server) formView(c *gin.Context, form templates.RoundForm) templates.Dashboard {
	class, l := classFrom(c), loc(c)
	form.Due.Value = cmp.Or(form.Due.Value, defaultDue(s.cfg.Now()))
	form.HomeworkPhases = s.views.homeworkPhases(l, class.Class, form.Phase.Value)
	return templates.Dashboard{Code: class.Code, Games: gameChoices(l, form.Game.Value), Bots: s.views.roundBots(l, form.Game.Value, form.Bot.Value), Round: form}
}

// retention says when the class is erased unless it is used again: its
// last activity and the server's --retain-days ("" when it keeps classes
// until they are deleted).
func (s *Server) retention(c *gin.Context) (string, error) {
	keep := s.room.Retention()
	if keep <= 0 {
		return "", nil
	}
	last, err := s.reports.LastActive(c.Request.Context(), viewerFrom(c))
	if err != nil {
		return "", err
	}
	l := loc(c)
	days := int(keep / (24 * time.Hour))
	return l.N("dash.retention", days, "Date", last.Add(keep).UTC().Format(time.DateOnly), "Last", last.UTC().Format(time.DateOnly)), nil
}

// rosterViewOf is the roster the dashboard's address asks for.
func rosterViewOf(c *gin.Context) rosterView {
	return rosterView{unit: c.Query("roster") == "unit", all: c.Query("students") == "all"}
}

// liveEvery is how often a class's live part is drawn at most: every
// teacher screen polling within it gets the same answer. A class whose
// drawing takes longer than liveEvery/drawShare (a thousand students:
// about 5 ms alone, more beside their moves) is drawn drawShare times its
// drawing's time apart, up to liveMost, so that its drawings hold a core
// a small share of the time beside the class's moves.
const (
	liveEvery = 500 * time.Millisecond
	liveMost  = time.Second
	drawShare = 50
)

// liveCache holds each class's last drawn live part.
type liveCache struct {
	mu        sync.Mutex
	drawn     *sync.Cond // broadcast when a drawing is done (on mu)
	at        time.Time
	took      time.Duration // the last drawing's time
	version   int64
	body      *liveDrawing
	rendering bool // a screen is drawing it now, outside mu
}

// liveDrawing is one drawing of a class's live part, and its gzip form,
// made once for the class's screens that take it, by the first that asks.
type liveDrawing struct {
	html   []byte
	gzOnce sync.Once
	gz     []byte // nil for a small part, sent as it is
}

// gzipFrom is the size from which a drawing is sent gzipped: the live
// part of a class past rosterMost students, 97 KB sent to each screen
// every second, is 6 KB gzipped (BenchmarkDashboardLiveThousand); a class
// of 30's few KB are not worth it.
const gzipFrom = 16 << 10

// gzipped is the drawing gzipped, or nil below gzipFrom.
func (d *liveDrawing) gzipped() []byte {
	d.gzOnce.Do(func() {
		if len(d.html) < gzipFrom {
			return
		}
		var b bytes.Buffer
		w, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
		yielding(w).Write(d.html)
		w.Close()
		d.gz = b.Bytes()
	})
	return d.gz
}

// send answers the poll with the drawing, gzipped where it is large and
// the screen takes gzip.
func (d *liveDrawing) send(c *gin.Context) {
	c.Header("Vary", "Accept-Encoding")
	if static.AcceptsGzip(c.Request) {
		if gz := d.gzipped(); gz != nil {
			c.Header("Content-Encoding", "gzip")
			c.Data(http.StatusOK, "text/html; charset=utf-8", gz)
			return
		}
	}
	c.Data(http.StatusOK, "text/html; charset=utf-8", d.html)
}

// every is how far apart the part is drawn (liveEvery, or more for a
// class whose drawing is long). lc.mu must be held.
func (lc *liveCache) every() time.Duration {
	return min(max(liveEvery, drawShare*lc.took), liveMost)
}

// timed draws, and keeps how long it took. lc.mu must not be held.
func (lc *liveCache) timed(draw func() ([]byte, error)) ([]byte, error) {
	start := time.Now()
	body, err := draw()
	took := time.Since(start)
	lc.mu.Lock()
	lc.took = took
	lc.mu.Unlock()
	return body, err
}

// dashboardLive is the dashboard's live part. A poll whose ?v= is the
// version it was drawn at gets 204: nothing changed, nothing drawn. Under
// load the part is drawn at most every liveEvery (every) for all the class's
// teacher screens together, in the background, with no lock held: a poll
// gets the part as last drawn and never waits behind a drawing (the next
// poll, a second later, gets the new one), but for the class's first
// drawing, which it makes or waits for.
func (s *Server) dashboardLive(c *gin.Context) {
	class := classFrom(c)
	activity := (viewerFrom(c)).Activity()
	if v := c.Query("v"); v != "" && v == strconv.FormatInt(activity, 10) {
		c.Status(http.StatusNoContent)
		return
	}
	shown := rosterViewOf(c)
	l, who := loc(c), viewerFrom(c)
	lc := liveCacheOf(class, l.Lang()+shown.query())
	// The drawing outlives the request that asked for it (it serves every
	// screen): its own context, and the request's values, not the request.
	ctx := i18n.WithLocalizer(context.WithoutCancel(c.Request.Context()), l)
	draw := func() ([]byte, error) {
		live, err := s.views.dashLive(ctx, l, who, shown)
		if err == nil {
			live.OOB = true
			var b bytes.Buffer
			if err = templates.DashLiveView(live).Render(ctx, yielding(&b)); err == nil {
				return b.Bytes(), nil
			}
		}
		// Drawn in the background, the error has no request to answer:
		// it is logged, and the next poll draws again.
		s.log.Error("draw the dashboard's live part", "class", class.ID, "err", err)
		return nil, err
	}
	var body *liveDrawing
	var version int64
	var err error
	if looked(c) {
		// Told by its stream that the class changed, a screen waits for a
		// drawing of the class as it is now (no poll comes after to fetch
		// a newer one), shared with the class's other screens and drawn
		// at most every liveEvery (every) as their polls' are.
		body, version, err = lc.fresh(activity, who.Activity, draw)
	} else {
		body, version, err = lc.get(activity, draw)
	}
	if err != nil {
		fail(c, err)
		return
	}
	if shown, err := strconv.ParseInt(c.Query("v"), 10, 64); err == nil && version <= shown {
		// The page shows this drawing, or a newer one (drawn for itself
		// when it loaded): it keeps what it has until a newer drawing.
		c.Status(http.StatusNoContent)
		return
	}
	body.send(c)
}

// get returns the part as last drawn. If it is stale (drawn for another
// activity, every() ago or more) and no one draws it now, draw draws it
// again in the background; the class's first drawing is made here, and
// whoever asks meanwhile waits for it.
func (lc *liveCache) get(activity int64, draw func() ([]byte, error)) (*liveDrawing, int64, error) {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	lc.init()
	for lc.body == nil && lc.rendering {
		lc.drawn.Wait() // the first drawing
	}
	now := time.Now()
	stale := lc.body == nil || lc.version != activity && now.Sub(lc.at) >= lc.every()
	if !stale || lc.rendering {
		return lc.body, lc.version, nil
	}
	lc.rendering = true
	redraw := func() error {
		body, err := lc.timed(draw)
		lc.mu.Lock()
		defer lc.mu.Unlock()
		lc.rendering = false
		lc.drawn.Broadcast()
		if err == nil {
			lc.at, lc.version, lc.body = now, activity, &liveDrawing{html: body}
		}
		return err
	}
	if lc.body != nil {
		go redraw() // an error leaves the last drawing, and the next poll tries again
		return lc.body, lc.version, nil
	}
	lc.mu.Unlock()
	err := redraw()
	lc.mu.Lock()
	return lc.body, lc.version, err
}

// init makes the condition drawings are waited on, the first time.
// lc.mu must be held.
func (lc *liveCache) init() {
	if lc.drawn == nil {
		lc.drawn = sync.NewCond(&lc.mu)
	}
}

// fresh returns a drawing of activity or newer: the one kept if it is,
// else the next one drawn, by whoever draws it (this caller, if no one
// else does), no sooner than every() after the last. now is the
// class's activity as the drawing starts, which it is at least as new
// as.
func (lc *liveCache) fresh(activity int64, now func() int64, draw func() ([]byte, error)) (*liveDrawing, int64, error) {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	lc.init()
	for {
		switch wait := lc.every() - time.Since(lc.at); {
		case lc.body != nil && lc.version >= activity:
			return lc.body, lc.version, nil
		case lc.rendering:
			lc.drawn.Wait()
			continue
		case lc.body != nil && wait > 0:
			lc.mu.Unlock()
			time.Sleep(wait)
			lc.mu.Lock()
			continue
		}
		lc.rendering = true
		version := now()
		lc.mu.Unlock()
		body, err := lc.timed(draw)
		lc.mu.Lock()
		lc.rendering = false
		lc.drawn.Broadcast()
		if err != nil {
			return nil, 0, err
		}
		lc.at, lc.version, lc.body = time.Now(), version, &liveDrawing{html: body}
	}
}

// liveCacheOf returns a class's live-part cache in one language. It is
// kept with the class in the room, so it goes when the class does
// (deleted, or swept), and no other class can ever be served it.
func liveCacheOf(class *classroom.Class, lang string) *liveCache {
	lc, _ := class.Drawings().LoadOrStore(lang, &liveCache{})
	return lc.(*liveCache)
}

// unit is what the dashboard says of the class over its unit: when it is
// erased unless used again, its days, its homework.
type unit struct {
	retention string
	days      []templates.DayRow
	homework  []templates.HomeworkRow
	contest   string // the strategy tournament in a sentence, if any
}

// unitOf reads the class's unit for its dashboard.
func (s *Server) unitOf(c *gin.Context) (unit, error) {
	var u unit
	var err error
	if u.retention, err = s.retention(c); err != nil {
		return u, err
	}
	if u.days, err = s.views.days(c.Request.Context(), loc(c), viewerFrom(c)); err != nil {
		return u, err
	}
	if u.homework, err = s.homeworkPanel(c); err != nil {
		return u, err
	}
	u.contest, err = s.dashTournament(c)
	return u, err
}

// exports are the class's files on the dashboard: of today once the class
// has played today (the whole unit a link away), else of the whole unit.
func (s *Server) exports(c *gin.Context) ([]templates.Export, error) {
	class, l := classFrom(c), loc(c)
	day, err := s.views.chartDay(c.Request.Context(), viewerFrom(c), false)
	if err != nil {
		return nil, err
	}
	var out []templates.Export
	for _, f := range report.Files {
		unit := paths.CSV(class.Code, f.Name)
		e := templates.Export{Name: f.Name + ".csv", URL: unit, ExcelURL: unit + "?excel=1", About: l.T("csv." + f.Name + ".about")}
		if day != "" && f.Has("day") {
			e.URL, e.ExcelURL, e.UnitURL = unit+"?day="+day, unit+"?excel=1&day="+day, unit
			e.Day = l.T("dash.export_today", "Date", day)
		}
		out = append(out, e)
	}
	return out, nil
}

// platformPart is the dashboard's part for a class a learning
// platform's link opens (LTI): students.csv with the platform's user ids,
// and, for a link with a gradebook column and no homework, the teacher's
// choice of what it gets. Nil for another class.
func (s *Server) platformPart(ctx context.Context, class *classroom.Class) (*templates.PlatformPart, error) {
	link, err := s.lti.ClassLink(ctx, class.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	part := &templates.PlatformPart{IDs: paths.StudentsCSV.For(class.Code) + "?platform=ids&names=real", CodesOpen: class.CodesOpen}
	if link.LineItem != "" {
		homework, err := s.lti.HasHomework(ctx, class.ID)
		if err != nil {
			return nil, err
		}
		if !homework {
			part.Score = link.Score
		}
	}
	return part, nil
}
