package daybook_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestOutsideModule builds testdata/outside, a module of its own that
// imports each public package and calls it, and runs it on a data dir: an
// exported signature that names an internal type fails its build ("use of
// internal package ... not allowed"). The modules come from the module
// cache that building daybook filled; no proxy is asked.
func TestOutsideModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program: not with -short")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH: ", err)
	}
	bin := filepath.Join(t.TempDir(), "outside")
	build := exec.Command(goBin, "build", "-o", bin, ".")
	build.Dir = filepath.Join("testdata", "outside")
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building testdata/outside: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, t.TempDir()).CombinedOutput()
	if err != nil {
		t.Fatalf("running testdata/outside: %v\n%s", err, out)
	}
	for _, want := range []string{"entries: 1", "recalled: 1", "ExecStart="} {
		if !strings.Contains(string(out), want) {
			t.Errorf("testdata/outside printed no %q:\n%s", want, out)
		}
	}
}

// publicPackages are the packages outside internal/ and cmd/ that other
// programs may import.
var publicPackages = []string{".", "consolidate", "daemon", "dayfiles", "dayfiles/date", "dayfiles/scan", "index", "recall", "service"}

// TestPublicSignatures reads each public package's exported declarations
// (functions, methods of exported types, types with their exported fields
// and methods, variables and constants) and fails on any that names a
// package under internal/: an outside program could not write it.
func TestPublicSignatures(t *testing.T) {
	for _, dir := range publicPackages {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		for _, e := range entries {
			name := e.Name()
			if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, where := range exportedInternal(f, internalImports(f)) {
				t.Errorf("%s: %s names an internal package", fset.Position(where.pos), where.name)
			}
		}
	}
}

// internalImports maps the names a file gives its imports of daybook's
// internal packages to their paths.
func internalImports(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if !strings.Contains(path, "/internal/") && !strings.HasSuffix(path, "/internal") {
			continue
		}
		name := filepath.Base(path)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		out[name] = path
	}
	return out
}

type use struct {
	name string
	pos  token.Pos
}

// exportedInternal returns the exported declarations of f whose types name
// a package of internal.
func exportedInternal(f *ast.File, internal map[string]string) []use {
	var out []use
	check := func(name string, n ast.Node) {
		if n == nil || reflect.ValueOf(n).IsNil() {
			return
		}
		ast.Inspect(n, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false // a function's body is no signature
			}
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && internal[x.Name] != "" {
					out = append(out, use{name + " (" + x.Name + "." + sel.Sel.Name + ")", sel.Pos()})
				}
			}
			return true
		})
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() || (d.Recv != nil && !exportedRecv(d.Recv)) {
				continue
			}
			check(d.Name.Name, d.Type)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						check(s.Name.Name, exportedPart(s.Type))
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							check(n.Name, s.Type)
							for _, v := range s.Values {
								check(n.Name, v)
							}
						}
					}
				}
			}
		}
	}
	return out
}

// exportedRecv reports whether a method's receiver is an exported type.
func exportedRecv(recv *ast.FieldList) bool {
	t := recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	id, ok := t.(*ast.Ident)
	return ok && id.IsExported()
}

// exportedPart is a type as an outside program sees it: a struct's
// exported and embedded fields, an interface's methods, any other type whole.
func exportedPart(t ast.Expr) ast.Node {
	st, ok := t.(*ast.StructType)
	if !ok {
		return t
	}
	var fields []*ast.Field
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 {
			fields = append(fields, f)
			continue
		}
		for _, n := range f.Names {
			if n.IsExported() {
				fields = append(fields, f)
				break
			}
		}
	}
	return &ast.FieldList{List: fields}
}
