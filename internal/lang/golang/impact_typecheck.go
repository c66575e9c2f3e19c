package golang

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/gcexportdata"

	"github.com/testdex/testdex/internal/proc"
)

// checker type-checks the packages of one builder's graph as they are on
// disk, for Broken (impact_check.go), with go/types. A package's own
// files are parsed from source; its imports come from the compiler's
// export data, which `go list -e -export -deps` writes into the build
// cache: the go command compiles those packages (running cgo and the
// compiler, never their code) and a second run finds them cached. A
// source importer would type-check the whole standard library below
// each package instead: seconds, where export data takes milliseconds.
//
// The files are those this platform builds (go/build's matching with the
// project's configured tags), as `go test` here builds them; a file no
// build here includes is checked for syntax only.
type checker struct {
	b    *builder
	ctxt build.Context
	mu   sync.Mutex
	// exports maps an import path as `go list` printed it to its export
	// data file ("" when it has none: it did not build) and its error.
	exports map[string]listed
	// verdicts memoises the checks of the packages as they are now, by
	// package folder and variant.
	verdicts map[string]*verdict
	// files memoises each package's parsed files.
	files     map[string]*pkgFiles
	positions *token.FileSet
}

// listed is one package `go list` reported.
type listed struct {
	export string
	err    string
}

// variant says which files of a package a check compiles, as `go test`
// builds them: the package alone, the package with its in-package test
// files (the test binary's variant of it), or its external _test package.
type variant int

const (
	vPlain    variant = iota // the non-test files
	vInternal                // the non-test and the in-package test files
	vExternal                // the _test package, importing the internal variant
)

// verdict is the outcome of one check.
type verdict struct {
	pkg *types.Package
	// info holds the uses of identifiers (plain checks only), for the
	// declarations whose types their initialisers decide.
	info *types.Info
	errs []types.Error
	// unchecked says why the check could not be done ("" when it was).
	unchecked string
}

func (v *verdict) ok() bool { return v.unchecked == "" && len(v.errs) == 0 }

// pkgFiles are a package's Go files that this platform builds, parsed.
type pkgFiles struct {
	plain, internal, external []*ast.File
	cgo                       bool
	err                       string // a file could not be read or parsed
}

// checkerFor returns the builder's checker, made once.
func (b *builder) checkerFor() *checker {
	b.checkOnce.Do(func() {
		ctxt := build.Default
		ctxt.BuildTags = nil
		for t := range b.filter.tags {
			ctxt.BuildTags = append(ctxt.BuildTags, t)
		}
		slices.Sort(ctxt.BuildTags)
		read := b.in.ReadFile
		ctxt.OpenFile = func(path string) (io.ReadCloser, error) {
			data, err := read(path)
			if err != nil {
				return nil, err
			}
			return io.NopCloser(bytes.NewReader(data)), nil
		}
		b.check = &checker{b: b, ctxt: ctxt, exports: map[string]listed{}, verdicts: map[string]*verdict{}, files: map[string]*pkgFiles{},
			positions: token.NewFileSet()}
	})
	return b.check
}

// builds reports whether this platform's build of p includes the file.
func (c *checker) builds(p *pkg, name string) bool {
	ok, err := c.ctxt.MatchFile(p.dir, name)
	return err == nil && ok
}

// parsed returns p's files this platform builds, parsed once; the file
// names in positions are root-relative.
func (c *checker) parsed(p *pkg) *pkgFiles {
	c.mu.Lock()
	defer c.mu.Unlock()
	if pf, ok := c.files[p.dir]; ok {
		return pf
	}
	pf := &pkgFiles{}
	c.files[p.dir] = pf
	fset := c.fset()
	for _, gf := range p.f.gofiles {
		if gf.test && !p.tests || !c.builds(p, gf.name) {
			continue
		}
		abs := filepath.Join(p.dir, gf.name)
		src, err := c.b.in.ReadFile(abs)
		if err != nil {
			pf.err = err.Error()
			return pf
		}
		af, err := parser.ParseFile(fset, c.rel(abs), src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			pf.err = firstError(err)
			return pf
		}
		pf.cgo = pf.cgo || gf.cgo
		switch {
		case !gf.test:
			pf.plain = append(pf.plain, af)
		case gf.external:
			pf.external = append(pf.external, af)
		default:
			pf.internal = append(pf.internal, af)
		}
	}
	return pf
}

