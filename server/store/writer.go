package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// The writer is the one owner of the write connection. Every change to the
// database is a job sent to it; it gathers the jobs waiting (up to
// maxBatch), runs them in one transaction, each inside its own savepoint,
// commits once (synchronous FULL: one sync for the whole batch) and only
// then answers every job. This is group commit: a hundred students clicking
// at once cost one sync, not a hundred.
//
// A job whose statements fail is rolled back to its savepoint and refused
// alone; the others go on. A failed commit refuses every job of the batch:
// nothing of it is on disk, and each caller puts its state back as it was.
//
// Concurrency: jobs arrive on w.jobs from any goroutine; only the writer
// goroutine touches the write connection after Open's migrations.

// ErrNotSaved wraps every error of a write that did not reach the disk: the
// caller may try again.
var ErrNotSaved = errors.New("not saved")

// maxBatch is the most jobs one transaction carries.
const maxBatch = 512

// job is one write: fn runs inside the batch's transaction, with the
// writer's own context (never the caller's: a request that is cancelled
// would interrupt the connection, and fail every job of the batch).
type job struct {
	fn   func(ctx context.Context, tx *sql.Tx) error
	done chan error
	// checkpoint: once the batch is committed, copy the WAL into the
	// database and truncate it (scrub), then answer.
	checkpoint bool
}

type writer struct {
	db           *sql.DB
	jobs         chan job
	quit         chan struct{}
	stopped      chan struct{}
	beforeCommit func() error // for fault tests; nil in use
	pg           bool         // Postgres: no WAL file of its own to scrub

	// batches and writes count committed transactions and the jobs in them;
	// submitted counts the jobs queued; failing is set while the last batch
	// did not reach the disk.
	batches, writes, submitted atomic.Int64
	failing                    atomic.Bool
}

func newWriter(db *sql.DB, beforeCommit func() error, pg bool) *writer {
	w := &writer{db: db, jobs: make(chan job, 4*maxBatch), quit: make(chan struct{}), stopped: make(chan struct{}), beforeCommit: beforeCommit, pg: pg}
	go w.loop()
	return w
}

// errClosed refuses writes after Close.
var errClosed = errors.New("store: closed")

// write sends fn to the writer and waits until its batch is committed (nil)
// or refused. It waits even when ctx ends first: the caller must know
// whether the change is on disk. ctx only bounds the wait for a place in
// the queue; fn runs with the writer's context.
func (w *writer) write(ctx context.Context, fn func(ctx context.Context, tx *sql.Tx) error) error {
	return w.send(ctx, job{fn: fn, done: make(chan error, 1)})
}

// scrub has the writer, after the batch it joins is committed, copy the
// WAL into the database file and truncate it: what a commit overwrote
// (secure_delete) is then gone from both files, not left in old pages of
// the WAL until the next checkpoint.
func (w *writer) scrub(ctx context.Context) error {
	noop := func(context.Context, *sql.Tx) error { return nil }
	return w.send(ctx, job{fn: noop, done: make(chan error, 1), checkpoint: true})
}

// send queues j and waits for its answer (see write).
func (w *writer) send(ctx context.Context, j job) error {
	select {
	case w.jobs <- j:
		w.submitted.Add(1)
	case <-w.quit:
		return fmt.Errorf("%w: %w", ErrNotSaved, errClosed)
	case <-ctx.Done():
		return fmt.Errorf("%w: %w", ErrNotSaved, ctx.Err())
	}
	select {
	case err := <-j.done:
		return err
	case <-w.stopped:
		// Closed as the job was queued: the loop answered every job it
		// took before it stopped, so one without an answer was never run.
		select {
		case err := <-j.done:
			return err
		default:
			return fmt.Errorf("%w: %w", ErrNotSaved, errClosed)
		}
	}
}

func (w *writer) loop() {
	defer close(w.stopped)
	batch := make([]job, 0, maxBatch)
	for {
		select {
		case j := <-w.jobs:
			batch = append(batch[:0], j)
		case <-w.quit:
			w.drain()
			return
		}
	more:
		for len(batch) < maxBatch {
			select {
			case j := <-w.jobs:
				batch = append(batch, j)
			default:
				break more
			}
		}
		w.commit(batch)
	}
}

