package sim

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// gameIdents returns the names of the Game constants the game files declare
// (const Pig Game = 0, ...), read from the files themselves.
func gameIdents(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob("game_*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no game files: %v", err)
	}
	out := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, s := range g.Specs {
					if vs := s.(*ast.ValueSpec); vs.Type != nil && types(vs.Type) == "Game" {
						for _, n := range vs.Names {
							out[n.Name] = true
						}
					}
				}
			}
		}
	}
	return out
}

func types(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// gameBranches lists the places in one Go file that compare with a
// particular game: == or != against a game constant (sim.Hog, or Hog inside
// package sim) or a game's name ("hog"), or a case that lists one.
func gameBranches(fset *token.FileSet, f *ast.File, idents, names map[string]bool) []string {
	isGame := func(e ast.Expr) bool {
		switch x := e.(type) {
		case *ast.Ident:
			return f.Name.Name == "sim" && idents[x.Name]
		case *ast.SelectorExpr:
			pkg, ok := x.X.(*ast.Ident)
			return ok && pkg.Name == "sim" && idents[x.Sel.Name]
		case *ast.BasicLit:
			s, err := strconv.Unquote(x.Value)
			return x.Kind == token.STRING && err == nil && names[s]
		}
		return false
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.BinaryExpr:
			if (x.Op == token.EQL || x.Op == token.NEQ) && (isGame(x.X) || isGame(x.Y)) {
				out = append(out, fset.Position(x.Pos()).String())
			}
		case *ast.CaseClause:
			for _, e := range x.List {
				if isGame(e) {
					out = append(out, fset.Position(e.Pos()).String())
				}
			}
		}
		return true
	})
	return out
}

// gameNamesSet is every game's name as forms spell it, and the names of
// its piece, of the piece's marks (but a die's numbers) and of its
// mishap: a comparison with any of them is a branch on a game.
func gameNamesSet() map[string]bool {
	out := map[string]bool{}
	for _, g := range Games {
		r := g.Rules()
		out[g.String()], out[r.Piece.Name] = true, true
		for _, m := range r.Piece.Marks {
			if _, err := strconv.Atoi(m); err != nil {
				out[m] = true
			}
		}
		if r.Mishap.Name != "" {
			out[r.Mishap.Name] = true
		}
	}
	return out
}

// TestNoBranchOnAGame: a game is data (GameRules); outside the game files
// nothing compares with a particular game, in Go or in a templ component.
func TestNoBranchOnAGame(t *testing.T) {
	idents, names := gameIdents(t), gameNamesSet()
	fset := token.NewFileSet()
	var found []string
	templIf := regexp.MustCompile(`(==|!=)\s*"([a-z-]+)"`)
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		base := filepath.Base(path)
		switch {
		case d.IsDir() && (strings.HasPrefix(base, ".") && base != ".." || base == "testdata" || base == "node_modules"):
			return filepath.SkipDir
		case d.IsDir(), strings.HasSuffix(path, "_test.go"):
			return nil
		case strings.HasSuffix(path, ".templ"):
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range templIf.FindAllStringSubmatch(string(src), -1) {
				if names[m[2]] {
					found = append(found, path+": "+m[0])
				}
			}
			return nil
		case !strings.HasSuffix(path, ".go"), filepath.Dir(path) == "." && strings.HasPrefix(base, "game_"):
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		found = append(found, gameBranches(fset, f, idents, names)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range found {
		t.Errorf("%s: a branch on a particular game; read a property of its GameRules instead", at)
	}
}

// TestBranchFinderFindsAPlantedBranch: the finder of TestNoBranchOnAGame
// sees each kind of branch it looks for, and passes a property's.
func TestBranchFinderFindsAPlantedBranch(t *testing.T) {
	idents, names := gameIdents(t), gameNamesSet()
	src := `package server
func f(g sim.Game, name, mark, piece string) int {
	if g == sim.Hog { return 1 }
	if "two-dice" != name { return 2 }
	if mark == "razorback" || "bacon" == mark || piece != "die" { return 5 }
	switch g {
	case sim.Pig, sim.BigPig:
		return 3
	}
	if g.ChoosesDice() || g == other { return 4 }
	return 0
}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "planted.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := gameBranches(fset, f, idents, names)
	want := []string{"planted.go:3:5", "planted.go:4:5", "planted.go:5:5", "planted.go:5:28", "planted.go:5:47", "planted.go:7:7", "planted.go:7:16"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("found %v, want %v", got, want)
	}
	if !idents["Pig"] || !idents["Hog"] || len(idents) != len(Games) {
		t.Errorf("game constants %v, want one per registered game (%d)", idents, len(Games))
	}
}

// TestHoldAtIsOneTurnsBest: each game of many rolls names as its rule of
// thumb the hold point from which one more roll, at score 0, no longer adds
// points on average: the exact weights of its throws, summed here.
func TestHoldAtIsOneTurnsBest(t *testing.T) {
	for _, g := range Games {
		r := g.Rules()
		if r.Turn != ManyRolls {
			continue
		}
		outcomes, _ := r.Outcomes(r.Pieces)
		var gain, risk int64 // points added, and weight lost, over all throws
		for _, o := range outcomes {
			if o.Effect == Adds {
				gain += o.Weight * int64(o.Points)
			} else {
				risk += o.Weight
			}
		}
		k := 0
		for gain > risk*int64(k) {
			k++
		}
		if r.HoldAt != k {
			t.Errorf("%s: rule of thumb hold at %d, one more roll stops paying at %d", g, r.HoldAt, k)
		}
	}
}

// TestPigsDrawFollowsKern: the pigs drawn from a seed land as Kern's counts
// say: each landing's share of 120,000 pigs and the touches' share of
// 60,000 throws within 4.5 standard errors.
func TestPigsDrawFollowsKern(t *testing.T) {
	seed := Seed{7}
	r := PassPigs.Rules()
	landed := make([]int, len(r.Piece.Weights)+1)
	touches, throws, pigs := 0, 60000, 0
	for i := range throws {
		f := seed.ThrowFor(PassPigs, i%10, i/10, 0, 2)
		if f.At(0) == int(r.Mishap.Mark) {
			touches++
			continue
		}
		landed[f.At(0)]++
		landed[f.At(1)]++
		pigs += 2
	}
	within := func(what string, got, n int, p float64) {
		if se := math.Sqrt(p * (1 - p) / float64(n)); math.Abs(float64(got)/float64(n)-p) > 4.5*se {
			t.Errorf("%s: %d of %d (%.5f), want %.5f", what, got, n, float64(got)/float64(n), p)
		}
	}
	within("touching", touches, throws, 23.0/6000)
	for m, w := range []int{1796, 2063, 551, 1354, 184, 29} {
		within(r.Piece.Marks[m], landed[m+1], pigs, float64(w)/5977)
	}
}
