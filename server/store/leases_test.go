package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"pigclass/server/play"
	"pigclass/server/store/pgtest"
	"pigclass/sim"
)

// TestLeasesFenceAStaleInstance: two instances on one Postgres database.
// The first serves a class; the second cannot take it while the lease
// lasts. The first is then stalled past the expiry (its lease's expiry
// moved into the past, as a paused process would find it): the second
// takes the class over with the next generation, and every write of the
// first for that class (a class change, a move of its match) is refused
// with ErrLeaseLost, told to the function its Fence names, and leaves nothing stored; the
// second writes on. A graceful stop hands the class back at once.
func TestLeasesFenceAStaleInstance(t *testing.T) {
	db := pgtest.URL(t)
	a, b := mustOpenOn(t, db), mustOpenOn(t, db)
	ctx := context.Background()
	class, err := a.CreateClass(ctx, "LEASE1", "h")
	if err != nil {
		t.Fatal(err)
	}
	match, err := a.CreateMatch(ctx, play.Match{ClassID: class.ID, Variant: sim.Standard(sim.Pig), Seed: testSeeds.Seed(), Seats: []play.Seat{{Seat: 0, Bot: "hold:20"}, {Seat: 1, Bot: "hold:20"}}})
	if err != nil {
		t.Fatal(err)
	}
	lost := make(chan int64, 4)
	a.Leases().Fence(func(id int64) { lost <- id })
	b.Leases().Fence(func(int64) {})

	if fresh, err := a.Leases().Take(ctx, class.ID); err != nil || !fresh {
		t.Fatalf("the first take: fresh %v, %v", fresh, err)
	}
	if fresh, err := a.Leases().Take(ctx, class.ID); err != nil || fresh {
		t.Fatalf("taking a lease held: fresh %v, %v; want a renewal", fresh, err)
	}
	if _, err := b.Leases().Take(ctx, class.ID); !errors.Is(err, ErrLeaseHeld) {
		t.Fatalf("the second instance took a lease that lasts: %v", err)
	}
	inA := ForClass(ctx, class.ID)
	if _, err := a.exec(inA, `UPDATE classes SET paused = 1 WHERE id = ?`, class.ID); err != nil {
		t.Fatalf("the holder's write: %v", err)
	}
	if err := a.AppendEvents(ctx, match, []play.Event{rollEvent(match, 1)}, nil); err != nil {
		t.Fatalf("the holder's move: %v", err)
	}
	gen := func() (g int64) {
		b.rd.QueryRow(`SELECT generation FROM class_leases WHERE class_id = $1`, class.ID).Scan(&g)
		return g
	}
	if g := gen(); g != 1 {
		t.Errorf("generation %d, want 1", g)
	}

	// The first instance stalls past its lease.
	if _, err := b.db.Exec(`UPDATE class_leases SET expires_at = now() - INTERVAL '1 second' WHERE class_id = $1`, class.ID); err != nil {
		t.Fatal(err)
	}
	if fresh, err := b.Leases().Take(ctx, class.ID); err != nil || !fresh {
		t.Fatalf("taking an expired lease over: fresh %v, %v", fresh, err)
	}
	if g := gen(); g != 2 {
		t.Errorf("generation %d after the takeover, want 2", g)
	}
	if _, err := a.exec(inA, `UPDATE classes SET locked = 1 WHERE id = ?`, class.ID); !errors.Is(err, ErrLeaseLost) || !errors.Is(err, ErrNotSaved) {
		t.Errorf("the stale instance's class write: %v, want ErrLeaseLost (not saved)", err)
	}
	if err := a.AppendEvents(ctx, match, []play.Event{rollEvent(match, 2)}, nil); !errors.Is(err, ErrLeaseLost) {
		t.Errorf("the stale instance's move: %v, want ErrLeaseLost", err)
	}
	select {
	case id := <-lost:
		if id != class.ID {
			t.Errorf("lost class %d, want %d", id, class.ID)
		}
	case <-time.After(5 * time.Second):
		t.Error("the stale instance was not told it lost the class")
	}
	var locked, events int
	b.rd.QueryRow(`SELECT locked FROM classes WHERE id = $1`, class.ID).Scan(&locked)
	b.rd.QueryRow(`SELECT COUNT(*) FROM events WHERE match_id = $1`, match).Scan(&events)
	if locked != 0 || events != 1 {
		t.Errorf("after the refused writes: locked %d, %d events; want 0 and the holder's 1", locked, events)
	}
	if err := b.AppendEvents(ForClass(ctx, class.ID), match, []play.Event{rollEvent(match, 2)}, nil); err != nil {
		t.Errorf("the new holder's move: %v", err)
	}
	if _, err := a.Leases().Take(ctx, class.ID); !errors.Is(err, ErrLeaseHeld) {
		t.Errorf("the stale instance took the class back while the new lease lasts: %v", err)
	}
	if err := a.Leases().Renew(ctx); err != nil {
		t.Error(err)
	}
	if a.Leases().Holds(class.ID) {
		t.Error("the stale instance still believes it holds the class")
	}

	// A graceful stop of the holder: the other takes over at once.
	if err := b.Leases().Release(ctx); err != nil {
		t.Fatal(err)
	}
	if fresh, err := a.Leases().Take(ctx, class.ID); err != nil || !fresh {
		t.Errorf("taking a released lease: fresh %v, %v", fresh, err)
	}
	if g := gen(); g != 3 {
		t.Errorf("generation %d after the hand-back, want 3", g)
	}
}

