package server

import (
	"bytes"
	"strings"
	"testing"
	"time"
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
// drawing, whole, written in pieces smaller and larger than its pause.
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
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("%d bytes written, %d drawn: not the same", got.Len(), want.Len())
	}
}
