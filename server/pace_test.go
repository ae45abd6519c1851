package server

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/chromedp/chromedp"

	"pigclass/server/classroom"
	"pigclass/templates/paths"
)

// paceKinds reads the dashboard's pacing view: each chip's name and kind,
// and each kind's count.
func paceKinds(teacher *browser, code string) (chips map[string]string, counts map[string]string) {
	page := teacher.get(paths.Teacher.For(code))
	chips, counts = map[string]string{}, map[string]string{}
	page.Find(`[data-testid="pace-chip"]`).Each(func(_ int, s *goquery.Selection) {
		chips[strings.TrimSpace(s.Find("span[translate]").Text())] = s.AttrOr("data-kind", "")
	})
	for _, kind := range []string{"playing", "stuck", "done", "waiting", "forfeited"} {
		counts[kind] = page.Find(`[data-testid="pace-count-` + kind + `"] strong`).Text()
	}
	return chips, counts
}

// TestPaceSaysWhereEveryoneIs (issue 32, item 7): the dashboard's pacing
// view names every student's place: waiting before a round, playing in
// one, out of time once the clock has moved for them, done when their
// match is over, forfeited after three time-outs; the counts follow.
func TestPaceSaysWhereEveryoneIs(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	sleepy := join(t, a, code, "Sleepy")
	want := func(what string, kinds map[string]string, counts map[string]string) {
		t.Helper()
		got, n := paceKinds(teacher, code)
		for name, kind := range kinds {
			if got[name] != kind {
				t.Errorf("%s: %s is %q in the pacing view, want %q (%v)", what, name, got[name], kind, got)
			}
		}
		for kind, c := range counts {
			if n[kind] != c {
				t.Errorf("%s: %s counts %q, want %q", what, kind, n[kind], c)
			}
		}
	}
	want("before a round", map[string]string{"Ana": "waiting", "Sleepy": "waiting"}, map[string]string{"waiting": "2", "playing": "0"})
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}, "deadline": {"10"}})
	want("the round started", map[string]string{"Ana": "playing", "Sleepy": "playing"}, map[string]string{"playing": "2", "waiting": "0"})
	if title := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="pace-chip"][data-kind="playing"]`).First().AttrOr("title", ""); !regexp.MustCompile(`^(Ana|Sleepy): playing, \d+ to \d+$`).MatchString(title) {
		t.Errorf("a playing chip's title: %q", title)
	}
	playRound(t, code, []*student{ana})
	want("Ana's match over", map[string]string{"Ana": "done", "Sleepy": "playing"}, map[string]string{"done": "1", "playing": "1"})
	for n := 1; n <= 3; n++ {
		waitFor(t, func() bool { st, ok := readBoard(sleepy.get(paths.Student.For(code))); return ok && st.yourTurn })
		a.clock.add(11 * time.Second)
		waitFor(t, func() bool { return countBy(teacher.csvRows(paths.DecisionsCSV.For(code)), "timeout") == n })
		if n < 3 {
			want("a time-out", map[string]string{"Sleepy": "stuck"}, map[string]string{"stuck": "1", "playing": "0"})
		}
	}
	want("three time-outs", map[string]string{"Ana": "done", "Sleepy": "forfeited"}, map[string]string{"done": "1", "forfeited": "1"})
	chip := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="pace-chip"][data-kind="forfeited"]`)
	if title := chip.AttrOr("title", ""); title != "Sleepy: forfeited" {
		t.Errorf("the forfeited chip's title: %q", title)
	}
}

