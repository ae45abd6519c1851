package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"pigclass/templates/paths"
)

// TestALongDrawingIsDrawnLessOften: a class's live part whose drawing is
// quick is drawn again liveEvery after the last for a class that moved;
// one whose drawing took 20 ms (a class of a thousand) is drawn again
// only drawShare times that (1 s) after, and the poll between gets the
// last drawing without drawing; a longer one is drawn liveMost apart.
func TestALongDrawingIsDrawnLessOften(t *testing.T) {
	var lc liveCache
	draws := 0
	draw := func() ([]byte, error) {
		draws++
		return []byte("drawing " + strings.Repeat("x", draws)), nil
	}
	if _, v, err := lc.get(1, draw); err != nil || v != 1 || draws != 1 {
		t.Fatalf("the first poll: version %d, %d drawings, %v; want the class's first drawing", v, draws, err)
	}
	redrawn := func(took, ago time.Duration, activity int64) bool {
		t.Helper()
		lc.mu.Lock()
		lc.took, lc.at = took, time.Now().Add(-ago)
		lc.mu.Unlock()
		before := draws
		lc.get(activity, draw)
		lc.mu.Lock() // the drawing, in the background, done
		for lc.rendering {
			lc.drawn.Wait()
		}
		lc.mu.Unlock()
		return draws > before
	}
	if !redrawn(time.Millisecond, liveEvery, 2) {
		t.Error("a quick drawing liveEvery after the last: not drawn again")
	}
	if redrawn(time.Millisecond, liveEvery/2, 3) {
		t.Error("a quick drawing half of liveEvery after the last: drawn again")
	}
	if redrawn(20*time.Millisecond, 600*time.Millisecond, 3) {
		t.Error("a drawing of 20 ms, 600 ms after the last: drawn again (want 1 s apart)")
	}
	if !redrawn(20*time.Millisecond, 1100*time.Millisecond, 3) {
		t.Error("a drawing of 20 ms, 1.1 s after the last: not drawn again")
	}
	if !redrawn(100*time.Millisecond, liveMost, 4) {
		t.Error("a drawing of 100 ms, liveMost after the last: not drawn again (want liveMost apart at most)")
	}
}

// TestYieldingWritesAll: the drawing written through yielding is the
// drawing, whole, written in pieces smaller than its pause and in one
// write of three pauses and more.
func TestYieldingWritesAll(t *testing.T) {
	var want, got bytes.Buffer
	w := yielding(&got)
	for i := range 5000 {
		piece := bytes.Repeat([]byte{byte('a' + i%26)}, i%97)
		want.Write(piece)
		if n, err := w.Write(piece); n != len(piece) || err != nil {
			t.Fatalf("write %d: %d of %d, %v", i, n, len(piece), err)
		}
	}
	long := bytes.Repeat([]byte("0123456789"), 10_000) // one write, over three pauses
	want.Write(long)
	if n, err := w.Write(long); n != len(long) || err != nil {
		t.Fatalf("a long write: %d of %d, %v", n, len(long), err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("%d bytes written, %d drawn: not the same", got.Len(), want.Len())
	}
}

// TestALargeLivePartIsSentGzipped: a class of 40's live part (over
// gzipFrom) goes gzipped to a screen that takes gzip, the same drawing as
// a screen that does not gets, and a class of 1's goes as it is.
func TestALargeLivePartIsSentGzipped(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	join(t, a, code, "Ana")
	live := func(encoding string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, a.url+paths.TeacherLive.For(code), nil)
		req.Header.Set("Accept-Encoding", encoding) // set by hand, the client leaves the body as it came
		req.Header.Set("X-Pigclass-Look", "1")      // a drawing of the class as it is now
		resp, err := teacher.c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("the live part: %d, %v", resp.StatusCode, err)
		}
		return resp, body
	}
	if resp, body := live("gzip"); resp.Header.Get("Content-Encoding") != "" || !bytes.Contains(body, []byte("Ana")) {
		t.Errorf("a class of 1: sent as %q, %d bytes", resp.Header.Get("Content-Encoding"), len(body))
	}
	for i := range 39 {
		join(t, a, code, "Student "+strconv.Itoa(i))
	}
	gz, zipped := live("gzip, deflate")
	plain, html := live("identity")
	if gz.Header.Get("Content-Encoding") != "gzip" || plain.Header.Get("Content-Encoding") != "" || gz.Header.Get("Vary") != "Accept-Encoding" {
		t.Fatalf("a class of 40: sent as %q (Vary %q) to a screen taking gzip, as %q to one that does not", gz.Header.Get("Content-Encoding"), gz.Header.Get("Vary"), plain.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(bytes.NewReader(zipped))
	if err != nil {
		t.Fatal(err)
	}
	unzipped, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if len(html) < gzipFrom || !bytes.Equal(unzipped, html) || !bytes.Contains(html, []byte("Student 38")) {
		t.Errorf("a class of 40: %d bytes as they are, %d gzipped, %d unzipped: not the same drawing of all 40", len(html), len(zipped), len(unzipped))
	}
	if len(zipped) > len(html)/4 {
		t.Errorf("gzipped %d of %d bytes", len(zipped), len(html))
	}
}
