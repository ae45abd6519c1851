package server

import (
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
)

// A class's pages kept open hear of a change as it happens: each page
// holds one event stream (server-sent events, through htmx's SSE
// extension, static/vendor/htmx-ext-sse.min.js) and, told to "look", fetches its live
// parts at once, as its poll would (with the version it shows, so a part
// that did not change answers 204). The stream carries no class data:
// only "look" and, every streamAlive, "alive", by which the page knows
// the stream works. A page that hears neither (no stream, a proxy that
// buffers, a phone waking up) polls as it always did; a stream that
// drops is opened again by the browser within a second (retry), and its
// first event is a look, so the page catches up on whatever it missed.
//
// A stream is one goroutine that waits on its class's bell
// (classroom.Viewer.Changes): a change wakes the class's streams at
// once, without a lock held by any request, and each asks whether what
// its page shows moved (lookKey) before it says so. A student's pages
// look again when their class, their homework, their match or their
// game of Skunk changed, not at every move of the class; the teacher's
// and the shared screen's at every change of the class, at most one
// look every teacherGap. A stream keeps no queue: its memory is its
// goroutine and its connection's buffers, whatever the class does
// (BenchmarkStreams measures it), and at most maxStreams are open at
// once (past that a page polls).

// EndStreams ends the open event streams and refuses new ones: call it as
// the server shuts down (http.Server.RegisterOnShutdown), as a graceful
// shutdown waits for requests to finish and a stream does not by itself.
func (s *Server) EndStreams() { s.streams.end() }

// lookKey is what a page shows of its class, as numbers that move with
// it: when the key changes, the page looks again.
type lookKey struct {
	class, homework, playing, playingVersion, skunk, match int64
}

// lookOf returns how to read the key of the viewer's pages: for a
// student, match is the match their board shows (0: none).
func (s *Server) lookOf(v classroom.Viewer, match int64) func() lookKey {
	if _, ok := v.Student(); !ok {
		return func() lookKey { return lookKey{class: v.Activity()} }
	}
	return func() lookKey {
		var k lookKey
		if cl := v.Class(); cl != nil {
			k.class = cl.Version
		}
		k.homework = v.HomeworkVersion()
		if m := v.Playing(); m != nil {
			k.playing, k.playingVersion = m.ID, m.Version
		}
		if sk := v.Skunk(); sk != nil {
			k.skunk = sk.Version
		}
		if match != 0 {
			if m := s.hall.Match(match); m != nil {
				k.match = m.Version
			}
		}
		return k
	}
}

// studentEvents is a student's pages' event stream: for the class's
// students only, anyone else refused as the student's pages refuse them.
func (s *Server) studentEvents(c *gin.Context) {
	if _, _, ok := s.studentOf(c); ok {
		s.events(c)
	}
}

// events is a class page's event stream, for its student, its teacher or
// its shared screen (the caller has said who may listen).
func (s *Server) events(c *gin.Context) {
	v := viewerFrom(c)
	drop := s.streams.dropped()
	if s.streams.closed.Load() {
		c.Status(http.StatusServiceUnavailable)
		return
	}
	if s.streams.open.Add(1) > s.streams.max.Load() {
		s.streams.open.Add(-1)
		c.Header("Retry-After", "30")
		c.Status(http.StatusServiceUnavailable)
		return
	}
	defer s.streams.open.Add(-1)
	var match int64
	if id, err := strconv.ParseInt(c.Query("m"), 10, 64); err == nil && id > 0 {
		// Only a match the student may see is listened to; another is
		// not, and nothing says whether it exists.
		if _, err := s.hall.See(c.Request.Context(), v.Seer(), id, false); err == nil {
			match = id
		}
	}
	look := s.lookOf(v, match)
	gapOf := streamGap
	if _, ok := v.Student(); !ok {
		gapOf = teacherGap
	}

	h := c.Writer.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no") // nginx: pass each event on at once
	c.Status(http.StatusOK)
	rc := http.NewResponseController(c.Writer)
	rc.SetReadDeadline(time.Time{}) // the request is read; the stream outlives the server's read timeout
	send := func(msg string) bool {
		rc.SetWriteDeadline(time.Now().Add(streamWrite))
		if _, err := io.WriteString(c.Writer, msg); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !send("retry: " + strconv.Itoa(streamRetry) + "\n\n") {
		return
	}
	ctx := c.Request.Context()
	alive := time.NewTicker(streamAlive)
	defer alive.Stop()
	var last lookKey
	first := true
	for {
		changed, here := v.Changes()
		if k := look(); first || k != last {
			if !send("event: look\ndata: " + strconv.FormatInt(k.class, 10) + "\n\n") {
				return
			}
			first, last = false, k
			gap := time.NewTimer(gapOf)
			select {
			case <-gap.C:
			case <-ctx.Done():
				gap.Stop()
				return
			case <-drop:
				gap.Stop()
				return
			}
			continue // what changed during the gap is looked at now
		}
		if !here {
			return // the class is gone: the look above said so
		}
		select {
		case <-changed:
		case <-alive.C:
			if !send("event: alive\ndata: 1\n\n") {
				return
			}
		case <-ctx.Done():
			return
		case <-drop:
			return
		}
	}
}
