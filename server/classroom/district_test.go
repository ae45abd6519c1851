package classroom

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"pigclass/server/store/pgtest"
)

// TestAClassLostWhileAwayIsAnsweredElsewhere: an instance served a class,
// stalled past its lease, and another took the class over. Its next
// request for the class, once its own hold has lapsed, is told the class
// is served elsewhere, at once: the lease's loss it finds then is the
// request's to act on, not a second taker of the district's lock (which
// waited for ever on the lock the request held).
func TestAClassLostWhileAwayIsAnsweredElsewhere(t *testing.T) {
	db := pgtest.URL(t)
	a, _, _ := openRoom(t, db)
	b, _, _ := openRoom(t, db)
	ctx := context.Background()
	class, _ := classWithRound(t, a, 2)
	da, db2 := NewDistrict(a, a.log), NewDistrict(b, b.log)
	defer da.Close()
	defer db2.Close()
	if err := da.ServeClass(ctx, class.ID); err != nil {
		t.Fatal(err)
	}
	conn, err := sql.Open("pgx", db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Exec(`UPDATE class_leases SET expires_at = now() - INTERVAL '1 second' WHERE class_id = $1`, class.ID); err != nil {
		t.Fatal(err)
	}
	if err := db2.ServeClass(ctx, class.ID); err != nil {
		t.Fatalf("taking the stalled instance's class over: %v", err)
	}
	// The stalled instance's own hold lapses (as LeaseTTL - LeaseRenew
	// after its last renewal would have it): its request asks the
	// database.
	da.mu.Lock()
	delete(da.ready, class.ID)
	da.mu.Unlock()
	done := make(chan error, 1)
	go func() { done <- da.ServeClass(ctx, class.ID) }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrElsewhere) {
			t.Errorf("the stalled instance asked for the class: %v, want ErrElsewhere", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stalled instance's request for the class never returned")
	}
	if a.classes.loaded(class.ID) != nil {
		t.Error("the stalled instance kept the class in memory")
	}
}
