// Package pgtest gives tests a Postgres database of their own: a fresh
// schema on the server PIGCLASS_TEST_POSTGRES names (a postgres:// URL),
// dropped when the test ends. Without that variable the test is skipped,
// unless PIGCLASS_REQUIRE_POSTGRES is 1 (as .ci/run sets it, having
// started a server): then it fails, so that CI cannot pass without
// Postgres's tests.
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
)

// URL is a postgres:// URL of an empty schema of the test's own.
func URL(tb testing.TB) string {
	tb.Helper()
	base := os.Getenv("PIGCLASS_TEST_POSTGRES")
	if base == "" {
		if os.Getenv("PIGCLASS_REQUIRE_POSTGRES") == "1" {
			tb.Fatal("PIGCLASS_REQUIRE_POSTGRES is 1 but PIGCLASS_TEST_POSTGRES names no server")
		}
		tb.Skip("no Postgres to test against: set PIGCLASS_TEST_POSTGRES to a postgres:// URL (.ci/postgres starts one)")
	}
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatalf("PIGCLASS_TEST_POSTGRES: %v", err)
	}
	var b [6]byte
	rand.Read(b[:])
	schema := "t_" + hex.EncodeToString(b[:])
	db, err := sql.Open("pgx", base)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := db.ExecContext(ctx, `CREATE SCHEMA `+schema); err != nil {
		db.Close()
		tb.Fatalf("pgtest: %v", err)
	}
	tb.Cleanup(func() {
		defer db.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := db.ExecContext(ctx, `DROP SCHEMA `+schema+` CASCADE`); err != nil {
			tb.Logf("pgtest: dropping %s: %v", schema, err)
		}
	})
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
