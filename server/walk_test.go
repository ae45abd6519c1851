package server

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"testing"
)

// TestAMovesWayBuildsNothingOfATable (issue 59, item 15): a move's way
// through the code (the act handler, match_act.go, and the board it
// draws, views.go's boardView) names nothing of a table's: no function
// or value declared in match_enter.go (a table's entries) or
// views_table.go (a table's board, its entry, its offline words). A
// table's entry has its own handler (enter) and its own view
// (tableBoardView); a board that is not at a table builds nothing of one.
func TestAMovesWayBuildsNothingOfATable(t *testing.T) {
	fset := token.NewFileSet()
	parse := func(name string) *ast.File {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	tables := map[string]string{} // a table's names -> their file
	for _, name := range []string{"match_enter.go", "views_table.go"} {
		for _, d := range parse(name).Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				tables[d.Name.Name] = name
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if v, ok := s.(*ast.ValueSpec); ok {
						for _, n := range v.Names {
							tables[n.Name] = name
						}
					}
				}
			}
		}
	}
	if len(tables) < 8 {
		t.Fatalf("only %d names found in a table's files: not read?", len(tables))
	}
	uses := func(where string, n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			var name string
			switch n := n.(type) {
			case *ast.Ident:
				name = n.Name
			case *ast.SelectorExpr:
				name = n.Sel.Name
			}
			if file, ok := tables[name]; ok {
				t.Errorf("%s names %s, a table's (%s)", where, name, file)
			}
			return true
		})
	}
	uses("match_act.go", parse("match_act.go"))
	views := parse("views.go")
	var found []string
	for _, d := range views.Decls {
		if f, ok := d.(*ast.FuncDecl); ok && slices.Contains([]string{"boardView", "boardSaid", "boardFacts"}, f.Name.Name) {
			found = append(found, f.Name.Name)
			uses("views.go's "+f.Name.Name, f)
		}
	}
	if len(found) != 3 {
		t.Fatalf("views.go's board functions: found %v", found)
	}
}