// fset holds the positions of every file the checker parsed and of the
// export data it read: a world mixes them.
func (c *checker) fset() *token.FileSet { return c.positions }

func (c *checker) rel(abs string) string {
	r, err := filepath.Rel(c.b.in.Root, abs)
	if err != nil {
		return abs
	}
	return filepath.ToSlash(r)
}

// firstError is a parse error's first message, with its position.
func firstError(err error) string {
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		return list[0].Error()
	}
	return err.Error()
}

// world is one consistent set of packages for go/types: the packages
// checked from source (src), and those read from export data, in one map
// so that export data naming a source package finds its objects.
type world struct {
	c       *checker
	src     map[string]*types.Package
	imports map[string]*types.Package
	// lazy are local packages checked from source when first imported,
	// with their verdicts: those that import a changed package, which
	// the go command would have to compile again (and, when they do not
	// build, again on every run: failures are not cached).
	lazy     map[string]*pkg
	verdicts map[string]*verdict
	// err is the first import the current check could not load.
	err string
}

// world returns a new, empty world.
func (c *checker) world() *world {
	return &world{c: c, src: map[string]*types.Package{}, imports: map[string]*types.Package{},
		lazy: map[string]*pkg{}, verdicts: map[string]*verdict{}}
}

// add makes a source package the one its path names.
func (u *world) add(path string, p *types.Package) {
	u.src[path] = p
	u.imports[path] = p
}

// source checks a package of the graph from source in u, once: whole,
// with the uses of its identifiers (a package whose own check counts),
// or its declarations only (one imported on the way, whose errors do not
// count: what it declares is all its importers see, and a body costs
// most of a check).
func (u *world) source(q *pkg, whole bool) *verdict {
	if v, ok := u.verdicts[q.path]; ok {
		return v
	}
	u.verdicts[q.path] = &verdict{unchecked: "an import cycle through " + q.path}
	pf := u.c.parsed(q)
	v := &verdict{unchecked: pf.err}
	if pf.err == "" {
		v = u.c.checkFiles(u, q.path, pf.plain, pf.cgo, mode{info: whole, declsOnly: !whole})
	}
	u.verdicts[q.path] = v
	if v.pkg != nil {
		u.add(q.path, v.pkg)
	}
	return v
}

// Import implements types.Importer.
func (u *world) Import(path string) (*types.Package, error) { return u.ImportFrom(path, "", 0) }

// ImportFrom implements types.ImporterFrom: dir is the importing
// package's folder (root-relative, as the checker names files), whose
// module says where a vendored path resolves.
func (u *world) ImportFrom(path, dir string, _ types.ImportMode) (*types.Package, error) {
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	if p := u.src[path]; p != nil {
		return p, nil
	}
	if q := u.lazy[path]; q != nil {
		if v := u.source(q, false); v.pkg != nil && v.unchecked == "" {
			return v.pkg, nil
		}
		err := fmt.Errorf("%s could not be checked: %s", path, u.verdicts[path].unchecked)
		if u.err == "" {
			u.err = err.Error()
		}
		return nil, err
	}
	ip, l, err := u.c.export(path, u.c.moduleOf(dir))
	if err != nil {
		if u.err == "" {
			u.err = err.Error()
		}
		return nil, err
	}
	if p := u.imports[ip]; p != nil && p.Complete() {
		return p, nil
	}
	f, err := os.Open(l.export)
	if err == nil {
		defer f.Close()
		var r io.Reader
		if r, err = gcexportdata.NewReader(f); err == nil {
			var p *types.Package
			if p, err = gcexportdata.Read(r, u.c.fset(), u.imports, ip); err == nil {
				return p, nil
			}
		}
	}
	err = fmt.Errorf("cannot read the export data of %s: %v", path, err)
	if u.err == "" {
		u.err = err.Error()
	}
	return nil, err
}

