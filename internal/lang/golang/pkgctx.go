package golang

import (
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
// cached result is used only while none of them changed. It parses each
// of them once, when a helper it declares is first needed, and
// serializes its calls (the parsed files are shared).
type pkgExtractor struct {
	base     *Extractor
	key      string
	siblings []sibling
	runners  map[string]bool // the package's runner helpers, of any of its files

	mu     sync.Mutex
	fset   *token.FileSet
	parsed map[string]*srcFile // by Abs
	byTF   map[*token.File]*srcFile
}

// sibling is a test file of the package that declares helpers.
type sibling struct {
	Rel, Abs string
	Hash     uint64
	Names    []string // its Runners and Relays
}

func newPkgExtractor(base *Extractor, siblings []sibling, runners map[string]bool) *pkgExtractor {
	var b strings.Builder
	b.WriteString(base.CacheKey())
	b.WriteString(" pkg=")
	for _, s := range siblings {
		b.WriteString(s.Rel + ":" + strconv.FormatUint(s.Hash, 16) + ",")
	}
	return &pkgExtractor{base: base, key: b.String(), siblings: siblings, runners: runners,
		fset: token.NewFileSet(), parsed: map[string]*srcFile{}, byTF: map[*token.File]*srcFile{}}
}

func (p *pkgExtractor) Framework() testdex.Framework { return p.base.Framework() }
func (p *pkgExtractor) CacheKey() string             { return p.key }

// Extract lists the tests of f as Extractor.Extract does, following
// helpers into the sibling files.
func (p *pkgExtractor) Extract(f *lang.File) lang.Result {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.base.extract(f, &pkgCtx{ex: p, fset: p.fset, runners: p.runners, self: f.Abs})
}

// pkgCtx is one extraction's view of the package's other files.
type pkgCtx struct {
	ex      *pkgExtractor
	fset    *token.FileSet
	runners map[string]bool
	self    string     // the file being extracted, never its own sibling
	main    *srcFile   // its parsed form (attach)
	all     []*srcFile // main and the siblings, once all are parsed (files)
}

// attach makes the main file and every sibling look up in each other the
// package-level names they lack, for this extraction.
func (c *pkgCtx) attach(main *srcFile) {
	c.main = main
	main.others = c
	for _, f := range c.ex.parsed {
		if f != nil {
			f.others = c
		}
	}
}

// declaring returns the parsed sibling that declares the helper name,
// nil when none does or several do (files for different platforms).
func (c *pkgCtx) declaring(name string) *srcFile {
	var found *sibling
	for i := range c.ex.siblings {
		s := &c.ex.siblings[i]
		if s.Abs == c.self || !slices.Contains(s.Names, name) {
			continue
		}
		if found != nil {
			return nil
		}
		found = s
	}
	if found == nil {
		return nil
	}
	return c.parse(found)
}

// lookupVal finds a package-level constant or variable that the scope
// from (a file's package scope) lacks in the other files: the main file
// and every sibling, parsed if need be.
func (c *pkgCtx) lookupVal(name string, from *scope) (value, *scope, bool) {
	for _, f := range c.files() {
		if f.pkg == from {
			continue
		}
		if v, ok := f.pkg.vals[name]; ok {
			return v, f.pkg, true
		}
	}
	return nil, nil, false
}

// lookupType is lookupVal for a type declared at package level.
func (c *pkgCtx) lookupType(name string, from *scope) (ast.Expr, *scope) {
	for _, f := range c.files() {
		if f.pkg == from {
			continue
		}
		if t, ok := f.pkg.types[name]; ok {
			return t, f.pkg
		}
	}
	return nil, nil
}

// files are the main file and the siblings other than it, in path
// order, parsed.
func (c *pkgCtx) files() []*srcFile {
	if c.all != nil {
		return c.all
	}
	c.all = []*srcFile{c.main}
	for i := range c.ex.siblings {
		if s := &c.ex.siblings[i]; s.Abs != c.self {
			if f := c.parse(s); f != nil {
				c.all = append(c.all, f)
			}
		}
	}
	return c.all
}

// parse reads and parses a sibling once; nil when it cannot be read or
// has changed since its hash was taken.
func (c *pkgCtx) parse(s *sibling) *srcFile {
	p := c.ex
	if f, ok := p.parsed[s.Abs]; ok {
		return f
	}
	p.parsed[s.Abs] = nil
	data, err := os.ReadFile(s.Abs)
	if err != nil || xxh3.Hash(data) != s.Hash {
		return nil
	}
	file, _ := parser.ParseFile(p.fset, path.Base(s.Rel), data, parser.SkipObjectResolution)
	if file == nil || file.Name == nil {
		return nil
	}
	f := newSrcFile(file, data)
	f.others = c
	p.parsed[s.Abs] = f
	p.byTF[p.fset.File(file.Package)] = f
	return f
}

// fileAt returns the parsed sibling whose token.File is tf.
func (c *pkgCtx) fileAt(tf *token.File) *srcFile {
	return c.ex.byTF[tf]
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
