package golang

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/zeebo/xxh3"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// A test file's helpers may live in another test file of its package.
// Extracting one file alone cannot follow them: its Facts (facts.go) say
// which names its tests call with a T and which helpers it declares. The
// Linker joins them per package (folder and package clause); a file
// whose tests call a helper of another file is extracted again by a
// pkgExtractor, with those files within reach: their helpers are
// inlined as the file's own are. Through the core's cache (Project.Load)
// that second result is kept, keyed by the other files' hashes, so a
// warm listing extracts nothing again.
//
// What the Linker cannot see is not followed: a helper reached only
// through a function of a third file that takes no T parameter, or a
// helper of a file missing from the listing (a listing of single files).

// pkgExtractor extracts one file with its package's other test files
// within reach. Its CacheKey names every such file and its hash, so a
// cached result is used only while none of them changed. It is safe for
// concurrent use: each sibling is read and parsed once, when a name it
// declares is first needed, and its syntax tree, never changed, is
// shared; each extraction builds its own scopes over it.
type pkgExtractor struct {
	base     *Extractor
	key      string
	siblings []sibling
	runners  map[string]bool // the package's runner helpers, of any of its files
	fset     *token.FileSet  // safe for concurrent use
	parses   []siblingParse  // by index in siblings
}

// sibling is a test file of the package that declares helpers.
type sibling struct {
	Rel, Abs string
	Hash     uint64
	Names    []string // the helpers it declares
	Decls    []string // its package-level names, sorted (facts.Decls)
}

// siblingParse is a sibling's syntax tree, made once.
type siblingParse struct {
	once sync.Once
	file *ast.File // nil when unreadable, changed or not Go
	src  []byte
	err  error // its syntax errors
}

func newPkgExtractor(base *Extractor, siblings []sibling, runners map[string]bool) *pkgExtractor {
	var b strings.Builder
	b.WriteString(base.CacheKey())
	b.WriteString(" pkg=")
	for _, s := range siblings {
		b.WriteString(s.Rel + ":" + strconv.FormatUint(s.Hash, 16) + ",")
	}
	return &pkgExtractor{base: base, key: b.String(), siblings: siblings, runners: runners,
		fset: token.NewFileSet(), parses: make([]siblingParse, len(siblings))}
}

func (p *pkgExtractor) Framework() testdex.Framework { return p.base.Framework() }
func (p *pkgExtractor) CacheKey() string             { return p.key }

// Extract lists the tests of f as Extractor.Extract does, following
// helpers into the sibling files.
func (p *pkgExtractor) Extract(f *lang.File) lang.Result {
	return p.base.extract(f, &pkgCtx{ex: p, fset: p.fset, runners: p.runners, self: f.Abs,
		files: make([]*srcFile, len(p.siblings)), byTF: map[*token.File]*srcFile{}})
}

// parse reads and parses sibling i, once for all extractions.
func (p *pkgExtractor) parse(i int) (*ast.File, []byte) {
	sp := &p.parses[i]
	sp.once.Do(func() {
		s := p.siblings[i]
		data, err := os.ReadFile(s.Abs)
		if err != nil || xxh3.Hash(data) != s.Hash {
			return
		}
		mode := parser.SkipObjectResolution
		if bytes.Contains(data, []byte("Example")) {
			mode |= parser.ParseComments // as extract parses it
		}
		file, err := parser.ParseFile(p.fset, path.Base(s.Rel), data, mode)
		if file != nil && file.Name != nil {
			sp.file, sp.src, sp.err = file, data, err
		}
	})
	return sp.file, sp.src
}

