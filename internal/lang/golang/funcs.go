package golang

import (
	"go/ast"
	"go/doc"
	"go/token"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// fileCtx is the state of one Extract call over one parsed file. It is
// never shared between goroutines.
type fileCtx struct {
	fset *token.FileSet
	// main is the file being extracted; cur is the file whose code the
	// walk is in, main or (inside an inlined helper) the one declaring it.
	main, cur *srcFile
	// tfile is main's token.File: positions outside it (in another
	// file of the package) have no line in this file's records.
	tfile    *token.File
	pkgCtx   *pkgCtx // the package's other test files; nil: this file alone
	out      []lang.Test
	problems []testdex.Problem
	names    *namer
	seen     map[string]int // index in out of each record, by name (has)
	indexed  int            // the records addNamed appended before out[indexed] are in seen
	memo     map[*comp]memoElems
	lits     map[*ast.BasicLit]value     // literal
	runs     map[*ast.BlockStmt]uint8    // which loop bodies may start tests
	callees  map[*ast.BlockStmt][]string // the names a body calls that are not functions of its file (calls)
	scans    map[ast.Expr]bool           // which expressions hold a .Run, .Add or .Fuzz call, or a helper call (scan)
	budget   int                         // walk steps left before loops stop being unrolled
	depth    int                         // helpers being inlined (inline)
	// tnames are the names the file gives *testing.T (B, F, TB)
	// parameters; tcalls the names its tests call with one that are not
	// functions of the file (the Facts' Calls).
	tnames, tcalls map[string]bool
	textRunsMemo   map[*ast.FuncDecl]bool // getsT
	callers        map[string]bool        // runCallees, nil until first asked
}

// srcFile is one parsed file of the package: the file being extracted,
// or another test file of its package whose helpers it calls.
type srcFile struct {
	file    *ast.File
	src     []byte
	pkg     *scope // package-level constants, tables and types
	imports map[string]string
	funcs   map[string]*ast.FuncDecl   // top-level functions, not methods
	methods map[string][]*ast.FuncDecl // methods, by name
	// runners are the names of funcs that may start subtests of a
	// *testing.T they receive (runnerNames); nil until first asked.
	runners map[string]bool
	// funcValues are the names that may hold function values
	// (funcValueNames); nil until first asked.
	funcValues map[string]bool
	// others are, in an extraction with its package's other files
	// (pkgctx.go), where names its package scope lacks are looked up.
	others *pkgCtx
}

// maxSteps bounds the statements walked in one test function (loops and
// tables unrolled), so that adversarial input cannot make Extract slow.
const maxSteps = 1 << 16

func newFileCtx(fset *token.FileSet, file *ast.File, src []byte) *fileCtx {
	x := &fileCtx{fset: fset, names: newNamer(), seen: map[string]int{}, memo: map[*comp]memoElems{}, lits: map[*ast.BasicLit]value{}, runs: map[*ast.BlockStmt]uint8{}, callees: map[*ast.BlockStmt][]string{}, scans: map[ast.Expr]bool{}, budget: maxSteps}
	x.main = newSrcFile(file, src)
	x.cur = x.main
	x.tfile = fset.File(file.Package)
	x.tnames, x.tcalls, x.textRunsMemo = map[string]bool{}, map[string]bool{}, map[*ast.FuncDecl]bool{}
	for _, d := range file.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Type != nil && fn.Type.Params != nil {
			for _, p := range fn.Type.Params.List {
				if testingType(p.Type, fn.Type.TypeParams) {
					for _, n := range p.Names {
						x.tnames[n.Name] = true
					}
				}
			}
		}
	}
	return x
}

// newSrcFile indexes a parsed file's declarations.
func newSrcFile(file *ast.File, src []byte) *srcFile {
	f := &srcFile{file: file, src: src, imports: importNames(file), funcs: make(map[string]*ast.FuncDecl, len(file.Decls))}
	f.pkg = packageScope(file)
	f.pkg.file = f
	for _, d := range file.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Name == nil || fn.Body == nil || fn.Name.Name == "_" {
			continue
		}
		switch {
		case fn.Recv != nil:
			if f.methods == nil {
				f.methods = map[string][]*ast.FuncDecl{}
			}
			f.methods[fn.Name.Name] = append(f.methods[fn.Name.Name], fn)
		case fn.Name.Name == "init":
		default:
			if _, dup := f.funcs[fn.Name.Name]; !dup {
				f.funcs[fn.Name.Name] = fn
			}
		}
	}
	return f
}

// tests lists the file's tests in source order, each followed by its
// subtests, and examples last in the order go test runs them.
func (x *fileCtx) tests() []lang.Test {
	hasExample := false
	for _, d := range x.main.file.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Name == nil || fn.Type == nil {
			continue
		}
		name := fn.Name.Name
		if isTest(name, "Example") {
			hasExample = true
		}
		kind, arg := classify(fn)
		if kind == "" {
			if name == "TestMain" {
				if err := checkTestFunc(fn, "M"); err != "" {
					x.problems = append(x.problems, problem(x.fset, fn.Pos(), err))
				}
			}
			continue
		}
		if err := checkTestFunc(fn, arg); err != "" {
			x.problems = append(x.problems, problem(x.fset, fn.Pos(), err))
			continue
		}
		if x.has(name) {
			x.problems = append(x.problems, problem(x.fset, fn.Pos(), name+" redeclared in this block"))
			continue
		}
		x.testFunc(fn, kind)
	}
	if hasExample {
		x.examples()
	}
	return x.out
}

