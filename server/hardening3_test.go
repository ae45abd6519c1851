package server

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"pigclass/server/classroom"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates/paths"
)

// The third hostile-client probe's findings, each with its test (issue 29).

// TestEarlyRefusalsCarryTheSecurityHeaders: a 421 for a strange Host, the
// first answer the server gives, carries nosniff, the CSP and the
// referrer policy like every other.
func TestEarlyRefusalsCarryTheSecurityHeaders(t *testing.T) {
	a := newAppConfig(t, func(c *Config) { c.PublicURL = "http://pig.school.example" })
	b := a.browser()
	req, _ := http.NewRequest(http.MethodGet, a.url+paths.Front.String(), nil)
	req.Host = "rebind.attacker.example"
	b.do(req)
	h := b.last.Header
	if b.status() != http.StatusMisdirectedRequest || h.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'self'") || h.Get("Referrer-Policy") != "same-origin" {
		t.Errorf("421: %d, headers %v", b.status(), h)
	}
}

// TestMetricsMethodsAreTheServers: a made-up method is counted as "other",
// never as a label of its own: 150 of them leave the histogram's series as
// they were.
func TestMetricsMethodsAreTheServers(t *testing.T) {
	a := newApp(t)
	series := func() []string {
		rec := httptest.NewRecorder()
		a.srv.MetricsHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
		var out []string
		for _, line := range strings.Split(rec.Body.String(), "\n") {
			if strings.HasPrefix(line, "pigclass_http_request_duration_seconds_count{") {
				out = append(out, line[:strings.IndexByte(line, '}')+1])
			}
		}
		return out
	}
	send := func(method string) {
		req, _ := http.NewRequest(method, a.url+"/", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	send("SP3EVIDENCE0")
	before := series()
	for i := range 150 {
		send("SP3EVIDENCE" + strings.Repeat("X", i%40) + string(rune('A'+i%26)))
	}
	after := series()
	if !slices.Equal(before, after) {
		t.Errorf("made-up methods added series: %d before, %d after", len(before), len(after))
	}
	if !slices.ContainsFunc(after, func(s string) bool { return strings.Contains(s, `method="other"`) }) || slices.ContainsFunc(after, func(s string) bool { return strings.Contains(s, "SP3EVIDENCE") }) {
		t.Errorf("series: %v", after)
	}
}

// TestMetricsAnswerOnlyTheirHosts: the metrics listener answers its own
// address, localhost and the names it is given, on its port, and 421 (with
// the security headers) to a rebinding Host.
func TestMetricsAnswerOnlyTheirHosts(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "metrics") })
	g := MetricsGate("127.0.0.1:9100", []string{"Prom.School.Example", ""}, ok)
	for host, want := range map[string]int{
		"127.0.0.1:9100": 200, "localhost:9100": 200, "prom.school.example:9100": 200,
		"rebind.attacker.example:9100": 421, "prom.school.example:80": 421, "prom.school.example": 421, "127.0.0.1:80": 421, "10.0.0.5:9100": 421,
	} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
		req.Host = host
		g.ServeHTTP(rec, req)
		if rec.Code != want || want == 421 && rec.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("Host %s: %d, want %d", host, rec.Code, want)
		}
	}
}