// TestNoLeasesOnSQLite: a SQLite file has one server; nothing is fenced.
func TestNoLeasesOnSQLite(t *testing.T) {
	s := MustOpen(t)
	if s.Leases() != nil {
		t.Fatal("a SQLite store has leases")
	}
	ctx := ForClass(context.Background(), 1)
	class, err := s.CreateClass(ctx, "AAAAAA", "h")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.inTx(ForClass(ctx, class.ID), func(ctx context.Context, tx *sql.Tx) error { return nil }); err != nil {
		t.Error(err)
	}
}

// TestRenewKeepsWhatLastsAndLetsGoOfWhatEnded: an instance holds two
// classes' leases. One is near its expiry, the other past it (the
// instance stalled, and nobody took it yet). One renewal moves the first
// a whole LeaseTTL on, at its generation, and lets go of the second
// (told to Fence's function), whose row it leaves expired: it is taken
// again, at the next generation.
func TestRenewKeepsWhatLastsAndLetsGoOfWhatEnded(t *testing.T) {
	db := pgtest.URL(t)
	a := mustOpenOn(t, db)
	ctx := context.Background()
	var ids []int64
	for _, code := range []string{"RENEW1", "RENEW2"} {
		class, err := a.CreateClass(ctx, code, "h")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.Leases().Take(ctx, class.ID); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, class.ID)
	}
	lasts, ended := ids[0], ids[1]
	lost := make(chan int64, 4)
	a.Leases().Fence(func(id int64) { lost <- id })
	set := func(id int64, expiry string) {
		if _, err := a.db.Exec(`UPDATE class_leases SET expires_at = now() + INTERVAL '`+expiry+`' WHERE class_id = $1`, id); err != nil {
			t.Fatal(err)
		}
	}
	set(lasts, "1 second")
	set(ended, "-1 second")
	if err := a.Leases().Renew(ctx); err != nil {
		t.Fatal(err)
	}
	var left float64
	var gen int64
	a.rd.QueryRow(`SELECT EXTRACT(EPOCH FROM expires_at - now()), generation FROM class_leases WHERE class_id = $1`, lasts).Scan(&left, &gen)
	if left < LeaseTTL.Seconds()-1 || gen != 1 || !a.Leases().Holds(lasts) {
		t.Errorf("the lease renewed: %.1f s left at generation %d (held %v), want about %v at 1", left, gen, a.Leases().Holds(lasts), LeaseTTL)
	}
	a.rd.QueryRow(`SELECT EXTRACT(EPOCH FROM expires_at - now()) FROM class_leases WHERE class_id = $1`, ended).Scan(&left)
	if left >= 0 || a.Leases().Holds(ended) {
		t.Errorf("the lease that ended: %.1f s left, held %v; want it left expired and let go", left, a.Leases().Holds(ended))
	}
	select {
	case id := <-lost:
		if id != ended {
			t.Errorf("told of class %d lost, want %d", id, ended)
		}
	default:
		t.Error("the renewal did not tell of the lease that ended")
	}
	if fresh, err := a.Leases().Take(ctx, ended); err != nil || !fresh {
		t.Errorf("taking the ended lease again: fresh %v, %v", fresh, err)
	}
	a.rd.QueryRow(`SELECT generation FROM class_leases WHERE class_id = $1`, ended).Scan(&gen)
	if gen != 2 {
		t.Errorf("the lease taken again at generation %d, want 2", gen)
	}
}

