package app

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestAppIsOnlyTheComposition holds App to what the package doc says: it
// carries out no operation itself (its methods are its parts'), and it
// holds no field but its parts and what Close releases. An operation
// added to App directly belongs in the part whose fields it uses.
func TestAppIsOnlyTheComposition(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil && recvName(d.Recv.List[0].Type) == "App" && d.Name.Name != "Close" {
					t.Errorf("%s: App.%s: an operation of App's own; put it on the part whose fields it uses", fset.Position(d.Pos()), d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok || ts.Name.Name != "App" {
						continue
					}
					for _, fld := range ts.Type.(*ast.StructType).Fields.List {
						if len(fld.Names) > 0 && fld.Names[0].Name != "use" {
							t.Errorf("%s: App.%s: a field of App's own; App embeds its parts", fset.Position(fld.Pos()), fld.Names[0].Name)
						}
					}
				}
			}
		}
	}
}

func recvName(x ast.Expr) string {
	if s, ok := x.(*ast.StarExpr); ok {
		x = s.X
	}
	if id, ok := x.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
