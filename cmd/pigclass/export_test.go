package main

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"pigclass/server/store"
)

func TestExportCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "x.db")
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	class, err := st.CreateClass(context.Background(), "K7RXM4", "hash")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"Ana", "-Bo"} {
		if _, err := st.AddStudent(context.Background(), store.Student{ClassID: class.ID, Nickname: n, AnonName: "Calm " + n, TokenHash: n}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	out, _, err := runCmd(t, "export", "--db", db, "--class", "k7rxm4", "--what", "students")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\r\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "class,day,student,came,started,removed,extra_seconds,games,wins,decisions") || !strings.HasPrefix(lines[2], "K7RXM4,,'-Bo,nickname,true,false,0,0,0,0") {
		t.Errorf("students.csv:\n%s", out)
	}
	for _, args := range [][]string{{"export", "--db", db, "--class", "AAAAAA"}, {"export", "--db", db, "--class", "K7RXM4", "--what", "grades"}, {"export", "--db", db}} {
		var u usageError
		if _, _, err := runCmd(t, args...); !errors.As(err, &u) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
}
