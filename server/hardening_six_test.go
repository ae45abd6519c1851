package server

import (
	"archive/zip"
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"pigclass/server/classroom"
	"pigclass/server/lti"
	"pigclass/sim"
	"pigclass/templates/paths"
)

// platformClass registers a platform with a new app, and its
// instructor's launch makes the link's class: the app, the platform, the
// instructor's browser and the class's code.
func platformClass(t *testing.T) (*app, *platform, *browser, string) {
	t.Helper()
	a := newApp(t)
	p := newPlatform(t)
	p.register(a)
	teacher := a.browser()
	p.launch(teacher, "platform-key-1", instructor)
	code := strings.TrimPrefix(teacher.path(), "/t/")
	if len(code) != CodeLength {
		t.Fatalf("the instructor's launch ended at %d %s", teacher.status(), teacher.path())
	}
	return a, p, teacher, code
}

// frameAncestors is the frame-ancestors of the last answer's CSP.
func frameAncestors(b *browser) string {
	for _, d := range strings.Split(b.last.Header.Get("Content-Security-Policy"), ";") {
		if d = strings.TrimSpace(d); strings.HasPrefix(d, "frame-ancestors ") {
			return strings.TrimPrefix(d, "frame-ancestors ")
		}
	}
	return ""
}

// TestAHostileOriginFramesNothing (issue 79, item 1): a learner's valid
// launch posted with any Origin changes no page's frame-ancestors; a
// platform's class is framed by the platform and the origins its signed
// claims name, a class no platform opened by nobody, and twenty launches
// from twenty Origins leave the header as it was.
func TestAHostileOriginFramesNothing(t *testing.T) {
	a, p, teacher, code := platformClass(t)
	own := a.browser()
	ownCode := teacherStart(t, own)

	p.origin = "https://evil.example"
	learner := a.browser()
	p.launch(learner, "platform-key-1", func(c map[string]any) {
		c["https://purl.imsglobal.org/spec/lti/claim/launch_presentation"] = map[string]any{"return_url": "https://school.example/courses/1/modules"}
		c["https://purl.imsglobal.org/spec/lti/claim/tool_platform"] = map[string]any{"url": "javascript:alert(1)"}
	})
	if learner.path() != paths.Student.For(code) {
		t.Fatalf("the learner's launch ended at %d %s", learner.status(), learner.path())
	}
	want := "'self' " + p.srv.URL + " https://school.example"
	teacher.get(paths.Teacher.For(code))
	if got := frameAncestors(teacher); got != want {
		t.Errorf("the platform's class's dashboard: frame-ancestors %q, want %q", got, want)
	}
	learner.get(paths.Student.For(code))
	if got := frameAncestors(learner); got != want {
		t.Errorf("the platform's class's student page: frame-ancestors %q, want %q", got, want)
	}
	own.get(paths.Teacher.For(ownCode))
	if got := frameAncestors(own); got != "'none'" {
		t.Errorf("a class no platform opened: frame-ancestors %q, want 'none'", got)
	}
	front := a.browser()
	front.get(paths.Front.String())
	if got := frameAncestors(front); strings.Contains(got, "evil") || !strings.Contains(got, p.srv.URL) {
		t.Errorf("the front page: frame-ancestors %q", got)
	}
	teacher.get(paths.Teacher.For(code))
	before := len(teacher.last.Header.Get("Content-Security-Policy"))
	for i := range 20 {
		p.origin = fmt.Sprintf("https://evil%d.example", i)
		p.launch(a.browser(), "platform-key-1", func(c map[string]any) { c["sub"] = fmt.Sprintf("user-%d", 10+i) })
	}
	teacher.get(paths.Teacher.For(code))
	if got := len(teacher.last.Header.Get("Content-Security-Policy")); got != before || strings.Contains(frameAncestors(teacher), "evil") {
		t.Errorf("after 20 launches from 20 Origins the CSP is %d bytes (was %d): %s", got, before, frameAncestors(teacher))
	}
	// A platform's launches name at most a few origins of their own.
	for i := range 20 {
		p.origin = ""
		p.launch(a.browser(), "platform-key-1", func(c map[string]any) {
			c["sub"] = fmt.Sprintf("user-%d", 40+i)
			c["https://purl.imsglobal.org/spec/lti/claim/launch_presentation"] = map[string]any{"return_url": fmt.Sprintf("https://school%d.example/", i)}
		})
	}
	teacher.get(paths.Teacher.For(code))
	if got := strings.Fields(frameAncestors(teacher)); len(got) != 2+8 || got[len(got)-1] != "https://school19.example" {
		t.Errorf("after 20 signed return addresses: frame-ancestors %v, want 'self', the platform and the newest 8", got)
	}
}

