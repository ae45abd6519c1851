package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// The store runs on two engines: SQLite, a file beside the program (the
// default, one laptop needs nothing more), and Postgres, a district's
// shared database (postgres.go). Their SQL is one text wherever the two
// agree (RETURNING, ON CONFLICT, COALESCE, CASE); where they do not, the
// query asks the conn for the piece (the methods below), and the Postgres
// connection rewrites what is only spelling (pgSQL: placeholders, instr).

// IsPostgres reports whether db names a Postgres database (a postgres://
// or postgresql:// URL) rather than a SQLite file.
func IsPostgres(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// Engine names the store's engine: "sqlite" or "postgres".
func (c *conn) Engine() string {
	if c.pg {
		return "postgres"
	}
	return "sqlite"
}

// jsonText is the top-level key of the JSON text in column col, as text
// (NULL when absent).
func (c *conn) jsonText(col, key string) string {
	if c.pg {
		return "(" + col + "::jsonb ->> '" + key + "')"
	}
	return "json_extract(" + col + ", '$." + key + "')"
}

// jsonInt is a whole number at the top-level key of the JSON in col (NULL
// when absent): SQLite's json_extract gives it typed already.
func (c *conn) jsonInt(col, key string) string {
	if c.pg {
		return c.jsonText(col, key) + "::bigint"
	}
	return c.jsonText(col, key)
}

// jsonFlag is a true/false key of the JSON in col as 1 or 0 (0 when
// absent, as encoding/json's omitempty leaves a false out).
func (c *conn) jsonFlag(col, key string) string {
	if c.pg {
		return "COALESCE(" + c.jsonText(col, key) + "::boolean::int, 0)"
	}
	return "COALESCE(" + c.jsonText(col, key) + ", 0)"
}

// jsonNumAt is the number in the JSON object in col under the key that
// the SQL expression keyExpr gives (a column, say); NULL when absent.
func (c *conn) jsonNumAt(col, keyExpr string) string {
	if c.pg {
		return "(" + col + "::jsonb ->> " + keyExpr + ")::double precision"
	}
	return "json_extract(" + col + `, '$."' || ` + keyExpr + ` || '"')`
}

// greatest is the function that returns the greatest of its arguments:
// SQLite's many-argument MAX, Postgres's GREATEST.
func (c *conn) greatest() string {
	if c.pg {
		return "GREATEST"
	}
	return "MAX"
}

// insertID runs an INSERT and returns the id of the row it made: RETURNING
// id, which both engines have (database/sql's LastInsertId is SQLite's
// alone).
func insertID(ctx context.Context, tx *sql.Tx, query string, args ...any) (id int64, err error) {
	err = tx.QueryRowContext(ctx, query+" RETURNING id", args...).Scan(&id)
	return id, err
}

// isUnique reports whether err is a UNIQUE constraint failure, in either
// engine's words.
func isUnique(err error) bool {
	if err == nil {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "23505" // unique_violation
	}
	return strings.Contains(err.Error(), "UNIQUE constraint failed")
}
