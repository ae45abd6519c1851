package main

import (
	"bytes"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFilesAreTheOwnersAndForget: the server, a process of its own started
// under umask 022, makes its database, WAL and SHM files and a backup
// readable by its user alone (0600); and a class deleted before a clean
// stop leaves none of its students' nicknames in the file.
func TestFilesAreTheOwnersAndForget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	db := filepath.Join(dir, "private.db")
	p := startProcess(t, bin, "127.0.0.1:0", db)

	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	post := func(path string, form url.Values) *http.Response {
		t.Helper()
		resp, err := c.PostForm(p.base+path, form)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	code := strings.TrimPrefix(post("/classes", url.Values{}).Header.Get("Location"), "/t/")
	const nick = "Quetzalcoatl"
	if loc := post("/join/"+code, url.Values{"nickname": {nick}}).Header.Get("Location"); loc != "/c/"+code {
		t.Fatalf("join: %q", loc)
	}
	for _, f := range []string{db, db + "-wal", db + "-shm"} {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := fi.Mode().Perm(); m != 0o600 {
			t.Errorf("%s is %o, want 600", filepath.Base(f), m)
		}
	}
	copyPath := filepath.Join(dir, "copy.db")
	if out, _, err := runCmd(t, "backup", "--db", db, "--to", copyPath); err != nil {
		t.Fatalf("backup: %v %s", err, out)
	}
	if fi, err := os.Stat(copyPath); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the backup: %v %v, want 600", fi.Mode(), err)
	}

	if resp := post("/t/"+code+"/delete", url.Values{"confirm": {"yes"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("delete: %d", resp.StatusCode)
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not stop on SIGTERM")
	}
	for _, f := range []string{db, db + "-wal"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // a clean stop removes the WAL
		}
		if bytes.Contains(b, []byte(nick)) {
			t.Errorf("%s still holds the deleted class's nickname", filepath.Base(f))
		}
	}
}
