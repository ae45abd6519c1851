package server

import (
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
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
