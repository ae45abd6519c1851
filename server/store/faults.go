package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// A broken machine: what went wrong with the database file, said so that a
// teacher or a technician knows what to do. Open returns an *OpenError;
// at run time a write that fails this way is refused with ErrNotSaved.
var (
	ErrUnwritable  = errors.New("cannot be written")
	ErrDiskFull    = errors.New("the disk is full")
	ErrNotDatabase = errors.New("is not a pigclass database, or is damaged")
	ErrNewerSchema = errors.New("was written by a newer pigclass")
)

// OpenError is a database that cannot be used, with the file and what to
// do about it.
type OpenError struct {
	Path string
	Kind error // one of ErrUnwritable, ErrDiskFull, ErrNotDatabase, ErrNewerSchema
	Err  error // what SQLite or the file system said
}

func (e *OpenError) Error() string {
	switch e.Kind {
	case ErrUnwritable:
		if _, err := os.Stat(filepath.Dir(e.Path)); errors.Is(err, fs.ErrNotExist) {
			return fmt.Sprintf("the database %s cannot be made: its folder %s does not exist. Make the folder, or choose another file with --db.", e.Path, filepath.Dir(e.Path))
		}
		return fmt.Sprintf("the database %s cannot be written (%v). Give the user running pigclass write access to the file and to its folder (SQLite writes %s-wal and %s-shm beside it), or choose another file with --db.", e.Path, e.Err, e.Path, e.Path)
	case ErrDiskFull:
		return fmt.Sprintf("the disk holding the database %s is full (%v). Free some space, or move the file and give its new place with --db, then start again: nothing stored is lost.", e.Path, e.Err)
	case ErrNotDatabase:
		return fmt.Sprintf("%s is not a pigclass database, or is damaged (%v). Keep the file for inspection and start from the last copy (see \"pigclass backup\"), or choose another file with --db.", e.Path, e.Err)
	case ErrNewerSchema:
		return fmt.Sprintf("the database %s was written by a newer pigclass (%v). Run that newer version on it, or give this one another file with --db.", e.Path, e.Err)
	}
	return fmt.Sprintf("the database %s: %v", e.Path, e.Err)
}

func (e *OpenError) Unwrap() []error { return []error{e.Kind, e.Err} }

// kindOf names the broken machine behind err, or nil for any other error.
func kindOf(err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM, sqlite3.SQLITE_AUTH:
			return ErrUnwritable
		case sqlite3.SQLITE_FULL:
			return ErrDiskFull
		case sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT:
			return ErrNotDatabase
		case sqlite3.SQLITE_IOERR:
			return ErrUnwritable
		}
	}
	if errors.Is(err, fs.ErrPermission) {
		return ErrUnwritable
	}
	return nil
}

// openError wraps an error of Open in an *OpenError when it is a broken
// machine.
func openError(path string, err error) error {
	if kind := kindOf(err); kind != nil {
		return &OpenError{Path: path, Kind: kind, Err: err}
	}
	return err
}

// checkNewer refuses a database with a migration this pigclass does not
// have: a newer version wrote it.
func (c *conn) checkNewer(ctx context.Context, known []string) error {
	rows, err := c.db.QueryContext(ctx, `SELECT name FROM migrations`)
	if err != nil {
		return err
	}
	defer rows.Close()
	have := map[string]bool{}
	for _, n := range known {
		have[n] = true
	}
	var unknown []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return err
		}
		if !have[n] {
			unknown = append(unknown, n)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return &OpenError{Kind: ErrNewerSchema, Err: fmt.Errorf("it has migration %s, which this version does not know", unknown[len(unknown)-1])}
	}
	return nil
}

// probe writes once at start-up, so that a file that cannot be written, or
// a full disk, stops the start with its message instead of refusing the
// first student's move.
func (c *conn) probe(ctx context.Context) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if c.pg {
		// Under the migrations' lock, as the migrations are: instances
		// starting together would collide making the table.
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(7460)`); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS started (id INTEGER PRIMARY KEY CHECK (id = 1), at TEXT NOT NULL)`); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO started (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at`, c.stamp()); err != nil {
		return err
	}
	return tx.Commit()
}

// Backup copies the database at from into a new file at to, safely while
// a server writes it: SQLite's VACUUM INTO reads one consistent snapshot
// (WAL readers never block the writer) and writes a compact copy, which is
// then checked. from is opened without writing to it; to must not exist.
func Backup(ctx context.Context, from, to string) (classes, events int, err error) {
	if _, err := os.Stat(to); err == nil {
		return 0, 0, fmt.Errorf("backup: %s exists: give a new file, so no copy is overwritten", to)
	}
	if _, err := os.Stat(from); err != nil {
		return 0, 0, fmt.Errorf("backup: the database %s: %w", from, err)
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	db, err := sql.Open("sqlite", "file:"+from+"?"+q.Encode())
	if err != nil {
		return 0, 0, fmt.Errorf("backup: %w", err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM migrations`).Scan(&n); err != nil {
		return 0, 0, openError(from, fmt.Errorf("backup: %w", err))
	}
	// The copy is the owner's alone, as the database is: VACUUM INTO
	// fills the empty file made here 0600.
	f, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return 0, 0, openError(to, fmt.Errorf("backup: %w", err))
	}
	f.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, to); err != nil {
		os.Remove(to)
		return 0, 0, openError(to, fmt.Errorf("backup: %w", err))
	}
	copyDB, err := sql.Open("sqlite", "file:"+to+"?mode=ro")
	if err != nil {
		return 0, 0, fmt.Errorf("backup: %w", err)
	}
	defer copyDB.Close()
	var check string
	if err := copyDB.QueryRowContext(ctx, `PRAGMA quick_check`).Scan(&check); err != nil || check != "ok" {
		return 0, 0, fmt.Errorf("backup: the copy %s does not check out (%s, %v)", to, check, err)
	}
	if err := copyDB.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM classes), (SELECT COUNT(*) FROM events)`).Scan(&classes, &events); err != nil {
		return 0, 0, fmt.Errorf("backup: reading the copy: %w", err)
	}
	return classes, events, nil
}
