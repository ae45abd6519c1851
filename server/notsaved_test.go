package server

import (
	"errors"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pigclass/server/store"
)

// TestRefusedWriteIsNotSaved: when the disk refuses a move, the student
// gets 503 "Not saved ... Try again" (never a 500), the board is as
// before, and the same click then goes through once.
func TestRefusedWriteIsNotSaved(t *testing.T) {
	var broken atomic.Bool
	a := openAppWith(t, filepath.Join(t.TempDir(), "pigclass.db"), &clock{t: time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)},
		store.Options{BeforeCommit: func() error {
			if broken.Load() {
				return errors.New("injected: disk full")
			}
			return nil
		}})
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	before, ok := readBoard(ana.get("/c/" + code))
	if !ok || !before.yourTurn {
		t.Fatal("Ana cannot move")
	}
	form := url.Values{"seq": {strconv.Itoa(before.seq)}, "action": {"roll"}}
	broken.Store(true)
	doc := ana.post(before.act, form)
	if ana.status() != http.StatusServiceUnavailable || !strings.Contains(doc.Find(`[data-testid="board-error"]`).Text(), "Not saved") {
		t.Errorf("refused move: %d %q", ana.status(), doc.Find(`[data-testid="board-error"]`).Text())
	}
	if after, _ := readBoard(doc); after.seq != before.seq {
		t.Errorf("the board moved on a refused move: seq %d, was %d", after.seq, before.seq)
	}
	doc = ana.post(before.act, form, "HX-Request", "true")
	if ana.status() != http.StatusOK || !strings.Contains(doc.Find(`[data-testid="board-error"]`).Text(), "Not saved") {
		t.Errorf("refused move with htmx: %d %q", ana.status(), doc.Text())
	}
	broken.Store(false)
	ana.post(before.act, form)
	after, _ := readBoard(ana.get("/c/" + code))
	if ana.status() != http.StatusOK || after.seq <= before.seq {
		t.Fatalf("the move tried again: seq %d, was %d", after.seq, before.seq)
	}
	rows := teacher.csvRows("/t/" + code + "/decisions.csv")
	n := 0
	for _, r := range rows {
		if r["by"] == "student" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d student decisions stored, want the one that went through", n)
	}
}