// add appends a record unless one of the same name exists (a redeclared
// function, or a constant subtest name that looks like a placeholder) and
// reports whether it did.
func (x *fileCtx) add(r lang.Test) bool {
	if x.has(r.Name) {
		return false
	}
	x.seen[r.Name] = len(x.out)
	x.append(r)
	return true
}

// addNamed appends the record of a subtest the namer has just named,
// unless it may be a record's already: unless a rollback made the
// namer give names again, or the name holds a "{" (as every Dynamic
// record's does), no record has it, since the namer never gives a name
// twice and the other records' names hold no "/" (tests, examples) or
// lie under fuzz targets (seeds), where no subtest is named. Those skip
// seen, which an unrolled table of 15,000 rows paid for twice per row.
func (x *fileCtx) addNamed(r lang.Test) bool {
	if x.names.rolled || strings.IndexByte(r.Name, '{') >= 0 {
		return x.add(r)
	}
	x.append(r)
	return true
}

// append appends a record, doubling out when it is full (append grows a
// long slice by a quarter, copying an unrolled table's records about
// five times over).
func (x *fileCtx) append(r lang.Test) {
	if len(x.out) == cap(x.out) {
		x.out = slices.Grow(x.out, len(x.out)+8)
	}
	x.out = append(x.out, r)
}

// has reports whether a record is named name. The records addNamed
// appended without seen are added to it first when name may be one of
// theirs.
func (x *fileCtx) has(name string) bool {
	if strings.IndexByte(name, '/') >= 0 && strings.IndexByte(name, '{') < 0 {
		for ; x.indexed < len(x.out); x.indexed++ {
			x.seen[x.out[x.indexed].Name] = x.indexed
		}
	}
	_, ok := x.seen[name]
	return ok
}

// classify says which kind of test function fn is by name, following the
// switch in cmd/go/internal/load/test.go (testFuncs.load), and the letter of
// the testing type its parameter must have. TestMain with a *testing.T
// parameter is an ordinary test there; any other TestMain is not a test
// (but must have the *testing.M signature, which tests checks).
func classify(fn *ast.FuncDecl) (testdex.Kind, string) {
	name := fn.Name.Name
	switch {
	case name == "TestMain":
		if isTestFunc(fn, "T") {
			return testdex.KindTest, "T"
		}
		return "", ""
	case isTest(name, "Test"):
		return testdex.KindTest, "T"
	case isTest(name, "Benchmark"):
		return testdex.KindBenchmark, "B"
	case isTest(name, "Fuzz"):
		return testdex.KindFuzz, "F"
	}
	return "", ""
}

// isTest is cmd/go's: name has the prefix and the rune after it, if any, is
// not a lower-case letter (TestFoo, Test, Test_foo, but not Testing).
func isTest(name, prefix string) bool {
	if !strings.HasPrefix(name, prefix) {
		return false
	}
	if len(name) == len(prefix) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(name[len(prefix):])
	return !unicode.IsLower(r)
}

// isTestFunc is cmd/go's syntactic signature check: no results, exactly one
// parameter, of type *arg or *anything.arg (the import name of testing is
// not checked, as go does not check it).
func isTestFunc(fn *ast.FuncDecl, arg string) bool {
	ft := fn.Type
	if ft.Results != nil && len(ft.Results.List) > 0 || ft.Params == nil ||
		len(ft.Params.List) != 1 || len(ft.Params.List[0].Names) > 1 {
		return false
	}
	ptr, ok := ft.Params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	switch t := ptr.X.(type) {
	case *ast.Ident:
		return t.Name == arg
	case *ast.SelectorExpr:
		return t.Sel.Name == arg
	}
	return false
}

// checkTestFunc returns go test's complaint about fn's signature, "" when
// it is right.
func checkTestFunc(fn *ast.FuncDecl, arg string) string {
	var why string
	if !isTestFunc(fn, arg) {
		why = "must be: func " + fn.Name.Name + "(" + strings.ToLower(arg) + " *testing." + arg + ")"
	}
	if fn.Type.TypeParams.NumFields() > 0 {
		why = "test functions cannot have type parameters"
	}
	if why == "" {
		return ""
	}
	return "wrong signature for " + fn.Name.Name + ", " + why
}

// examples appends the examples go test runs: those go/doc finds that have
// an output comment, possibly empty, in position order.
func (x *fileCtx) examples() {
	decls := map[string]*ast.FuncDecl{}
	for _, d := range x.main.file.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name != nil {
			decls[fn.Name.Name] = fn
		}
	}
	exs := doc.Examples(x.main.file) // sorted by name; go test runs them by Order
	slices.SortStableFunc(exs, func(a, b *doc.Example) int { return a.Order - b.Order })
	for _, e := range exs {
		if e.Output == "" && !e.EmptyOutput {
			continue
		}
		name := "Example" + e.Name
		line := 0
		if fn := decls[name]; fn != nil {
			line = x.fset.Position(fn.Pos()).Line
		}
		x.add(lang.Test{Kind: testdex.KindExample, Name: name, Line: line, Run: runPattern(name)})
	}
}
