package server

import (
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/templates"
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
	status, msg := explain(err)
	if status == http.StatusInternalServerError {
		c.Error(err)
	}
	refuse(c, status, msg)
}

// explain is the one place errors become statuses and messages.
func explain(err error) (int, string) {
	var ae *sim.ActionError
	switch {
	case errors.As(err, &ae):
		return http.StatusConflict, "That move is not allowed: " + ae.Reason + "."
	case errors.Is(err, store.ErrNotFound):
		return http.StatusNotFound, "There is no such page."
	case errors.Is(err, errNotPlaying):
		return http.StatusConflict, "This match is over or was ended by the teacher."
	case errors.Is(err, errNotSeated):
		return http.StatusForbidden, "You are not playing in this match."
	case errors.Is(err, errPaused):
		return http.StatusConflict, "The teacher has paused play. Wait for it to resume."
	}
	return http.StatusInternalServerError, "Internal error: something went wrong on the server. Try again."
}
