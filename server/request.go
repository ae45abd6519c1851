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
	viewerKey requestKey = iota // classroom.Viewer: who the request is from
	httpsKey                    // bool: the browser reached the app over HTTPS
	chosenKey                   // bool: the reader picked their language
	matchKey                    // int64: the match a route's :id names
)

// setViewer keeps who identifyViewer found the request is from.
func setViewer(c *gin.Context, v classroom.Viewer) { c.Set(viewerKey, v) }

// viewerFrom is who the request is from, as identifyViewer found them
// before any handler ran.
func viewerFrom(c *gin.Context) classroom.Viewer { return c.MustGet(viewerKey).(classroom.Viewer) }

// matchAsked is the match a request asks for, as askedMatch read it
// before the handler ran, and who asks.
func matchAsked(c *gin.Context) (int64, classroom.Viewer) {
	return c.MustGet(matchKey).(int64), viewerFrom(c)
}

// classFrom is the class of a request the gate let through, as it is now.
func classFrom(c *gin.Context) *classroom.Class { return viewerFrom(c).Class() }

// overHTTPS reports whether the browser reached the app over HTTPS
// (directly or through a trusted proxy).
func overHTTPS(c *gin.Context) bool { return c.GetBool(httpsKey) || c.Request.TLS != nil }

// languageChosen reports whether the reader picked their language with
// the switcher.
func languageChosen(c *gin.Context) bool { return c.GetBool(chosenKey) }
