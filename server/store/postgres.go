package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// A district's store on Postgres: the same Store, its queries and its
// writer, over github.com/jackc/pgx/v5's database/sql driver. The shape
// is SQLite's: one write connection that the writer owns (group commit: a
// batch of jobs, one transaction, each in its savepoint) and a pool of
// read-only connections, whose transactions read one snapshot
// (REPEATABLE READ), as a SQLite read transaction does.

// openPostgres opens the Postgres database at dsn (a postgres:// URL) and
// applies the migrations it lacks (migrations/postgres).
func openPostgres(ctx context.Context, dsn string, opt Options) (*Store, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("store: the database URL %s: %w", redact(dsn), err)
	}
	cfg.RuntimeParams["application_name"] = "pigclass"
	db := sql.OpenDB(pgConnector{stdlib.GetConnector(*cfg)})
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	s := &Store{}
	s.db, s.pg = db, true
	s.leases = newLeases(&s.conn)
	s.now = nowUTC(opt.Now)
	if err := s.db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: the database %s does not answer: %w. Check the URL given with --db (host, port, user, password, database) and that Postgres is running", redact(dsn), err)
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if err := s.probe(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: first write to %s: %w", redact(dsn), err)
	}
	rcfg := cfg.Copy()
	rcfg.RuntimeParams["default_transaction_read_only"] = "on"
	s.rd = sql.OpenDB(pgConnector{stdlib.GetConnector(*rcfg)})
	return s, s.start(ctx, opt)
}

// Redacted is db as a log or a message may say it: a Postgres URL with
// its password hidden, a file as it is.
func Redacted(db string) string {
	if IsPostgres(db) {
		return redact(db)
	}
	return db
}

// secretParams are the parameters of a Postgres URL that hold a secret:
// the password (also written as user:password@) and the passphrase of
// the client's TLS key.
var secretParams = []string{"password", "sslpassword"}

// redact is dsn with every password hidden (user:password@, password=,
// sslpassword=), for messages and logs.
func redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "(a postgres:// URL that does not parse)"
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			if slices.Contains(secretParams, strings.ToLower(k)) {
				q.Set(k, "xxxxx")
			}
		}
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// pgConnector makes the driver's connections pgConns.
type pgConnector struct{ driver.Connector }

func (c pgConnector) Connect(ctx context.Context) (driver.Conn, error) {
	cn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &pgConn{cn.(*stdlib.Conn)}, nil
}

// pgConn is a pgx connection that reads the store's SQL (pgSQL) and its
// arguments (CheckNamedValue) as SQLite does.
type pgConn struct{ *stdlib.Conn }

func (c *pgConn) Prepare(query string) (driver.Stmt, error) {
	return c.Conn.Prepare(pgSQL(query))
}

func (c *pgConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.Conn.PrepareContext(ctx, pgSQL(query))
}

func (c *pgConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return c.Conn.ExecContext(ctx, pgSQL(query), args)
}

func (c *pgConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	return c.Conn.QueryContext(ctx, pgSQL(query), args)
}

// CheckNamedValue stores a Go bool as 1 or 0, as SQLite does: the store's
// flags are INTEGER columns in both engines.
func (c *pgConn) CheckNamedValue(nv *driver.NamedValue) error {
	if v := reflect.ValueOf(nv.Value); v.Kind() == reflect.Bool {
		nv.Value = int64(0)
		if v.Bool() {
			nv.Value = int64(1)
		}
	}
	return c.Conn.CheckNamedValue(nv)
}

// pgSQL is query in Postgres's spelling: SQLite's ? placeholders numbered
// ($1, $2, ...), instr as strpos, and CAST(... AS INTEGER), a 64-bit
// integer in SQLite, as BIGINT. Quoted text is left as it is. Each query
// is read once.
func pgSQL(query string) string {
	if q, ok := pgQueries.Load(query); ok {
		return q.(string)
	}
	var b strings.Builder
	n := 0
	var quote byte
	for i := 0; i < len(query); i++ {
		ch := query[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '\'' || ch == '"':
			quote = ch
		case ch == '?':
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		case strings.HasPrefix(query[i:], "instr("):
			if i == 0 || !isWordByte(query[i-1]) {
				b.WriteString("strpos(")
				i += len("instr(") - 1
				continue
			}
		case strings.HasPrefix(query[i:], " AS INTEGER)"):
			b.WriteString(" AS BIGINT)")
			i += len(" AS INTEGER)") - 1
			continue
		}
		b.WriteByte(ch)
	}
	// Kept while the store's texts fit: a query built with a varying
	// number of placeholders is read again past that.
	if pgQueryCount.Add(1) <= maxPgQueries {
		pgQueries.Store(query, b.String())
	}
	return b.String()
}

var (
	pgQueries    sync.Map // query -> pgSQL(query)
	pgQueryCount atomic.Int64
)

// maxPgQueries bounds pgQueries: the store has some hundreds of texts.
const maxPgQueries = 4096

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
