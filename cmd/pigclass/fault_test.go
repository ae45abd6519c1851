package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"pigclass/server/store"
)

// startFails runs `pigclass serve` on db (as user nobody when uid is set)
// and returns its exit status and what it printed; it must stop by itself.
func startFails(t *testing.T, db string, asNobody bool) (int, string) {
	t.Helper()
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "serve", "--addr", "127.0.0.1:0", "--db", db)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.TempDir()}
	if asNobody {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("the server did not stop with an error (%v):\n%s", err, out.String())
	}
	return ee.ExitCode(), out.String()
}

// makeDB creates a pigclass database at path.
func makeDB(t *testing.T, path string) {
	t.Helper()
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateClass(context.Background(), "FAULTS", "h"); err != nil {
		t.Fatal(err)
	}
	st.Close()
}

// openDir makes a temporary folder that user nobody can enter.
func openDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} { // the test's folder, then this one
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestBrokenMachines: each broken database stops the start with a message
// that names the file and says what to do, and exit status 1.
func TestBrokenMachines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	cases := []struct {
		name   string
		setup  func(t *testing.T, db string) bool // false: skip here
		nobody bool
		says   []string
	}{
		{"unwritable file", func(t *testing.T, db string) bool {
			makeDB(t, db)
			os.Remove(db + "-wal")
			os.Remove(db + "-shm")
			return os.Chmod(db, 0o444) == nil
		}, os.Geteuid() == 0, []string{"cannot be written", "write access"}},
		{"corrupt file", func(t *testing.T, db string) bool {
			return os.WriteFile(db, bytes.Repeat([]byte("not a database "), 400), 0o644) == nil
		}, false, []string{"is not a pigclass database, or is damaged", "pigclass backup"}},
		{"newer schema", func(t *testing.T, db string) bool {
			makeDB(t, db)
			addMigration(t, db, "migrations/9001_from_the_future.sql")
			return true
		}, false, []string{"newer pigclass", "9001_from_the_future", "newer version"}},
		{"full disk", func(t *testing.T, db string) bool {
			dir := filepath.Dir(db)
			if os.Geteuid() != 0 || exec.Command("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", dir).Run() != nil {
				return false
			}
			t.Cleanup(func() { exec.Command("umount", dir).Run() })
			// Fill the small disk so that the database cannot even be made.
			filler, _ := os.Create(filepath.Join(dir, "filler"))
			filler.Write(make([]byte, 255<<10))
			filler.Close()
			return true
		}, false, []string{"is full", "Free some space"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db := filepath.Join(openDir(t), "class.db")
			if !c.setup(t, db) {
				t.Skip("this machine cannot make this fault (tmpfs needs root)")
			}
			status, out := startFails(t, db, c.nobody)
			if status != 1 || !strings.Contains(out, db) {
				t.Errorf("exit %d, want 1, naming %s:\n%s", status, db, out)
			}
			for _, s := range c.says {
				if !strings.Contains(out, s) {
					t.Errorf("the message does not say %q:\n%s", s, out)
				}
			}
		})
	}
}

// addMigration records a migration this pigclass does not have, as a newer
// one would.
func addMigration(t *testing.T, db, name string) {
	t.Helper()
	h, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if _, err := h.Exec(`INSERT INTO migrations (name, applied_at) VALUES (?, '2027-01-01T00:00:00Z')`, name); err != nil {
		t.Fatal(err)
	}
}

// TestBackupWhileServing: a backup taken while the server runs is a whole,
// checked copy; an existing target is refused.
func TestBackupWhileServing(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "live.db")
	base := startServer(t, db)
	for range 3 {
		resp, err := httpPost(base + "/classes")
		if err != nil || resp != 303 {
			t.Fatalf("start a class: %d %v", resp, err)
		}
	}
	to := filepath.Join(dir, "copy.db")
	out, _, err := runCmd(t, "backup", "--db", db, "--to", to)
	if err != nil || !strings.Contains(out, "3 classes") || !strings.Contains(out, "checks out") {
		t.Fatalf("backup: %v\n%s", err, out)
	}
	st, err := store.Open(context.Background(), to)
	if err != nil {
		t.Fatalf("the copy does not open: %v", err)
	}
	st.Close()
	if _, _, err := runCmd(t, "backup", "--db", db, "--to", to); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("a backup over an existing file: %v", err)
	}
	var ue usageError
	if _, _, err := runCmd(t, "backup", "--db", db); !errors.As(err, &ue) {
		t.Errorf("backup without --to: %v, want a usage error", err)
	}
}
