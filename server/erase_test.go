package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"pigclass/server/report"
	"pigclass/sim"
	"pigclass/templates/paths"
)

// TestEraseOneStudent (issue 33, item 4): everything stored about one
// student comes as one file, to the teacher and to that student alone
// (the same decisions as decisions.csv's, their guesses, their matches);
// erasing them asks first, with that file to download, then their name
// and device go everywhere while their moves stay under "erased student
// 1": the CSV keeps every decision, a classmate's match still replays and
// verifies, the dashboard cannot let them back in, their browser is no
// longer in the class, and the database file no longer holds the name.
func TestEraseOneStudent(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	const nick = "Quetzalcoatl"
	q := &student{b: join(t, a, code, nick), nick: nick, holdAt: 15}
	bo := &student{b: join(t, a, code, "Bo"), nick: "Bo", holdAt: 25}
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"60"}, "mode": {"pairs"}, "bot": {"hold:20"}}) // Bo, holding at 25, cannot win before Quetzalcoatl moves
	playRound(t, code, []*student{q, bo})
	id := studentID(t, a, code, nick)
	decisions := func() (mine, all int) {
		for _, r := range teacher.csvRows(paths.DecisionsCSV.For(code) + "?names=real") {
			all++
			if r["student"] == nick {
				mine++
			}
		}
		return mine, all
	}
	mine, all := decisions()
	if mine == 0 {
		t.Fatal("the student made no decision")
	}
	t.Logf("%d of the class's %d decisions are the student's", mine, all)
	read := func(b *browser, path string) report.StudentData {
		t.Helper()
		b.get(path)
		var d report.StudentData
		if b.status() != http.StatusOK || json.Unmarshal([]byte(b.body), &d) != nil {
			t.Fatalf("%s: %d %.200s", path, b.status(), b.body)
		}
		return d
	}
	for who, path := range map[*browser]string{teacher: paths.StudentData.With(code, id), q.b: paths.MyData.For(code)} {
		d := read(who, path)
		if d.Nickname != nick || len(d.Decisions) != mine || len(d.Matches) != 1 || len(d.MatchPlayers) != 1 || d.Student["decisions"] == "" {
			t.Errorf("%s: %s, %d decisions (want %d), %d matches", path, d.Nickname, len(d.Decisions), mine, len(d.Matches))
		}
		for _, row := range d.Decisions {
			if row["student"] != nick {
				t.Errorf("%s holds another's decision: %v", path, row)
			}
		}
	}
	if d := read(bo.b, paths.MyData.For(code)); d.Nickname != "Bo" || len(d.Decisions) == 0 {
		t.Errorf("Bo's own file: %s, %d decisions", d.Nickname, len(d.Decisions))
	}
	bo.b.get(paths.StudentData.With(code, id))
	if bo.b.status() == http.StatusOK || strings.Contains(bo.b.body, nick) {
		t.Errorf("a classmate read the student's file: %d", bo.b.status())
	}

	// Erasing asks first, with the file to download.
	ask := teacher.post(paths.EraseStudent.With(code, id), nil)
	if got := ask.Find(`[data-testid="confirm"] h1`).Text(); got != "Erase "+nick+"?" || ask.Find(`[data-testid="confirm-before"]`).AttrOr("href", "") != paths.StudentData.With(code, id) {
		t.Fatalf("erasing without confirming: %q at %s", got, teacher.path())
	}
	if got := teacher.post(paths.EraseStudent.With(code, id), url.Values{"confirm": {"yes"}}).Find(".notice").Text(); !strings.Contains(got, "their moves stay as “erased student 1”") {
		t.Errorf("the notice: %q", got)
	}
	removed := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="removed"] li`)
	if removed.Length() != 1 || !strings.Contains(removed.Text(), "erased student 1") || removed.Find(`form`).Length() != 0 {
		t.Errorf("the removed list: %q with %d forms", removed.Text(), removed.Find("form").Length())
	}
	mine2, all2 := 0, 0
	for _, r := range teacher.csvRows(paths.DecisionsCSV.For(code) + "?names=real") {
		all2++
		if r["student"] == "erased student 1" {
			mine2++
		}
		if strings.Contains(strings.Join(valuesOf(r), ","), nick) {
			t.Errorf("decisions.csv still names the student: %v", r)
		}
	}
	if mine2 != mine || all2 != all {
		t.Errorf("after erasing: %d of %d decisions under erased student 1, want %d of %d", mine2, all2, mine, all)
	}
	match := matchOf(t, a, "Bo")
	bo.b.get(paths.Record(code, match))
	if v, err := sim.VerifyJSON([]byte(bo.b.body)); err != nil || !v.Signature.Valid() || strings.Contains(bo.b.body, nick) {
		t.Errorf("the classmate's record after erasing: %v", err)
	}
	if review := bo.b.get(paths.Match(code, match)); strings.Contains(bo.b.body, nick) || !strings.Contains(review.Text(), "erased student 1") {
		t.Error("the classmate's review still names the student, or not as erased student 1")
	}
	q.b.get(paths.Student.For(code))
	if q.b.path() != paths.JoinCode.For(code) {
		t.Errorf("the erased student's browser went to %s", q.b.path())
	}
	a.stop()
	for _, f := range []string{a.path, a.path + "-wal"} {
		if b, err := os.ReadFile(f); err == nil && bytes.Contains(b, []byte(nick)) {
			t.Errorf("%s still holds the erased student's nickname", f)
		}
	}
}

// valuesOf lists a row's cells.
func valuesOf(r map[string]string) []string {
	var out []string
	for _, v := range r {
		out = append(out, v)
	}
	return out
}

// matchOf is a live match of the student with nickname nick (the last
// the room lists).
func matchOf(t *testing.T, a *app, nick string) int64 {
	t.Helper()
	id := int64(0)
	for _, m := range a.srv.room.Hall().Matches() {
		for _, s := range m.Seats {
			if s.Nickname == nick {
				id = m.ID
			}
		}
	}
	if id == 0 {
		t.Fatalf("%s has no match", nick)
	}
	return id
}

// TestTeacherRenewsARejoinCode (issue 33, item 1): a student whose cookie
// is gone gets back through the teacher. The roster's name opens the
// student's page even before their first match; it shows the rejoin code
// the student's own page shows. A new code asks first, then the old code
// and the browser that had the seat no longer reach it, and the student
// gets back on another device with their nickname and the new code.
func TestTeacherRenewsARejoinCode(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	old := ana.get(paths.Student.For(code)).Find(`[data-testid="rejoin-code"]`).Text()
	link := ""
	teacher.get(paths.Teacher.For(code)).Find(`[data-testid="student-review"]`).Each(func(_ int, s *goquery.Selection) {
		if s.Text() == "Ana" {
			link = s.AttrOr("href", "")
		}
	})
	page := teacher.get(link)
	if got := page.Find(`[data-testid="student-rejoin-code"]`).Text(); teacher.status() != http.StatusOK || got != old || old == "" {
		t.Fatalf("Ana's page for the teacher: %d, code %q, Ana's page says %q", teacher.status(), got, old)
	}
	id := studentID(t, a, code, "Ana")
	if got := teacher.post(paths.RenewRejoin.With(code, id), nil).Find(`[data-testid="confirm"] h1`).Text(); got != "A new rejoin code for Ana?" {
		t.Fatalf("a new code without confirming: %q", got)
	}
	page = teacher.post(paths.RenewRejoin.With(code, id), url.Values{"confirm": {"yes"}})
	renewed := page.Find(`[data-testid="student-rejoin-code"]`).Text()
	if renewed == "" || renewed == old || !strings.Contains(page.Find(".notice").Text(), "Ana has a new rejoin code") {
		t.Fatalf("after renewing: code %q (was %q), notice %q", renewed, old, page.Find(".notice").Text())
	}
	if ana.get(paths.Student.For(code)); ana.path() != paths.JoinCode.For(code) {
		t.Errorf("the browser that had the seat went to %s", ana.path())
	}
	phone := a.browser()
	phone.post(paths.JoinCode.For(code), url.Values{"nickname": {"Ana"}, "rejoin": {old}})
	if phone.status() == http.StatusOK && phone.path() == paths.Student.For(code) {
		t.Error("the old code still reaches the seat")
	}
	phone.post(paths.JoinCode.For(code), url.Values{"nickname": {"Ana"}, "rejoin": {renewed}})
	if phone.path() != paths.Student.For(code) || studentID(t, a, code, "Ana") != id {
		t.Errorf("the new code: at %s", phone.path())
	}
}