// export returns the listed path and export data of an import path,
// asking `go list` when it is not known yet. A vendored standard library
// path ("golang.org/x/net/...") is listed as "vendor/golang.org/x/net/...".
func (c *checker) export(path string, mod *module) (string, listed, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ip, l, ok := c.lookup(path, mod)
	if !ok {
		if err := c.list([]string{c.listName(path, mod)}); err != nil {
			return "", listed{}, err
		}
		ip, l, ok = c.lookup(path, mod)
	}
	switch {
	case !ok:
		return "", listed{}, fmt.Errorf("go list does not know %s", path)
	case l.export == "" && l.err != "":
		return "", listed{}, fmt.Errorf("%s does not build: %s", path, l.err)
	case l.export == "":
		return "", listed{}, fmt.Errorf("%s has no export data", path)
	}
	return ip, l, nil
}

// lookup finds what go list printed for an import path from a package
// of module mod: one GOROOT's std (or cmd) module vendors under its
// vendor/ path first, as other packages' export data names it.
func (c *checker) lookup(path string, mod *module) (string, listed, bool) {
	for _, ip := range []string{vendored(path, mod), path} {
		if l, ok := c.exports[ip]; ok {
			return ip, l, true
		}
	}
	return "", listed{}, false
}

// moduleOf returns the module of the package in a root-relative folder;
// nil when the graph has none there.
func (c *checker) moduleOf(dir string) *module {
	abs := filepath.Join(c.b.in.Root, filepath.FromSlash(dir))
	p := c.b.pkgs[abs]
	switch {
	case p == nil:
		return nil
	case p.mod == nil || p.mod.path != "":
		return p.mod
	}
	// A vendored package: its imports resolve as those of the module
	// whose vendor folder holds it (GOROOT's std and cmd name them
	// vendor/... and cmd/vendor/...).
	for _, m := range []*module{c.b.ws.main, c.b.ws.std} {
		if m != nil && m.vendor != "" && strings.HasPrefix(abs, m.vendor+string(filepath.Separator)) {
			return m
		}
	}
	return p.mod
}

// prefetch lists, in one go command, the imports of files not known yet.
func (c *checker) prefetch(files []*ast.File, skip map[string]*types.Package) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var want []string
	for _, af := range files {
		mod := c.moduleOf(filepath.Dir(c.fset().Position(af.Package).Filename))
		for _, spec := range af.Imports {
			ip := strings.Trim(spec.Path.Value, "`\"")
			if _, known, ok := c.lookup(ip, mod); ip == "C" || ip == "unsafe" || skip[ip] != nil || ok && known.export != "" {
				continue
			}
			if ip = c.listName(ip, mod); !slices.Contains(want, ip) {
				want = append(want, ip)
			}
		}
	}
	if len(want) == 0 {
		return nil
	}
	return c.list(want)
}

// prefetchPkgs lists at once the imports of every file (test files
// included) of pkgs but those checked from source (skip): one go command
// rather than one per check.
func (c *checker) prefetchPkgs(pkgs []*pkg, skip map[string]*types.Package) {
	var files []*ast.File
	for _, p := range pkgs {
		pf := c.parsed(p)
		files = append(append(append(files, pf.plain...), pf.internal...), pf.external...)
	}
	_ = c.prefetch(files, skip) // a failure shows again where the import is needed
}

// listName is the name go list knows an import of a package of module
// mod by.
func (c *checker) listName(path string, mod *module) string {
	if v := vendored(path, mod); v != path && mod.vendor != "" {
		if fi, err := os.Stat(filepath.Join(mod.vendor, filepath.FromSlash(path))); err == nil && fi.IsDir() {
			return v
		}
	}
	return path
}

// vendored is the path GOROOT's std module ("vendor/golang.org/x/net/...")
// or cmd module ("cmd/vendor/...") gives a package it vendors, for an
// import by one of its packages; path otherwise.
func vendored(path string, mod *module) string {
	switch {
	case mod == nil:
	case mod.path == "std":
		return "vendor/" + path
	case mod.path == "cmd":
		return "cmd/vendor/" + path
	}
	return path
}

