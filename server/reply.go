package server

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/a-h/templ"
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

// refuse answers with a page (or a line for htmx) that says what to do.
func refuse(c *gin.Context, status int, msg string) {
	c.Abort()
	if isHTMX(c) {
		c.String(status, msg)
		return
	}
	render(c, status, templates.ErrorView(templates.ErrorPage{Status: status, Message: msg}))
}

// fail maps an error to a status and a message a student or teacher can
// act on; anything unexpected is "internal error" to them and logged.
func fail(c *gin.Context, err error) {
	status, msg := explain(loc(c), err)
	if status == http.StatusInternalServerError && err != nil {
		c.Error(err)
	}
	refuse(c, status, msg)
}

// errNotSeated refuses a player who is not in a match.
var errNotSeated = play.ErrNotSeated

// explain is the one place errors become statuses and messages, in the
// reader's language.
func explain(l *i18n.Localizer, err error) (int, string) {
	var ae *sim.ActionError
	var later *play.SeedLaterError
	var guess *play.BadGuessError
	var limited *play.LimitError
	var room *solve.RoomError
	var written *play.ScoreError
	switch {
	case errors.As(err, &limited):
		return http.StatusTooManyRequests, limitWords(l, limited)
	case errors.As(err, &room):
		return http.StatusConflict, l.T("roundform.room", "Need", l.Int(int(room.Need>>20)+1), "Free", l.Int(int(room.Free>>20)))
	case errors.Is(err, classroom.ErrTooManyAssignments):
		return http.StatusConflict, l.T("error.too_many_assignments", "N", l.Int(classroom.MaxOpenAssignments))
	case errors.As(err, &later) && later.Playing == 0:
		return http.StatusConflict, l.T("error.seedlater")
	case errors.As(err, &later):
		return http.StatusConflict, l.N("review.seedlater", later.Playing)
	case errors.As(err, &ae):
		return http.StatusConflict, l.T("error.move." + string(ae.Code))
	case errors.Is(err, store.ErrNotFound):
		return http.StatusNotFound, l.T("error.nopage")
	case errors.Is(err, play.ErrNotPlaying):
		return http.StatusConflict, l.T("error.notplaying")
	case errors.Is(err, play.ErrNotSeated):
		return http.StatusForbidden, l.T("error.notseated")
	case errors.Is(err, play.ErrPaused):
		return http.StatusConflict, l.T("error.paused")
	case errors.As(err, &written):
		return http.StatusUnprocessableEntity, l.T("error.table_score", "Written", l.Int(written.Written), "Made", l.Int(written.Made))
	case errors.Is(err, play.ErrCommitted):
		return http.StatusConflict, l.T("error.committed")
	case errors.Is(err, play.ErrPlanStarted):
		return http.StatusConflict, l.T("error.plan_started")
	case errors.Is(err, play.ErrNotCommitted):
		return http.StatusConflict, l.T("error.not_committed")
	case errors.Is(err, classroom.ErrArmsRollHold):
		return http.StatusUnprocessableEntity, l.T("error.arms_rollhold")
	case errors.Is(err, play.ErrNotAtTable):
		return http.StatusConflict, l.T("error.not_at_table")
	case errors.Is(err, play.ErrNothingToCorrect):
		return http.StatusConflict, l.T("error.nothing_to_correct")
	case errors.Is(err, play.ErrOutOfOrder):
		return http.StatusConflict, l.T("error.out_of_order")
	case errors.Is(err, play.ErrTurnOver):
		return http.StatusConflict, l.T("error.turn_over")
	case errors.Is(err, classroom.ErrNoSkunk):
		return http.StatusConflict, l.T("error.noskunk")
	case errors.Is(err, classroom.ErrSkunkIsOver):
		return http.StatusConflict, l.T("error.skunkover")
	case errors.Is(err, store.ErrNotSaved):
		return http.StatusServiceUnavailable, l.T("error.notsaved")
	case errors.Is(err, play.ErrMysteryWaits):
		return http.StatusConflict, l.T("error.mystery_wait")
	case errors.Is(err, play.ErrNotMystery):
		return http.StatusBadRequest, l.T("error.not_mystery")
	case errors.As(err, &guess):
		names := make([]string, len(guess.Strengths))
		for i, s := range guess.Strengths {
			names[i] = botLabel(l, s, guess.Game.Rules().HoldAt)
		}
		return http.StatusBadRequest, l.T("error.mystery_guess", "List", strings.Join(names, "; "))
	}
	return http.StatusInternalServerError, l.T("error.internal")
}

// render writes a templ component with the request's context.
func render(c *gin.Context, status int, comp templ.Component) {
	c.Status(status)
	c.Header("Content-Type", "text/html; charset=utf-8")
	c.Header("Content-Language", loc(c).Lang())
	if err := comp.Render(c.Request.Context(), c.Writer); err != nil {
		c.Error(err)
	}
}

// isHTMX reports whether the request came from htmx (wants a fragment).
func isHTMX(c *gin.Context) bool { return c.GetHeader("HX-Request") == "true" }

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
	page, _, _ := strings.Cut(path, "?") // a cookie's path is the page's, its query aside
	http.SetCookie(c.Writer, &http.Cookie{Name: flashCookie, Value: url.QueryEscape(notice), Path: page, MaxAge: 60,
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

// moved sends an old address of match id to its new place, keeping the
// method (308) and what follows the match's address (/act, /board).
func moved(c *gin.Context, id int64, to string) {
	to += strings.TrimPrefix(c.Request.URL.Path, paths.PracticeMatch.With("", id))
	if q := c.Request.URL.RawQuery; q != "" {
		to += "?" + q
	}
	c.Redirect(http.StatusPermanentRedirect, to)
	c.Abort()
}

func removedMessage(l *i18n.Localizer, code string) string {
	return l.T("joinerr.removed", "Code", code)
}

func lockedMessage(l *i18n.Localizer, code string) string {
	return l.T("joinerr.locked", "Code", code)
}

// limitWords says which of the door's limits refused a match, and what
// to do.
func limitWords(l *i18n.Localizer, e *play.LimitError) string {
	id := map[play.Limit]string{
		play.LimitLive: "error.limit_live", play.LimitClassLive: "error.limit_class_live",
		play.LimitPlayerOpen: "error.limit_player_open", play.LimitDeviceStarts: "error.limit_device_starts",
		play.LimitClassStarts: "error.limit_class_starts", play.LimitKindsClass: "roundform.variants",
		play.LimitKindsServer: "roundform.variants_server",
	}[e.Limit]
	return l.T(id, "N", l.Int(e.N))
}

// refuseMatch answers a match the room refused: sent on to its class's
// address for one of its players, else as if there were no such match.
func refuseMatch(c *gin.Context, id int64, err error) {
	var m *play.MovedError
	if errors.As(err, &m) {
		moved(c, id, paths.Match(m.Code, id))
		return
	}
	fail(c, err)
}
