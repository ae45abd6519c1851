package server

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"pigclass/templates/paths"
)

// answer is everything a request's answer says: status, headers (but the
// date) and body.
func (b *browser) answer(method, path string, form url.Values, headers ...string) string {
	b.t.Helper()
	resp := b.raw(method, path, form, headers...)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var hs []string
	for k, v := range resp.Header {
		if k != "Date" {
			hs = append(hs, k+": "+strings.Join(v, ", "))
		}
	}
	slices.Sort(hs)
	return fmt.Sprintf("%d\n%s\n\n%s", resp.StatusCode, strings.Join(hs, "\n"), body)
}

// matchProbes are the requests a stranger can make of match id at its
// practice address, or at a class's address with code.
func matchProbes(code string, id int64) [][3]string {
	base := paths.Match(code, id)
	if code == "" {
		base = fmt.Sprintf("/m/%d", id)
	}
	return [][3]string{
		{http.MethodPost, base + "/act", "seq=0&action=roll"},
		{http.MethodPost, base + "/act", "seq=0&action=roll&hx"},
		{http.MethodPost, base + "/act", "seq=x&action=fly"},
		{http.MethodGet, base, ""},
		{http.MethodGet, base + "/board?v=1", ""},
		{http.MethodGet, base + "/record.json", ""},
	}
}

func (b *browser) probe(p [3]string) string {
	b.t.Helper()
	var form url.Values
	var headers []string
	if p[0] == http.MethodPost {
		q := strings.TrimSuffix(p[2], "&hx")
		if q != p[2] {
			headers = []string{"HX-Request", "true"}
		}
		form, _ = url.ParseQuery(q)
	}
	return b.answer(p[0], p[1], form, headers...)
}

// TestStrangerLearnsNothingOfMatches: the probe that collected class
// codes and children's names. A stranger's every request of a match's
// addresses (act, with and without htmx and with a bad form; the page,
// the board, the record) answers the same bytes for a match id that does
// not exist yet as, later, for the same id when it is a live class match
// of a Spanish class, a finished one, one of an ended round read from
// disk, and a practice match: no Location, no name, no code, no language.
func TestStrangerLearnsNothingOfMatches(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	teacher.post("/t/"+code+"/language", url.Values{"lang": {"es"}})
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	join(t, a, code, "Benedetta")
	stranger := a.browser()
	ids := []int64{1, 2, 3, 4}
	before := map[string]string{}
	for _, id := range ids {
		for _, p := range matchProbes("", id) {
			before[p[1]+p[2]] = stranger.probe(p)
		}
	}
	same := func(when string) {
		t.Helper()
		for _, id := range ids {
			for _, p := range matchProbes("", id) {
				got := stranger.probe(p)
				if got != before[p[1]+p[2]] {
					t.Errorf("%s: %s %s %s answers a stranger\n%.600s\nbut before the match was made\n%.600s", when, p[0], p[1], p[2], got, before[p[1]+p[2]])
				}
				for _, leak := range []string{code, "Ana", "Benedetta", "Location", "Content-Language: es"} {
					if strings.Contains(got, leak) {
						t.Errorf("%s: %s %s tells a stranger %q", when, p[0], p[1], leak)
					}
				}
			}
		}
	}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}, "same_seed": {"on"}})
	player := a.browser()
	player.post("/practice", url.Values{"game": {"pig"}, "bot": {"hold:20"}})
	if n := len(a.srv.room.Hall().Matches()); n != 3 {
		t.Fatalf("%d live matches, want 3 (two of the class, one practice)", n)
	}
	same("live")
	playRound(t, code, []*student{ana})
	same("one finished")
	teacher.post("/t/"+code+"/rounds/end", url.Values{"confirm": {"yes"}})
	same("the round ended")
}

// TestClassmateLearnsNothingOfAnotherMatch: a student of the class asking
// for a classmate's match, at the class's address, is answered as for a
// match that does not exist.
func TestClassmateLearnsNothingOfAnotherMatch(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	join(t, a, code, "Ana")
	ben := join(t, a, code, "Ben")
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}})
	id := anaMatch(t, a, code)
	missing := int64(999)
	for i, p := range matchProbes(code, id) {
		q := matchProbes(code, missing)[i]
		got := strings.ReplaceAll(ben.probe(p), "/m/"+strconv.FormatInt(id, 10), "/m/N")
		want := strings.ReplaceAll(ben.probe(q), "/m/"+strconv.FormatInt(missing, 10), "/m/N")
		if got != want {
			t.Errorf("%s %s answers a classmate\n%.600s\nbut for no match\n%.600s", p[0], p[1], got, want)
		}
		if strings.Contains(got, "Ana") {
			t.Errorf("%s %s tells a classmate Ana's match", p[0], p[1])
		}
	}
}