// TestHealthzSaysNothingOfClasses: /healthz tells anyone its status, the
// database's and the version, and nothing of the classes.
func TestHealthzSaysNothingOfClasses(t *testing.T) {
	a := newApp(t)
	join(t, a, teacherStart(t, a.browser()), "Ana")
	b := a.browser()
	b.get(paths.Healthz.String())
	var h map[string]any
	if err := json.Unmarshal([]byte(b.body), &h); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range h {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if strings.Join(keys, ",") != "database,status,version" {
		t.Errorf("/healthz says %s", b.body)
	}
}

// TestJoinPageLoadsNoClass: after a restart, a stranger's look at a join
// page (which counts no guess) reads no class from disk: nothing a
// stranger can see changes with whether the code exists.
func TestJoinPageLoadsNoClass(t *testing.T) {
	a := newApp(t)
	code := teacherStart(t, a.browser())
	join(t, a, code, "Ana")
	path, clk := a.path, a.clock
	a.stop()
	b := openAppWith(t, path, clk, store.Options{})
	stranger := b.browser()
	stranger.get(paths.JoinCode.For(code))
	if stranger.status() != http.StatusOK || b.srv.room.Counts().Classes != 0 {
		t.Errorf("GET /join/%s: %d, and %d classes in memory", code, stranger.status(), b.srv.room.Counts().Classes)
	}
}

// TestRefusedRoundsSpendNothing: a round refused (no students yet) queues
// no solve and spends no allowance, for its three-player table as for its
// two-player one; the allowance of new kinds is the class's and the
// server's, and the message names the one spent.
func TestRefusedRoundsSpendNothing(t *testing.T) {
	tables := &solve.Cache{}
	a := newAppConfig(t, func(c *Config) { c.Tables = tables })
	teacher := a.browser()
	code := teacherStart(t, teacher)
	before := tables.SolvesByKind()
	for target := 41; target < 45; target++ {
		teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {strconv.Itoa(target)}, "mode": {"bot"}, "bot": {"optimal"}, "seats": {"3"}})
		if teacher.status() != http.StatusConflict {
			t.Fatalf("a round with no students: %d", teacher.status())
		}
	}
	if after := tables.SolvesByKind(); !maps.Equal(before, after) || a.srv.room.Hall().KindsSpent(code) != 0 || a.srv.room.Hall().KindsSpent("") != 0 {
		t.Errorf("refused rounds solved %v (before %v) and spent %d of the class's allowance", after, before, a.srv.room.Hall().KindsSpent(code))
	}

	// Twelve new kinds from four classes spend the server's allowance: a
	// fifth class is told it is the server's, a full class its own.
	var codes []string
	for range 5 {
		c := teacherStart(t, teacher)
		join(t, a, c, "Ana")
		codes = append(codes, c)
	}
	start := func(code string, target int) string {
		teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {strconv.Itoa(target)}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}})
		return teacher.body
	}
	target := 60
	for _, c := range codes[:4] {
		for range 3 {
			if body := start(c, target); strings.Contains(body, `role="alert"`) {
				t.Fatalf("new kind %d refused: %s", target, body)
			}
			target++
		}
	}
	if body := start(codes[0], target); !strings.Contains(body, "This class has had 3 new kinds") {
		t.Errorf("a class past its allowance is not told so")
	}
	if body := start(codes[4], target); !strings.Contains(body, "The server has had 12 new kinds") || strings.Contains(body, "This class has had") {
		t.Errorf("a class with none of its own spent is told %q", body[strings.Index(body, `role="alert"`)+1:][:120])
	}
}

// TestVerifyAClaimedCrowd: a 248-byte record of Skunk claiming 3,000,000
// participants is answered by one sentence naming the bound, in a page of
// ordinary size, not a page the size of the claim.
func TestVerifyAClaimedCrowd(t *testing.T) {
	a := newApp(t)
	b := a.browser()
	rec := `{"format":2,"skunk":{"participants":3000000,"rounds":5},"seed":"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f","commitment":"630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd","events":[],"scores":[]}`
	doc := b.post(paths.Verify.String(), url.Values{"record": {rec}})
	if len(b.body) > 64<<10 || !strings.Contains(doc.Text(), "a game has at most 5000") {
		t.Errorf("a claimed crowd: %d bytes, %q", len(b.body), doc.Find(`[data-testid="verify-detail"]`).Text())
	}
}

