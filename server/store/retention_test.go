package store

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestLastActivity: a class's last activity is the latest thing stored of
// it (its start, a join); a class stored before the release that brought
// retention has its clock started at the upgrade (retain_from), so an old
// class is not erased the day the release is installed.
func TestLastActivity(t *testing.T) {
	day := 24 * time.Hour
	now := time.Date(2026, 1, 10, 8, 0, 0, 0, time.UTC)
	s, err := OpenWith(context.Background(), filepath.Join(t.TempDir(), "p.db"), Options{Now: func() time.Time { return now }})
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
}