// drain refuses the jobs still queued at Close.
func (w *writer) drain() {
	for {
		select {
		case j := <-w.jobs:
			j.done <- fmt.Errorf("%w: %w", ErrNotSaved, errClosed)
		default:
			return
		}
	}
}

// commit runs one batch and answers each of its jobs.
func (w *writer) commit(batch []job) {
	ctx := context.Background()
	errs := make([]error, len(batch))
	fail := func(err error) {
		w.failing.Store(true)
		for i, j := range batch {
			if errs[i] == nil {
				errs[i] = err
			}
			j.done <- errs[i]
		}
	}
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		fail(fmt.Errorf("%w: store: begin: %w", ErrNotSaved, err))
		return
	}
	if len(batch) == 1 && !batch[0].checkpoint {
		// A job alone needs no savepoint (two round trips to Postgres):
		// if it fails, the batch's transaction is its own, rolled back.
		if err := batch[0].fn(ctx, tx); err != nil {
			tx.Rollback()
			batch[0].done <- jobError(err)
			return
		}
	} else if err := runJobs(ctx, tx, batch, errs); err != nil {
		tx.Rollback()
		fail(err)
		return
	}
	if w.beforeCommit != nil {
		if err := w.beforeCommit(); err != nil {
			tx.Rollback()
			fail(fmt.Errorf("%w: store: commit: %w", ErrNotSaved, err))
			return
		}
	}
	if err := tx.Commit(); err != nil {
		fail(fmt.Errorf("%w: store: commit: %w", ErrNotSaved, err))
		return
	}
	w.failing.Store(false)
	// Counted before the answers, so a caller who was answered finds its
	// batch counted.
	w.batches.Add(1)
	w.writes.Add(int64(len(batch)))
	scrubbed := false
	for i, j := range batch {
		if j.checkpoint && errs[i] == nil {
			if !scrubbed {
				errs[i], scrubbed = w.checkpoint(ctx), true
			}
		}
		j.done <- errs[i]
	}
}

// runJobs runs each job of a batch in its own savepoint: a job that fails
// is rolled back alone (its error in errs), the others go on. The error
// returned fails the whole batch.
func runJobs(ctx context.Context, tx *sql.Tx, batch []job, errs []error) error {
	for i, j := range batch {
		if _, err := tx.ExecContext(ctx, "SAVEPOINT job"); err != nil {
			return fmt.Errorf("%w: store: savepoint: %w", ErrNotSaved, err)
		}
		if err := j.fn(ctx, tx); err != nil {
			errs[i] = jobError(err)
			if _, rerr := tx.ExecContext(ctx, "ROLLBACK TO job"); rerr != nil {
				return fmt.Errorf("%w: store: rollback to savepoint: %w", ErrNotSaved, rerr)
			}
		}
		if _, err := tx.ExecContext(ctx, "RELEASE job"); err != nil {
			return fmt.Errorf("%w: store: release savepoint: %w", ErrNotSaved, err)
		}
	}
	return nil
}

// jobError is a job's own error as its caller gets it: the disk's, not
// the request's, is not saved (the caller may try again).
func jobError(err error) error {
	if kindOf(err) != nil {
		return fmt.Errorf("%w: %w", ErrNotSaved, err)
	}
	return err
}

// checkpoint copies the whole WAL into the database and truncates it. A
// reader still reading an old snapshot holds it back: the busy handler
// waits for it (busy_timeout), and the checkpoint is tried again a few
// times before it gives up.
//
// Postgres keeps its own write-ahead log, which the district's database
// administrators run and keep (their backups and replicas): a commit
// there is all the store does.
func (w *writer) checkpoint(ctx context.Context) error {
	if w.pg {
		return nil
	}
	var busy, logged, copied int
	for try := 0; try < 20; try++ {
		if err := w.db.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &logged, &copied); err != nil {
			return fmt.Errorf("store: checkpoint: %w", err)
		}
		if busy == 0 {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("store: checkpoint: readers kept the WAL busy (%d of %d pages copied)", copied, logged)
}

func (w *writer) close() {
	close(w.quit)
	select {
	case <-w.stopped:
	case <-time.After(30 * time.Second):
	}
}
