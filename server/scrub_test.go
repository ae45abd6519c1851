package server

import (
	"bytes"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"pigclass/server/classroom"
	"pigclass/templates/paths"
)

// leftIn reports which of the database's files (the main file, the WAL,
// the shared memory file) hold any of secrets, read while the server
// runs.
func leftIn(t *testing.T, a *app, secrets map[string]string) []string {
	t.Helper()
	var found []string
	for _, f := range []string{a.path, a.path + "-wal", a.path + "-shm"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for what, s := range secrets {
			if bytes.Contains(b, []byte(s)) {
				found = append(found, f+" holds the "+what)
			}
		}
	}
	return found
}

// TestErasedLeavesNoCopyWhileRunning (issue 41, item 3): after "Erase" of
// one student, "Delete the class" and the retention sweep, the running
// server's database files (main, WAL, shared memory) hold no copy of the
// erased nickname, token hash or rejoin code; before the erasure they do
// (the test can tell).
func TestErasedLeavesNoCopyWhileRunning(t *testing.T) {
	sqliteOnly(t, "the database file and its WAL")
	a := newAppConfig(t, func(c *Config) { c.Retain = 180 * 24 * time.Hour })
	teacher := a.browser()
	secretsOf := func(code, nick string, b *browser) map[string]string {
		t.Helper()
		c, err := a.srv.room.Class(t.Context(), code)
		if err != nil {
			t.Fatal(err)
		}
		id := studentID(t, a, code, nick)
		for _, st := range c.Students {
			if st.ID == id {
				rc := b.get(paths.Student.For(code)).Find(`[data-testid="rejoin-code"]`).Text()
				if rc == "" || a.srv.room.RejoinCode(c, st) == "" {
					t.Fatalf("%s has no rejoin code", nick)
				}
				return map[string]string{"nickname": nick, "token hash": st.TokenHash, "rejoin code": classroom.NormalizeCode(rc)}
			}
		}
		t.Fatalf("no student %s", nick)
		return nil
	}
	play := func(code string, s *student) {
		teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
		s.step(t, code)
	}

	// One student erased.
	code := teacherStart(t, teacher)
	const erased = "Quetzalcoatlus"
	q := &student{b: join(t, a, code, erased), nick: erased, holdAt: 20}
	join(t, a, code, "Bo")
	play(code, q)
	secrets := secretsOf(code, erased, q.b)
	if len(leftIn(t, a, map[string]string{"nickname": erased})) == 0 {
		t.Fatal("the files do not hold the nickname before the erasure: the test cannot tell")
	}
	id := studentID(t, a, code, erased)
	teacher.post(paths.EraseStudent.With(code, id), url.Values{"confirm": {"yes"}})
	if left := leftIn(t, a, secrets); len(left) > 0 {
		t.Errorf("after erasing one student: %v", left)
	}

	// A class deleted.
	gone := teacherStart(t, teacher)
	const deleted = "Archaeopteryx"
	d := &student{b: join(t, a, gone, deleted), nick: deleted, holdAt: 20}
	play(gone, d)
	secrets = secretsOf(gone, deleted, d.b)
	teacher.post(paths.DeleteClass.For(gone), url.Values{"confirm": {"yes"}})
	if left := leftIn(t, a, secrets); len(left) > 0 {
		t.Errorf("after deleting the class: %v", left)
	}

	// A class erased by the retention sweep.
	idle := teacherStart(t, teacher)
	const swept = "Dimetrodonius"
	s := &student{b: join(t, a, idle, swept), nick: swept, holdAt: 20}
	play(idle, s)
	secrets = secretsOf(idle, swept, s.b)
	a.clock.add(181 * 24 * time.Hour)
	if err := a.srv.room.Sweep(t.Context()); err != nil {
		t.Fatal(err)
	}
	if left := leftIn(t, a, secrets); len(left) > 0 {
		t.Errorf("after the retention sweep: %v", left)
	}
}

// TestGuideSaysWhatHealthzAnswers (issue 41, item 7): the administrator's
// guide's list of /healthz's fields is the answer's, no more and no less.
func TestGuideSaysWhatHealthzAnswers(t *testing.T) {
	text := strings.Join(strings.Fields(docs(t)[adminGuide]), " ")
	i := strings.Index(text, "`/healthz` (JSON for a proxy's health check:")
	if i < 0 {
		t.Fatal("the administrator's guide does not list /healthz's fields")
	}
	para := text[i:]
	para = para[:strings.Index(para, "503")]
	var said []string
	for _, m := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(para, -1) {
		if !strings.HasPrefix(m[1], "-") {
			said = append(said, m[1])
		}
	}
	var fields []string
	ty := reflect.TypeOf(health{})
	for i := range ty.NumField() {
		fields = append(fields, strings.Split(ty.Field(i).Tag.Get("json"), ",")[0])
	}
	slices.Sort(said)
	slices.Sort(fields)
	if !slices.Equal(said, fields) {
		t.Errorf("the guide says /healthz answers %v; it answers %v", said, fields)
	}
}