// TestDeletedClassLeavesNothingBehind: SQLite gives the next class the
// deleted class's id; the next class's dashboard shows its own roster and
// code, never the deleted class's, and polls its own address.
func TestDeletedClassLeavesNothingBehind(t *testing.T) {
	a := newApp(t)
	first := a.browser()
	old := teacherStart(t, first)
	join(t, a, old, "Ana")
	if doc := first.get("/t/" + old + "/live"); !strings.Contains(doc.Text(), "Ana") {
		t.Fatalf("the first class's live part has no Ana: %s", first.body)
	}
	oldID := mustClass(t, a, old).ID
	first.post("/t/"+old+"/delete", url.Values{"confirm": {"yes"}})
	second := a.browser()
	code := teacherStart(t, second)
	if id := mustClass(t, a, code).ID; id != oldID {
		t.Logf("the next class has id %d, not the deleted one's %d", id, oldID)
	}
	for _, path := range []string{"/t/" + code + "/live", "/t/" + code} {
		doc := second.get(path)
		if strings.Contains(second.body, "Ana") || strings.Contains(second.body, old) {
			t.Errorf("%s shows the deleted class's roster or code", path)
		}
		if poll := doc.Find(`[data-testid="dash-live"]`).AttrOr("hx-get", ""); !strings.HasPrefix(poll, "/t/"+code+"/live") {
			t.Errorf("%s polls %q", path, poll)
		}
	}
}

// TestSameDiceSeedWaitsForTheGroup: in a same-dice round the first player
// to finish may not read the seed while a classmate still plays with the
// same dice (it tells every roll to come): the record, the verify page
// and the review hold it back, saying why, for the player and the teacher
// alike, until the group's last match is over.
func TestSameDiceSeedWaitsForTheGroup(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	ben := &student{b: join(t, a, code, "Ben"), nick: "Ben", holdAt: 20}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}, "same_seed": {"on"}})
	id := anaMatch(t, a, code)
	playRound(t, code, []*student{ana})
	record, verify := paths.Record(code, id), paths.VerifyMatch(code, id)
	for _, who := range []*browser{ana.b, teacher} {
		who.get(record)
		if who.status() != http.StatusConflict || !strings.Contains(who.body, "1 other match still plays with these dice") {
			t.Errorf("the record while Ben plays: %d %.300s", who.status(), who.body)
		}
		if doc := who.get(verify); doc.Find("#record").Text() != "" || !strings.Contains(who.body, "still plays with these dice") {
			t.Errorf("the verify page while Ben plays shows the record, or not why not")
		}
	}
	doc := ana.b.get(paths.Match(code, id))
	if doc.Find(`[data-testid="seed"]`).Length() != 0 || doc.Find(`[data-testid="seed-later"]`).Length() != 1 {
		t.Errorf("the review shows the seed while Ben plays")
	}
	playRound(t, code, []*student{ben})
	for _, who := range []*browser{ana.b, teacher} {
		who.get(record)
		if who.status() != http.StatusOK || !strings.Contains(who.body, `"seed"`) {
			t.Errorf("the record once all are over: %d", who.status())
		}
	}
	if doc := ana.b.get(paths.Match(code, id)); doc.Find(`[data-testid="seed"]`).Text() == "" {
		t.Errorf("the review has no seed once all are over")
	}
}