// TestBrowserPaceFitsAClassOf36 (issue 32, item 7): with 36 students, a
// round playing, every student's chip of the pacing view is on the first
// screen of a 1366x768 laptop, whole, and the poll redraws it.
func TestBrowserPaceFitsAClassOf36(t *testing.T) {
	t.Parallel()
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	a.srv.room.SetLesson(t.Context(), operator(t, a, code), "1-roll-or-hold", 0)
	for i := range 36 {
		join(t, a, code, fmt.Sprintf("%s Pupil-%02d", []string{"Alexandra", "Bartholomew", "Constantine", "Dorothea"}[i%4], i))
	}
	link := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="teacher-link"]`).AttrOr("href", "")
	laptop := person()
	run(t, laptop, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(link), chromedp.WaitVisible(q(`[data-testid="pace"]`)))
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	eventually(t, laptop, `document.querySelectorAll('[data-testid="pace-chip"][data-kind="playing"]').length === 36`, "the poll redraws the pacing view")
	bad := value(t, laptop, chromedp.Evaluate[string](`(function () {
		var out = [], h = window.innerHeight, w = window.innerWidth;
		if (window.scrollY !== 0) out.push("scrolled to " + window.scrollY);
		if (document.documentElement.scrollWidth > w) out.push("the page is " + document.documentElement.scrollWidth + " px wide");
		var chips = document.querySelectorAll('[data-testid="pace-chip"]');
		if (chips.length !== 36) out.push(chips.length + " chips");
		chips.forEach(function (el) {
			var r = el.getBoundingClientRect();
			if (r.top < 0 || r.bottom > h + 0.5 || r.left < 0 || r.right > w + 0.5) out.push(el.title + " at " + Math.round(r.top) + "-" + Math.round(r.bottom));
		});
		return out.join("; ");
	})()`))
	if bad != "" {
		t.Errorf("the pacing view at 1366x768: %s", bad)
	}
	shot(t, laptop, "dashboard-pace-36")
}

// TestSecondNameFromADeviceShows (issue 32, item 9): a device that joined
// the class under one name may join under another once its window has
// passed (classroom.DeviceJoinWindow); the dashboard then names, by each
// of the two, the other name of its device. A name from another device,
// and a class that takes every name from one address (joins unlimited,
// a school behind one address), show nothing.
func TestSecondNameFromADeviceShows(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	knock := func(nick, device string) {
		t.Helper()
		k := classroom.Knock{Code: code, Nickname: nick, Guesser: device, Device: device, NewTokenHash: classroom.HashToken(nick + "-token")}
		if _, err := a.srv.room.Enter(t.Context(), k); err != nil {
			t.Fatalf("%s joins from %s: %v", nick, device, err)
		}
	}
	knock("Ana", "198.51.100.7")
	knock("Leo", "198.51.100.8")
	a.clock.add(classroom.DeviceJoinWindow + time.Minute)
	knock("Bea", "198.51.100.7") // Ana's device, a new window later
	tags := func() map[string]string {
		out := map[string]string{}
		teacher.get(paths.Teacher.For(code)).Find(`[data-testid="student-row"]`).Each(func(_ int, s *goquery.Selection) {
			out[s.Find(".name").Text()] = s.Find(`[data-testid="same-device"]`).Text()
		})
		return out
	}
	want := map[string]string{"Ana": "joined from the same device as Bea", "Leo": "", "Bea": "joined from the same device as Ana"}
	if got := tags(); !maps.Equal(got, want) {
		t.Errorf("the roster's device tags: %v, want %v", got, want)
	}
	teacher.post(paths.JoinsUnlimited.For(code), nil)
	a.clock.add(classroom.DeviceJoinWindow + time.Minute)
	knock("Cy", "198.51.100.8") // Leo's address, the class open to any number a device
	if got := tags()["Cy"] + tags()["Leo"]; got != "" {
		t.Errorf("a class taking every name from one address tags %q", got)
	}
}

// TestALargeClassIsCountedNotDrawnWhole: a class past rosterMost students
// (a lecture hall: a thousand made the live part 900 KB, drawn up to
// twice a second beside their moves) has a row and a pace chip for its
// first rosterMost, and says how many more there are (in students.csv);
// the heading and the pace view's counts are of the whole class, on the
// dashboard and in its live part alike; the line's link lists them all.
func TestALargeClassIsCountedNotDrawnWhole(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	whole := rosterMost + 3
	teacher.post(paths.JoinsUnlimited.For(code), nil) // a lecture hall joins at once
	for i := range whole {
		join(t, a, code, fmt.Sprintf("Student %d", i))
	}
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	// live is the live part at path, drawn as the class is now.
	live := func(path string) *goquery.Document {
		req, _ := http.NewRequest(http.MethodGet, a.url+path, nil)
		req.Header.Set("X-Pigclass-Look", "1")
		return teacher.do(req)
	}
	for name, page := range map[string]*goquery.Document{"the dashboard": teacher.get(paths.Teacher.For(code)), "its live part": live(paths.TeacherLive.For(code))} {
		rows := page.Find(`[data-testid="student-row"]`)
		if rows.Length() != rosterMost || !strings.Contains(rows.First().Text(), "Student 0") || !strings.Contains(rows.Last().Text(), fmt.Sprintf("Student %d", rosterMost-1)) {
			t.Errorf("%s: %d rows, from %q to %q; want the first %d", name, rows.Length(), rows.First().Find(".name").Text(), rows.Last().Find(".name").Text(), rosterMost)
		}
		if h := page.Find(`[data-testid="dash-live"] h2`).Text(); !strings.Contains(h, fmt.Sprintf("Students (%d)", whole)) {
			t.Errorf("%s: the roster's heading %q does not count the whole class (%d)", name, strings.TrimSpace(h), whole)
		}
		if more := page.Find(`[data-testid="roster-more"]`).Text(); more != "And 3 more students, not listed here: every student's figures are in students.csv. List them all" {
			t.Errorf("%s: under the roster %q", name, more)
		}
		if chips := page.Find(`[data-testid="pace-chip"][data-kind="playing"]`).Length(); chips != rosterMost {
			t.Errorf("%s: %d playing chips, want %d", name, chips, rosterMost)
		}
		if n := page.Find(`[data-testid="pace-count-playing"] strong`).Text(); n != fmt.Sprint(whole) {
			t.Errorf("%s: the pace view counts %s playing, want the whole class's %d", name, n, whole)
		}
		if more := page.Find(`[data-testid="pace-more"]`).Text(); more != "And 3 more students." {
			t.Errorf("%s: under the pace chips %q", name, more)
		}
	}
	// Every student, when the teacher asks: a row each (a button to
	// remove each), on the page and in the live part it polls.
	all := teacher.get(teacher.get(paths.Teacher.For(code)).Find(`[data-testid="roster-all"]`).AttrOr("href", ""))
	// Its poll as a screen showing an older drawing asks it (at the
	// version the page shows, the answer is 204: nothing new).
	poll := regexp.MustCompile(`v=\d+`).ReplaceAllString(all.Find(`#dash-live`).AttrOr("hx-get", ""), "v=0")
	for name, page := range map[string]*goquery.Document{"the whole roster": all, "its live part (" + poll + ")": live(poll)} {
		if rows := page.Find(`[data-testid="student-row"]`).Length(); rows != whole || page.Find(`[data-testid="roster-more"]`).Length() != 0 {
			t.Errorf("%s: %d rows, want all %d, and no line of more", name, rows, whole)
		}
		if chips := page.Find(`[data-testid="pace-chip"]`).Length(); chips != whole {
			t.Errorf("%s: %d pace chips, want %d", name, chips, whole)
		}
	}
}
