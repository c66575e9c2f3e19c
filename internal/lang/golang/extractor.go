package golang

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/build/constraint"
	"go/parser"
	"go/scanner"
	"go/token"
	"path"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Version is the extractor's output version. It is part of [Extractor.CacheKey]
// and must change whenever a change to this package changes any Result.
const Version = "go-extractor/2"

// internalError starts the message of the Problem that a recovered panic
// becomes.
const internalError = "internal error in the Go extractor"

// Extractor is the Go implementation of [lang.Extractor]. The zero value is
// ready to use and evaluates build constraints for build.Default, that is for
// the machine and environment (GOOS, GOARCH, CGO_ENABLED) testdex runs in.
//
// Extractor is safe for concurrent use; its fields must not change after the
// first call.
type Extractor struct {
	// Context is the build context whose constraints (file name
	// _GOOS/_GOARCH suffixes, //go:build and // +build lines, cgo) decide
	// whether a file is part of the test build. Nil means build.Default.
	// Only its constraint fields are used; its file system hooks are not.
	Context *build.Context

	// AllPlatforms lists the tests of every file whatever its constraints,
	// as if every platform were built at once. Files whose names start with
	// "_" or "." are still skipped: go never builds them.
	AllPlatforms bool

	// key is CacheKey's answer, made once: the index asks for it per
	// file. Set Context and AllPlatforms before the first use.
	key atomic.Pointer[string]
}

// Default is the extractor with the zero configuration, the value the
// discovery core registers for Go.
var Default = &Extractor{}

var _ lang.Extractor = (*Extractor)(nil)

// Framework reports testdex.Go.
func (e *Extractor) Framework() testdex.Framework { return testdex.Go }

// TestMatch selects every _test.go file, the files `go test` compiles.
func (e *Extractor) TestMatch() []string { return []string{"**/*_test.go"} }

// TestPathIgnorePatterns excludes the folders the go command never treats
// as packages in ./... patterns: testdata, vendor, and those whose names
// start with "_" or ".".
func (e *Extractor) TestPathIgnorePatterns() []string {
	return []string{"**/testdata/**", "**/vendor/**", "**/_*/**", "**/.*/**"}
}

// CacheKey identifies [Version] and every constraint setting that can change
// a Result: GOOS, GOARCH, compiler, cgo, build, tool and release tags, and
// AllPlatforms.
func (e *Extractor) CacheKey() string {
	if k := e.key.Load(); k != nil {
		return *k
	}
	k := e.cacheKey()
	e.key.Store(&k)
	return k
}

func (e *Extractor) cacheKey() string {
	c := e.context()
	var b strings.Builder
	b.WriteString(Version)
	b.WriteString(" goos=" + c.GOOS + " goarch=" + c.GOARCH + " compiler=" + c.Compiler)
	b.WriteString(" cgo=" + strconv.FormatBool(c.CgoEnabled))
	b.WriteString(" all=" + strconv.FormatBool(e.AllPlatforms))
	b.WriteString(" tags=" + strings.Join(c.BuildTags, ","))
	b.WriteString(" tool=" + strings.Join(c.ToolTags, ","))
	b.WriteString(" release=" + strings.Join(c.ReleaseTags, ","))
	return b.String()
}

func (e *Extractor) context() *build.Context {
	if e.Context != nil {
		return e.Context
	}
	return &build.Default
}

// Extract lists the tests of one Go file. A file that the build constraints
// exclude yields an empty Result. Syntax errors become error Problems and the
// tests of the partial syntax tree are still listed. Extract never panics and
// never runs or builds code.
func (e *Extractor) Extract(f *lang.File) (res lang.Result) {
	return e.extract(f, nil)
}

// extract is Extract with, when ctx is not nil, the helpers of the
// package's other test files within reach (pkgctx.go). Without it, the
// Result carries the Facts the Linker needs to decide whether to give it.
func (e *Extractor) extract(f *lang.File, ctx *pkgCtx) (res lang.Result) {
	defer func() {
		// A bug here must not take the whole discovery down: it becomes
		// the file's problem, and FuzzExtract looks for exactly this text.
		if r := recover(); r != nil {
			res = lang.Result{Problems: []testdex.Problem{{Severity: testdex.SevError,
				Message: fmt.Sprintf("%s: %v (please report this testdex bug)", internalError, r)}}}
		}
	}()
	name := path.Base(f.Rel)
	if f.Rel == "" {
		name = path.Base(strings.ReplaceAll(f.Abs, "\\", "/"))
	}
	cons := e.constraints(name, f.Data)
	if !cons.match {
		return lang.Result{Problems: cons.problems}
	}
	mode := parser.SkipObjectResolution
	if bytes.Contains(f.Data, []byte("Example")) {
		mode |= parser.ParseComments // go/doc.Examples reads the output comments
	}
	var fset *token.FileSet
	var file *ast.File
	var err error
	if ctx != nil {
		fset = ctx.fset
		file, err = ctx.ex.parseMain(f, name, mode)
	} else {
		fset = token.NewFileSet()
		file, err = parser.ParseFile(fset, name, f.Data, mode)
	}
	res = lang.Result{Problems: cons.problems}
	res.Problems = append(res.Problems, syntaxProblems(err)...)
	if file == nil || file.Name == nil {
		return res
	}
	res.Package = file.Name.Name
	if imports(file, "C") {
		if !e.AllPlatforms && !e.context().CgoEnabled {
			return lang.Result{Package: res.Package}
		}
		cons.expr = andX(cons.expr, &constraint.TagExpr{Tag: "cgo"})
		res.Problems = append(res.Problems, problem(fset, file.Package, "use of cgo in test "+name+" not supported"))
	}
	x := newFileCtx(fset, file, f.Data)
	if ctx != nil {
		x.pkgCtx = ctx
		ctx.attach(x.main)
	}
	res.Tests = x.tests()
	res.Problems = append(res.Problems, x.problems...)
	if ctx == nil {
		res.Facts = x.facts()
	}
	if cons.expr != nil {
		tag := "go:build " + cons.expr.String()
		for i := range res.Tests {
			res.Tests[i].Tags = []string{tag}
		}
	}
	return res
}

// syntaxProblems turns a parser error into error Problems, one per syntax
// error, each with its line.
func syntaxProblems(err error) []testdex.Problem {
	if err == nil {
		return nil
	}
	list, ok := err.(scanner.ErrorList)
	if !ok {
		return []testdex.Problem{{Severity: testdex.SevError, Message: err.Error()}}
	}
	out := make([]testdex.Problem, 0, len(list))
	for _, e := range list {
		out = append(out, testdex.Problem{Severity: testdex.SevError, Line: e.Pos.Line, Message: e.Msg})
	}
	return out
}

// problem builds an error Problem at pos.
func problem(fset *token.FileSet, pos token.Pos, msg string) testdex.Problem {
	return testdex.Problem{Severity: testdex.SevError, Line: fset.Position(pos).Line, Message: msg}
}

// imports reports whether file imports the package path p.
func imports(file *ast.File, p string) bool {
	for _, im := range file.Imports {
		if v, err := strconv.Unquote(im.Path.Value); err == nil && v == p {
			return true
		}
	}
	return false
}
