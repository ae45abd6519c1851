package server

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// secretDraws are the only functions of server/ that draw from a source
// of chance of their own: secrets, which must stay crypto/rand's and which
// no test needs to choose. Every other draw (a match's seed, the order a
// round pairs students in, a join code, a generated name) is
// Config.Chance's.
var secretDraws = map[string]string{
	"identity.go:newToken":           "a player's or teacher's secret token",
	"server.go:New":                  "the server's key, when none is given",
	"classroom/erase.go:RenewRejoin": "a student's new rejoin secret",
	"store/key.go:newKey":            "the server's key file, made on first start",
	"store/leases.go:newLeases":      "a district instance's holder name, unguessable",
	"store/pgtest/pgtest.go:URL":     "a test schema's name (a test helper)",
	"lti/toolkey.go:NewToolKey":      "pigclass's signing key for its learning platforms",
	"lti/toolkey.go:Box":             "the nonce a sealing with the server's key takes",
	"lti/services.go:assertion":      "a client assertion's id (jti), used once",
}

// chanceSources are the packages whose draws the server may not make
// for itself, and sim's own draw of a fresh seed.
var chanceSources = map[string]bool{"crypto/rand": true, "math/rand": true, "math/rand/v2": true}

// TestChanceHasOneSource walks the syntax of every file of server/ (tests
// left out) and fails on a draw from crypto/rand, math/rand or
// sim.NewSeed outside the secrets above: the dice, orders, codes and
// names come from Config.Chance alone, so a test can choose them.
func TestChanceHasOneSource(t *testing.T) {
	var found []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		draws, err := drawsIn(path)
		found = append(found, draws...)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, at := range found {
		seen[at] = true
		if _, ok := secretDraws[at]; !ok {
			t.Errorf("%s draws chance of its own: take it from Config.Chance (classroom: Room.chance), or, for a secret, name it in secretDraws", at)
		}
	}
	for at := range secretDraws {
		if !seen[at] {
			t.Errorf("secretDraws names %s, which draws nothing now: remove it", at)
		}
	}
	if !slices.Contains(found, "identity.go:newToken") {
		t.Fatalf("the walk found no draw at all (%v): it reads nothing", found)
	}
}

// drawsIn returns "file:function" for each call in the file at path to a
// chance source's package or to sim.NewSeed.
func drawsIn(path string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	local := map[string]string{} // name in this file -> import path
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		name := p[strings.LastIndex(p, "/")+1:]
		if strings.HasPrefix(name, "v") && strings.Contains(p, "/rand/") {
			name = "rand"
		}
		if imp.Name != nil {
			name = imp.Name.Name
		}
		local[name] = p
	}
	var out []string
	for _, decl := range f.Decls {
		where := "(package level)"
		if fn, ok := decl.(*ast.FuncDecl); ok {
			where = fn.Name.Name
		}
		ast.Inspect(decl, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && isDraw(local, sel) {
				out = append(out, filepath.ToSlash(path)+":"+where)
			}
			return true
		})
	}
	return out, nil
}

// isDraw reports whether sel names a chance source's function, or
// sim.NewSeed, in a file whose imports are local.
func isDraw(local map[string]string, sel *ast.SelectorExpr) bool {
	x, ok := sel.X.(*ast.Ident)
	if !ok {
		return false
	}
	p := local[x.Name]
	return chanceSources[p] || p == "pigclass/sim" && sel.Sel.Name == "NewSeed"
}
