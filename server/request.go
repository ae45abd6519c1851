package server

import (
	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
)

// requestKey names what a middleware leaves on a request for the handlers
// after it; each is read and written through the typed accessors below,
// never by a string.
type requestKey int

const (
	viewerKey requestKey = iota // classroom.Viewer: who the gate let through
	httpsKey                    // bool: the browser reached the app over HTTPS
	chosenKey                   // bool: the reader picked their language
)

// setViewer keeps who the gate (teacherOnly, projectorOnly) let through.
func setViewer(c *gin.Context, v classroom.Viewer) { c.Set(viewerKey, v) }

// viewerFrom is who the request is from, as viewer identified them; only
// handlers behind a gate (which refused anyone else) call it.
func viewerFrom(c *gin.Context) classroom.Viewer { return c.MustGet(viewerKey).(classroom.Viewer) }

// classFrom is the class of a request the gate let through, as it is now.
func classFrom(c *gin.Context) *classroom.Class { return viewerFrom(c).Class() }

// overHTTPS reports whether the browser reached the app over HTTPS
// (directly or through a trusted proxy).
func overHTTPS(c *gin.Context) bool { return c.GetBool(httpsKey) || c.Request.TLS != nil }

// languageChosen reports whether the reader picked their language with
// the switcher.
func languageChosen(c *gin.Context) bool { return c.GetBool(chosenKey) }
