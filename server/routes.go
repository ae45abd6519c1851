package server

import (
	"cmp"
	"net/http"
	"slices"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/static"
	"pigclass/templates"
	"pigclass/templates/paths"
)

// Handler returns the app: every route in one place.
func (s *Server) Handler() http.Handler {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	var proxies []string
	for _, p := range s.proxies {
		proxies = append(proxies, p.String())
	}
	if err := r.SetTrustedProxies(proxies); err != nil {
		panic("server: trusted proxies: " + err.Error()) // checked by ParseProxies
	}
	// Only X-Forwarded-For, and only from a trusted proxy, names the
	// client: an X-Real-IP is the client's own to write.
	r.RemoteIPHeaders = []string{"X-Forwarded-For"}
	// The security headers first: every answer carries them, an early
	// refusal (421 for a strange host) and a recovered panic included.
	r.Use(s.securityHeaders, gin.Recovery(), s.metrics.measure, s.logRequests, s.checkHost, s.scheme, chooseLanguage, s.atHome, limitBody, s.sameOrigin)
	r.RedirectTrailingSlash = false

	files := gin.WrapH(static.Handler())
	r.GET(static.Prefix+"*file", files)
	r.HEAD(static.Prefix+"*file", files)
	s.publicRoutes(r)
	s.studentRoutes(r)
	s.teacherRoutes(r)
	// The read-only projector link, for the classroom's computer.
	projector := routeOn(r.GET, noStore, atClass(s.district), s.identifyViewer, s.projectorOnly, servedHere)
	projectorBase{}.routes(projector, s)
	projector(paths.ProjectorEvents, s.events)

	r.NoRoute(func(c *gin.Context) { refuse(c, http.StatusNotFound, loc(c).T("error.nopage")) })
	return r
}

// routeOn registers routes of the address table with a method (r.GET,
// r.POST), each behind the middleware given and then its own.
func routeOn(method func(string, ...gin.HandlerFunc) gin.IRoutes, middleware ...gin.HandlerFunc) func(paths.Route, ...gin.HandlerFunc) {
	return func(route paths.Route, h ...gin.HandlerFunc) {
		method(route.String(), append(slices.Clone(middleware), h...)...)
	}
}

func (s *Server) logRequests(c *gin.Context) {
	start := time.Now()
	c.Next()
	// The route's pattern, never the address: a path holds class codes
	// and match ids, a query a language or a version, and neither a
	// token nor a secret ever reaches a log.
	route := cmp.Or(c.FullPath(), "unmatched")
	for _, err := range c.Errors {
		s.log.Error("request", "method", methodLabel(c.Request.Method), "route", route, "status", c.Writer.Status(), "err", err.Err)
	}
	s.log.Debug("request", "method", methodLabel(c.Request.Method), "route", route, "status", c.Writer.Status(), "ms", float64(time.Since(start).Microseconds())/1000)
}

// health is /healthz's answer, for a proxy's health check and a district's
// monitoring: anyone may ask, so it says nothing of the classes (their
// counts are on --metrics-addr).
type health struct {
	Status   string `json:"status"`   // "ok", or "unavailable" with 503
	Database string `json:"database"` // "writable", "unreachable" or "not writable"
	Version  string `json:"version"`
}

