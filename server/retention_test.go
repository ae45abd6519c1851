package server

import (
	"bytes"
	"errors"
	"net/url"
	"os"
	"testing"
	"time"

	"pigclass/server/store"
	"pigclass/templates/paths"
)

// TestRetentionErasesIdleClasses (issue 33, item 4): with classes kept
// 180 days after their last activity, the dashboard says on which day the
// class is erased and from which activity; a class last active 181 days
// ago is erased by the sweep (its matches being played ended) and one
// active 81 days ago is kept; the erasure is "Delete the class"'s, so
// that no nickname of the erased class is left in the database file.
func TestRetentionErasesIdleClasses(t *testing.T) {
	a := newAppConfig(t, func(c *Config) { c.Retain = 180 * 24 * time.Hour })
	teacher := a.browser()
	old := teacherStart(t, teacher)
	const nick = "Quetzalcoatl"
	s := &student{b: join(t, a, old, nick), nick: nick, holdAt: 20}
	teacher.post(paths.Rounds.For(old), url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	s.step(t, old)
	a.clock.add(100 * 24 * time.Hour)
	if got, want := teacher.get(paths.Teacher.For(old)).Find(`[data-testid="retention"]`).Text(),
		"This class and everything in it is erased on 2027-05-28, 180 days after its last activity (2026-11-29)"; len(got) < len(want) || got[:len(want)] != want {
		t.Errorf("the dashboard says %q, want %q...", got, want)
	}
	kept := teacherStart(t, a.browser())
	join(t, a, kept, "Ana")
	a.clock.add(81 * 24 * time.Hour)
	if err := a.srv.room.Sweep(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := a.store.ClassByCode(t.Context(), old); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the class idle 181 days is still there: %v", err)
	}
	if _, err := a.store.ClassByCode(t.Context(), kept); err != nil {
		t.Errorf("the class idle 81 days is gone: %v", err)
	}
	for _, table := range []string{"students WHERE nickname = '" + nick + "'", "matches WHERE class_id IS NOT NULL AND class_id NOT IN (SELECT id FROM classes)"} {
		var n int
		if err := a.store.DB().QueryRow("SELECT COUNT(*) FROM " + table).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s: %d rows left (%v)", table, n, err)
		}
	}
	if s.b.get(paths.Student.For(old)); s.b.path() != paths.JoinCode.For(old) {
		t.Errorf("the erased class's student page went to %s", s.b.path())
	}
	a.stop()
	for _, f := range []string{a.path, a.path + "-wal"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // the clean close took the WAL
		}
		if bytes.Contains(b, []byte(nick)) {
			t.Errorf("%s still holds the erased class's nickname", f)
		}
	}
}
