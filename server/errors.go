package server

import (
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/templates"
	"pigclass/templates/i18n"
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
	if status == http.StatusInternalServerError {
		c.Error(err)
	}
	refuse(c, status, msg)
}

// errNotSeated refuses a player who is not in a match.
var errNotSeated = classroom.ErrNotSeated

// explain is the one place errors become statuses and messages, in the
// reader's language.
func explain(l *i18n.Localizer, err error) (int, string) {
	var ae *sim.ActionError
	var later *classroom.SeedLaterError
	switch {
	case errors.As(err, &later) && later.Playing == 0:
		return http.StatusConflict, l.T("error.seedlater")
	case errors.As(err, &later):
		return http.StatusConflict, l.N("review.seedlater", later.Playing)
	case errors.As(err, &ae):
		return http.StatusConflict, l.T("error.move." + string(ae.Code))
	case errors.Is(err, store.ErrNotFound):
		return http.StatusNotFound, l.T("error.nopage")
	case errors.Is(err, classroom.ErrNotPlaying):
		return http.StatusConflict, l.T("error.notplaying")
	case errors.Is(err, classroom.ErrNotSeated):
		return http.StatusForbidden, l.T("error.notseated")
	case errors.Is(err, classroom.ErrPaused):
		return http.StatusConflict, l.T("error.paused")
	case errors.Is(err, classroom.ErrNoSkunk):
		return http.StatusConflict, l.T("error.noskunk")
	case errors.Is(err, classroom.ErrSkunkIsOver):
		return http.StatusConflict, l.T("error.skunkover")
	case errors.Is(err, store.ErrNotSaved):
		return http.StatusServiceUnavailable, l.T("error.notsaved")
	}
	return http.StatusInternalServerError, l.T("error.internal")
}
