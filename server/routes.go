package server

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"pigclass/static"
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
	r.Use(gin.Recovery(), s.logRequests, securityHeaders, s.scheme, chooseLanguage, limitBody, sameOrigin)
	r.RedirectTrailingSlash = false

	files := gin.WrapH(static.Handler())
	r.GET(static.Prefix+"*file", files)
	r.HEAD(static.Prefix+"*file", files)
	r.GET("/healthz", s.healthz)

	r.GET("/", s.front)
	r.POST("/classes", s.createClass)
	r.POST("/practice", s.startPractice)

	r.GET("/join", s.joinPage)
	r.GET("/join/:code", s.joinPage)
	r.GET("/join/:code/qr.svg", s.joinQR)
	r.POST("/join", s.join)
	r.POST("/join/:code", s.join)

	r.GET("/c/:code", s.studentHome)
	r.GET("/c/:code/next", s.studentNext)
	r.GET("/c/:code/charts", s.studentCharts)
	r.GET("/c/:code/skunk", s.studentSkunk)
	r.POST("/c/:code/skunk/sit", s.skunkSit)
	r.GET("/c/:code/m/:id", s.matchPage)
	r.GET("/c/:code/m/:id/board", s.board)
	r.POST("/c/:code/m/:id/act", s.act)
	r.GET("/c/:code/m/:id/record.json", s.record)
	r.GET("/c/:code/verify", s.verifyPage)
	// Practice matches; a class match's old address here moves (308) to
	// its /c/{code}/m/{id}.
	r.GET("/m/:id", s.matchPage)
	r.GET("/m/:id/board", s.board)
	r.POST("/m/:id/act", s.act)
	r.GET("/m/:id/record.json", s.record)
	r.GET("/verify", s.verifyPage)
	r.GET("/glossary", s.glossary)
	r.POST("/lang", s.pickLanguage)
	r.POST("/verify", s.verify)

	t := r.Group("/t/:code", noStore, s.teacherOnly)
	t.GET("", s.dashboard)
	t.GET("/live", s.dashboardLive)
	projectorBase{teacher: true}.routes(t.Group("/projector"), s)
	t.POST("/projector-chart", s.pickProjectorChart)
	t.POST("/language", s.setClassLanguage)
	t.POST("/lock", s.setFlag(func(f *classFlags) { f.Locked = true }, "notice.locked"))
	t.POST("/open", s.setFlag(func(f *classFlags) { f.Locked = false }, "notice.opened"))
	t.POST("/pause", s.setFlag(func(f *classFlags) { f.Paused = true }, "notice.paused"))
	t.POST("/resume", s.setFlag(func(f *classFlags) { f.Paused = false }, "notice.resumed"))
	t.POST("/anonymous-on", s.setFlag(func(f *classFlags) { f.Anonymous = true }, "notice.anon_on"))
	t.POST("/anonymous-off", s.setFlag(func(f *classFlags) { f.Anonymous = false }, "notice.anon_off"))
	t.POST("/joins/unlimited", s.setJoinsUnlimited(true, "notice.joins_unlimited"))
	t.POST("/joins/limited", s.setJoinsUnlimited(false, "notice.joins_limited"))
	t.GET("/skunk", s.teacherSkunk)
	t.POST("/skunk/roll", s.skunkRoll)
	t.POST("/skunk/end", s.endSkunk)
	t.POST("/lesson/next", s.stepLesson(1))
	t.POST("/lesson/back", s.stepLesson(-1))
	t.POST("/lesson/start", s.stepLesson(0))
	t.POST("/rounds", s.startRound)
	t.POST("/rounds/end", s.endRound)
	t.POST("/rounds/again", s.playAgain)
	t.POST("/students/:id/remove", s.removeStudent)
	t.POST("/students/:id/readmit", s.readmitStudent)
	t.POST("/delete", s.deleteClass)
	t.GET("/confirm/end-round", s.confirmPage("end-round"))
	t.GET("/confirm/remove/:id", s.confirmPage("remove"))
	t.GET("/confirm/delete", s.confirmPage("delete"))
	t.GET("/decisions.csv", s.csvFile("decisions"))
	t.GET("/matches.csv", s.csvFile("matches"))
	t.GET("/students.csv", s.csvFile("students"))
	t.GET("/match_players.csv", s.csvFile("match_players"))

	// The read-only projector link, for the classroom's computer.
	projectorBase{}.routes(r.Group("/p/:code", noStore, s.projectorOnly), s)

	r.NoRoute(func(c *gin.Context) { refuse(c, http.StatusNotFound, loc(c).T("error.nopage")) })
	return r
}

func (s *Server) logRequests(c *gin.Context) {
	c.Next()
	for _, err := range c.Errors {
		s.log.Error("request", "method", c.Request.Method, "path", c.Request.URL.Path, "status", c.Writer.Status(), "err", err.Err)
	}
}

func (s *Server) healthz(c *gin.Context) {
	if err := s.store.Ping(c.Request.Context()); err != nil {
		c.String(http.StatusServiceUnavailable, "database unreachable\n")
		return
	}
	c.String(http.StatusOK, "ok\n")
}
