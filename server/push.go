package server

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/server/store"
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
// A stream is one goroutine that waits on bells (play.Bell): a change
// wakes the streams waiting on its bell at once, without a lock held by
// any request, and each asks whether what its page shows moved
// (lookKey) before it says so. A student's stream waits on its class's
// news (a change of the class itself: roster, rounds, lesson, homework,
// Skunk) and its own match's bell, so a move in one match of a class of
// a thousand wakes two pages, not a thousand; the teacher's and the
// shared screen's wait on every change of the class and its matches, and
// look at most every teacherGap at first and every teacherBusy while the
// class keeps changing. A stream keeps no queue: its memory is its
// goroutine and its connection's buffers, whatever the class does
// (BenchmarkStreams measures it), and at most maxStreams are open at
// once (past that a page polls; a viewer holds perViewer, the oldest ended first).

// EndStreams ends the open event streams and refuses new ones: call it as
// the server shuts down (http.Server.RegisterOnShutdown), as a graceful
// shutdown waits for requests to finish and a stream does not by itself.
func (s *Server) EndStreams() { s.streams.end() }

// lookKey is what a page shows of its class, as numbers that move with
// it: when the key changes, the page looks again.
type lookKey struct {
	class                                           store.Class   // the class as a student's pages show it (not its roster)
	me                                              store.Student // the student, as the class holds them (or none: removed)
	round                                           *play.Round   // the open round
	activity                                        int64         // a teacher's screens: every change
	homework, playing, playingVersion, skunk, match int64
}

