package server

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"
)

// The timing of a stream.
const (
	streamAlive = 5 * time.Second        // an "alive" this often: a page that hears nothing for 12 s polls again
	streamGap   = 100 * time.Millisecond // the least time between two looks of a student's stream
	teacherGap  = 150 * time.Millisecond // and of a teacher's or a shared screen's, the first looks of a burst
	teacherBusy = time.Second            // the rest of the burst (each look may draw the class's live parts again)
	burstLooks  = 3                      // looks a burst sends teacherGap apart; a second without one ends it
	streamWrite = 10 * time.Second       // a write the browser does not take in this long ends the stream
	streamRetry = 1000                   // milliseconds the browser waits before it opens a dropped stream again
	maxStreams  = 4000                   // open at once on a server; 2,000 students' pages fit twice
	// perViewer streams of one viewer (a student, a class's teacher, its
	// shared screen) are open at once, the oldest ended for a newer: a
	// phone and a laptop with a page or two each. A viewer is not an
	// address: a school behind one address holds a stream for each of
	// its students.
	perViewer = 4
)

// streams counts the open streams and ends them: all of them when the
// server shuts down, or (cut, for the tests) those open now, which the
// browsers then open again.
type streams struct {
	open   atomic.Int64
	max    atomic.Int64 // maxStreams; a test lowers it
	closed atomic.Bool
	drop   atomic.Pointer[chan struct{}] // closed to end the streams open now

	mu       sync.Mutex
	byViewer map[string][]chan struct{} // each viewer's open streams, the oldest first: closed to end one
}

func newStreams() *streams {
	s := &streams{byViewer: map[string][]chan struct{}{}}
	s.max.Store(maxStreams)
	ch := make(chan struct{})
	s.drop.Store(&ch)
	return s
}

// dropped returns the channel closed when the streams open now end.
func (s *streams) dropped() <-chan struct{} { return *s.drop.Load() }

// take counts a stream of viewer opened, or reports false when the
// server takes no more: it is ending, or maxStreams are open (a class's
// teacher and shared screen have an eighth more, so that another class's
// students cannot take every stream from them). It returns the channel
// closed to end this stream (the viewer opened perViewer newer ones) and
// what to call when it ends.
func (s *streams) take(viewer string, teacher bool) (<-chan struct{}, func(), bool) {
	if s.closed.Load() {
		return nil, nil, false
	}
	most := s.max.Load()
	if teacher && most > 0 {
		most += max(most/8, 1)
	}
	if s.open.Add(1) > most {
		s.open.Add(-1)
		return nil, nil, false
	}
	mine := make(chan struct{})
	s.mu.Lock()
	held := append(s.byViewer[viewer], mine)
	if len(held) > perViewer {
		close(held[0])
		held = held[1:]
	}
	s.byViewer[viewer] = held
	s.mu.Unlock()
	return mine, func() {
		s.open.Add(-1)
		s.mu.Lock()
		defer s.mu.Unlock()
		held := slices.DeleteFunc(s.byViewer[viewer], func(c chan struct{}) bool { return c == mine })
		if len(held) == 0 {
			delete(s.byViewer, viewer)
		} else {
			s.byViewer[viewer] = held
		}
	}, true
}

// cut ends the streams open now; new ones are taken.
func (s *streams) cut() {
	ch := make(chan struct{})
	close(*s.drop.Swap(&ch))
}

// end ends every stream and refuses new ones.
func (s *streams) end() {
	if s.closed.CompareAndSwap(false, true) {
		s.cut()
	}
}

// lookHeader marks a request that a page's stream caused (app.js sets it
// on the live parts' requests that a look triggered): it wants the class
// as it is now.
const lookHeader = "X-Pigclass-Look"

// looked reports whether the request came from a look.
func looked(c *gin.Context) bool { return c.GetHeader(lookHeader) != "" }
