package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"pigclass/server/store/pgtest"
	"pigclass/sim"
)

// TestMigrateASchoolIntoTheDistrict: a school's server plays a class on
// its SQLite file (the load test's students); its teacher downloads the
// finished matches' records. The server stopped, `pigclass migrate` moves
// the file into a district's Postgres database, and a server on that
// database with the school's key serves the same class to the same
// teacher: every match in matches.csv as it was, and each finished
// match's record byte for byte the same, verifying.
func TestMigrateASchoolIntoTheDistrict(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the server twice")
	}
	db := pgtest.URL(t)
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "school.db")
	school := startProcess(t, bin, "127.0.0.1:0", file)
	rep, err := loadtest(context.Background(), loadConfig{url: school.base, students: 6, duration: 3 * time.Second, teachers: 1, target: 30, holdAt: 20, seed: 3}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	teacher := &http.Client{Jar: rep.Teacher}
	// The finished matches by their commitment (ids change in a move).
	matches := func(base string) (map[string]string, map[string][]byte) {
		rows, err := csv.NewReader(bytes.NewReader(getOK(t, teacher, base+"/t/"+rep.Code+"/matches.csv"))).ReadAll()
		if err != nil || len(rows) < 2 {
			t.Fatalf("matches.csv: %d rows, %v", len(rows), err)
		}
		col := map[string]int{}
		for i, h := range rows[0] {
			col[h] = i
		}
		all, records := map[string]string{}, map[string][]byte{}
		for _, r := range rows[1:] {
			id, commitment := r[col["match"]], r[col["commitment"]]
			all[commitment] = strings.Join(append(append([]string{}, r[:col["match"]]...), r[col["match"]+1:]...), ",")
			if r[col["status"]] == "over" {
				records[commitment] = getOK(t, teacher, base+"/c/"+rep.Code+"/m/"+id+"/record.json")
			}
		}
		return all, records
	}
	before, records := matches(school.base)
	if len(records) < 3 {
		t.Fatalf("only %d finished matches to compare", len(records))
	}
	school.cmd.Process.Signal(syscall.SIGTERM)
	school.cmd.Wait()

	out, _, err := runCmd(t, "migrate", "--from", file, "--to", db)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "1 classes, 6 students") {
		t.Errorf("migrate said: %s", out)
	}
	district := startServe(t, bin, "--addr", "127.0.0.1:0", "--db", db, "--key", file+".key").base
	old, _ := url.Parse(school.base)
	now, _ := url.Parse(district)
	rep.Teacher.SetCookies(now, rep.Teacher.Cookies(old))
	after, moved := matches(district)
	if len(after) != len(before) {
		t.Errorf("%d matches after the move, %d before", len(after), len(before))
	}
	for commitment, row := range before {
		if after[commitment] != row {
			t.Errorf("matches.csv's row of %s: %q after the move, %q before", commitment, after[commitment], row)
		}
	}
	for commitment, rec := range records {
		if !bytes.Equal(moved[commitment], rec) {
			t.Errorf("the record of %s changed in the move:\n%s\nwas\n%s", commitment, moved[commitment], rec)
			continue
		}
		if v, err := sim.VerifyJSON(rec); err != nil || !v.Signature.Valid() {
			t.Errorf("the record of %s: %v, signature %+v", commitment, err, v.Signature)
		}
	}
}

// TestBackupAPostgresDatabase: pigclass backup copies a district's
// database with pg_dump, a file its owner alone reads, that pg_restore
// reads back; an existing file is never overwritten.
func TestBackupAPostgresDatabase(t *testing.T) {
	db := pgtest.URL(t)
	if _, err := exec.LookPath("pg_dump"); err != nil {
		t.Skip("pg_dump is not installed (Debian's postgresql-client; .ci/run installs postgresql)")
	}
	// An empty school moved in makes the district's schema.
	if out, _, err := runCmd(t, "migrate", "--from", filepath.Join(t.TempDir(), "empty.db"), "--to", db); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	to := filepath.Join(t.TempDir(), "district.dump")
	out, _, err := runCmd(t, "backup", "--db", db, "--to", to)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "with pg_dump") {
		t.Errorf("backup said: %s", out)
	}
	fi, err := os.Stat(to)
	if err != nil || fi.Mode().Perm() != 0o600 || fi.Size() == 0 {
		t.Fatalf("the copy: %v %v", fi, err)
	}
	list, err := exec.Command("pg_restore", "--list", to).Output()
	if err != nil || !strings.Contains(string(list), "TABLE DATA") || !strings.Contains(string(list), " events ") {
		t.Errorf("pg_restore --list: %v\n%s", err, list)
	}
	if _, _, err := runCmd(t, "backup", "--db", db, "--to", to); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("a second backup to the same file: %v", err)
	}
}