// TestASchoolsOneRosterExportComesIn (issue 79, item 3): a OneRoster
// export of 1,500 students in 60 classes (its users.csv alone larger than
// any form) is previewed class by class, while every other form keeps
// its 64 KB.
func TestASchoolsOneRosterExportComesIn(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	var users, classes, enrollments strings.Builder
	users.WriteString("sourcedId,status,dateLastModified,enabledUser,orgSourcedIds,role,username,userIds,givenName,familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password\n")
	classes.WriteString("sourcedId,status,dateLastModified,title,grades,courseSourcedId,classCode,classType,location,schoolSourcedId,termSourcedIds,subjects,subjectCodes,periods\n")
	enrollments.WriteString("sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary,beginDate,endDate\n")
	for c := range 60 {
		fmt.Fprintf(&classes, "c%d,active,2026-09-01T00:00:00Z,Maths %d,07,k1,M%d,scheduled,Room %d,org1,t1,Mathematics,MA,%d\n", c, c, c, c, c%6+1)
	}
	for u := range 1500 {
		fmt.Fprintf(&users, "u%04d,active,2026-09-01T00:00:00Z,true,org1,student,student%04d,{sis:%04d},Given%04d,Family%04d,,ID%04d,student%04d@school.example,,,,07,\n", u, u, u, u, u, u, u)
		fmt.Fprintf(&enrollments, "e%04d,active,2026-09-01T00:00:00Z,c%d,org1,u%04d,student,false,2026-09-01,2027-06-30\n", u, u/25, u)
	}
	if users.Len() <= 64<<10 {
		t.Fatalf("users.csv is %d bytes: not larger than a form", users.Len())
	}
	doc := teacher.upload(code, map[string]string{"users.csv": users.String(), "classes.csv": classes.String(), "enrollments.csv": enrollments.String()}, "")
	rows := previewRows(doc)
	if teacher.status() != http.StatusOK || len(rows) != 60 {
		t.Fatalf("the export of 1,500 students: %d, %d classes previewed\n%s", teacher.status(), len(rows), doc.Find("main").Text())
	}
	for i, g := range rows {
		if len(g) != 25 || g[0] != fmt.Sprintf("Given%04d Family%04d: new", i*25, i*25) {
			t.Errorf("class %d previews %d rows, first %q", i, len(g), g[0])
		}
	}
	// Any other form: 64 KB still.
	big := a.browser()
	big.post(paths.Join.String(), url.Values{"code": {code}, "nickname": {strings.Repeat("a", 70<<10)}})
	if big.status() != http.StatusRequestEntityTooLarge {
		t.Errorf("a join form of 70 KB: %d, want 413", big.status())
	}
}