func (s *Server) healthz(c *gin.Context) {
	h := health{Status: "ok", Database: "writable", Version: BuildInfo().Short()}
	switch err := s.reports.Ping(c.Request.Context()); {
	case err != nil:
		h.Status, h.Database = "unavailable", "unreachable"
	case !s.reports.Writable():
		h.Status, h.Database = "unavailable", "not writable"
	}
	status := http.StatusOK
	if h.Status != "ok" {
		status = http.StatusServiceUnavailable
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(status, h)
}

// publicRoutes are the pages anyone may ask for: the front page, joining,
// practice, verify, the glossary, the language.
func (s *Server) publicRoutes(r *gin.Engine) {
	get, post := routeOn(r.GET), routeOn(r.POST)
	get(paths.Healthz, s.healthz)

	get(paths.Front, s.front)
	post(paths.Classes, s.createClass)
	post(paths.Practice, s.startPractice)

	get(paths.Join, s.joinPage)
	get(paths.JoinCode, s.joinPage)
	get(paths.JoinQR, s.joinQR)
	post(paths.Join, s.join)
	post(paths.JoinCode, atClass(s.district), s.join)

	// Practice matches; a class match's old address here moves (308) to
	// its /c/{code}/m/{id}, for its own players. These pages know who
	// asks (by the player token alone: their addresses name no class);
	// the others above never look.
	vget, vpost := routeOn(r.GET, s.identifyViewer), routeOn(r.POST, s.identifyViewer)
	vget(paths.PracticeMatch, askedMatch, s.matchPage)
	vget(paths.PracticeBoard, askedMatch, s.board)
	vpost(paths.PracticeAct, askedMatch, s.paced, s.act)
	vget(paths.PracticeRecord, askedMatch, s.record)
	vpost(paths.PracticeGuess, askedMatch, s.guessMystery)
	vget(paths.Verify, s.verifyPage)
	get(paths.Glossary, s.glossary)
	get(paths.Privacy, s.privacy)
	get(paths.Help, s.help)
	post(paths.Lang, s.pickLanguage)
	post(paths.Verify, s.verify)

	// A learning platform's (LTI 1.3, front_lti.go): the launch and the
	// login initiation are posted from the platform's site
	// (newCrossOrigin lets them through).
	get(paths.LTIRegister, noStore, s.ltiRegisterPage)
	post(paths.LTIRegister, noStore, s.ltiRegister)
	get(paths.LTILogin, noStore, s.ltiLogin)
	post(paths.LTILogin, noStore, s.ltiLogin)
	post(paths.LTILaunch, noStore, s.ltiLaunch)
	get(paths.LTIKeys, s.ltiKeys)
	post(paths.LTIDeepLink, noStore, s.deepLink)
	post(paths.LTILaunchStored, noStore, s.ltiLaunchStored) // from pigclass's own page only
	get(paths.LTIContinue, noStore, s.ltiContinue)
}

// studentRoutes are a class's student's pages.
func (s *Server) studentRoutes(r *gin.Engine) {
	// A student's pages hold their rejoin code and classmates' names:
	// never kept by a shared Chromebook's cache or Back button.
	// A student the teacher removed is told so on every one of them.
	sget, spost := routeOn(r.GET, noStore, atClass(s.district), s.identifyViewer, s.notRemoved, servedHere), routeOn(r.POST, atClass(s.district), s.identifyViewer, s.notRemoved, servedHere)
	sget(paths.Student, s.studentHome)
	sget(paths.StudentNext, s.studentNext)
	sget(paths.StudentEvents, s.studentEvents)
	sget(paths.StudentCharts, s.studentCharts)
	sget(paths.StudentSkunk, s.studentSkunk)
	sget(paths.StudentPlan, s.studentPlan)
	spost(paths.StudentPlan, s.savePlan)
	sget(paths.PlanChances, s.planChances)
	sget(paths.PlanJSON, s.planJSON)
	sget(paths.StudentLab, s.studentLab)
	spost(paths.StudentLab, s.runExperiment)
	spost(paths.SkunkSit, s.skunkSit)
	sget(paths.ClassMatch, askedMatch, s.matchPage)
	sget(paths.ClassBoard, askedMatch, s.board)
	spost(paths.ClassAct, askedMatch, s.paced, s.act)
	spost(paths.ClassEnter, askedMatch, s.paced, s.enter)
	sget(paths.ClassRecord, askedMatch, s.record)
	spost(paths.ClassGuess, askedMatch, s.guessMystery)
	sget(paths.SkunkRecord, s.skunkRecord)
	sget(paths.ClassVerify, s.verifyPage)
	sget(paths.MyData, s.myData)
	sget(paths.ClassPrivacy, s.classPrivacy)
	spost(paths.PlayHomework, s.playHomework)
}

// switchRoutes are the teacher's switches of the class: each a pair of
// posts, on and off, and the joins' cap.
func (s *Server) switchRoutes(tpost func(paths.Route, ...gin.HandlerFunc)) {
	tpost(paths.Lock, s.setSwitch(func(f *classroom.Switches) { f.Locked = true }, "notice.locked"))
	tpost(paths.Open, s.setSwitch(func(f *classroom.Switches) { f.Locked = false }, "notice.opened"))
	tpost(paths.Pause, s.setSwitch(func(f *classroom.Switches) { f.Paused = true }, "notice.paused"))
	tpost(paths.Resume, s.setSwitch(func(f *classroom.Switches) { f.Paused = false }, "notice.resumed"))
	tpost(paths.AnonymousOn, s.setSwitch(func(f *classroom.Switches) { f.Anonymous = true }, "notice.anon_on"))
	tpost(paths.AnonymousOff, s.setSwitch(func(f *classroom.Switches) { f.Anonymous = false }, "notice.anon_off"))
	tpost(paths.ListHide, s.setSwitch(func(f *classroom.Switches) { f.ListHidden = true }, "notice.list_hidden"))
	tpost(paths.ListShow, s.setSwitch(func(f *classroom.Switches) { f.ListHidden = false }, "notice.list_shown"))
	tpost(paths.CodesOpen, s.setSwitch(func(f *classroom.Switches) { f.CodesOpen = true }, "notice.codes_open"))
	tpost(paths.CodesClosed, s.setSwitch(func(f *classroom.Switches) { f.CodesOpen = false }, "notice.codes_closed"))
	tpost(paths.JoinsUnlimited, s.setJoinsUnlimited(true, "notice.joins_unlimited"))
	tpost(paths.JoinsLimited, s.setJoinsUnlimited(false, "notice.joins_limited"))
}

// teacherRoutes are a class's teacher's pages and controls.
func (s *Server) teacherRoutes(r *gin.Engine) {
	teacher := []gin.HandlerFunc{noStore, atClass(s.district), s.identifyViewer, s.teacherOnly, servedHere}
	tget, tpost := routeOn(r.GET, teacher...), routeOn(r.POST, teacher...)
	tget(paths.Teacher, s.dashboard)
	tget(paths.TeacherLive, s.dashboardLive)
	tget(paths.TeacherEvents, s.events)
	tget(paths.TeacherCharts, s.dashboardCharts)
	tpost(paths.RosterPreview, s.rosterPreview)
	tpost(paths.Roster, s.addRoster)
	tget(paths.LoginCards, s.loginCards)
	tpost(paths.LTIScore, s.setLinkScore)
	tpost(paths.PoseLab, s.poseLab)
	tpost(paths.RevealLab, s.revealLab)
	projectorBase{teacher: true}.routes(routeOn(r.GET, teacher...), s)
	tpost(paths.ProjectorChart, s.pickProjectorChart)
	tpost(paths.ClassLanguage, s.setClassLanguage)
	s.switchRoutes(tpost)
	tget(paths.TeacherSkunk, s.teacherSkunk)
	tpost(paths.SkunkRoll, s.skunkRoll)
	tpost(paths.SkunkEnd, s.endSkunk)
	tpost(paths.SkunkStart, s.startSkunk)
	tget(paths.ConfirmSkunk, s.confirmSkunk)
	tpost(paths.LessonNext, s.stepLesson(1))
	tpost(paths.LessonBack, s.stepLesson(-1))
	tpost(paths.LessonStart, s.stepLesson(0))
	tpost(paths.LessonCountdown, s.lessonCountdown)
	tpost(paths.LessonPlan, s.setLessonPlan)
	tpost(paths.Rounds, s.startRound)
	tpost(paths.RoundsEnd, s.endRound)
	tpost(paths.RoundsAgain, s.playAgain)
	tget(paths.TeacherStudent, s.teacherStudent)
	tget(paths.Tournament, s.tournament(templates.TournamentView))
	tget(paths.Tables, s.tablesOfClass)
	tpost(paths.Tables, s.openTable)
	tget(paths.TableSheet, s.tableSheet)
	tpost(paths.Tournament, s.openTournament)
	tpost(paths.TournamentClose, s.closeTournament)
	tget(paths.TournamentLive, s.tournament(templates.TournamentLive))
	tpost(paths.RemoveStudent, s.removeStudent)
	tpost(paths.ReadmitStudent, s.readmitStudent)
	tget(paths.StudentData, s.studentData)
	tpost(paths.EraseStudent, s.eraseStudent)
	tget(paths.ConfirmErase, s.confirmErase)
	tpost(paths.Homework, s.setHomework)
	tpost(paths.HomeworkClose, s.closeHomework(true))
	tpost(paths.HomeworkOpen, s.closeHomework(false))
	tpost(paths.HomeworkDue, s.moveHomework)
	tpost(paths.RenewRejoin, s.renewRejoin)
	tpost(paths.ExtraTime, s.setExtraTime)
	tget(paths.ConfirmRenew, s.confirmRenew)
	tpost(paths.DeleteClass, s.deleteClass)
	tget(paths.ConfirmEndRound, s.confirmPage("end-round"))
	tget(paths.ConfirmStep, s.confirmStep)
	tget(paths.ConfirmRemove, s.confirmPage("remove"))
	tget(paths.ConfirmDelete, s.confirmPage("delete"))
	tget(paths.DecisionsCSV, s.csvFile("decisions"))
	tget(paths.MatchesCSV, s.csvFile("matches"))
	tget(paths.StudentsCSV, s.csvFile("students"))
	tget(paths.PlayersCSV, s.csvFile("match_players"))
	tget(paths.StrategiesCSV, s.csvFile("strategies"))
	tget(paths.TournamentCSV, s.csvFile("tournament"))
	tget(paths.ExperimentsCSV, s.csvFile("experiments"))
}
