package golang

import (
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/testdex/testdex/internal/lang"
)

// Grapher is the Go impact Grapher: the package graph of the module(s)
// that a project's test files reach, read from the sources (go/parser up
// to the imports), go.mod, go.work and the folders; nothing is run, not
// even `go list` (it would cost a process and its own loading for what
// the headers say).
//
// The nodes and edges, from user to used:
//
//	a/x_test.go ─same package─► go:M/a ─in package─► a/a.go, a/a.c, ...
//	     │    (or "import" from  │ ─import─► go:M/b (another package folder)
//	     │     an external test) │ ─embed──► a/static/ (a folder) or a file
//	     │                       └─cgo include─► a header outside the folder
//	     ├─same test binary─► go:M/a.test ─test file─► a/y_test.go
//	     │                         └─testdata─► a/testdata/ ─testdata─► its files
//	     └─import─► go:M/c (a test-only import); embed (a test file's own)
//
// Owners: a package folder is owned by go:M/a, its _test.go files by
// go:M/a.test (so a change to a test file selects the tests of its
// package and not those of the packages that import it), each folder of a
// testdata or embedded tree by that tree's node. Global: go.mod, go.sum,
// vendor/modules.txt, every go.work and go.work.sum the go command could
// find from the project, and the go.mod and go.sum of every local module.
//
// Decisions, each choosing more edges over fewer:
//
//   - Build constraints: a Go file counts when some platform builds it
//     with the project's configured tags (see buildFilter): a file for
//     another GOOS adds its imports, a `//go:build ignore` generator does
//     not. Files whose names start with "_" or "." never count (go never
//     builds them), but like any file of the folder they are in the
//     package.
//   - Imports resolve through the local modules only: the project's,
//     go.work's `use`, `replace` by a local path (of the project, of the
//     workspace modules and of go.work; one of a single version too), the
//     vendor folder, and for GOROOT's std and cmd modules the standard
//     library. Anything else is in the module cache or GOROOT, outside
//     the tree: no change can happen there (go.mod and go.sum do select
//     for it). A path of a local module with no folder is an edge to
//     lang.UnresolvedNode; a folder with a go.mod below a module's root
//     is another module (from the cache).
//   - A file whose header does not parse keeps the imports read before
//     the error and adds an edge to lang.AnyNode, with a Problem.
//   - Every non-Go file of a package folder is in the package (C,
//     assembly, syso, data a function reads next to its source); the
//     testdata folder is the test binary's only.
//   - A glob //go:embed pattern claims its whole static folder prefix, so
//     that a file added there selects too.
//
// Known blind spots (docs/affected.md): files read by a computed path outside the
// package's testdata (../other/testdata), the environment, the network,
// programs run by tests, cgo headers found by a search path other than
// the package folder and ${SRCDIR}, and a //go:linkname pull from a
// package the puller does not import (only headers are read; since Go
// 1.23 the linker refuses most such pulls outside the standard library,
// and every test reaches the runtime anyway).
var Grapher lang.Grapher = &grapher{}

// grapher builds the graph; its filter holds testdex.toml's [go] tags and
// all_platforms (the zero value: no tags, this and every platform).
type grapher struct {
	filter buildFilter
	// recent are the package graphs of the last Graph calls, newest
	// last, for Diff: a listing's projects are graphed one after the
	// other, then narrowed one after the other (GOROOT's std and cmd).
	mu     sync.Mutex
	recent []*builder
}

// grapherFor returns the Grapher for a project's [go] options.
func grapherFor(o lang.FrameworkOptions) lang.Grapher {
	g := &grapher{filter: buildFilter{tags: map[string]bool{}, all: slices.Contains(o.Extra["all_platforms"], "true")}}
	for _, t := range o.Extra["tags"] {
		for _, t := range strings.Split(t, ",") {
			g.filter.tags[strings.TrimSpace(t)] = true
		}
	}
	return g
}

// pkg is one package folder of the graph.
type pkg struct {
	dir   string // absolute
	path  string // import path
	mod   *module
	tests bool // it holds test files of the project: its tests are ours
	f     *folder
	// deps are the resolutions of its files' imports, by import path;
	// a nil *pkg with unresolved for a local path with no folder.
	deps map[string]dep
}

type dep struct {
	p   *pkg
	res resolution
}