// zipOf is a zip holding one file, name, of data.
func zipOf(t *testing.T, name string, data []byte) string {
	t.Helper()
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	w, err := z.Create(name)
	if err == nil {
		_, err = w.Write(data)
	}
	if err == nil {
		err = z.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestATinyFileMakesASmallAnswer (issue 79, item 5): a zip of a few KB
// unpacking to 100,000 lines of one name (and one of 200,000 lines of
// "ab") is read as far as the limit: the preview says so once, and its
// answer stays small.
func TestATinyFileMakesASmallAnswer(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	for _, c := range []struct {
		line  string
		lines int
	}{{"Kid Lastname\n", 100000}, {"ab\n", 200000}} {
		bomb := zipOf(t, "names.txt", bytes.Repeat([]byte(c.line), c.lines))
		if len(bomb) > 8<<10 {
			t.Fatalf("the zip is %d bytes, not a tiny file", len(bomb))
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		doc := teacher.upload(code, map[string]string{"names.zip": bomb}, "")
		runtime.ReadMemStats(&after)
		problems := doc.Find(`[data-testid="roster-problems"] li`)
		if teacher.status() != http.StatusOK || problems.Length() != 1 ||
			problems.Text() != "A class list holds at most 400 names: the names from names.txt, line 401 on were left out." {
			t.Errorf("%d lines of %q: %d, %d problems, the first %q", c.lines, c.line, teacher.status(), problems.Length(), problems.First().Text())
		}
		if n := len(teacher.body); n > 512<<10 {
			t.Errorf("%d lines of %q: an answer of %d bytes", c.lines, c.line, n)
		}
		// What the upload costs: its 4 MB unpacked, read once or twice
		// (before the fix: 110 MB held for 8 MB of answer).
		if got := after.TotalAlloc - before.TotalAlloc; got > 32<<20 {
			t.Errorf("%d lines of %q: %d MB allocated while it was read", c.lines, c.line, got>>20)
		}
		t.Logf("%d lines of %q (a zip of %d bytes): an answer of %d bytes, %d MB allocated while it was read", c.lines, c.line, len(bomb), len(teacher.body), (after.TotalAlloc-before.TotalAlloc)>>20)
	}
}

// TestOneStudentCannotHoardTheStreams (issue 79, item 2): a student's
// sixth stream ends their oldest, so they hold perViewer; classmates
// behind the same address each hold their own; and with every stream the
// server takes held by students, another class's teacher still gets one,
// and a student past the bound is sent to polling (204), not refused.
func TestOneStudentCannotHoardTheStreams(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	var held []*heard
	for i := range perViewer + 2 {
		h := hear(t, ana, paths.StudentEvents.For(code))
		if got := h.next(time.Second); got != "look" {
			t.Fatalf("Ana's stream %d opens with %q", i+1, got)
		}
		held = append(held, h)
	}
	for i, h := range held {
		want := ""
		if i < 2 {
			want = "end" // the oldest two, for the newest two
		}
		if got := h.next(100 * time.Millisecond); got != want {
			t.Errorf("Ana's stream %d after she opened %d: %q, want %q", i+1, len(held), got, want)
		}
	}
	if n := a.srv.streams.open.Load(); n != perViewer {
		t.Errorf("%d streams open for Ana alone, want %d", n, perViewer)
	}
	// Classmates behind the same address (the test's one loopback).
	a.srv.streams.max.Store(perViewer + 3)
	for _, nick := range []string{"Bo", "Cy", "Di"} {
		if got := hear(t, join(t, a, code, nick), paths.StudentEvents.For(code)).next(time.Second); got != "look" {
			t.Errorf("%s, behind Ana's address: the stream opens with %q", nick, got)
		}
	}
	if s := hear(t, join(t, a, code, "Ed"), paths.StudentEvents.For(code)); s.resp.StatusCode != http.StatusNoContent {
		t.Errorf("a student past the server's most streams: %d, want 204 (poll)", s.resp.StatusCode)
	}
	other := a.browser()
	otherCode := teacherStart(t, other)
	if s := hear(t, other, paths.TeacherEvents.For(otherCode)); s.resp.StatusCode != http.StatusOK || s.next(time.Second) != "look" {
		t.Errorf("another class's teacher, every student stream taken: %d, want their stream", s.resp.StatusCode)
	}
}

// TestARemovedStudentsStreamEnds (issue 79, item 6): the stream a student
// opened before the teacher removed them says look (their page learns
// it) and ends, as a deleted class's streams do.
func TestARemovedStudentsStreamEnds(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	bo := join(t, a, code, "Bo")
	stream := hear(t, bo, paths.StudentEvents.For(code))
	if got := stream.next(time.Second); got != "look" {
		t.Fatalf("Bo's stream opens with %q", got)
	}
	teacher.post(fmt.Sprintf("/t/%s/students/%d/remove", code, studentID(t, a, code, "Bo")), url.Values{"confirm": {"yes"}})
	if got := stream.next(2 * time.Second); got != "look" {
		t.Errorf("Bo removed: his stream said %q, want a look", got)
	}
	if got := stream.next(2 * time.Second); got != "end" {
		t.Errorf("Bo removed: then his stream said %q, want its end", got)
	}
}

// TestARefusedLabQuestionCostsNothing (issue 79, items 23 and 24): a
// question the lab cannot run is refused with its real reason before any
// table is solved or game simulated, and the mystery bot is refused when
// posed, never a 500 at a student's run.
func TestARefusedLabQuestionCostsNothing(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	started, _ := a.srv.tables.Solves()
	for _, c := range []struct {
		game, target, first, second, says string
	}{
		{"hog", "300", "hold:20", "optimal", "Perfect play is worked out for targets up to 200: for Hog to a higher target"},
		{"pig", "400", "optimal", "hold:20", "Perfect play is worked out for targets up to 200: for Pig to a higher target"},
		{"pig", "100", "mystery", "hold:20", "The mystery bot plays matches, not the lab"},
		{"pig", "5", "hold:20", "hold:25", "a target from 10 to 1,000"},
	} {
		q := url.Values{"game": {c.game}, "target": {c.target}, "first": {c.first}, "second": {c.second}}
		page := ana.post(paths.StudentLab.For(code), url.Values{"game": q["game"], "target": q["target"], "first": q["first"], "second": q["second"], "games": {"100"}})
		if got := page.Find(`[data-testid="lab-error"]`).Text(); ana.status() != http.StatusUnprocessableEntity || !strings.Contains(got, c.says) {
			t.Errorf("a student's run of %v: %d %q, want 422 saying %q", q, ana.status(), got, c.says)
		}
		teacher.post(paths.PoseLab.For(code), q)
		if teacher.status() != http.StatusUnprocessableEntity || !strings.Contains(teacher.body, c.says) {
			t.Errorf("the teacher posing %v: %d, want 422 saying %q", q, teacher.status(), c.says)
		}
	}
	if now, _ := a.srv.tables.Solves(); now != started {
		t.Errorf("the refused questions started %d solves, want none", now-started)
	}
	if n, _ := a.store.Experiments(t.Context(), mustClass(t, a, code).ID); len(n) != 0 {
		t.Errorf("the refused questions stored %d runs", len(n))
	}
}

// TestADeepLinkingTicketWorksOnce (issue 79, item 4): the instructor's
// choice sends its signed link once, from the browser that asked; the
// same ticket posted again, or from another browser, is refused; a
// platform's return address that is not http(s) is refused at the launch.
func TestADeepLinkingTicketWorksOnce(t *testing.T) {
	a := newApp(t)
	p := newPlatform(t)
	p.register(a)
	asking := func(b *browser, back string) *goquery.Document {
		return p.launch(b, "platform-key-1", func(c map[string]any) {
			instructor(c)
			c[lti.ClaimMessageType] = lti.DeepLinkingRequest
			delete(c, lti.ClaimResourceLink)
			c["https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"] = map[string]any{
				"deep_link_return_url": back, "accept_types": []string{"ltiResourceLink"}}
		})
	}
	teacher := a.browser()
	ticket := asking(teacher, p.srv.URL+"/deeplinks").Find(`[data-testid=lti-deeplink] input[name=ticket]`).AttrOr("value", "")
	if teacher.status() != http.StatusOK || ticket == "" {
		t.Fatalf("the deep linking request: %d", teacher.status())
	}
	choice := url.Values{"ticket": {ticket}, "kind": {"class"}}
	stranger := a.browser()
	if stranger.post(paths.LTIDeepLink.String(), choice); stranger.status() != http.StatusForbidden {
		t.Errorf("the ticket from another browser: %d, want 403", stranger.status())
	}
	page := teacher.post(paths.LTIDeepLink.String(), choice)
	if got := page.Find("form[data-autosubmit]").AttrOr("action", ""); teacher.status() != http.StatusOK || got != p.srv.URL+"/deeplinks" {
		t.Fatalf("the instructor's choice: %d, sent to %q", teacher.status(), got)
	}
	if page = teacher.post(paths.LTIDeepLink.String(), choice); teacher.status() != http.StatusForbidden || page.Find("form[data-autosubmit]").Length() != 0 {
		t.Errorf("the same ticket again: %d, want 403 and no signed link", teacher.status())
	}
	if page = stranger.post(paths.LTIDeepLink.String(), choice); stranger.status() != http.StatusForbidden {
		t.Errorf("the same ticket again, without its cookie: %d, want 403", stranger.status())
	}

	evil := a.browser()
	page = asking(evil, "javascript:alert(document.cookie)")
	if evil.status() != http.StatusForbidden || page.Find(`[data-testid=lti-deeplink]`).Length() != 0 ||
		!strings.Contains(page.Text(), "a return address pigclass cannot send a link to") {
		t.Errorf("a javascript: return address: %d %q, want 403 and no choice", evil.status(), page.Find("main").Text())
	}
}

// TestARenewalEndsTheNamesHold (issue 79, item 17): after ten wrong codes
// for Ana (her name held a minute), the teacher renews her code: the new
// one works at once, and the old one never does.
func TestARenewalEndsTheNamesHold(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	old := ana.get(paths.Student.For(code)).Find(`[data-testid="rejoin-code"]`).Text()
	guesser := a.browser()
	for i := range classroom.WrongRejoinsStudent {
		guesser.post(paths.JoinCode.For(code), url.Values{"nickname": {"Ana"}, "rejoin": {fmt.Sprintf("wrong%d", i)}})
	}
	phone := a.browser()
	if phone.post(paths.JoinCode.For(code), url.Values{"nickname": {"Ana"}, "rejoin": {old}}); phone.status() != http.StatusTooManyRequests {
		t.Fatalf("after %d wrong codes her own: %d, want her name held (429)", classroom.WrongRejoinsStudent, phone.status())
	}
	page := teacher.post(paths.RenewRejoin.With(code, studentID(t, a, code, "Ana")), url.Values{"confirm": {"yes"}})
	renewed := page.Find(`[data-testid="student-rejoin-code"]`).Text()
	if phone.post(paths.JoinCode.For(code), url.Values{"nickname": {"Ana"}, "rejoin": {old}}); phone.path() == paths.Student.For(code) {
		t.Error("the old code reaches her seat after the renewal")
	}
	if phone.post(paths.JoinCode.For(code), url.Values{"nickname": {"Ana"}, "rejoin": {renewed}}); phone.path() != paths.Student.For(code) {
		t.Errorf("the renewed code at once: %d at %s, want her class page", phone.status(), phone.path())
	}
}

// TestATablesRowIsCheckedWhole (issue 79, item 16): a row without throws
// is checked against its written score as a row with throws is: holding
// at 0 with "h 4" written is refused, and nothing is entered.
func TestATablesRowIsCheckedWhole(t *testing.T) {
	a, teacher, code, ana, ids := anaAndBen(t)
	v := sim.Standard(sim.Pig)
	v.Target = 30
	if _, err := a.srv.tables.Get(v); err != nil {
		t.Fatal(err)
	}
	teacher.post(paths.Tables.For(code), url.Values{"game": {"pig"}, "target": {"30"}, "student": ids})
	board := func() (string, string) {
		b := ana.get("/c/" + code).Find(`[data-testid="board"]`)
		return b.AttrOr("data-seq", ""), b.Find(`form[data-testid="table-throw"]`).AttrOr("action", "")
	}
	seq, enter := board()
	if enter == "" {
		t.Fatal("no table entry for Ana")
	}
	// Ana, at 0, then Ben, at 0, after Ana's turn typed in.
	for i, row := range []string{"h 4", "6 5 4 h 15", "h 4"} {
		seq, enter = board()
		doc := ana.post(enter, url.Values{"seq": {seq}, "turn": {row}})
		got := doc.Find(`[data-testid="board-error"]`).Text()
		switch {
		case i == 1 && got != "":
			t.Fatalf("the row %q: %q", row, got)
		case i != 1 && got != "The row says the score is 4, but its throws make 0: check the row against the sheet. Nothing was entered.":
			t.Errorf("the row %q to move at 0: %d %q, want it refused", row, ana.status(), got)
		}
	}
	// A hold with pieces (the score where the pieces go) is no throw.
	seq, enter = board()
	doc := ana.post(enter, url.Values{"seq": {seq}, "action": {"hold"}, "faces": {"4"}})
	if got := doc.Find(`[data-testid="board-error"]`).Text(); !strings.HasPrefix(got, "A turn's row is its throws") {
		t.Errorf("a hold sent with the pieces 4: %d %q, want it refused", ana.status(), got)
	}
	if now, _ := board(); now != seq {
		t.Errorf("the row \"h 4\" moved the game from %s to %s", seq, now)
	}
}

// TestAKeyRotationIsLetIn (issue 79, item 14): a launch signed with a key
// the platform has just published beside the old one is let in, though
// the keys were fetched a moment before (refetchAfter, a second, after);
// a flood of made-up key ids fetches the keys no more than once in that
// second.
func TestAKeyRotationIsLetIn(t *testing.T) {
	a, p, _, code := platformClass(t)
	fetches := func() int {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.keyFetches
	}
	before := fetches()
	for i := range 20 {
		b := a.browser()
		p.launch(b, fmt.Sprintf("made-up-%d", i), func(c map[string]any) { c["sub"] = fmt.Sprintf("forger-%d", i) })
		if b.status() != http.StatusForbidden {
			t.Fatalf("a launch signed under a made-up key id: %d", b.status())
		}
	}
	if got := fetches() - before; got > 1 {
		t.Errorf("20 made-up key ids within a second fetched the keys %d times, want at most 1", got)
	}
	p.mu.Lock()
	p.keys["platform-key-2"] = rsaKey(t) // published beside the old one
	p.mu.Unlock()
	a.clock.add(refetchGap)
	learner := a.browser()
	p.launch(learner, "platform-key-2", func(c map[string]any) { c["sub"] = "user-2" })
	if learner.path() != paths.Student.For(code) {
		t.Errorf("the first launch signed with the new key, %v after the last fetch: %d at %s", refetchGap, learner.status(), learner.path())
	}
}

// refetchGap is a little more than lti's refetchAfter: a launch a
// moment after the last fetch of the platform's keys.
const refetchGap = 1100 * time.Millisecond

// TestANoJSHomeworkStaysOnTheBoard (issue 79, item 10): a homework played
// without JavaScript (plain form posts, no HX-Request) answers each move
// with its own page, the board it leads to, never the class page, which
// shows no homework's board; once over, the page is its result.
func TestANoJSHomeworkStaysOnTheBoard(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	due := a.clock.now().In(time.Local).Add(72 * time.Hour).Format("2006-01-02T15:04")
	teacher.post(paths.Homework.For(code), url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}, "games": {"1"}, "due": {due}})
	doc := ana.post(paths.PlayHomework.With(code, 1), nil)
	game := ana.path()
	moves := 0
	for range 500 {
		st, ok := readBoard(doc)
		if !ok || st.over {
			break
		}
		if !st.yourTurn {
			t.Fatalf("after %d moves the page %s shows a board that is not hers to move", moves, ana.path())
		}
		action := "hold"
		if st.turnTot < 20 {
			action = "roll"
		}
		doc = ana.post(st.act, url.Values{"seq": {strconv.Itoa(st.seq)}, "action": {action}})
		moves++
		if ana.path() != game {
			t.Fatalf("move %d (%s) went to %s, not the game's page %s", moves, action, ana.path(), game)
		}
	}
	if doc.Find(`[data-testid="result"]`).Length() != 1 || moves < 3 {
		t.Errorf("after %d moves without JavaScript: no result at %s", moves, ana.path())
	}
}

// TestALaunchIsOneUsers (issue 79, item 8): Sara launches two links of a
// course in a browser; Tom then launches the second in the same
// browser: the browser is Tom's alone (Sara's class no longer knows it,
// and the privacy download of either class is Tom's or nobody's), and
// Sara's seats wait for her own next launch. A user's own second launch
// keeps their seats.
func TestALaunchIsOneUsers(t *testing.T) {
	a := newApp(t)
	p := newPlatform(t)
	p.register(a)
	open := func(b *browser, linkID, sub, name string, teaches bool) string {
		t.Helper()
		p.launch(b, "platform-key-1", func(c map[string]any) {
			if teaches {
				instructor(c)
			}
			c["sub"], c["name"] = sub, name
			c[lti.ClaimResourceLink] = map[string]any{"id": linkID}
		})
		code := b.path()[strings.LastIndex(b.path(), "/")+1:]
		if len(code) != CodeLength {
			t.Fatalf("%s's launch of %s ended at %d %s", name, linkID, b.status(), b.path())
		}
		return code
	}
	teacher := a.browser()
	first, second := open(teacher, "link-1", "teacher-1", "Ms Rivera", true), open(teacher, "link-2", "teacher-1", "Ms Rivera", true)
	cart := a.browser() // a shared Chromebook
	open(cart, "link-1", "user-sara", "Sara Lopes", false)
	open(cart, "link-2", "user-sara", "Sara Lopes", false)
	if cart.get(paths.Student.For(first)); cart.path() != paths.Student.For(first) {
		t.Fatalf("Sara's own second launch signed her out of her first class: at %s", cart.path())
	}
	open(cart, "link-2", "user-tom", "Tom Reis", false)
	if cart.get(paths.Student.For(first)); cart.path() == paths.Student.For(first) {
		t.Errorf("after Tom's launch the browser is still Sara in %s", first)
	}
	if doc := cart.get(paths.Student.For(second)); doc.Find(`[data-testid="nickname"]`).Text() != "Tom Reis" {
		t.Errorf("after Tom's launch the browser is %q in %s, want Tom Reis", doc.Find(`[data-testid="nickname"]`).Text(), second)
	}
	if got := cart.get(paths.MyData.For(second)); !strings.Contains(cart.body, "Tom Reis") || strings.Contains(cart.body, "Sara") {
		t.Errorf("the privacy download after Tom's launch: %d %s", cart.status(), got.Text())
	}
	if cart.get(paths.MyData.For(first)); cart.status() == http.StatusOK {
		t.Errorf("the browser downloads Sara's data of %s after Tom's launch", first)
	}
	// Sara on another device: her seats are hers.
	phone := a.browser()
	open(phone, "link-1", "user-sara", "Sara Lopes", false)
	if doc := phone.get(paths.Student.For(first)); doc.Find(`[data-testid="nickname"]`).Text() != "Sara Lopes" {
		t.Errorf("Sara's next launch: %q", doc.Find(`[data-testid="nickname"]`).Text())
	}
	if n := len(operator(t, a, first).Class().Students); n != 1 {
		t.Errorf("%d students in the first class, want Sara alone", n)
	}
}

// TestThePlatformsNamesAsItGivesThem (issue 79, item 9): a learner named
// in Persian with a zero-width non-joiner, and one whose name holds a
// right-to-left override, come in under their names (the override
// removed), not as "Student 2".
func TestThePlatformsNamesAsItGivesThem(t *testing.T) {
	a, p, _, code := platformClass(t)
	for _, c := range []struct{ sub, name, want string }{
		{"user-fa", "علی\u200cرضا رضایی", "علی\u200cرضا رضایی"},
		{"user-rlo", "Ana \u202eLopes", "Ana Lopes"},
		{"user-long", "María José Fernández de la Cruz", "María José Fernández de la Cruz"},
	} {
		b := a.browser()
		p.launch(b, "platform-key-1", func(m map[string]any) { m["sub"], m["name"] = c.sub, c.name })
		if got := b.get(paths.Student.For(code)).Find(`[data-testid="nickname"]`).Text(); got != c.want {
			t.Errorf("%s's launch as %q: the class page says %q, want %q", c.sub, c.name, got, c.want)
		}
	}
}

// TestAPlatformsClassTakesOnlyItsLaunches (issue 79, item 11): with its
// code alone, no one joins a platform's class (new, by a rejoin code or
// from the class list, whose names are the course's), until its teacher
// opens it to codes on the dashboard, which says which it is.
func TestAPlatformsClassTakesOnlyItsLaunches(t *testing.T) {
	a, p, teacher, code := platformClass(t)
	learner := a.browser()
	p.launch(learner, "platform-key-1", nil)
	rejoin := learner.get(paths.Student.For(code)).Find(`[data-testid="rejoin-code"]`).Text()
	before := len(operator(t, a, code).Class().Students)
	dash := teacher.get(paths.Teacher.For(code))
	if got := dash.Find(`[data-testid="platform-doors"]`).Text(); !strings.HasPrefix(got, "Students come in from your course's page") {
		t.Errorf("the dashboard of a platform's class says %q", got)
	}
	intruder := a.browser()
	doc := intruder.post(paths.JoinCode.For(code), url.Values{"nickname": {"Intruder"}})
	if intruder.status() != http.StatusForbidden || !strings.Contains(doc.Find(`[role="alert"]`).Text(), "open pigclass from your course's page") {
		t.Errorf("a code join of a platform's class: %d %q, want 403", intruder.status(), doc.Find(`[role="alert"]`).Text())
	}
	if rejoin != "" {
		if intruder.post(paths.JoinCode.For(code), url.Values{"nickname": {"Ana Souza"}, "rejoin": {rejoin}}); intruder.status() != http.StatusForbidden {
			t.Errorf("a rejoin code in a platform's class: %d, want 403", intruder.status())
		}
	}
	if doc = intruder.post(paths.JoinCode.For(code), url.Values{"roster": {"ask"}}); doc.Find(`[data-testid="roster-name"]`).Length() != 0 || strings.Contains(doc.Text(), "Ana Souza") {
		t.Error("the class list of a platform's class shows its learners to a code")
	}
	if n := len(operator(t, a, code).Class().Students); n != before {
		t.Errorf("the code joins seated %d students", n-before)
	}
	teacher.post(paths.CodesOpen.For(code), nil)
	if got := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="platform-doors"]`).Text(); !strings.HasPrefix(got, "Students may also join with the class code") {
		t.Errorf("opened to codes, the dashboard says %q", got)
	}
	if intruder.post(paths.JoinCode.For(code), url.Values{"nickname": {"Guest"}}); intruder.path() != paths.Student.For(code) {
		t.Errorf("opened to codes, a code join: %d at %s", intruder.status(), intruder.path())
	}
	teacher.post(paths.CodesClosed.For(code), nil)
	if late := a.browser(); late.post(paths.JoinCode.For(code), url.Values{"nickname": {"Late"}}) != nil && late.status() != http.StatusForbidden {
		t.Errorf("closed again, a code join: %d", late.status())
	}
	// An ordinary class takes its code as ever.
	own := a.browser()
	ownCode := teacherStart(t, own)
	join(t, a, ownCode, "Ana")
}

// TestTheLaunchObeysTheCoursesRoster (issue 79, item 13): where the
// platform offers its roster (NRPS), a learner it does not list, or lists
// as Inactive, is refused in words that say what to do, and nothing is
// stored; a learner added to the course a moment ago is let in (the
// roster read again for them); an instructor is never refused for it.
func TestTheLaunchObeysTheCoursesRoster(t *testing.T) {
	a := newApp(t)
	p := newPlatform(t)
	p.register(a)
	nrps := func(c map[string]any) {
		c["https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"] = map[string]any{"context_memberships_url": p.srv.URL + "/courses/course-1/members", "service_versions": []string{"2.0"}}
	}
	p.members = []map[string]any{
		{"user_id": "user-1", "name": "Ana Souza", "roles": []string{lti.RoleLearner}},
		{"user_id": "user-4", "name": "Cy Gone", "roles": []string{lti.RoleLearner}, "status": "Inactive"},
	}
	teacher := a.browser()
	p.launch(teacher, "platform-key-1", func(c map[string]any) { instructor(c); nrps(c); c["sub"] = "teacher-not-listed" })
	code := strings.TrimPrefix(teacher.path(), "/t/")
	if len(code) != CodeLength {
		t.Fatalf("an instructor the roster does not list: %d at %s, want the dashboard", teacher.status(), teacher.path())
	}
	classID := mustClassID(t, a, code)
	count := func() int {
		sts, _ := a.store.Students(t.Context(), classID)
		return len(sts)
	}
	before := count()
	for _, c := range []struct{ who, sub string }{{"a stranger to the course", "user-9"}, {"an Inactive member", "user-4"}} {
		b := a.browser()
		doc := p.launch(b, "platform-key-1", func(m map[string]any) { nrps(m); m["sub"] = c.sub })
		checkRefused(t, c.who, b, doc, http.StatusForbidden, "Ask your teacher to add you to the course")
	}
	if n := count(); n != before {
		t.Errorf("the refused launches stored %d students", n-before)
	}
	ana := a.browser()
	if p.launch(ana, "platform-key-1", nrps); ana.path() != paths.Student.For(code) {
		t.Errorf("Ana, on the roster: %d at %s", ana.status(), ana.path())
	}
	// Bo is added to the course: his launch a moment later gets in.
	p.mu.Lock()
	p.members = append(p.members, map[string]any{"user_id": "user-2", "name": "Bo Reis", "roles": []string{lti.RoleLearner}})
	p.mu.Unlock()
	a.clock.add(6 * time.Second)
	bo := a.browser()
	if p.launch(bo, "platform-key-1", func(m map[string]any) { nrps(m); m["sub"], m["name"] = "user-2", "Bo Reis" }); bo.path() != paths.Student.For(code) {
		t.Errorf("Bo, added to the course a moment ago: %d at %s", bo.status(), bo.path())
	}
}

// TestTheHold20BotHasOneName (issue 79, item 18): the board, the review,
// the teacher's student page, decisions.csv, matches.csv and
// match_players.csv name the hold-at-20 bot one way, "Hold-20 bot"; the
// files keep its machine id in bot_id.
func TestTheHold20BotHasOneName(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	// To 50: the bot's first turn (it holds at 20) cannot end the game.
	startRound(t, teacher, code, url.Values{"game": {"pig"}, "target": {"50"}, "mode": {"bot"}, "bot": {"hold:20"}})
	board := ana.b.get(paths.Student.For(code))
	game := board.Find(`[data-testid="board"]`).AttrOr("hx-get", "")
	if !strings.Contains(board.Find(`[data-testid="board"]`).Text(), "Hold-20 bot") {
		t.Errorf("the board does not name the bot Hold-20 bot: %q", board.Find(`[data-testid="board"]`).Text())
	}
	id, _ := strconv.ParseInt(strings.Split(strings.TrimPrefix(game, "/c/"+code+"/m/"), "/")[0], 10, 64)
	ana.playAt(t, paths.ClassMatch.With(code, id))
	review := ana.b.get(paths.ClassMatch.With(code, id)).Text()
	if !strings.Contains(review, "Hold-20 bot") || strings.Contains(review, "Bot (rule of thumb") {
		t.Errorf("the review names the bot otherwise than Hold-20 bot")
	}
	for _, f := range []struct{ file, col string }{{"decisions.csv", "student"}, {"match_players.csv", "player"}} {
		bots := 0
		for _, r := range teacher.csvRows("/t/" + code + "/" + f.file) {
			if r["bot_id"] == "" {
				continue
			}
			bots++
			if r[f.col] != "Hold-20 bot" || r["bot_id"] != "hold:20" {
				t.Errorf("%s names the bot %q (bot_id %q)", f.file, r[f.col], r["bot_id"])
			}
		}
		if bots == 0 {
			t.Errorf("%s has no row of the bot", f.file)
		}
	}
	if m := teacher.csvRows("/t/" + code + "/matches.csv"); len(m) != 1 || !strings.Contains(m[0]["players"], "Hold-20 bot") {
		t.Errorf("matches.csv: %v", m)
	}
}

// TestGradesSurviveAnOutage (issue 79, item 15): the platform's score
// endpoint answers 503 for a while, then nothing at all, then comes back;
// pigclass restarts in between. Each learner's latest score arrives once
// it is back, once, with a timestamp later than the last one sent, and
// nothing is sent twice for the same value.
func TestGradesSurviveAnOutage(t *testing.T) {
	a := newApp(t)
	p := newPlatform(t)
	p.register(a)
	graded := p.graded
	teacher := a.browser()
	p.launch(teacher, "platform-key-1", func(c map[string]any) { instructor(c); graded(c) })
	code := strings.TrimPrefix(teacher.path(), "/t/")
	teacher.post(paths.LTIScore.For(code), url.Values{"score": {"games"}}) // the games played: a value each round moves
	ana := &student{b: a.browser(), nick: "Ana Souza", holdAt: 20}
	p.launch(ana.b, "platform-key-1", graded)
	round := func(a *app) {
		t.Helper()
		startRound(t, teacher, code, url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}})
		playRound(t, code, []*student{ana})
	}
	send := func(a *app, want int) {
		t.Helper()
		if n, _ := a.srv.sendScores(t.Context()); n != want {
			t.Errorf("%d scores sent, want %d", n, want)
		}
	}
	round(a)
	send(a, 1) // 1 game
	p.mu.Lock()
	p.failScores = 1 << 20 // the platform answers 503
	p.mu.Unlock()
	round(a)
	for range 2 {
		send(a, 0)
		a.clock.add(time.Minute)
	}
	p.mu.Lock()
	p.scoresGone = true // then nothing at all
	p.mu.Unlock()
	send(a, 0)
	a.clock.add(time.Minute)

	// pigclass restarts during the outage.
	a.stop()
	b := openApp(t, a.path, a.clock)
	p.toolKeys = b.url + paths.LTIKeys.String()
	teacher.moveTo(b)
	ana.b.moveTo(b)
	round(b) // 3 games now
	send(b, 0)
	a.clock.add(time.Minute)

	p.mu.Lock()
	p.failScores, p.scoresGone = 0, false // back
	p.mu.Unlock()
	send(b, 1)
	send(b, 0) // the same value: never twice
	a.clock.add(time.Minute)
	send(b, 0)
	p.mu.Lock()
	defer p.mu.Unlock()
	var given []any
	var stamps []string
	for _, sc := range p.scores {
		given = append(given, sc["scoreGiven"])
		stamps = append(stamps, fmt.Sprint(sc["timestamp"]))
	}
	if len(given) != 2 || given[0] != 1.0 || given[1] != 3.0 {
		t.Fatalf("the platform received %v, want 1 game, then (once back) the latest, 3", given)
	}
	first, _ := time.Parse(time.RFC3339Nano, stamps[0])
	last, _ := time.Parse(time.RFC3339Nano, stamps[1])
	if !last.After(first) {
		t.Errorf("the timestamps %v: the latest is not later than the last sent", stamps)
	}
}

// TestTheClassListsNamesAreTheTeachersChoice (issue 79, item 7): the join
// page offers the class list's names to whoever has the class code, as
// the privacy page says, until the teacher hides them: then none are
// offered, and a student of the list comes in with their name and their
// card's code.
func TestTheClassListsNamesAreTheTeachersChoice(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	teacher.addGroup(teacher.upload(code, nil, "Ana López\nBruno Silva"), 0)
	card := ""
	for _, st := range operator(t, a, code).Class().Students {
		if st.Nickname == "Bruno Silva" {
			card = a.srv.room.RejoinCode(operator(t, a, code).Class(), st)
		}
	}
	stranger := a.browser()
	if doc := stranger.post(paths.JoinCode.For(code), url.Values{"code": {code}, "roster": {"ask"}}); !strings.Contains(doc.Text(), "Bruno Silva") {
		t.Fatalf("the list's names are not offered with the code")
	}
	if got := a.browser().get(paths.Privacy.String()).Find(`[data-testid="privacy-list"]`).Text(); !strings.Contains(got, "to whoever has the class code") {
		t.Errorf("the privacy page does not say who sees the list's names: %q", got)
	}
	dash := teacher.get(paths.Teacher.For(code))
	if got := dash.Find(`[data-testid="list-names"]`).Text(); !strings.Contains(got, "shows the list's names to whoever has the class code") {
		t.Errorf("the dashboard's class list card says %q", got)
	}
	teacher.post(paths.ListHide.For(code), nil)
	doc := stranger.post(paths.JoinCode.For(code), url.Values{"code": {code}, "roster": {"ask"}})
	if strings.Contains(doc.Text(), "Bruno Silva") || strings.Contains(doc.Text(), "Ana López") || !strings.Contains(doc.Text(), "keeps the class list's names off this page") {
		t.Errorf("names hidden, the join page says %q", doc.Find("main").Text())
	}
	bruno := a.browser()
	if bruno.post(paths.JoinCode.For(code), url.Values{"nickname": {"Bruno Silva"}, "rejoin": {card}}); bruno.path() != paths.Student.For(code) {
		t.Errorf("Bruno with his name and his card's code: %d at %s", bruno.status(), bruno.path())
	}
	if got := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="list-names"]`).Text(); !strings.Contains(got, "shows no names") {
		t.Errorf("hidden, the dashboard's card says %q", got)
	}
	teacher.post(paths.ListShow.For(code), nil)
	if doc := stranger.post(paths.JoinCode.For(code), url.Values{"code": {code}, "roster": {"ask"}}); !strings.Contains(doc.Text(), "Ana López") {
		t.Errorf("shown again, the names are not offered")
	}
}
