package store

import (
	"context"
	"database/sql"
	"io/fs"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"pigclass/server/play"
	"pigclass/sim"
)

// TestLastActivity: a class's last activity is the latest thing stored of
// it (its start, a join); a class stored before the release that brought
// retention has its clock started at the upgrade (retain_from), so an old
// class is not erased the day the release is installed.
func TestLastActivity(t *testing.T) {
	engines(t, func(t *testing.T, db string) {
		day := 24 * time.Hour
		now := time.Date(2026, 1, 10, 8, 0, 0, 0, time.UTC)
		s, err := OpenWith(context.Background(), db, Options{Now: func() time.Time { return now }})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		ctx := context.Background()
		a, _ := s.CreateClass(ctx, "AAAAAA", "h")
		b, _ := s.CreateClass(ctx, "CCCCCC", "h")
		now = now.Add(30 * day)
		if _, err := s.AddStudent(ctx, Student{ClassID: b.ID, Nickname: "Ana", AnonName: "Calm Otter", TokenHash: "t"}); err != nil {
			t.Fatal(err)
		}
		if at, err := s.LastActive(ctx, b.ID); err != nil || !at.Equal(now) {
			t.Errorf("the class with a join: last active %v (%v), want %v", at, err, now)
		}
		if ids, err := s.IdleClasses(ctx, now.Add(-day)); err != nil || !slices.Equal(ids, []int64{a.ID}) {
			t.Errorf("idle a day before the join: %v (%v), want [%d]", ids, err, a.ID)
		}
		// The upgrade: class a's clock starts 40 days after its start.
		if _, err := s.exec(ctx, `UPDATE classes SET retain_from = ? WHERE id = ?`, now.Add(10*day).Format(time.RFC3339Nano), a.ID); err != nil {
			t.Fatal(err)
		}
		if ids, err := s.IdleClasses(ctx, now.Add(5*day)); err != nil || len(ids) != 1 || ids[0] != b.ID {
			t.Errorf("idle five days after the join, with a's clock started at the upgrade: %v (%v), want [%d]", ids, err, b.ID)
		}
	})
}

// TestUpgradeKeepsTheUnit (issue 33, item 5): a database of the release
// before days (its migrations up to 0012, a class with rounds on two
// dates and a game of Skunk) opens migrated: each round and game gets
// the day it was played, the class its two days, and a new round its day
// (today, with the lesson whose phase it plays).
func TestUpgradeKeepsTheUnit(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	db.Exec(`CREATE TABLE migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`)
	names, _ := fs.Glob(migrations, "migrations/*.sql")
	slices.Sort(names)
	for _, name := range names {
		if name >= "migrations/0013" {
			break
		}
		body, _ := fs.ReadFile(migrations, name)
		if _, err := db.Exec(string(body)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		db.Exec(`INSERT INTO migrations (name, applied_at) VALUES (?, '2026-10-01T00:00:00Z')`, name)
	}
	for _, q := range []string{
		`INSERT INTO classes (id, code, teacher_hash, created_at, lesson) VALUES (1, 'KMNPRT', 'h', '2026-10-05T08:00:00Z', '1-roll-or-hold')`,
		`INSERT INTO rounds (class_id, number, variant, mode, bot, same_seed, started_at) VALUES (1, 1, '{"game":"pig","target":100,"seats":2}', 'bot', 'hold:20', 0, '2026-10-05T09:00:00Z')`,
		`INSERT INTO rounds (class_id, number, variant, mode, bot, same_seed, started_at) VALUES (1, 2, '{"game":"pig","target":100,"seats":2}', 'bot', 'hold:20', 0, '2026-10-12T09:00:00Z')`,
		`INSERT INTO skunk_games (class_id, seed, commitment, rounds, status, created_at) VALUES (1, 'x', 'y', 5, 'over', '2026-10-12T10:00:00Z')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	s, err := OpenWith(ctx, path, Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	day := func(utc string) string {
		at, _ := time.Parse(time.RFC3339, utc)
		return at.In(time.Local).Format(time.DateOnly)
	}
	want := []ClassDay{{Day: day("2026-10-05T09:00:00Z"), Rounds: 1}, {Day: day("2026-10-12T09:00:00Z"), Rounds: 1, Skunks: 1}}
	if got, err := s.ClassDays(ctx, 1); err != nil || !slices.Equal(got, want) {
		t.Errorf("the days after the upgrade: %v (%v), want %v", got, err, want)
	}
	r, _, err := s.CreateRound(ctx, play.Round{ClassID: 1, Variant: sim.Standard(sim.Pig), Mode: play.AgainstBots, Bot: "hold:20", Lesson: "1-roll-or-hold"}, nil)
	if err != nil || r.Day != day("2026-12-01T12:00:00Z") {
		t.Fatalf("a new round: day %q (%v)", r.Day, err)
	}
	got, _ := s.ClassDays(ctx, 1)
	if last := got[len(got)-1]; len(got) != 3 || last.Day != r.Day || last.Lesson != "1-roll-or-hold" || last.Rounds != 1 {
		t.Errorf("the days after a new round: %v", got)
	}
}
