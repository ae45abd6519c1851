package i18n

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// idLiteral is a quoted message id (or the start of one a program
// completes: "move.", "chart."): lower-case words joined by dots.
var idLiteral = regexp.MustCompile(`"([a-z][a-z0-9_-]*(?:\.[a-z0-9_-]*)+)"`)

// codeIDs reads the repository's code (Go and templ, tests and generated
// code left out) for the message ids it names, whole or as a prefix.
func codeIDs(t *testing.T, sections map[string]bool) (whole, prefixes map[string]bool) {
	t.Helper()
	whole, prefixes = map[string]bool{}, map[string]bool{}
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		// The static files and the lessons' figures (named like messages,
		// "skunk.stand", but none) are not the words' code.
		if d.IsDir() && (d.Name() == "static" || d.Name() == "figures" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, "_templ.go") ||
			!strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, ".templ") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range idLiteral.FindAllStringSubmatch(string(b), -1) {
			id := m[1]
			if !sections[id[:strings.Index(id, ".")]] {
				continue // a file name, a package path
			}
			if strings.HasSuffix(id, ".") || strings.HasSuffix(id, "_") || strings.HasSuffix(id, "-") {
				prefixes[id] = true
			} else {
				whole[id] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return whole, prefixes
}

// TestCatalogKeysExist: every message id the code names is in the English
// catalog (a missing one would show its id to a reader), and every message
// of the catalog is named by the code, whole or by a prefix the code
// completes ("move." + the move's kind, "against.bot" + "_seats"): none
// left over. With the
// catalogs' own test (TestCatalogsDoNotDrift: each language has every
// English message, and none more), this is the check of what is missing
// or unused in each catalog.
func TestCatalogKeysExist(t *testing.T) {
	en, err := Catalog(Source)
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]bool{}
	for id := range en {
		sections[id[:strings.Index(id, ".")]] = true
	}
	whole, prefixes := codeIDs(t, sections)
	if len(whole) < 200 {
		t.Fatalf("only %d message ids found in the code: not read whole?", len(whole))
	}
	var missing, unused []string
	for id := range whole {
		if _, ok := en[id]; !ok {
			missing = append(missing, id)
		}
	}
	for id := range en {
		used := whole[id]
		for p := range prefixes {
			used = used || strings.HasPrefix(id, p)
		}
		for w := range whole { // "against.bot" + "_seats"
			used = used || strings.HasPrefix(id, w+"_") || strings.HasPrefix(id, w+".")
		}
		if !used {
			unused = append(unused, id)
		}
	}
	sort.Strings(missing)
	sort.Strings(unused)
	for _, id := range missing {
		t.Errorf("the code names %q, which the English catalog lacks", id)
	}
	for _, id := range unused {
		t.Errorf("the catalog's %q is named nowhere in the code", id)
	}
}
