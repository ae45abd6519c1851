package store

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// DumpPostgres copies a district's Postgres database into a new file at
// to as the district's own backups do: Postgres's pg_dump, in its custom
// format (one consistent snapshot, while the servers write), then listed
// back with pg_restore to check it reads. It returns how many tables'
// rows the copy holds. to must not exist; it is made readable by its
// owner alone, as the database's own files are.
func DumpPostgres(ctx context.Context, dsn, to string) (tables int, err error) {
	if _, err := os.Stat(to); err == nil {
		return 0, fmt.Errorf("backup: %s exists: give a new file, so no copy is overwritten", to)
	}
	dump, err := exec.LookPath("pg_dump")
	if err != nil {
		return 0, fmt.Errorf("backup: a Postgres database is copied with Postgres's pg_dump, which is not installed here: install Postgres's client (Debian: apt install postgresql-client), or run the district's own backups (pg_dump --format=custom)")
	}
	f, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return 0, fmt.Errorf("backup: %w", err)
	}
	f.Close()
	cmd, done, err := pgDumpCommand(ctx, dump, dsn, to)
	if err != nil {
		os.Remove(to)
		return 0, err
	}
	defer done()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		os.Remove(to)
		return 0, fmt.Errorf("backup: pg_dump of %s: %v: %s", redact(dsn), err, strings.TrimSpace(stderr.String()))
	}
	out, err := exec.CommandContext(ctx, "pg_restore", "--list", to).Output()
	if err != nil {
		return 0, fmt.Errorf("backup: the copy %s does not read back (pg_restore --list: %v)", to, err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, " TABLE DATA ") {
			tables++
		}
	}
	if tables == 0 {
		return 0, fmt.Errorf("backup: the copy %s holds no table: is %s pigclass's database?", to, redact(dsn))
	}
	return tables, nil
}

// pgDumpCommand is pg_dump (at the path dump) of dsn into to. Its
// arguments hold no secret, which any local user could read in ps: a
// password or a TLS key's passphrase in dsn (user:password@, password=,
// sslpassword=) is handed over in a connection service file readable by
// its owner alone (PGSERVICEFILE), which done removes.
func pgDumpCommand(ctx context.Context, dump, dsn, to string) (cmd *exec.Cmd, done func(), err error) {
	conn, schema, secrets, err := libpqURL(dsn)
	if err != nil {
		return nil, nil, err
	}
	args := []string{"--format=custom", "--no-owner", "--file", to}
	if schema != "" {
		args = append(args, "--schema", schema)
	}
	done = func() {}
	env := os.Environ()
	if len(secrets) > 0 {
		dir, err := os.MkdirTemp("", "pigclass-pgdump-")
		if err != nil {
			return nil, nil, fmt.Errorf("backup: %w", err)
		}
		done = func() { os.RemoveAll(dir) }
		var b strings.Builder
		b.WriteString("[pigclass]\n")
		for _, k := range secretParams {
			if v, ok := secrets[k]; ok {
				fmt.Fprintf(&b, "%s=%s\n", k, v)
			}
		}
		service := filepath.Join(dir, "pg_service.conf")
		if err := os.WriteFile(service, []byte(b.String()), 0o600); err != nil {
			done()
			return nil, nil, fmt.Errorf("backup: %w", err)
		}
		env = append(env, "PGSERVICEFILE="+service)
	}
	cmd = exec.CommandContext(ctx, dump, append(args, "--dbname", conn)...)
	cmd.Env = env
	return cmd, done, nil
}

// libpqURL is dsn as Postgres's own programs read it, without its
// secrets (returned apart, by parameter name: password, sslpassword; the
// URL then names the service "pigclass" whose file holds them): a
// schema given as pgx's search_path parameter (a test's own schema)
// becomes libpq's options, and is returned to name it to pg_dump.
func libpqURL(dsn string) (conn, schema string, secrets map[string]string, err error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return "", "", nil, fmt.Errorf("backup: the database URL %s: %w", redact(dsn), err)
	}
	secrets = map[string]string{}
	if p, ok := u.User.Password(); ok {
		secrets["password"] = p
		u.User = url.User(u.User.Username())
	}
	q := u.Query()
	for k, v := range q {
		if slices.Contains(secretParams, strings.ToLower(k)) && len(v) > 0 {
			secrets[strings.ToLower(k)] = v[0]
			q.Del(k)
		}
	}
	if schema = q.Get("search_path"); schema != "" {
		q.Del("search_path")
		q.Set("options", "-csearch_path="+schema)
	}
	if len(secrets) > 0 {
		q.Set("service", "pigclass") // the secrets' file (pgDumpCommand)
	}
	u.RawQuery = q.Encode()
	return u.String(), schema, secrets, nil
}