// parseMain parses the file an extraction lists, or takes its tree from
// the siblings' when it is one of them with the same content (the files
// whose helpers others call are often extracted again themselves).
func (p *pkgExtractor) parseMain(f *lang.File, name string, mode parser.Mode) (*ast.File, error) {
	for i := range p.siblings {
		if p.siblings[i].Abs != f.Abs || p.siblings[i].Hash != xxh3.Hash(f.Data) {
			continue
		}
		if file, _ := p.parse(i); file != nil {
			return file, p.parses[i].err
		}
	}
	return parser.ParseFile(p.fset, name, f.Data, mode)
}

// pkgCtx is one extraction's view of the package's other files.
type pkgCtx struct {
	ex      *pkgExtractor
	fset    *token.FileSet
	runners map[string]bool
	self    string     // the file being extracted, never its own sibling
	main    *srcFile   // its parsed form (attach)
	files   []*srcFile // the siblings this extraction has opened, by index
	opened  []bool     // which of files were tried
	byTF    map[*token.File]*srcFile
}

// attach makes the main file look up in the siblings the package-level
// names it lacks, and they in it.
func (c *pkgCtx) attach(main *srcFile) {
	c.main = main
	main.others = c
	c.opened = make([]bool, len(c.files))
}

// declaring returns the sibling that declares the helper name, nil when
// none does or several do (files for different platforms).
func (c *pkgCtx) declaring(name string) *srcFile {
	found := -1
	for i := range c.ex.siblings {
		s := &c.ex.siblings[i]
		if s.Abs == c.self || !slices.Contains(s.Names, name) {
			continue
		}
		if found >= 0 {
			return nil
		}
		found = i
	}
	if found < 0 {
		return nil
	}
	return c.open(found)
}

// open gives this extraction its own scopes over sibling i.
func (c *pkgCtx) open(i int) *srcFile {
	if c.opened[i] {
		return c.files[i]
	}
	c.opened[i] = true
	file, src := c.ex.parse(i)
	if file == nil {
		return nil
	}
	f := newSrcFile(file, src)
	f.others = c
	c.files[i] = f
	c.byTF[c.fset.File(file.Package)] = f
	return f
}

// lookupVal finds a package-level constant or variable that the scope
// from (a file's package scope) lacks in the package's other files: the
// main file, or the sibling that declares it, opened if need be.
func (c *pkgCtx) lookupVal(name string, from *scope) (value, *scope, bool) {
	if f := c.declaringValue(name, from); f != nil {
		if v, ok := f.pkg.vals.get(name); ok {
			return v, f.pkg, true
		}
	}
	return nil, nil, false
}

// lookupType is lookupVal for a type declared at package level.
func (c *pkgCtx) lookupType(name string, from *scope) (ast.Expr, *scope) {
	if f := c.declaringValue(name, from); f != nil {
		if t, ok := f.pkg.types[name]; ok {
			return t, f.pkg
		}
	}
	return nil, nil
}

// declaringValue is the file other than from's that declares name at
// package level: the main file, or the first sibling in path order.
func (c *pkgCtx) declaringValue(name string, from *scope) *srcFile {
	if c.main.pkg != from {
		if _, ok := c.main.pkg.vals.get(name); ok {
			return c.main
		}
		if _, ok := c.main.pkg.types[name]; ok {
			return c.main
		}
	}
	for i := range c.ex.siblings {
		s := &c.ex.siblings[i]
		if s.Abs == c.self {
			continue
		}
		if _, ok := slices.BinarySearch(s.Decls, name); !ok {
			continue
		}
		if f := c.open(i); f != nil && f.pkg != from {
			return f
		}
	}
	return nil
}

// fileAt returns the opened sibling whose token.File is tf.
func (c *pkgCtx) fileAt(tf *token.File) *srcFile {
	return c.byTF[tf]
}

// fileAt is the file that holds pos: the main file or a parsed sibling.
func (x *fileCtx) fileAt(pos token.Pos) *srcFile {
	if x.inMain(pos) || x.pkgCtx == nil {
		return x.main
	}
	if f := x.pkgCtx.fileAt(x.fset.File(pos)); f != nil {
		return f
	}
	return x.main
}
