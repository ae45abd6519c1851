package server

import (
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"pigclass/server/report"
)

// The documents that say what pigclass is and does, by their paths from
// this package: the README, the administrator's guide (cmd/pigclass's
// package comment) and the developer's guide.
const (
	readme         = "../README.md"
	adminGuide     = "../cmd/pigclass/doc.go"
	developerGuide = "DEVELOPING.md"
)

// docs reads the documents, the administrator's guide as go doc reads it
// (its comment's lines without their "// ").
func docs(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, p := range []string{readme, adminGuide, developerGuide} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		if strings.HasSuffix(p, ".go") {
			var lines []string
			for _, l := range strings.Split(text, "\n") {
				if !strings.HasPrefix(l, "//") {
					break
				}
				lines = append(lines, strings.TrimPrefix(strings.TrimPrefix(l, "//"), " "))
			}
			text = strings.Join(lines, "\n")
		}
		out[p] = text
	}
	return out
}

// TestDocsAddressesAnswer: every address the administrator's guide's
// "Stable addresses" name is a route of the app, with its method, and so
// is every address the README and the developer's guide name in code: an
// address renamed or removed fails here until the guides say so.
func TestDocsAddressesAnswer(t *testing.T) {
	texts := docs(t)
	guide := texts[adminGuide]
	start := strings.Index(guide, "Stable addresses:")
	if start < 0 {
		t.Fatal("the administrator's guide has no paragraph of stable addresses")
	}
	end := strings.Index(guide[start:], "\n\n")
	para := guide[start : start+end]
	a := newApp(t)
	routes := map[string]bool{}
	for _, r := range a.srv.Handler().(*gin.Engine).Routes() {
		routes[r.Method+" "+r.Path] = true
	}
	address := regexp.MustCompile("`(POST |GET )?(/[^`?]*)(\\?[^`]*)?`")
	check := func(doc, text string) {
		for _, m := range address.FindAllStringSubmatch(text, -1) {
			method := strings.TrimSpace(m[1])
			if method == "" {
				method = http.MethodGet
			}
			path := strings.NewReplacer("{code}", ":code", "{id}", ":id", "{key}", ":key").Replace(m[2])
			if !routes[method+" "+path] {
				t.Errorf("%s names %s %s, which is no route of the app", doc, method, m[2])
			}
		}
	}
	if n := len(address.FindAllString(para, -1)); n < 30 {
		t.Fatalf("%d addresses read from the guide's paragraph, want them all", n)
	}
	check(adminGuide, para)
	// Every page a browser is sent to is named: a new one fails here
	// until the guide names it or it is one of the parts a page fetches
	// by itself.
	named := map[string]bool{}
	for _, m := range address.FindAllStringSubmatch(para, -1) {
		named[strings.NewReplacer("{code}", ":code", "{id}", ":id", "{key}", ":key").Replace(m[2])] = true
	}
	for _, r := range a.srv.Handler().(*gin.Engine).Routes() {
		if r.Method == http.MethodGet && !named[r.Path] && !pageParts[r.Path] {
			t.Errorf("the guide's stable addresses leave out %s", r.Path)
		}
	}
	// The README's and the developer's guide's addresses of the app (the
	// pages a teacher is sent to), not paths of files or of the machine.
	for _, doc := range []string{readme, developerGuide} {
		for _, m := range regexp.MustCompile(`\*\*(/[a-z]+)\*\*`).FindAllStringSubmatch(texts[doc], -1) {
			check(doc, "`"+m[1]+"`")
		}
	}
	for _, page := range []string{"/help", "/glossary", "/privacy"} {
		if !strings.Contains(texts[readme], "**"+page+"**") {
			t.Errorf("the README does not send a teacher to %s", page)
		}
	}
}