// TestRemovedStudentLeavesSkunk: a student removed while the class plays
// Skunk leaves the game on every screen (not standing, not counted), keeps
// what they banked, and the signed record, which says they left, verifies
// with the scores the boards show; a restart replays it the same.
func TestRemovedStudentLeavesSkunk(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	if err := a.srv.room.SetLesson(t.Context(), operator(t, a, code), "6-skunk", 0); err != nil {
		t.Fatal(err)
	}
	kids := []*browser{join(t, a, code, "Ana"), join(t, a, code, "Bo"), join(t, a, code, "Cy")}
	// The dice: the first round's first roll scores, its second holds a
	// 1. Bo sits on the first roll's points; the second ends the round,
	// and Bo stands in the next, where the teacher removes Bo.
	a.deal(t, "Skunk's first round lasts two rolls", func(s *sim.Seed) bool { return skunkRounds(s, 2) })
	teacher.post("/t/"+code+"/lesson/start", nil)
	bo := studentID(t, a, code, "Bo")
	teacher.post(paths.SkunkRoll.For(code), nil)
	d := kids[1].get("/c/" + code + "/skunk")
	if total, _ := strconv.Atoi(d.Find(`[data-testid="skunk-total"]`).Text()); total == 0 || d.Find(`[data-testid="skunk-sit"]`).Length() == 0 {
		t.Fatalf("Bo is offered no points to sit on (total %d)", total)
	}
	form := d.Find(`[data-testid="skunk"] form`)
	kids[1].post(form.AttrOr("action", ""), url.Values{"moment": {form.Find(`[name="moment"]`).AttrOr("value", "")}})
	teacher.post(paths.SkunkRoll.For(code), nil) // a 1: on to the next round, Bo stands again
	k := (operator(t, a, code)).Skunk()
	if k.Round != 1 || k.Over || !k.Standing[k.Participant(bo)] || k.Scores[k.Participant(bo)] == 0 {
		t.Fatalf("Bo in round %d (over %v): standing %v, score %d; want standing in round 1 with points", k.Round, k.Over, k.Standing[k.Participant(bo)], k.Scores[k.Participant(bo)])
	}
	banked := k.Scores[k.Participant(bo)]
	teacher.post(paths.RemoveStudent.With(code, bo), url.Values{"confirm": {"yes"}})
	k = (operator(t, a, code)).Skunk()
	p := k.Participant(bo)
	if k.Standing[p] || !k.Left[p] || k.Scores[p] != banked {
		t.Errorf("Bo after removal: standing %v, left %v, score %d (banked %d)", k.Standing[p], k.Left[p], k.Scores[p], banked)
	}
	for who, page := range map[*browser]string{teacher: "/t/" + code, kids[0]: "/c/" + code + "/skunk"} {
		doc := who.get(page)
		if names := doc.Find(`ul.names`).Text(); strings.Contains(names, "Bo") || !strings.Contains(names, "Ana") {
			t.Errorf("%s shows standing: %q", page, names)
		}
	}
	// Nor is Bo on any list of leaders (issue 41, item 4): the
	// projector's, the teacher's Skunk page, a classmate's.
	boards := map[*browser][]string{
		teacher: {paths.TeacherSkunk.For(code), paths.TeacherProjector.Skunk.For(code)},
		kids[0]: {paths.StudentSkunk.For(code)},
	}
	leaders := func(when string) {
		for who, pages := range boards {
			for _, page := range pages {
				got := who.get(page).Find(`ol.leaders`).Text()
				if strings.Contains(got, "Bo") || !strings.Contains(got, "Ana") {
					t.Errorf("%s, %s lists the leaders %q", when, page, got)
				}
			}
		}
	}
	leaders("Bo removed")
	teacher.post("/t/"+code+"/skunk/end", nil)
	leaders("the game ended")
	for who, pages := range boards {
		for _, page := range pages {
			if got := who.get(page).Find(`[data-testid="skunk-winners"]`).Text(); strings.Contains(got, "Bo") {
				t.Errorf("the game ended, %s names the winners %q", page, got)
			}
		}
	}
	link := kids[0].get("/c/"+code+"/skunk").Find(`[data-testid="skunk-record"]`).AttrOr("href", "")
	kids[0].get(link)
	got, err := sim.VerifySkunkJSON([]byte(kids[0].body))
	if err != nil || !got.Signature.Valid() || got.Scores[p] != banked || !strings.Contains(strings.ReplaceAll(kids[0].body, " ", ""), `"action":"resign"`) {
		t.Errorf("the record: %v, scores %v\n%.300s", err, got.Scores, kids[0].body)
	}
}

// TestBigKindsStayWithinTheBudget: the three kinds of round that took the
// heap to 146 MB (Pig to 200, Pig to 199 with equal turns, Big Pig to 200):
// one class asks for the first two, one after the other (its second round
// ends its first, whose table may then go), another for the third while
// the first class plays on. The tables, with the one being solved, never
// pass the budget; the third, which cannot fit beside the second's table
// a round still plays on, is refused before it starts.
func TestBigKindsStayWithinTheBudget(t *testing.T) {
	tables := &solve.Cache{}
	a := newAppConfig(t, func(c *Config) { c.Tables = tables })
	one, other := a.browser(), a.browser()
	codes := []string{teacherStart(t, one), teacherStart(t, other)}
	join(t, a, codes[0], "Ana")
	join(t, a, codes[1], "Bo")
	stop := make(chan struct{})
	most := make(chan int64)
	go func() {
		var m int64
		for {
			select {
			case <-stop:
				most <- m
				return
			case <-time.After(5 * time.Millisecond):
				m = max(m, tables.Bytes())
			}
		}
	}()
	var said []string
	for i, f := range []url.Values{
		{"game": {"pig"}, "target": {"200"}},
		{"game": {"pig"}, "target": {"199"}, "equal_turns": {"on"}},
		{"game": {"big-pig"}, "target": {"200"}},
	} {
		f.Set("mode", "bot")
		f.Set("bot", "optimal")
		f.Set("seats", "2")
		teacher, code := one, codes[0]
		if i == 2 {
			teacher, code = other, codes[1]
		}
		doc := teacher.post(paths.Rounds.For(code), f)
		said = append(said, doc.Find(`[role="alert"]`).Text())
		for end := time.Now().Add(time.Minute); tables.Solving() > 0 && time.Now().Before(end); {
			time.Sleep(20 * time.Millisecond)
		}
	}
	close(stop)
	if m := <-most; m > TablesBudget {
		t.Errorf("the tables took %d MB, over the budget of %d MB", m>>20, TablesBudget>>20)
	}
	if said[0] != "" || said[1] != "" || !strings.Contains(said[2], "this kind of round needs") {
		t.Errorf("the round form said %q", said)
	}
}

