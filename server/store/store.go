// Package store keeps pigclass's data: classes, students, rounds, matches,
// their seats and the append-only event log with the analysis of every
// decision. It runs on SQLite (modernc.org/sqlite, no cgo), a school's one
// file, or on a district's Postgres (pgx's database/sql driver, postgres.go
// and engine.go), where leases.go lets one instance at a time serve a
// class. Every exported method takes a context and runs in one transaction.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"sort"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" driver
)

//go:embed migrations/*.sql migrations/postgres/*.sql
var migrations embed.FS

// Errors a caller can act on.
var (
	ErrNotFound      = errors.New("not found")
	ErrNicknameTaken = errors.New("nickname taken")
)

// Store is the database: one write connection owned by the writer (group
// commit, see writer.go) and a pool of read-only connections (conn). In WAL
// mode readers never wait for the writer, so a page reads while a batch
// commits. Its methods are the domain's questions and changes.
type Store struct {
	conn
}

// conn is the store's plumbing, which Store's queries run through: the
// write connection and its writer, the read-only pool, the clock and the
// hot statements; and what the health check and the metrics read of them
// (Queued, Writable, Ping, WriterStats).
type conn struct {
	db  *sql.DB // the write connection: migrations at Open, then the writer alone
	rd  *sql.DB // read-only pool
	w   *writer
	now func() time.Time
	pg  bool // the engine is Postgres (engine.go), not SQLite

	leases *Leases // a district's leases (Postgres), nil on SQLite

	insertEvent *sql.Stmt // prepared once on the write connection
	markOver    *sql.Stmt
	closeOnce   sync.Once
}

// Options changes how Open sets the store up; the zero value is what the
// app uses.
type Options struct {
	// BeforeCommit, when set, runs before each batch commits; an error
	// fails the batch as a failed commit would. Fault tests inject with it.
	BeforeCommit func() error
	// Readers is the size of the read-only pool; 0 means 4.
	Readers int
	// Now is the clock of the times stored; nil means time.Now.
	Now func() time.Time
}

// Open opens (creating if needed) the database file at path and applies
// the migrations it lacks.
func Open(ctx context.Context, path string) (*Store, error) {
	return OpenWith(ctx, path, Options{})
}

// OpenWith is Open with options. Pragmas are in the DSN so that every
// pooled connection has them: foreign keys, a busy timeout, WAL, and
// synchronous FULL on the writer, so that an acknowledged decision survives
// even a power cut (one sync per batch, not per decision). The readers are
// query_only and take no write lock: their transactions are deferred.
//
// A path that is a postgres:// URL opens a district's Postgres database
// instead (postgres.go).
func OpenWith(ctx context.Context, path string, opt Options) (*Store, error) {
	if IsPostgres(path) {
		return openPostgres(ctx, path, opt)
	}
	ownerOnly(path)
	q := url.Values{}
	// secure_delete: a deleted class's names are overwritten with zeros,
	// not left in the file's free pages.
	for _, p := range []string{"foreign_keys(1)", "busy_timeout(5000)", "journal_mode(WAL)", "synchronous(FULL)", "secure_delete(1)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate") // the one writer: take the lock at BEGIN
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxIdleTime(0)
	db.SetConnMaxLifetime(0)
	s := &Store{}
	s.db, s.now = db, nowUTC(opt.Now)
	if err := s.migrate(ctx); err != nil {
		db.Close()
		var oe *OpenError
		if errors.As(err, &oe) && oe.Path == "" {
			oe.Path = path
		}
		return nil, openError(path, err)
	}
	if err := s.probe(ctx); err != nil {
		db.Close()
		return nil, openError(path, fmt.Errorf("store: first write: %w", err))
	}
	r := url.Values{}
	for _, p := range []string{"foreign_keys(1)", "busy_timeout(5000)", "query_only(1)"} {
		r.Add("_pragma", p)
	}
	if s.rd, err = sql.Open("sqlite", "file:"+path+"?"+r.Encode()); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s for reading: %w", path, err)
	}
	return s, s.start(ctx, opt)
}

// nowUTC is the store's clock: now, or time.Now, in UTC.
func nowUTC(now func() time.Time) func() time.Time {
	if now == nil {
		now = time.Now
	}
	return func() time.Time { return now().UTC() }
}

// start sizes the read pool, prepares the hot statements and starts the
// writer, once the write connection is migrated and the read pool open;
// on an error it closes both.
func (c *conn) start(ctx context.Context, opt Options) error {
	if opt.Readers == 0 {
		opt.Readers = 4
	}
	c.rd.SetMaxOpenConns(opt.Readers)
	c.rd.SetMaxIdleConns(opt.Readers)
	if err := c.prepare(ctx); err != nil {
		c.rd.Close()
		c.db.Close()
		return err
	}
	c.w = newWriter(c.db, opt.BeforeCommit, c.pg)
	return nil
}