// Graph builds the package graph of the project's test files.
func (gr *grapher) Graph(in *lang.GraphInput) (*lang.Graph, error) {
	ws, err := loadWorkspace(in.ReadFile, in.Root, in.Project.Dir)
	if err != nil {
		return nil, err
	}
	b := &builder{in: in, ws: ws, pkgs: map[string]*pkg{}, filter: gr.filter}
	b.load()
	gr.remember(b)
	return b.graph(), nil
}

// maxRecent bounds the package graphs kept for Diff: a long-lived
// process (testdex mcp) graphs listing after listing.
const maxRecent = 8

// remember keeps b for Diff, forgetting the oldest past maxRecent.
func (gr *grapher) remember(b *builder) {
	gr.mu.Lock()
	defer gr.mu.Unlock()
	gr.recent = append(gr.recent, b)
	if len(gr.recent) > maxRecent {
		gr.recent = slices.Delete(gr.recent, 0, len(gr.recent)-maxRecent)
	}
}

// builderFor returns the package graph of in: the last Graph call's, or
// a new one.
func (gr *grapher) builderFor(in *lang.GraphInput) *builder {
	gr.mu.Lock()
	for _, b := range gr.recent {
		if b.in == in {
			gr.mu.Unlock()
			return b
		}
	}
	gr.mu.Unlock()
	b := &builder{in: in, pkgs: map[string]*pkg{}, filter: gr.filter}
	ws, err := loadWorkspace(in.ReadFile, in.Root, in.Project.Dir)
	if err != nil {
		return b // no packages: every file counts whole
	}
	b.ws = ws
	b.load()
	gr.remember(b)
	return b
}

// builder builds one project's graph.
type builder struct {
	in     *lang.GraphInput
	ws     *workspace
	pkgs   map[string]*pkg // by absolute folder
	filter buildFilter
	// scope says which methods a type reaches (impact_methods.go),
	// computed once.
	scope     *methodScope
	scopeOnce sync.Once
	// check type-checks its packages for Broken (impact_typecheck.go),
	// made once.
	check     *checker
	checkOnce sync.Once
	// reach is the declaration graph of all its packages for Reaches
	// (impact_reach.go), built once; nil when a file could not be read.
	reach     *reachGraph
	reachOnce sync.Once
}

// load finds the packages: the folders of the test files, then, breadth
// first, the local packages their files import. Each level's folders are
// read and parsed in parallel; resolving (a few stats) is sequential.
func (b *builder) load() {
	var frontier []*pkg
	for _, f := range b.in.Files {
		dir := filepath.Dir(filepath.Join(b.in.Root, filepath.FromSlash(f)))
		p := b.pkgs[dir]
		if p == nil {
			p = &pkg{dir: dir, mod: b.ws.main, path: importPathOf(b.ws.main, dir)}
			if b.ws.main.path == "std" {
				p.mod = b.ws.std
			}
			b.pkgs[dir] = p
			frontier = append(frontier, p)
		}
		p.tests = true
	}
	for len(frontier) > 0 {
		var g errgroup.Group
		g.SetLimit(runtime.GOMAXPROCS(0)) // reading and parsing headers is CPU-bound once cached
		for _, p := range frontier {
			g.Go(func() error {
				p.f = scanFolder(b.in, p.dir, p.tests, b.filter)
				return nil
			})
		}
		_ = g.Wait()
		var next []*pkg
		for _, p := range frontier {
			next = append(next, b.resolve(p)...)
		}
		frontier = next
	}
}

// resolve resolves a scanned package's imports, returning the packages
// seen for the first time.
func (b *builder) resolve(p *pkg) []*pkg {
	var fresh []*pkg
	p.deps = map[string]dep{}
	for _, gf := range p.f.gofiles {
		for _, ip := range gf.imports {
			if _, ok := p.deps[ip]; ok {
				continue
			}
			dir, m, res := b.ws.resolve(p.mod, ip)
			d := dep{res: res}
			if res == local {
				d.p = b.pkgs[dir]
				if d.p == nil {
					d.p = &pkg{dir: dir, path: ip, mod: m}
					b.pkgs[dir] = d.p
					fresh = append(fresh, d.p)
				}
			}
			p.deps[ip] = d
		}
	}
	return fresh
}

// sorted returns the packages by folder, for a deterministic graph.
func (b *builder) sorted() []*pkg {
	out := make([]*pkg, 0, len(b.pkgs))
	for _, p := range b.pkgs {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].dir < out[j].dir })
	return out
}