// listDir is where go list runs: the project's module, so that go.work,
// replace and vendor resolve as they do for its tests; for GOROOT's std
// and cmd modules (or a copy of them) the GOROOT/src of the go command
// (a copy is no GOROOT: go would not resolve the standard library there).
func (c *checker) listDir() string {
	switch c.b.ws.main.path {
	case "std", "cmd":
		if src := gorootSrc(); src != "" {
			if c.b.ws.main.path == "cmd" {
				return filepath.Join(src, "cmd")
			}
			return src
		}
	}
	return c.b.ws.main.dir
}

// goListTimeout bounds one `go list -export`: a cold build cache compiles
// the dependencies, a warm one answers in a tenth of a second.
const goListTimeout = 5 * time.Minute

// list runs `go list -e -export -deps` for import paths, in the project's
// module (so that go.work, replace and vendor resolve as they do for its
// tests), and records what it printed. c.mu is held.
func (c *checker) list(paths []string) error {
	args := append([]string{"go", "list", "-e", "-export", "-deps", "-json=ImportPath,Export,Error"}, paths...)
	res, err := proc.Run(context.Background(), proc.Spec{Args: args, Dir: c.listDir(), Env: c.b.in.Env, Timeout: goListTimeout, Cap: 256 << 20})
	if err != nil {
		return fmt.Errorf("go list: %w", err)
	}
	if res.ExitCode != 0 && len(res.Stdout) == 0 {
		return fmt.Errorf("go list: %s", firstLine(res.Stderr))
	}
	dec := json.NewDecoder(bytes.NewReader(res.Stdout))
	for {
		var p struct {
			ImportPath, Export string
			Error              *struct{ Err string }
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return fmt.Errorf("go list: %v", err)
		}
		l := listed{export: p.Export}
		if p.Error != nil {
			l.err = firstLine([]byte(p.Error.Err))
		}
		c.exports[p.ImportPath] = l
	}
	for _, ip := range paths { // the names listed, as asked
		if _, ok := c.exports[ip]; !ok {
			c.exports[ip] = listed{err: "not listed by go list: " + firstLine(res.Stderr)}
		}
	}
	return nil
}

func firstLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// mode says what a check computes: the uses of identifiers (info), or
// the declarations alone (declsOnly: function bodies are not checked).
type mode struct{ info, declsOnly bool }

// checkFiles type-checks files as the package path in world u.
func (c *checker) checkFiles(u *world, path string, files []*ast.File, cgo bool, m mode) *verdict {
	v := &verdict{}
	skip := maps.Clone(u.src)
	for path := range u.lazy {
		skip[path] = types.Unsafe
	}
	if err := c.prefetch(files, skip); err != nil {
		v.unchecked = err.Error()
		return v
	}
	outer := u.err
	u.err = ""
	defer func() { u.err = outer }()
	conf := types.Config{
		Importer:         u,
		IgnoreFuncBodies: m.declsOnly,
		FakeImportC:      cgo,
		GoVersion:        c.goVersion(),
		Sizes:            types.SizesFor("gc", c.ctxt.GOARCH),
		Error: func(err error) {
			if te, ok := err.(types.Error); ok && len(v.errs) < 10 {
				v.errs = append(v.errs, te)
			}
		},
	}
	if m.info {
		v.info = &types.Info{Uses: map[*ast.Ident]types.Object{}}
	}
	v.pkg, _ = conf.Check(path, c.fset(), files, v.info)
	if u.err != "" {
		v.unchecked, v.errs = u.err, nil
	}
	return v
}

// goVersion is the language version of the project's module (its go.mod's
// go line); "" (the newest) for the standard library or when unknown.
func (c *checker) goVersion() string {
	data, err := c.b.in.ReadFile(filepath.Join(c.b.ws.main.dir, "go.mod"))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "go" && c.b.ws.main.path != "std" && c.b.ws.main.path != "cmd" {
			return "go" + f[1]
		}
	}
	return ""
}