// lookOf returns how to read the key of the viewer's pages: for a
// student, match is the match their board shows (0: none).
func (s *Server) lookOf(v classroom.Viewer, match int64) func() lookKey {
	if _, ok := v.Student(); !ok {
		return func() lookKey { return lookKey{activity: v.Activity()} }
	}
	return func() lookKey {
		var k lookKey
		if cl := v.Class(); cl != nil {
			// Not its version: a classmate joining changes that, and no
			// student's page shows the roster.
			k.class, k.round = cl.Class, cl.Round
		}
		k.me, _ = v.Student()
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

// lookData is what a look of a student's stream says: the board their
// page shows (the match of ?m=, or else their match of the open round) as
// "ID/VERSION", the version the board's poll carries (boardVersion), so
// that a board that shows it already asks nothing (app.js): the look
// that follows a student's own move, whose answer drew the board. "-"
// when there is none, and for the teacher's screens.
func (s *Server) lookData(v classroom.Viewer, match int64) string {
	if _, ok := v.Student(); !ok {
		return "-"
	}
	var m *play.Match
	if match != 0 {
		m = s.hall.Match(match)
	} else {
		m = v.Playing()
	}
	if m == nil {
		return "-"
	}
	return strconv.FormatInt(m.ID, 10) + "/" + boardVersion(m, v.Class())
}

// changesOf returns the channels a stream of the viewer's pages waits
// on, each closed at a change (a nil one never is), and whether the
// class is still there: every change of the class and its matches
// (activity: a teacher's or shared screen's), a change of the class
// itself (news), of the student's match (mine) and of the match their
// board shows (board).
func (s *Server) changesOf(v classroom.Viewer, match int64) (activity, news, mine, board <-chan struct{}, here bool) {
	news, here = v.ClassChanges()
	if _, ok := v.Student(); !ok {
		activity, _ = v.Changes()
		return activity, news, nil, nil, here
	}
	if m := v.Playing(); m != nil {
		mine = s.hall.Changes(m.ID)
	}
	if match != 0 {
		board = s.hall.Changes(match)
	}
	return nil, news, mine, board, here
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
	ended, done, ok := s.streams.take(streamOwner(v), !isStudent(v))
	switch {
	case !ok && s.streams.closed.Load():
		c.Header("Retry-After", "30")
		c.Status(http.StatusServiceUnavailable)
		return
	case !ok:
		// The server's most streams: this page polls, as it does where
		// no stream passes (an EventSource answered 204 is not opened
		// again by itself).
		c.Status(http.StatusNoContent)
		return
	}
	defer done()
	var match int64
	if id, err := strconv.ParseInt(c.Query("m"), 10, 64); err == nil && id > 0 {
		// Only a match the student may see is listened to; another is
		// not, and nothing says whether it exists.
		if _, err := s.hall.See(c.Request.Context(), v.Seer(), id, false); err == nil {
			match = id
		}
	}
	send := openStream(c)
	if !send("retry: " + strconv.Itoa(streamRetry) + "\n\n") {
		return
	}
	s.listen(c.Request.Context(), v, match, send, drop, ended)
}

// streamOwner names the viewer whose streams are bounded together
// (perViewer): a student of a class, its teacher, its shared screen.
func streamOwner(v classroom.Viewer) string {
	id := int64(0)
	if cl := v.Class(); cl != nil {
		id = cl.ID
	}
	switch me, ok := v.Student(); {
	case v.Teacher():
		return "t" + strconv.FormatInt(id, 10)
	case ok:
		return "s" + strconv.FormatInt(me.ID, 10)
	}
	return "p" + strconv.FormatInt(id, 10)
}

// isStudent reports whether the viewer is a student (not the teacher, who
// may also hold a seat).
func isStudent(v classroom.Viewer) bool {
	_, ok := v.Student()
	return ok && !v.Teacher()
}

// openStream answers c as an event stream and returns how to send on it:
// each message written and flushed at once, false once the browser no
// longer takes them.
func openStream(c *gin.Context) func(msg string) bool {
	h := c.Writer.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no") // nginx: pass each event on at once
	c.Status(http.StatusOK)
	rc := http.NewResponseController(c.Writer)
	rc.SetReadDeadline(time.Time{}) // the request is read; the stream outlives the server's read timeout
	return func(msg string) bool {
		rc.SetWriteDeadline(time.Now().Add(streamWrite))
		if _, err := io.WriteString(c.Writer, msg); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
}

// listen says look on the viewer's stream whenever what their pages show
// moved, and alive every streamAlive, until the browser goes, the class
// does, or drop closes. A change of the class itself (news: a phase, a
// round) is looked at at once, even within a teacher's busy gap.
func (s *Server) listen(ctx context.Context, v classroom.Viewer, match int64, send func(string) bool, drop, ended <-chan struct{}) {
	look, gap := s.lookOf(v, match), gapsOf(v)
	student := isStudent(v)
	alive := time.NewTicker(streamAlive)
	defer alive.Stop()
	var last lookKey
	first, urgent := true, true
	for {
		activity, news, mine, board, here := s.changesOf(v, match)
		if k := look(); first || k != last {
			if !send("event: look\ndata: " + s.lookData(v, match) + "\n\n") {
				return
			}
			first, last = false, k
			ok, woke := pause(ctx, gap(urgent), drop, news, ended)
			if !ok {
				return
			}
			urgent = woke
			continue // what changed during the gap is looked at now
		}
		if !here {
			return // the class is gone: the look above said so
		}
		if _, still := v.Student(); student && !still {
			return // the teacher removed the student: the look above said so
		}
		select {
		case <-activity:
		case <-news:
			urgent = true
		case <-mine:
		case <-board:
		case <-alive.C:
			if !send("event: alive\ndata: 1\n\n") {
				return
			}
		case <-ctx.Done():
			return
		case <-drop:
			return
		case <-ended:
			return // the viewer opened perViewer newer streams
		}
	}
}

// gapsOf returns the least time to a stream's next look, asked at each
// look: a student's streamGap; a teacher's or shared screen's teacherGap
// after a change of the class itself (urgent) and for the first looks of
// a burst, then teacherBusy while the class's matches keep moving (a
// class playing changes many times a second, and each look may draw its
// live parts for every name).
func gapsOf(v classroom.Viewer) func(urgent bool) time.Duration {
	if _, student := v.Student(); student {
		return func(bool) time.Duration { return streamGap }
	}
	var lastLook time.Time
	burst := 0
	return func(urgent bool) time.Duration {
		if time.Since(lastLook) > teacherBusy {
			burst = 0
		}
		burst++
		lastLook = time.Now()
		if urgent || burst <= burstLooks {
			return teacherGap
		}
		return teacherBusy
	}
}

// pause waits d, and reports false if ctx ends or drop or ended closes first, and
// whether wake closed (the wait then ends at once).
func pause(ctx context.Context, d time.Duration, drop, wake, ended <-chan struct{}) (ok, woke bool) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true, false
	case <-wake:
		return true, true
	case <-ctx.Done():
	case <-drop:
	case <-ended:
	}
	return false, false
}
