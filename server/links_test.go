package server

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/gin-gonic/gin"

	"pigclass/templates/paths"
)

// routeServes reports whether a route of the router serves method and path.
func routeServes(routes gin.RoutesInfo, method, path string) bool {
	for _, r := range routes {
		want := strings.Split(path, "/")
		if r.Method != method {
			continue
		}
		pat := strings.Split(r.Path, "/")
		if n := len(pat) - 1; strings.HasPrefix(pat[n], "*") && len(want) > n {
			pat, want = pat[:n], want[:n] // the rest of the path is the file's
		}
		ok := len(pat) == len(want)
		for i := 0; ok && i < len(pat); i++ {
			switch {
			case strings.HasPrefix(pat[i], ":"):
				ok = want[i] != ""
			default:
				ok = pat[i] == want[i]
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// link is one address a page points to, and how it is asked for.
type link struct{ method, path, on string }

// pageLinks lists every address in a page: href, src, form actions and
// htmx's hx-get and hx-post; addresses of other hosts are kept whole.
func pageLinks(base *url.URL, on string, doc *goquery.Document) []link {
	var out []link
	add := func(method, raw string) {
		if raw == "" || strings.HasPrefix(raw, "#") || strings.HasPrefix(raw, "data:") {
			return
		}
		u, err := base.Parse(raw)
		if err != nil || u.Host != base.Host {
			out = append(out, link{method, raw, on})
			return
		}
		out = append(out, link{method, u.Path + pick(u.RawQuery != "", "?"+u.RawQuery, ""), on})
	}
	doc.Find("[href]").Each(func(_ int, s *goquery.Selection) { add(http.MethodGet, s.AttrOr("href", "")) })
	doc.Find("[src]").Each(func(_ int, s *goquery.Selection) { add(http.MethodGet, s.AttrOr("src", "")) })
	doc.Find("[hx-get]").Each(func(_ int, s *goquery.Selection) { add(http.MethodGet, s.AttrOr("hx-get", "")) })
	doc.Find("[hx-post]").Each(func(_ int, s *goquery.Selection) { add(http.MethodPost, s.AttrOr("hx-post", "")) })
	doc.Find("form").Each(func(_ int, s *goquery.Selection) {
		add(strings.ToUpper(s.AttrOr("method", http.MethodGet)), s.AttrOr("action", on))
	})
	return out
}

// TestEveryLinkIsRouted: every page a teacher, a student, the projector,
// a practising player and a stranger can reach (a crawl of each one's
// pages from where they start, with a class in a lesson, a round played
// and being played, Skunk and the results) points only to addresses a
// route serves, on this host: no href, src, form action or hx-get/hx-post
// that no route answers, and no other host.
func TestEveryLinkIsRouted(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	ben := join(t, a, code, "Ben")
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}})
	playRound(t, code, []*student{ana})
	player := a.browser()
	player.post(paths.Practice.String(), url.Values{"game": {"hog"}, "bot": {"ev"}})
	projector := a.browser()
	key := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="projector-link"]`).AttrOr("href", "")
	projector.get(strings.TrimPrefix(key, a.url))
	lesson := a.browser()
	lcode := teacherStartLesson(t, lesson, "6-skunk")
	join(t, a, lcode, "Kim")
	lesson.post(paths.LessonStart.For(lcode), nil)

	routes := a.srv.Handler().(*gin.Engine).Routes()
	base, _ := url.Parse(a.url)
	for _, who := range []struct {
		name  string
		b     *browser
		start []string
	}{
		{"teacher", teacher, []string{paths.Teacher.For(code), paths.TeacherProjector.Page.For(code), paths.TeacherProjector.Results.For(code)}},
		{"student", ana.b, []string{paths.Student.For(code), paths.StudentCharts.For(code)}},
		{"playing student", ben, []string{paths.Student.For(code)}},
		{"projector", projector, []string{paths.ReadOnlyProjector.Page.For(code), paths.ReadOnlyProjector.Results.For(code)}},
		{"practice", player, []string{player.path(), paths.Front.String()}},
		{"lesson teacher", lesson, []string{paths.Teacher.For(lcode), paths.TeacherSkunk.For(lcode)}},
		{"stranger", a.browser(), []string{paths.Front.String(), paths.Join.String(), paths.Verify.String(), paths.Glossary.String(), "/no/such/page"}},
	} {
		seen := map[string]bool{}
		todo := slices.Clone(who.start)
		for pages := 0; len(todo) > 0 && pages < 150; pages++ {
			p := todo[0]
			todo = todo[1:]
			if seen[p] {
				continue
			}
			seen[p] = true
			doc := who.b.get(p)
			if !strings.HasPrefix(who.b.last.Header.Get("Content-Type"), "text/html") {
				continue
			}
			for _, l := range pageLinks(base, p, doc) {
				path, _, _ := strings.Cut(l.path, "?")
				if !strings.HasPrefix(path, "/") || !routeServes(routes, l.method, path) {
					t.Errorf("%s: %s links to %s %s, which no route serves", who.name, l.on, l.method, l.path)
					continue
				}
				if strings.HasPrefix(path, "/static/") && !seen[path] {
					seen[path] = true
					if status, _, _ := who.b.send(http.MethodGet, path, nil); status != http.StatusOK {
						t.Errorf("%s: %s links to %s, answered %d", who.name, l.on, path, status)
					}
					continue
				}
				if l.method == http.MethodGet && !seen[l.path] && !strings.HasSuffix(path, ".csv") && !strings.Contains(l.path, "?key=") {
					todo = append(todo, l.path)
				}
			}
		}
		t.Logf("%s: %d pages and files", who.name, len(seen))
		if len(seen) < len(who.start)+1 {
			t.Errorf("%s: only %d pages crawled", who.name, len(seen))
		}
	}
}

// teacherStartLesson makes a class that follows a lesson and returns its
// code.
func teacherStartLesson(t *testing.T, teacher *browser, lesson string) string {
	t.Helper()
	doc := teacher.post(paths.Classes.String(), url.Values{"lesson": {lesson}})
	code := doc.Find(`[data-testid="join-code"]`).Text()
	if teacher.status() != http.StatusOK || len(code) != CodeLength {
		t.Fatalf("start a class with lesson %s: %d at %s", lesson, teacher.status(), teacher.path())
	}
	return code
}
