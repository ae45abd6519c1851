package server

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fileUses type-checks the package in dir (tests left out) and returns,
// for each of its files, the other files whose declarations it names (a
// function, type, variable, constant, method or field declared there),
// with the names. Go files of one package do not import each other, so
// this is the graph a reader follows.
func fileUses(t *testing.T, dir string) (map[string][]string, map[[2]string][]string) {
	t.Helper()
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}", dir).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	exports := map[string]string{}
	for line := range strings.Lines(string(out)) {
		if path, file, ok := strings.Cut(strings.TrimSpace(line), "\t"); ok {
			exports[path] = file
		}
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) { return os.Open(exports[path]) })
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	pkg, err := (&types.Config{Importer: imp}).Check(files[0].Name.Name, fset, files, info)
	if err != nil {
		t.Fatal(err)
	}
	uses := map[string][]string{}
	why := map[[2]string][]string{} // file, other -> the names it uses
	for _, f := range files {
		uses[filepath.Base(fset.File(f.Pos()).Name())] = nil
	}
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg || !obj.Pos().IsValid() || obj.Parent() != nil && obj.Parent() != pkg.Scope() && obj.Parent().Parent() != types.Universe {
			continue // another package's, or a local name
		}
		from, to := filepath.Base(fset.Position(id.Pos()).Filename), filepath.Base(fset.Position(obj.Pos()).Filename)
		if from == to {
			continue
		}
		if !slices.Contains(uses[from], to) {
			uses[from] = append(uses[from], to)
		}
		if e := [2]string{from, to}; !slices.Contains(why[e], obj.Name()) {
			why[e] = append(why[e], obj.Name())
		}
	}
	for name := range uses {
		slices.Sort(uses[name])
	}
	for e := range why {
		slices.Sort(why[e])
	}
	return uses, why
}

// floors lays the files out as a house: a file stands above every file it
// uses. The files of a loop (which no layout can keep from running back
// up) are returned apart.
func floors(uses map[string][]string) (floor map[string]int, loops [][]string) {
	// Tarjan's strongly connected components.
	index, low, on := map[string]int{}, map[string]int{}, map[string]bool{}
	var stack []string
	var comps [][]string
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = len(index), len(index)
		stack = append(stack, v)
		on[v] = true
		for _, w := range uses[v] {
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var comp []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			comps = append(comps, comp)
		}
	}
	names := make([]string, 0, len(uses))
	for n := range uses {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if _, seen := index[n]; !seen {
			visit(n)
		}
	}
	floor = map[string]int{}
	for _, comp := range comps { // dependencies first
		top := 0
		for _, v := range comp {
			for _, w := range uses[v] {
				if !slices.Contains(comp, w) {
					top = max(top, floor[w])
				}
			}
		}
		for _, v := range comp {
			floor[v] = top + 1
		}
		if len(comp) > 1 {
			slices.Sort(comp)
			loops = append(loops, comp)
		}
	}
	return floor, loops
}

// TestServerFilesUseOnlyDownward: the files of package server stand in
// floors, each using only files below it: the route table at the top, the
// handlers between, the shared kit at the bottom naming no handler. A use
// that ran back up (a loop of files) fails here, with the loop named.
// Run with -v to see the house.
func TestServerFilesUseOnlyDownward(t *testing.T) {
	for _, dir := range []string{"."} {
		uses, names := fileUses(t, dir)
		floor, loops := floors(uses)
		for _, loop := range loops {
			var why []string
			for _, a := range loop {
				for _, b := range uses[a] {
					if slices.Contains(loop, b) {
						why = append(why, a+"→"+b+" ("+strings.Join(names[[2]string{a, b}], " ")+")")
					}
				}
			}
			t.Errorf("%s: these files use each other in a loop: %s", dir, strings.Join(why, ", "))
		}
		if testing.Verbose() {
			names := make([]string, 0, len(floor))
			for n := range floor {
				names = append(names, n)
			}
			slices.SortFunc(names, func(a, b string) int { return floor[b] - floor[a] })
			for _, n := range names {
				t.Logf("%s floor %2d  %-22s uses %s", dir, floor[n], n, strings.Join(uses[n], " "))
			}
		}
	}
	if _, err := os.Stat("routes.go"); err != nil {
		t.Fatal(err)
	}
}
