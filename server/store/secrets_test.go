package store

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pigclass/server/store/pgtest"
)

// TestEveryPasswordIsRedacted (issue 58, item 7): a Postgres URL as the
// logs and messages say it hides the password in each form it may take.
func TestEveryPasswordIsRedacted(t *testing.T) {
	for _, dsn := range []string{
		"postgres://pigclass:s3cret-pw@db.school/pigclass",
		"postgres://pigclass@db.school/pigclass?password=s3cret-pw",
		"postgres://pigclass@db.school/pigclass?sslmode=verify-full&sslpassword=s3cret-pw",
		"postgres://pigclass@db.school/pigclass?PASSWORD=s3cret-pw&application_name=x",
		"postgres://pigclass:s3cret-pw@db.school/pigclass?password=s3cret-pw&sslpassword=s3cret-pw",
	} {
		got := Redacted(dsn)
		if strings.Contains(got, "s3cret") || !strings.Contains(got, "db.school") || !strings.Contains(got, "xxxxx") {
			t.Errorf("%s is said as %s", dsn, got)
		}
	}
	if got := Redacted("postgres://pigclass@db.school/pigclass?sslmode=disable"); got != "postgres://pigclass@db.school/pigclass?sslmode=disable" {
		t.Errorf("a URL without a password is said as %s", got)
	}
	// A file is said as it is; so is what does not parse, without itself.
	if got := Redacted("/var/lib/pigclass/pigclass.db"); got != "/var/lib/pigclass/pigclass.db" {
		t.Errorf("a file: %s", got)
	}
	if got := Redacted("postgres://u:s3cret@[::1"); strings.Contains(got, "s3cret") {
		t.Errorf("a URL that does not parse is said as %s", got)
	}
}

// TestPgDumpGetsNoPasswordOnItsCommandLine (issue 58, item 6): pg_dump's
// arguments, which every local user can read in ps, hold no password
// in any form; a file readable by its owner alone hands them over, and
// is gone afterwards.
func TestPgDumpGetsNoPasswordOnItsCommandLine(t *testing.T) {
	dsn := "postgres://pigclass:pw-one@db.school:5433/pigclass?sslpassword=pw-two&search_path=t_1&sslmode=require"
	cmd, done, err := pgDumpCommand(context.Background(), "/usr/bin/pg_dump", dsn, "/tmp/out.dump")
	if err != nil {
		t.Fatal(err)
	}
	args := strings.Join(cmd.Args, " ")
	if strings.Contains(args, "pw-one") || strings.Contains(args, "pw-two") || !strings.Contains(args, "db.school:5433") || !strings.Contains(args, "service=pigclass") {
		t.Fatalf("pg_dump's arguments: %s", args)
	}
	i := slices.IndexFunc(cmd.Env, func(e string) bool { return strings.HasPrefix(e, "PGSERVICEFILE=") })
	if i < 0 {
		t.Fatal("pg_dump is given no service file")
	}
	service := strings.TrimPrefix(cmd.Env[i], "PGSERVICEFILE=")
	info, err := os.Stat(service)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the service file: %v, %v", info, err)
	}
	body, _ := os.ReadFile(service)
	if string(body) != "[pigclass]\npassword=pw-one\nsslpassword=pw-two\n" {
		t.Errorf("the service file holds %q", body)
	}
	done()
	if _, err := os.Stat(service); !os.IsNotExist(err) {
		t.Errorf("the service file is still there after the dump: %v", err)
	}
}

// TestDumpPostgresWithAPasswordInItsURL: a backup of a database whose URL
// has a password (ignored by the tests' server, which trusts loopback)
// reads back, the password handed over as above.
func TestDumpPostgresWithAPasswordInItsURL(t *testing.T) {
	db := pgtest.URL(t)
	s := mustOpenOn(t, db)
	if _, err := s.CreateClass(t.Context(), "PWPWPW", "h"); err != nil {
		t.Fatal(err)
	}
	to := filepath.Join(t.TempDir(), "district.dump")
	tables, err := DumpPostgres(t.Context(), db+"&password=not-needed-here", to)
	if err != nil || tables == 0 {
		t.Fatalf("dump: %d tables, %v", tables, err)
	}
}