// TestStrangerSweepOfEveryRoute: every route with a class code, asked by
// a stranger (no cookies) with a real class's code, answers exactly as it
// does with a code no class has (the code itself aside): the status, the
// headers and the body. The class is Spanish, has students and a round in
// play, so a language, a name or a redirect would show. Only joining
// (POST /join/{code}), where the code is the credential and every wrong
// one counts as a guess, may answer otherwise, and the QR code draws the
// code it is given.
func TestStrangerSweepOfEveryRoute(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	teacher.post("/t/"+code+"/language", url.Values{"lang": {"es"}})
	join(t, a, code, "Ana")
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}})
	id := strconv.FormatInt(anaMatch(t, a, code), 10)
	student := strconv.FormatInt(studentID(t, a, code, "Ana"), 10)
	fake := "XXXXXX"
	if code == fake {
		fake = "YYYYYY"
	}
	routes := a.srv.Handler().(*gin.Engine).Routes()
	checked := 0
	for _, r := range routes {
		if !strings.Contains(r.Path, ":code") || r.Method == http.MethodPost && strings.HasPrefix(r.Path, "/join/") {
			continue
		}
		path := strings.NewReplacer(":id", id, "*file", "x").Replace(r.Path)
		if strings.Contains(r.Path, "/students/:id") {
			path = strings.Replace(r.Path, ":id", student, 1)
		}
		for _, q := range []string{"", "?match=" + id} {
			var form url.Values
			if r.Method == http.MethodPost {
				form = url.Values{"seq": {"0"}, "action": {"roll"}, "confirm": {"yes"}, "moment": {"0.0"}, "lang": {"en"}}
			}
			stranger := a.browser()
			real := stranger.answer(r.Method, strings.Replace(path, ":code", code, 1)+q, form)
			none := stranger.answer(r.Method, strings.Replace(path, ":code", fake, 1)+q, form)
			real = strings.ReplaceAll(real, code, "CODE")
			none = strings.ReplaceAll(none, fake, "CODE")
			if strings.HasSuffix(r.Path, "/qr.svg") {
				// The picture of the code's join address: the code's own,
				// whether or not a class has it; the rest must agree.
				real, _, _ = strings.Cut(real, "\n\n")
				none, _, _ = strings.Cut(none, "\n\n")
			}
			if real != none {
				t.Errorf("%s %s%s: a stranger with the real code gets\n%.500s\nand with a code of no class\n%.500s", r.Method, r.Path, q, real, none)
			}
			if strings.Contains(real, "Ana") {
				t.Errorf("%s %s%s tells a stranger a student's name", r.Method, r.Path, q)
			}
			checked++
		}
	}
	if checked < 40 {
		t.Errorf("only %d requests checked", checked)
	}
}

// TestNoHandlerIsAnOperator: the room's operator (a teacher without a
// secret) is for the command line and tests; no handler may use it.
func TestNoHandlerIsAnOperator(t *testing.T) {
	for f, src := range packageSources(t) {
		if strings.Contains(src, ".Operator(") {
			t.Errorf("%s calls the room's Operator", f)
		}
	}
}

// packageSources is the text of each of the package's files but its tests,
// by file name.
func packageSources(t *testing.T) map[string]string {
	t.Helper()
	files, _ := filepath.Glob("*.go")
	out := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = string(b)
	}
	if len(out) < 10 {
		t.Fatalf("only %d source files found", len(out))
	}
	return out
}

// TestHandlersDoNotCallTheStore: the server package only parses, calls
// the live classroom, the reports, the contest or the platforms, and
// renders. No file of it holds the store but server.go, which hands it
// to them only.
func TestHandlersDoNotCallTheStore(t *testing.T) {
	for f, src := range packageSources(t) {
		if f != "server.go" {
			if strings.Contains(src, "store.Store") || strings.Contains(src, "store.Open") {
				t.Errorf("%s holds the store", f)
			}
			continue
		}
		uses := regexp.MustCompile(`\bst\b`).FindAllStringIndex(src, -1)
		handed := strings.Count(src, "report.New(st,") + strings.Count(src, "classroom.New(st,") + strings.Count(src, "contest.New(st,") + strings.Count(src, "platforms.New(st,") + strings.Count(src, "st *store.Store")
		if len(uses) != handed || handed != 5 {
			t.Errorf("server.go uses the store %d times, %d of them to hand it on", len(uses), handed)
		}
	}
}

