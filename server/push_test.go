package server

import (
	"bufio"
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"pigclass/templates/paths"
)

// heard is a page's event stream as the tests read it: its events'
// names as they come, closed when the server ends the stream.
type heard struct {
	resp   *http.Response
	events chan string
}

// hear opens the event stream at path with the browser's cookies.
func hear(t testing.TB, b *browser, path string) *heard {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, b.app.url+path, nil)
	resp, err := b.c.Do(req)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	h := &heard{resp: resp, events: make(chan string, 256)}
	go func() {
		defer close(h.events)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if name, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				h.events <- name
			}
		}
	}()
	return h
}

// next is the stream's next event within d: its name, "" if none came,
// "end" if the server ended the stream.
func (h *heard) next(d time.Duration) string {
	select {
	case name, ok := <-h.events:
		if !ok {
			return "end"
		}
		return name
	case <-time.After(d):
		return ""
	}
}

// quiet is how long a stream that should say nothing is listened to: a
// look comes within milliseconds, so silence for this long means none.
const quiet = 400 * time.Millisecond

// TestAStreamSaysLookForWhatItsPageShows: a student's stream says "look"
// when it opens (the page catches up), when their own match moves, and
// when their class changes, not when a classmate joins or a classmate's
// match moves; the
// teacher's says look at every move of the class; a board's stream adds
// its match only for its players; a deleted class's streams say look
// once more and end; a stranger gets no stream.
func TestAStreamSaysLookForWhatItsPageShows(t *testing.T) {
	t.Parallel() // it listens for silence
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana, ben := join(t, a, code, "Ana"), join(t, a, code, "Ben")
	startRound(t, teacher, code, url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})

	anaStream := hear(t, ana, paths.StudentEvents.For(code))
	teacherStream := hear(t, teacher, paths.TeacherEvents.For(code))
	if anaStream.resp.StatusCode != http.StatusOK || anaStream.resp.Header.Get("Content-Type") != "text/event-stream" || anaStream.resp.Header.Get("X-Accel-Buffering") != "no" {
		t.Fatalf("Ana's stream: %d %q, X-Accel-Buffering %q", anaStream.resp.StatusCode, anaStream.resp.Header.Get("Content-Type"), anaStream.resp.Header.Get("X-Accel-Buffering"))
	}
	for name, s := range map[string]*heard{"Ana's": anaStream, "the teacher's": teacherStream} {
		if got := s.next(time.Second); got != "look" {
			t.Fatalf("%s stream opens with %q, want look", name, got)
		}
	}

	// A classmate joining: the teacher's screen looks (its roster),
	// Ana's page does not (no student's page shows the roster).
	join(t, a, code, "Cy")
	if got := teacherStream.next(time.Second); got != "look" {
		t.Errorf("Cy joined: the teacher's stream said %q, want look", got)
	}
	if got := anaStream.next(quiet); got != "" {
		t.Errorf("Cy joined: Ana's stream said %q, want nothing", got)
	}

	// Ben's move: the teacher's screen looks, Ana's page does not.
	firstMove(ben, code)
	if got := teacherStream.next(time.Second); got != "look" {
		t.Errorf("Ben moved: the teacher's stream said %q, want look", got)
	}
	if got := anaStream.next(quiet); got != "" {
		t.Errorf("Ben moved: Ana's stream said %q, want nothing", got)
	}
	// Ana's own move, and a change of the class, are hers to see.
	firstMove(ana, code)
	if got := anaStream.next(time.Second); got != "look" {
		t.Errorf("Ana moved: her stream said %q, want look", got)
	}
	teacher.post(paths.Pause.For(code), nil)
	if got := anaStream.next(time.Second); got != "look" {
		t.Errorf("the teacher paused play: Ana's stream said %q, want look", got)
	}

	// A board's stream listens to its match for its players only, and
	// says nothing of whether another's match exists.
	benMatch := matchOf(t, a, "Ben")
	onBens := hear(t, ana, paths.Query(paths.StudentEvents.For(code), "m", strconv.FormatInt(benMatch, 10)))
	if got := onBens.next(time.Second); got != "look" {
		t.Fatalf("Ana's stream naming Ben's match opens with %q", got)
	}
	teacher.post(paths.Resume.For(code), nil)
	// The class changed, and play resumed restarts Ana's own match's
	// clock: a look or two (apart on a slower database), heard out until
	// the stream is quiet.
	for _, s := range []*heard{onBens, anaStream} {
		if got := s.next(time.Second); got != "look" {
			t.Errorf("the teacher resumed play: a stream said %q, want look", got)
		}
		for s.next(quiet) != "" {
		}
	}
	firstMove(ben, code)
	if got := onBens.next(quiet); got != "" {
		t.Errorf("Ana's stream naming Ben's match told her of his move: %q", got)
	}

	// Strangers and another class's student get no stream.
	stranger := a.browser()
	if s := hear(t, stranger, paths.StudentEvents.For(code)); s.resp.StatusCode != http.StatusForbidden {
		t.Errorf("a stranger's stream of the class: %d, want 403", s.resp.StatusCode)
	}
	ana.get(paths.TeacherLive.For(code))
	if s := hear(t, ana, paths.TeacherEvents.For(code)); s.resp.StatusCode == http.StatusOK || s.resp.StatusCode != ana.status() {
		t.Errorf("a student's stream of the teacher's screen: %d, want the teacher's pages' refusal (%d)", s.resp.StatusCode, ana.status())
	}

	// The class deleted: its streams say look once more (the page finds
	// it gone) and end.
	teacher.post(paths.DeleteClass.For(code), url.Values{"confirm": {"yes"}})
	for name, s := range map[string]*heard{"Ana's": anaStream, "the teacher's": teacherStream} {
		got := s.next(time.Second)
		for got == "look" || got == "alive" {
			got = s.next(time.Second)
		}
		if got != "end" {
			t.Errorf("the class deleted: %s stream said %q, want its end", name, got)
		}
	}
}

// TestStreamsEndAndAreCounted: a cut ends the streams open (a browser
// opens them again), the server's end refuses new ones (503) so that a
// graceful shutdown need not wait for them, and past maxStreams a page
// is told to poll (204: an EventSource does not open it again).
func TestStreamsEndAndAreCounted(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	first := hear(t, ana, paths.StudentEvents.For(code))
	if got := first.next(time.Second); got != "look" {
		t.Fatalf("the stream opens with %q", got)
	}
	a.srv.streams.cut()
	if got := first.next(time.Second); got != "end" {
		t.Errorf("cut: the stream said %q, want its end", got)
	}
	again := hear(t, ana, paths.StudentEvents.For(code))
	if got := again.next(time.Second); got != "look" {
		t.Errorf("opened again after a cut: %q, want look", got)
	}
	if n := a.srv.streams.open.Load(); n != 1 {
		t.Errorf("%d streams counted open, want 1", n)
	}

	a.srv.streams.max.Store(1)
	if s := hear(t, ana, paths.StudentEvents.For(code)); s.resp.StatusCode != http.StatusNoContent {
		t.Errorf("past the most streams: %d, want 204 (the page polls)", s.resp.StatusCode)
	}
	a.srv.EndStreams()
	if got := again.next(time.Second); got != "end" {
		t.Errorf("the server ending: the stream said %q, want its end", got)
	}
	a.srv.streams.max.Store(maxStreams)
	if s := hear(t, ana, paths.StudentEvents.For(code)); s.resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a stream asked for after the server's end: %d, want 503", s.resp.StatusCode)
	}
}