// ownerOnly makes the database file readable and writable by its owner
// alone, whatever the umask: a new one is created 0600, and an existing
// one (with its -wal and -shm) loses any access of its group and others.
// SQLite gives the WAL and SHM files the database file's mode. What cannot
// be done here (a folder that cannot be written, a file of another user)
// is left for the open to report.
func ownerOnly(path string) {
	if f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600); err == nil {
		f.Close()
		return
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o077 != 0 {
			os.Chmod(p, fi.Mode().Perm()&0o700)
		}
	}
}

// prepare parses the hot statements once.
func (c *conn) prepare(ctx context.Context) error {
	var err error
	if c.insertEvent, err = c.db.PrepareContext(ctx, insertEventSQL); err != nil {
		return fmt.Errorf("store: prepare: %w", err)
	}
	if c.markOver, err = c.db.PrepareContext(ctx, markOverSQL); err != nil {
		return fmt.Errorf("store: prepare: %w", err)
	}
	return nil
}

// Close stops the writer (refusing writes still queued) and closes the
// database. Calling it again does nothing.
func (c *conn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		c.w.close()
		c.insertEvent.Close()
		c.markOver.Close()
		c.rd.Close()
		err = c.db.Close()
	})
	return err
}

// Scrub copies the WAL into the database file and truncates it, once
// every write queued before it is committed: after an erasure, nothing
// erased is left in an old page of the WAL (the database file's own pages
// are overwritten: secure_delete). A reader reading an old snapshot
// delays it.
func (c *conn) Scrub(ctx context.Context) error { return c.w.scrub(ctx) }

// Queued is how many writes wait for the writer.
func (c *conn) Queued() int { return len(c.w.jobs) }

// Writable reports whether the last batch of writes reached the disk.
func (c *conn) Writable() bool { return !c.w.failing.Load() }

// Ping checks that the database answers.
func (c *conn) Ping(ctx context.Context) error {
	var one int
	return c.rd.QueryRowContext(ctx, "SELECT 1").Scan(&one)
}

// WriterStats counts the batches the writer committed and the writes in
// them: writes/batches is the mean batch size.
func (c *conn) WriterStats() (batches, writes int64) {
	return c.w.batches.Load(), c.w.writes.Load()
}

// migrate applies the embedded migrations not yet applied, in order, one
// transaction each.
func (c *conn) migrate(ctx context.Context) error {
	dir := "migrations"
	if c.pg {
		// Instances of a district starting together migrate one at a
		// time, from their first statement (two creating the migrations
		// table at once collide in Postgres's catalog): the lock is the
		// write connection's (its only one) until it is unlocked or the
		// connection ends.
		if _, err := c.db.ExecContext(ctx, `SELECT pg_advisory_lock(7460)`); err != nil {
			return fmt.Errorf("store: migrations lock: %w", err)
		}
		defer c.db.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(7460)`)
		dir = "migrations/postgres"
	}
	if _, err := c.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("store: migrations table: %w", err)
	}
	names, err := fs.Glob(migrations, dir+"/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	if err := c.checkNewer(ctx, names); err != nil {
		return err
	}
	for _, name := range names {
		if err := c.migrateTx(ctx, func(tx *sql.Tx) error {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM migrations WHERE name = ?`, name).Scan(&n); err != nil || n > 0 {
				return err
			}
			body, err := fs.ReadFile(migrations, name)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, string(body)); err != nil {
				return err
			}
			_, err = tx.ExecContext(ctx, `INSERT INTO migrations (name, applied_at) VALUES (?, ?)`, name, c.stamp())
			return err
		}); err != nil {
			return fmt.Errorf("store: migration %s: %w", name, err)
		}
	}
	return nil
}

// migrateTx runs one migration in its own transaction, before the writer
// starts.
func (c *conn) migrateTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// inTx runs fn through the writer: in a batch's transaction, committed
// before it returns nil. fn gets the writer's context, not the caller's
// (name it ctx, so the caller's cannot be used by mistake): a request
// cancelled while its job waits in a batch must not interrupt the batch's
// connection, and with it every other job.
//
// On a district's Postgres, a caller's ctx that names its class
// (ForClass) has the write fenced by the class's lease (leases.go).
func (c *conn) inTx(ctx context.Context, fn func(ctx context.Context, tx *sql.Tx) error) error {
	return c.w.write(ctx, c.fenced(ctx, fn))
}

// readTx runs fn in a read transaction on the read-only pool: one
// consistent view of the database, without the write lock.
func (c *conn) readTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	var opt *sql.TxOptions
	if c.pg {
		// Postgres's default gives each statement its own snapshot.
		opt = &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}
	}
	tx, err := c.rd.BeginTx(ctx, opt)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	return fn(tx)
}

// exec runs one statement through the writer.
func (c *conn) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	var res sql.Result
	err := c.inTx(ctx, func(ctx context.Context, tx *sql.Tx) (err error) {
		res, err = tx.ExecContext(ctx, query, args...)
		return err
	})
	return res, err
}

// stamp returns the time now as stored: RFC 3339 in UTC.
func (c *conn) stamp() string { return c.now().Format(time.RFC3339Nano) }

// parseTime reads a stored time.
func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

// DB returns a read-only handle, for tests and maintenance.
func (c *conn) DB() *sql.DB { return c.rd }
