package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pigclass/server/play"
	"pigclass/sim"
)

// gate holds the writer's next commit, once armed, until n jobs have been
// submitted in all, so that a test knows they share at most two batches.
type gate struct {
	s       **Store
	n       atomic.Int64
	armed   atomic.Bool
	fail    atomic.Bool // fail every commit while set
	commits atomic.Int32
}

func (g *gate) beforeCommit() error {
	if g.armed.CompareAndSwap(true, false) {
		deadline := time.Now().Add(10 * time.Second)
		for (*g.s).w.submitted.Load() < g.n.Load() && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
	}
	g.commits.Add(1)
	if g.fail.Load() {
		return errors.New("injected: disk on fire")
	}
	return nil
}

// arm makes the next commit wait until n more jobs are submitted.
func (g *gate) arm(n int) {
	g.n.Store((*g.s).w.submitted.Load() + int64(n))
	g.armed.Store(true)
}

// openGated opens a store with a gate before each commit.
func openGated(t *testing.T, path string) (*Store, *gate) {
	t.Helper()
	var s *Store
	g := &gate{s: &s}
	s, err := OpenWith(context.Background(), path, Options{BeforeCommit: g.beforeCommit})
	if err != nil {
		t.Fatal(err)
	}
	return s, g
}

// playingMatches stores n matches to append to.
func playingMatches(t *testing.T, s *Store, n int) []int64 {
	t.Helper()
	ctx := context.Background()
	var ids []int64
	for range n {
		id, err := s.CreateMatch(ctx, play.Match{Variant: sim.Standard(sim.Pig), Seed: testSeeds.Seed(), Seats: []play.Seat{{Seat: 0, Bot: "hold:20"}, {Seat: 1, Bot: "hold:20"}}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

func rollEvent(id int64, seq int) play.Event {
	return play.Event{MatchID: id, Seq: seq, Action: sim.Roll, Faces: faces(4), By: "student", At: time.Now(), Scores: []int{0, 0}}
}

// appendAll appends one event to each match at once and returns each
// call's error.
func appendAll(s *Store, ids []int64, seq int) []error {
	errs := make([]error, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Go(func() { errs[i] = s.AppendEvents(context.Background(), id, []play.Event{rollEvent(id, seq)}, nil) })
	}
	wg.Wait()
	return errs
}

func countEvents(t *testing.T, path string) int {
	t.Helper()
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var n int
	if err := s.rd.QueryRow(`SELECT COUNT(*) FROM events`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestBatchIsOnDisk: writes acknowledged together, in one batch, are all in
// the file when it is opened again.
func TestBatchIsOnDisk(t *testing.T) {
	engines(t, func(t *testing.T, db string) {
		path := db
		s, g := openGated(t, path)
		ids := playingMatches(t, s, 40)
		g.arm(40)
		b0, w0 := s.WriterStats()
		for i, err := range appendAll(s, ids, 1) {
			if err != nil {
				t.Errorf("match %d: %v", ids[i], err)
			}
		}
		b1, w1 := s.WriterStats()
		if w1-w0 != 40 || b1-b0 > 2 {
			t.Errorf("40 appends took %d batches for %d writes; want them grouped in at most 2", b1-b0, w1-w0)
		}
		s.Close()
		if n := countEvents(t, path); n != 40 {
			t.Errorf("%d events on disk after reopening, want 40", n)
		}
	})
}

// TestFailedCommitRefusesTheBatch: an injected commit failure refuses every
// write of the batch with ErrNotSaved, and none of them is on disk.
func TestFailedCommitRefusesTheBatch(t *testing.T) {
	engines(t, func(t *testing.T, db string) {
		path := db
		s, g := openGated(t, path)
		ids := playingMatches(t, s, 20)
		g.arm(20)
		g.fail.Store(true)
		for i, err := range appendAll(s, ids, 1) {
			if !errors.Is(err, ErrNotSaved) {
				t.Errorf("match %d: %v, want ErrNotSaved", ids[i], err)
			}
		}
		g.fail.Store(false)
		// The writer goes on: the same writes succeed when tried again.
		for i, err := range appendAll(s, ids[:5], 1) {
			if err != nil {
				t.Errorf("match %d, second try: %v", ids[i], err)
			}
		}
		s.Close()
		if n := countEvents(t, path); n != 5 {
			t.Errorf("%d events on disk, want the 5 retried", n)
		}
	})
}

// TestFailingWriteIsRefusedAlone: a write whose statement fails (here a
// duplicate event) is refused; the others in its batch are stored.
func TestFailingWriteIsRefusedAlone(t *testing.T) {
	engines(t, func(t *testing.T, db string) {
		path := db
		s, g := openGated(t, path)
		ids := playingMatches(t, s, 10)
		if err := s.AppendEvents(context.Background(), ids[0], []play.Event{rollEvent(ids[0], 1)}, nil); err != nil {
			t.Fatal(err)
		}
		g.arm(10)
		errs := appendAll(s, ids, 1) // ids[0] already has event 1
		for i, err := range errs {
			if (i == 0) != (err != nil) {
				t.Errorf("match %d: %v", ids[i], err)
			}
		}
		if errors.Is(errs[0], ErrNotSaved) {
			t.Errorf("a refused statement is not a failed commit: %v", errs[0])
		}
		s.Close()
		if n := countEvents(t, path); n != 10 {
			t.Errorf("%d events on disk, want 10", n)
		}
	})
}

// TestReadersDoNotWaitForTheWriter: a read answers while the writer holds
// its transaction open.
func TestReadersDoNotWaitForTheWriter(t *testing.T) {
	engines(t, func(t *testing.T, db string) {
		s := mustOpenOn(t, db)
		ctx := context.Background()
		held, release := make(chan struct{}), make(chan struct{})
		go s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, `INSERT INTO classes (code, teacher_hash, created_at) VALUES ('HHHHHH', 'h', 't')`); err != nil {
				return err
			}
			close(held)
			<-release
			return nil
		})
		<-held
		done := make(chan error, 1)
		go func() {
			_, err := s.Matches(ctx, MatchFilter{})
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Error(err)
			}
		case <-time.After(5 * time.Second):
			t.Error("a read waited for the writer's transaction")
		}
		close(release)
	})
}

// TestFullDiskIsNotSaved: a write that finds the disk full (here the file
// held to its size by max_page_count) is refused with ErrNotSaved and
// named a full disk; reads go on.
func TestFullDiskIsNotSaved(t *testing.T) {
	s := MustOpen(t)
	ctx := context.Background()
	ids := playingMatches(t, s, 1)
	var pages int
	if err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA max_page_count = %d`, pages+2))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var err error
	for seq := 1; seq < 5000 && err == nil; seq++ {
		e := rollEvent(ids[0], seq)
		e.Scores = make([]int, 2)
		err = s.AppendEvents(ctx, ids[0], []play.Event{e}, nil)
	}
	if !errors.Is(err, ErrNotSaved) || kindOf(err) != ErrDiskFull {
		t.Fatalf("writing to a full file: %v, want ErrNotSaved, a full disk", err)
	}
	if _, err := s.Matches(ctx, MatchFilter{}); err != nil {
		t.Errorf("reading with the disk full: %v", err)
	}
}

// TestCancelledCallerDoesNotFailTheBatch: a student closes the laptop lid
// mid-move. Their request's context is cancelled while their job runs in a
// batch with eleven others; every job of the batch, theirs included, is
// committed and acknowledged (the writer runs jobs with its own context).
func TestCancelledCallerDoesNotFailTheBatch(t *testing.T) {
	engines(t, func(t *testing.T, db string) {
		bg := context.Background()
		path := db
		s, err := Open(bg, path)
		if err != nil {
			t.Fatal(err)
		}
		ids := playingMatches(t, s, 12)
		// A first batch holds the writer, so that the jobs below queue up and
		// then run together in the next one, which starts with a job that
		// holds it again while the caller's context is cancelled.
		first, release1 := make(chan struct{}), make(chan struct{})
		go s.inTx(bg, func(ctx context.Context, tx *sql.Tx) error { close(first); <-release1; return nil })
		<-first
		queued := func(n int64) {
			for end := time.Now().Add(5 * time.Second); s.w.submitted.Load() < n; {
				if time.Now().After(end) {
					t.Fatal("a job was not queued in 5 s")
				}
				time.Sleep(time.Millisecond)
			}
		}
		base := s.w.submitted.Load()
		inBatch, release2 := make(chan struct{}), make(chan struct{})
		go s.inTx(bg, func(ctx context.Context, tx *sql.Tx) error { close(inBatch); <-release2; return nil })
		queued(base + 1)
		lid, closeLid := context.WithCancel(bg)
		defer closeLid()
		errs := make(chan error, len(ids))
		for i, id := range ids {
			ctx := bg
			if i == 5 {
				ctx = lid
			}
			go func() {
				e := rollEvent(id, 1)
				e.Scores = make([]int, 2)
				errs <- s.AppendEvents(ctx, id, []play.Event{e}, nil)
			}()
			queued(base + 2 + int64(i))
		}
		close(release1)
		<-inBatch
		closeLid()
		close(release2)
		for range ids {
			if err := <-errs; err != nil {
				t.Errorf("a job of the batch: %v", err)
			}
		}
		s.Close()
		if n := countEvents(t, path); n != len(ids) {
			t.Errorf("%d events on disk, want %d", n, len(ids))
		}
	})
}

// TestWritableFollowsTheLastBatch: the health check's "writable" is false
// while the last batch did not reach the disk, and true again after one
// that did.
func TestWritableFollowsTheLastBatch(t *testing.T) {
	engines(t, func(t *testing.T, db string) {
		var refuse atomic.Bool
		s, err := OpenWith(context.Background(), db, Options{BeforeCommit: func() error {
			if refuse.Load() {
				return errors.New("injected: the disk refused")
			}
			return nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		ctx := context.Background()
		if !s.Writable() {
			t.Fatal("a fresh store is not writable")
		}
		refuse.Store(true)
		if _, err := s.CreateClass(ctx, "WWWWWW", "h"); err == nil {
			t.Fatal("the write was not refused")
		}
		if s.Writable() {
			t.Error("writable after a refused batch")
		}
		refuse.Store(false)
		if _, err := s.CreateClass(ctx, "WWWWWW", "h"); err != nil {
			t.Fatal(err)
		}
		if !s.Writable() {
			t.Error("not writable after a batch that reached the disk")
		}
	})
}

// TestWritesRacingCloseAllReturn: writes sent as the store closes each
// return, saved or refused as not saved; none waits for ever for a writer
// that stopped after its job was queued.
func TestWritesRacingCloseAllReturn(t *testing.T) {
	for round := range 50 {
		s, err := Open(context.Background(), filepath.Join(t.TempDir(), "p.db"))
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		results := make(chan error, 16)
		for range 16 {
			wg.Go(func() {
				results <- s.w.write(context.Background(), func(ctx context.Context, tx *sql.Tx) error { return nil })
			})
		}
		s.Close()
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("round %d: a write sent as the store closed never returned", round)
		}
		close(results)
		for err := range results {
			if err != nil && !errors.Is(err, ErrNotSaved) {
				t.Errorf("round %d: %v, want nil or not saved", round, err)
			}
		}
	}
}