// TestEveryViewerOverEveryRoute: every route of a class, asked by each
// kind of viewer (a stranger, a student and the teacher of another class,
// the class's student, its teacher, its projector), lets in exactly those
// it is for: the teacher's pages the teacher, the projector's the teacher
// and the projector, a student's pages the student (a match's record
// the teacher too), the join pages anyone. A POST is sent only by those
// it must refuse, so nothing changes.
func TestEveryViewerOverEveryRoute(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}})
	id := anaMatch(t, a, code)
	// Ana has a strategy saved: its download is hers alone (issue 46).
	ana.post(paths.StudentPlan.For(code), url.Values{"form": {"hold"}, "hold": {"20"}})
	projector := a.browser()
	key := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="projector-link"]`).AttrOr("href", "")
	projector.get(strings.TrimPrefix(key, a.url))
	otherTeacher := a.browser()
	other := teacherStart(t, otherTeacher)
	otherStudent := join(t, a, other, "Olga")
	viewers := []struct {
		name string
		b    *browser
	}{{"stranger", a.browser()}, {"another class's student", otherStudent}, {"another class's teacher", otherTeacher},
		{"student", ana}, {"teacher", teacher}, {"projector", projector}}
	mayEnter := func(route string, viewer string) bool {
		switch {
		case strings.HasPrefix(route, "/join/"):
			return true
		case strings.HasPrefix(route, "/t/"):
			return viewer == "teacher"
		case strings.HasPrefix(route, "/p/"):
			return viewer == "teacher" || viewer == "projector"
		case route == paths.SkunkRecord.String():
			// This class has played no Skunk: a game id of no game is
			// refused alike for all (members' records are tested with a
			// real game in TestSkunkWithThirtyStudents).
			return false
		case strings.HasSuffix(route, "/record.json"):
			return viewer == "teacher" || viewer == "student"
		}
		return viewer == "student"
	}
	student := studentID(t, a, code, "Ana")
	checked := 0
	for _, r := range a.srv.Handler().(*gin.Engine).Routes() {
		if !strings.Contains(r.Path, ":code") || r.Path == paths.ClassVerify.String() {
			continue // the verify page is everyone's; what it fills in is the record's rule
		}
		path := strings.Replace(r.Path, ":code", code, 1)
		if strings.Contains(r.Path, "/students/") || strings.Contains(r.Path, "/remove/") {
			path = strings.Replace(path, ":id", strconv.FormatInt(student, 10), 1)
		}
		path = strings.Replace(path, ":id", strconv.FormatInt(id, 10), 1)
		for _, v := range viewers {
			allowed := mayEnter(r.Path, v.name)
			if r.Method == http.MethodPost && allowed {
				continue
			}
			status, loc, _ := v.b.send(r.Method, path, url.Values{"seq": {"0"}, "action": {"roll"}, "confirm": {"yes"}})
			refused := status == http.StatusForbidden || status == http.StatusNotFound ||
				status == http.StatusSeeOther && r.Path == paths.Student.String() && loc == paths.JoinCode.For(code)
			if refused == allowed {
				t.Errorf("%s %s as %s: %d %s (allowed: %v)", r.Method, r.Path, v.name, status, loc, allowed)
			}
			checked++
		}
	}
	if m := a.srv.room.Hall().Match(id); m == nil || m.Over() {
		t.Error("a refused post changed the match")
	}
	if st := mustClass(t, a, code); st.Paused || st.Locked {
		t.Error("a refused post turned a switch")
	}
	if checked < 150 {
		t.Errorf("only %d requests checked", checked)
	}
}

// TestPodiumShowsTies: four students in pairs, two matches, two winners
// with one win each: the podium's most wins names both and says it is a
// tie, never one of them picked by name.
func TestPodiumShowsTies(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	var students []*student
	for _, n := range []string{"Ana", "Bo", "Cy", "Dee"} {
		students = append(students, &student{b: join(t, a, code, n), nick: n, holdAt: 10})
	}
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"10"}, "mode": {"pairs"}, "bot": {"hold:20"}})
	playRound(t, code, students)
	doc := teacher.get(paths.TeacherProjector.Results.For(code))
	award := doc.Find(`[data-testid="award"]`).First()
	names := strings.Split(award.Find(".award-name").Text(), ", ")
	if len(names) != 2 || award.Find(`[data-testid="award-tie"]`).Length() != 1 || !strings.Contains(award.Text(), "a tie: 2 share it") {
		t.Errorf("most wins with two winners: %q", award.Text())
	}
	// Each of them won once: the figure is each one's (issue 59, item 9).
	if got := award.Find(".award-value").Text(); got != "1 win each" {
		t.Errorf("most wins with two winners of one each: %q, want \"1 win each\"", got)
	}
}

// TestSkunkEndedBeforeAnyRoll: a game of Skunk ended before its first
// roll says no one scored, not "Winners: everyone with 0 points".
func TestSkunkEndedBeforeAnyRoll(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	a.srv.room.SetLesson(t.Context(), operator(t, a, code), "6-skunk", 0)
	join(t, a, code, "Mia")
	join(t, a, code, "Leo")
	teacher.post(paths.LessonStart.For(code), nil)
	doc := teacher.post(paths.SkunkEnd.For(code), nil)
	text := teacher.get(paths.TeacherSkunk.For(code)).Text() + doc.Text()
	if !strings.Contains(text, "No one scored") || strings.Contains(text, "with 0 points") {
		t.Errorf("Skunk ended before any roll: %.400s", text)
	}
}

// TestHogCurveAsFarAsAllowed: a class that played Hog with up to 15 dice
// sees the expected-points curve up to 15 dice, not 10.
func TestHogCurveAsFarAsAllowed(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	join(t, a, code, "Ana")
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"hog"}, "target": {"100"}, "max_dice": {"15"}, "mode": {"bot"}, "bot": {"ev"}})
	if teacher.status() != http.StatusOK {
		t.Fatalf("round: %d", teacher.status())
	}
	doc := teacher.get(paths.Query(paths.Teacher.For(code), "chart", "hog-curve"))
	if rows := doc.Find(`[data-testid="chart-hog-curve"] tbody tr`).Length(); rows != 15 {
		t.Errorf("the curve has %d rows, want 15", rows)
	}
}