// BenchmarkRenew: one renewal of the leases of 50 classes, what a
// district's instance does every LeaseRenew in its writer.
func BenchmarkRenew(b *testing.B) {
	s := mustOpenOn(b, pgtest.URL(b))
	ctx := context.Background()
	for i := range 50 {
		class, err := s.CreateClass(ctx, fmt.Sprintf("REN%03d", i), "h")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Leases().Take(ctx, class.ID); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if err := s.Leases().Renew(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// TestInstancesStartingTogetherMigrateOnce (issue 58, item 4): three
// instances of a district started at once on an empty database each
// open it, migrated once, ten times over (before, the migrations table
// was made before the lock, and one of two or three collided in
// Postgres's catalog).
func TestInstancesStartingTogetherMigrateOnce(t *testing.T) {
	for round := range 10 {
		db := pgtest.URL(t)
		errs := make([]error, 3)
		stores := make([]*Store, 3)
		var wg sync.WaitGroup
		for i := range stores {
			wg.Go(func() { stores[i], errs[i] = Open(context.Background(), db) })
		}
		wg.Wait()
		for i, s := range stores {
			if errs[i] != nil {
				t.Fatalf("round %d: instance %d: %v", round+1, i+1, errs[i])
			}
			t.Cleanup(func() { s.Close() })
		}
		var n, distinct int
		if err := stores[0].rd.QueryRow(`SELECT COUNT(*), COUNT(DISTINCT name) FROM migrations`).Scan(&n, &distinct); err != nil || n != distinct || n == 0 {
			t.Fatalf("round %d: %d migrations recorded, %d distinct: %v", round+1, n, distinct, err)
		}
	}
}

// TestADistrictHasOneKey (issue 58, item 5): the first instance records
// its key's fingerprint; the same key is taken again, another refused
// with both fingerprints named.
func TestADistrictHasOneKey(t *testing.T) {
	s := mustOpenOn(t, pgtest.URL(t))
	ctx := t.Context()
	mine, other := KeyFingerprint([]byte("district key 1")), KeyFingerprint([]byte("district key 2"))
	for range 2 {
		if err := s.DistrictKey(ctx, mine); err != nil {
			t.Fatal(err)
		}
	}
	err := s.DistrictKey(ctx, other)
	var mismatch *KeyMismatchError
	if !errors.As(err, &mismatch) || !strings.Contains(err.Error(), mine) || !strings.Contains(err.Error(), other) {
		t.Fatalf("another key: %v", err)
	}
	lite := mustOpenOn(t, filepath.Join(t.TempDir(), "school.db"))
	if err := lite.DistrictKey(ctx, other); err != nil {
		t.Fatalf("a school's file has no district key: %v", err)
	}
}
