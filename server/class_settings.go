package server

import (
	"net/http"
	"net/url"
	"slices"

	"github.com/gin-gonic/gin"

	"pigclass/server/charts"
	"pigclass/server/classroom"
	"pigclass/templates/paths"
)

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

// setSwitch turns one of the class's switches.
func (s *Server) setSwitch(change func(*classroom.Switches), notice string) gin.HandlerFunc {
	return func(c *gin.Context) {
		class := classFrom(c)
		if _, err := s.room.SetSwitches(c.Request.Context(), viewerFrom(c), change); err != nil {
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
	doneAt(c, paths.Teacher.For(code), notice)
}

// doneAt goes to the page at path with a notice for it.
func doneAt(c *gin.Context, path, notice string) {
	http.SetCookie(c.Writer, &http.Cookie{Name: flashCookie, Value: url.QueryEscape(notice), Path: path, MaxAge: 60,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: overHTTPS(c)})
	c.Redirect(http.StatusSeeOther, path)
}

// takeFlash reads the notice left for the teacher's page and clears it.
func takeFlash(c *gin.Context, code string) string {
	return takeFlashAt(c, paths.Teacher.For(code))
}

// takeFlashAt reads the notice left for the page at path and clears it.
func takeFlashAt(c *gin.Context, path string) string {
	v, err := c.Cookie(flashCookie)
	if err != nil || v == "" {
		return ""
	}
	http.SetCookie(c.Writer, &http.Cookie{Name: flashCookie, Value: "", Path: path, MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode})
	notice, err := url.QueryUnescape(v)
	if err != nil {
		return ""
	}
	return notice
}