// TestRejoinsBehindOneAddress (issue 58, items 12 and 13): a school
// behind one address (every browser of the tests comes from 127.0.0.1)
// whose students mistype their rejoin codes 40 times in a minute still
// rejoins with the right code and still takes newcomers (before, the 21st
// wrong code shut the address out); wrong codes for one name are limited
// (WrongRejoinsStudent, then even the right code waits the minute); right
// codes for one student are limited (RejoinsStudent); and however often a
// student rejoins, one moved browser is remembered for them.
func TestRejoinsBehindOneAddress(t *testing.T) {
	a := newAppConfig(t, func(c *Config) { c.ClassJoins = 1000 })
	teacher := a.browser()
	code := teacherStart(t, teacher)
	names := []string{"Ana", "Bo", "Cy", "Di", "Ed"}
	codes := map[string]string{}
	for _, n := range names {
		codes[n] = join(t, a, code, n).get(paths.Student.For(code)).Find(`[data-testid="rejoin-code"]`).Text()
	}
	rejoin := func(name, rc string) (*browser, int, string) {
		b := a.browser()
		doc := b.post(paths.JoinCode.For(code), url.Values{"nickname": {name}, "rejoin": {rc}})
		return b, b.status(), doc.Find("#rejoin-error").Text()
	}
	for i := range 40 { // eight wrong codes each: under one name's limit
		if _, status, _ := rejoin(names[i%5], "AAAA-AAAA"); status != http.StatusUnprocessableEntity {
			t.Fatalf("wrong code %d: %d", i+1, status)
		}
	}
	if b, _, said := rejoin("Ana", codes["Ana"]); b.path() != paths.Student.For(code) {
		t.Fatalf("after 40 wrong codes from the school's address, Ana's right code: at %s, %q", b.path(), said)
	}
	if b := join(t, a, code, "Flo"); b.path() != paths.Student.For(code) {
		t.Fatalf("after 40 wrong codes, a newcomer: at %s", b.path())
	}
	// Bo's name: two more wrong codes reach its ten; then even the right
	// code waits, and says why.
	rejoin("Bo", "AAAA-AAAA")
	rejoin("Bo", "AAAA-AAAA")
	if b, status, said := rejoin("Bo", codes["Bo"]); status != http.StatusTooManyRequests || b.path() == paths.Student.For(code) || !strings.Contains(said, "Too many tries of the rejoin code of Bo") {
		t.Fatalf("Bo's right code after ten wrong ones: %d at %s, %q", status, b.path(), said)
	}
	a.clock.add(time.Minute)
	// Right codes: Cy rejoins RejoinsStudent times in a minute, then waits.
	cy := []*browser{}
	for i := range classroom.RejoinsStudent {
		b, _, said := rejoin("Cy", codes["Cy"])
		if b.path() != paths.Student.For(code) {
			t.Fatalf("Cy's rejoin %d: at %s, %q", i+1, b.path(), said)
		}
		cy = append(cy, b)
	}
	if _, status, said := rejoin("Cy", codes["Cy"]); status != http.StatusTooManyRequests || !strings.Contains(said, "Too many tries") {
		t.Errorf("Cy's rejoin past the limit: %d %q", status, said)
	}
	// One moved browser is kept for Cy: the one the seat left last is told
	// why, the ones before are only signed out.
	told := func(b *browser) bool {
		return strings.Contains(b.get(paths.Student.For(code)).Find(`[data-testid="join-moved"]`).Text(), "You joined on another device")
	}
	if !told(cy[len(cy)-2]) || told(cy[0]) {
		t.Errorf("after %d rejoins: the browser left last told why %v, the first %v; want only the last", len(cy), told(cy[len(cy)-2]), told(cy[0]))
	}
}
