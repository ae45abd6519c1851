package server

import (
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"pigclass/server/report"
)

// TestREADMEAddressesAnswer: every address the README's "Stable
// addresses" name is a route of the app, with its method: an address
// renamed or removed fails here until the README says so.
func TestREADMEAddressesAnswer(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	start := strings.Index(readme, "Stable addresses:")
	end := strings.Index(readme[start:], "\n\n")
	if start < 0 || end < 0 {
		t.Fatal("the README has no paragraph of stable addresses")
	}
	para := readme[start : start+end]
	a := newApp(t)
	routes := map[string]bool{}
	for _, r := range a.srv.Handler().(*gin.Engine).Routes() {
		routes[r.Method+" "+r.Path] = true
	}
	named := regexp.MustCompile("`(POST |GET )?(/[^`?]*)(\\?[^`]*)?`").FindAllStringSubmatch(para, -1)
	if len(named) < 30 {
		t.Fatalf("%d addresses read from the README's paragraph, want them all", len(named))
	}
	for _, m := range named {
		method := strings.TrimSpace(m[1])
		if method == "" {
			method = http.MethodGet
		}
		path := strings.NewReplacer("{code}", ":code", "{id}", ":id").Replace(m[2])
		if !routes[method+" "+path] {
			t.Errorf("the README names %s %s, which is no route of the app", method, m[2])
		}
	}
}

// numberWords are the counts the README writes in words.
var numberWords = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
	"eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15}

// TestREADMECountsAreTheRegistries: the README's counts of lesson plans
// and of the dashboard's files are those of the app's own lists (the
// lesson plans it loads, report.Files), and the files it names are those
// files: a plan or a file added without the README fails here.
func TestREADMECountsAreTheRegistries(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := strings.Join(strings.Fields(string(b)), " ")
	a := newApp(t)
	count := func(re, what string, want int) {
		t.Helper()
		ms := regexp.MustCompile(re).FindAllStringSubmatch(readme, -1)
		if len(ms) == 0 {
			t.Errorf("the README does not say how many %s there are", what)
		}
		for _, m := range ms {
			if n, ok := numberWords[m[1]]; !ok || n != want {
				t.Errorf("the README says %q: the app has %d %s", m[0], want, what)
			}
		}
	}
	var words []string
	for w := range numberWords {
		words = append(words, w)
	}
	n := "(" + strings.Join(words, "|") + ")"
	count(`\b`+n+` lesson plans`, "lesson plans", len(a.srv.views.lessons))
	count(`dashboard offers `+n+` files`, "files", len(report.Files))
	m := regexp.MustCompile(`dashboard offers ` + n + ` files \(([^)]*)\)`).FindStringSubmatch(readme)
	if m == nil {
		t.Fatal("the README does not name the dashboard's files")
	}
	for _, f := range report.Files {
		if !strings.Contains(m[2], f.Name) {
			t.Errorf("the README's list of files (%s) lacks %s", m[2], f.Name)
		}
	}
}