// pageParts are the addresses a page fetches by itself (its live parts,
// a board, a chart, a confirmation it opens, its files): not addresses a
// person is given, so the guide's stable addresses leave them out.
var pageParts = map[string]bool{
	"/static/*file": true, "/m/:id/board": true, "/c/:code/m/:id/board": true, "/c/:code/next": true,
	"/c/:code/plan/chances": true, "/c/:code/skunk": true, "/c/:code/skunk/:id/record.json": true,
	"/p/:code/chart": true, "/p/:code/live": true, "/p/:code/skunk": true,
	"/t/:code/charts": true, "/t/:code/live": true, "/t/:code/skunk": true, "/t/:code/tournament/live": true,
	"/t/:code/projector/chart": true, "/t/:code/projector/live": true, "/t/:code/projector/skunk": true,
	"/t/:code/confirm/delete": true, "/t/:code/confirm/end-round": true, "/t/:code/confirm/erase/:id": true,
	"/t/:code/confirm/rejoin/:id": true, "/t/:code/confirm/remove/:id": true, "/t/:code/confirm/skunk": true,
	"/t/:code/confirm/step": true,
}

// numberWords are the counts the documents write in words.
var numberWords = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
	"eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15}

// TestDocsCountsAreTheRegistries: the counts of lesson plans, of the
// dashboard's files and of the class's charts the README and the guides
// write are those of the app's own lists (the lesson plans it loads,
// report.Files, charts.ClassKeys), and the files the guide names are
// those files: a plan, a file or a chart added without the documents
// fails here.
func TestDocsCountsAreTheRegistries(t *testing.T) {
	a := newApp(t)
	var words []string
	for w := range numberWords {
		words = append(words, w)
	}
	n := "(" + strings.Join(words, "|") + ")"
	found := map[string]int{}
	for doc, text := range docs(t) {
		text = strings.Join(strings.Fields(text), " ")
		count := func(re, what string, want int) {
			t.Helper()
			for _, m := range regexp.MustCompile(re).FindAllStringSubmatch(text, -1) {
				found[what]++
				if got, ok := numberWords[m[1]]; !ok || got != want {
					t.Errorf("%s says %q: the app has %d %s", doc, m[0], want, what)
				}
			}
		}
		count(`\b`+n+` lesson plans`, "lesson plans", len(a.srv.views.lessons))
		count(`dashboard offers `+n+` files`, "files", len(report.Files))
		if m := regexp.MustCompile(`dashboard offers ` + n + ` files \(([^)]*)\)`).FindStringSubmatch(text); m != nil {
			for _, f := range report.Files {
				if !strings.Contains(m[2], f.Name) {
					t.Errorf("%s's list of files (%s) lacks %s", doc, m[2], f.Name)
				}
			}
		}
	}
	for _, what := range []string{"lesson plans", "files"} {
		if found[what] == 0 {
			t.Errorf("no document says how many %s there are", what)
		}
	}
}

// TestDocsNameFilesThatExist: every file or folder of the repository the
// README and the guides name (in code, or as a link) is there: a file
// renamed or removed (the addresses once built in urls.go) fails here
// until the documents follow. A bare name (`routes.go`) is looked for
// anywhere in the repository; a name with a pattern (`sim/game_*.go`)
// must match something.
func TestDocsNameFilesThatExist(t *testing.T) {
	root := ".."
	var all []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != root && d.Name() != ".ci" {
			return filepath.SkipDir
		}
		all = append(all, filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator))))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	file := regexp.MustCompile(`^\.?[a-z0-9_./*-]*[a-z0-9_*]\.(go|md|toml|lesson|templ|js|css|sql)$|^(\.ci|cmd|server|sim|templates|lessons|static)/[a-z0-9_./*-]*$`)
	checked := 0
	for doc, text := range docs(t) {
		var named []string
		for _, m := range regexp.MustCompile("`([^`\\s]+)`|\\]\\(([^)\\s]+)\\)").FindAllStringSubmatch(text, -1) {
			named = append(named, m[1]+m[2])
		}
		for _, n := range named {
			n = strings.TrimPrefix(strings.TrimSuffix(n, "/"), "../")
			if doc == developerGuide && !strings.Contains(n, "/") && strings.HasSuffix(n, ".md") {
				n = "server/" + n
			}
			if !file.MatchString(n) || strings.Contains(n, "..") {
				continue
			}
			checked++
			found := false
			for _, p := range all {
				base := p
				if !strings.Contains(n, "/") {
					base = path.Base(p)
				}
				if ok, _ := path.Match(n, base); ok {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s names %s, which is not in the repository", doc, n)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d files named in the documents were checked: were they read?", checked)
	}
}
