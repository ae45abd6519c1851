package server

import (
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
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

// errNotSeated refuses a player who is not in a match.
var errNotSeated = classroom.ErrNotSeated

// explain is the one place errors become statuses and messages.
func explain(err error) (int, string) {
	var ae *sim.ActionError
	switch {
	case errors.As(err, &ae):
		return http.StatusConflict, "That move is not allowed: " + ae.Reason + "."
	case errors.Is(err, store.ErrNotFound):
		return http.StatusNotFound, "There is no such page."
	case errors.Is(err, classroom.ErrNotPlaying):
		return http.StatusConflict, "This match is over or was ended by the teacher."
	case errors.Is(err, classroom.ErrNotSeated):
		return http.StatusForbidden, "You are not playing in this match."
	case errors.Is(err, classroom.ErrPaused):
		return http.StatusConflict, "The teacher has paused play. Wait for it to resume."
	case errors.Is(err, classroom.ErrNoSkunk):
		return http.StatusConflict, "No game of Skunk is being played: start it from a lesson's Skunk phase."
	case errors.Is(err, classroom.ErrSkunkIsOver):
		return http.StatusConflict, "This game of Skunk is over."
	case errors.Is(err, store.ErrNotSaved):
		return http.StatusServiceUnavailable, "Not saved: the server could not store that just now. Try again."
	}
	return http.StatusInternalServerError, "Internal error: something went wrong on the server. Try again."
}
