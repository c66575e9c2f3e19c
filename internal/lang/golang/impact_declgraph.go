package golang

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/sync/errgroup"

	"github.com/testdex/testdex/internal/lang"
)

// declGraph is the declaration graph of the packages that can reach one
// package: its edges, and the names each package's files import under.
type declGraph struct {
	out         *lang.Graph
	importNames map[string]map[string]bool // package folder -> names
	ok          bool                       // every file read
}

// declPkg is one package's declarations.
type declPkg struct {
	p     *pkg
	name  string // the package clause of its non-test files
	files []declFile
	// names map a package-level name to its declaration's key: of the
	// non-test files, of the internal test files, of the external test
	// package.
	names, testNames, extNames map[string]string
}

type declFile struct {
	gf goFile
	fd *fileDecls
}

// declGraph builds the declaration graph of the packages that can reach
// the declarations starts of package cp: those that import cp, directly
// or not (a test file's import counts), then, round after round, those
// tied by a //go:linkname to a declaration that reaches them (a package
// may pull a symbol of one it does not import), with their importers.
func (b *builder) declGraph(cp *pkg, starts []string) *declGraph {
	// rev: the packages whose non-test files import a package; tests:
	// those whose test files do (a test file is seen by nobody: its
	// package's importers do not reach through it).
	rev, tests := map[*pkg][]*pkg{}, map[*pkg][]*pkg{}
	for _, p := range b.pkgs {
		for _, gf := range p.f.gofiles {
			if !gf.parsed || gf.excluded {
				continue
			}
			for _, ip := range gf.imports {
				if d := p.deps[ip]; d.p != nil && d.p != p {
					if gf.test {
						tests[d.p] = append(tests[d.p], p)
					} else {
						rev[d.p] = append(rev[d.p], p)
					}
				}
			}
		}
	}
	// reach: true for a package whose importers are read too; false for
	// one only its test files tie to the change (the methods they declare
	// on its types count, so all its files are read, but its importers
	// never see them).
	reach := map[*pkg]bool{}
	add := func(p *pkg) {
		queue := []*pkg{p}
		reach[p] = true
		for len(queue) > 0 {
			q := queue[0]
			queue = queue[1:]
			for _, r := range rev[q] {
				if !reach[r] {
					reach[r] = true
					queue = append(queue, r)
				}
			}
		}
		for q, full := range reach {
			if full {
				for _, r := range tests[q] {
					if _, ok := reach[r]; !ok {
						reach[r] = false
					}
				}
			}
		}
	}
	add(cp)
	ties := b.linknameTies()
	scanned := map[*pkg]*declPkg{}
	for {
		dg := b.emitDecls(reach, scanned)
		if !dg.ok {
			return dg
		}
		grew := false
		if len(ties) > 0 {
			d := reachingNodes(dg.out, starts)
			for _, t := range ties {
				switch {
				case !reach[t.to] && reach[t.from] && d[tieNode(scanned[t.from], t.local)]:
					add(t.to)
					grew = true
				case !reach[t.from] && reach[t.to] && d[tieNode(scanned[t.to], t.name)]:
					add(t.from)
					grew = true
				}
			}
		}
		if !grew {
			return dg
		}
	}
}

// emitDecls scans the packages of reach not scanned yet and emits the
// declaration graph of them all.
func (b *builder) emitDecls(reach map[*pkg]bool, scanned map[*pkg]*declPkg) *declGraph {
	dg := &declGraph{out: &lang.Graph{Owners: map[string]string{}}, importNames: map[string]map[string]bool{}, ok: true}
	var pkgs, fresh []*declPkg
	for _, p := range b.sorted() {
		if _, ok := reach[p]; !ok {
			continue
		}
		dp := scanned[p]
		if dp == nil {
			dp = &declPkg{p: p}
			scanned[p] = dp
			fresh = append(fresh, dp)
		}
		pkgs = append(pkgs, dp)
	}
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0)) // scanning tokens is CPU-bound
	var mu sync.Mutex
	for _, dp := range fresh {
		g.Go(func() error {
			if !dp.scan(b.in) {
				mu.Lock()
				dg.ok = false
				mu.Unlock()
			}
			return nil
		})
	}
	_ = g.Wait()
	byPath := map[string]*declPkg{}
	for _, dp := range pkgs {
		byPath[dp.p.path] = dp
	}
	e := &emitter{b: b, out: dg.out, seen: map[lang.Edge]bool{}, methods: b.methodsOf(reach, pkgs)}
	for _, dp := range pkgs {
		names := map[string]bool{}
		for _, df := range dp.files {
			for local := range df.localNames(byPath) {
				names[local] = true
			}
		}
		dg.importNames[dp.p.dir] = names
		e.pkgEdges(dp.p, reach)
		for _, df := range dp.files {
			e.declEdges(dp, df, byPath)
		}
	}
	return dg
}

// reachingNodes returns the nodes from which an edge path leads to one
// of starts.
func reachingNodes(g *lang.Graph, starts []string) map[string]bool {
	users := map[string][]string{}
	for _, e := range g.Edges {
		users[e.To] = append(users[e.To], e.From)
	}
	seen := map[string]bool{}
	queue := append([]string(nil), starts...)
	for _, s := range starts {
		seen[s] = true
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, u := range users[n] {
			if !seen[u] {
				seen[u] = true
				queue = append(queue, u)
			}
		}
	}
	return seen
}

// tieNode is the node of a linkname's name in a scanned package.
func tieNode(dp *declPkg, name string) string {
	if dp == nil {
		return ""
	}
	if k, ok := dp.names[name]; ok {
		name = k
	}
	return "go:" + dp.p.path + "." + name
}

// scan reads the package's files whose declarations matter: the Go files
// some platform builds, its test files when its tests are the project's.
func (dp *declPkg) scan(in *lang.GraphInput) bool {
	dp.names, dp.testNames, dp.extNames = map[string]string{}, map[string]string{}, map[string]string{}
	for _, gf := range dp.p.f.gofiles {
		if gf.excluded || !gf.parsed {
			continue
		}
		fd := declsMemo(in, filepath.Join(dp.p.dir, gf.name))
		if fd == nil {
			return false
		}
		dp.files = append(dp.files, declFile{gf: gf, fd: fd})
		names := dp.names
		switch {
		case gf.external:
			names = dp.extNames
		case gf.test:
			names = dp.testNames
		default:
			dp.name = fd.pkg
		}
		for _, d := range fd.decls {
			for _, n := range d.names {
				if d.recv == "" && n != "_" && n != "init" {
					names[n] = d.key
				}
			}
		}
	}
	return true
}

// localNames maps the names a file refers to its imports by to their
// paths: explicit names, and the package clause of an unnamed import of
// the graph (its path's last element for another).
func (df declFile) localNames(byPath map[string]*declPkg) map[string]string {
	m := make(map[string]string, len(df.fd.imports)+len(df.fd.unnamed))
	for local, ip := range df.fd.imports {
		m[local] = ip
	}
	for _, ip := range df.fd.unnamed {
		if dp := byPath[ip]; dp != nil && dp.name != "" {
			m[dp.name] = ip
		} else {
			m[defaultName(ip)] = ip
		}
	}
	return m
}

// declEdges emits one file's declarations' edges. Their targets are
// distinct per declaration, so they skip the emitter's dedup set (the
// graph of a low package of GOROOT has hundreds of thousands).
func (e *emitter) declEdges(dp *declPkg, df declFile, byPath map[string]*declPkg) {
	prefix := dp.p.path
	lookup := func(n string) (string, bool) {
		k, ok := dp.names[n]
		return k, ok
	}
	switch {
	case df.gf.external:
		prefix += "_test"
		lookup = func(n string) (string, bool) { k, ok := dp.extNames[n]; return k, ok }
	case df.gf.test:
		lookup = func(n string) (string, bool) {
			if k, ok := dp.testNames[n]; ok {
				return k, ok
			}
			k, ok := dp.names[n]
			return k, ok
		}
	}
	own := "go:" + prefix + "."
	local := df.localNames(byPath)
	file := e.rel(filepath.Join(dp.p.dir, df.gf.name))
	targets := map[string]bool{}
	use := func(from, to string) {
		if !targets[to] {
			targets[to] = true
			e.out.Edges = append(e.out.Edges, lang.Edge{From: from, To: to, Why: "uses"})
		}
	}
	for _, d := range df.fd.decls {
		node := own + d.key
		switch {
		case df.gf.test:
			if name, ok := testFunc(d); ok {
				e.edge(file, node, "declares")
				e.out.Tests = append(e.out.Tests, lang.TestNode{Node: node, File: file, Name: name})
			}
			if d.init || len(d.names) == 1 && d.names[0] == "TestMain" && d.recv == "" {
				e.edge(testNode(dp.p), node, "init")
			}
		case d.init:
			e.edge(pkgNode(dp.p), node, "init")
		}
		if d.recv != "" && len(d.names) == 1 {
			tk, ok := lookup(d.recv)
			if !ok {
				tk = d.recv
			}
			if e.methods.typeReaches(d.names[0]) {
				e.edge(own+tk, node, "method")
			} else {
				e.edge(selectorNode(own, d.names[0]), node, "method")
			}
		}
		clear(targets)
		targets[node] = true // no edge to itself
		for _, sel := range d.sels {
			if sn := selectorNode(own, sel); e.methods.declared[sn] && !targets[sn] && !e.methods.typeReaches(sel) {
				targets[sn] = true
				e.out.Edges = append(e.out.Edges, lang.Edge{From: node, To: sn, Why: "selects"})
			}
		}
		for _, r := range d.refs {
			if k, ok := lookup(r); ok {
				use(node, own+k)
			}
			for _, dot := range df.fd.dots {
				if tp := byPath[dot]; tp != nil {
					if k, ok := tp.names[r]; ok {
						use(node, "go:"+tp.p.path+"."+k)
					}
				}
			}
		}
		for _, q := range d.qrefs {
			tp := byPath[local[q[0]]]
			if tp == nil {
				continue
			}
			k, ok := tp.names[q[1]]
			if !ok && tp == dp { // an external test's use of export_test.go
				k, ok = dp.testNames[q[1]]
			}
			if ok {
				use(node, "go:"+tp.p.path+"."+k)
			}
		}
		for _, ln := range d.linknames {
			e.linkname(ln, prefix, lookup, byPath)
		}
	}
}

// testFunc returns the name of a test file's declaration that `go test`
// runs by name: a function Test*, Benchmark*, Fuzz* or Example* (the
// prefix alone, or followed by anything but a lower-case letter, as cmd/go
// says), TestMain apart (it runs for every test: the test binary's). A
// test file's other declarations (helpers, types, vars) get no edge from
// their file: they run only when a test or the test binary reaches them
// (a var's initializer and init through the test binary's "init" edge),
// so a change to them selects the tests that use them, not their file.
func testFunc(d *decl) (string, bool) {
	if !d.fn || d.recv != "" || len(d.names) != 1 || d.names[0] == "TestMain" {
		return "", false
	}
	n := d.names[0]
	for _, prefix := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if rest, ok := strings.CutPrefix(n, prefix); ok {
			r, _ := utf8.DecodeRuneInString(rest)
			return n, rest == "" || !unicode.IsLower(r)
		}
	}
	return "", false
}

// linkname emits both edges of a //go:linkname local remote directive.
func (e *emitter) linkname(directive, prefix string, lookup func(string) (string, bool), byPath map[string]*declPkg) {
	f := strings.Fields(directive)
	if len(f) < 3 {
		return // a push marker: the pulling side names it
	}
	lk, ok := lookup(f[1])
	if !ok {
		lk = f[1]
	}
	ip, name := splitLinkname(f[2])
	tp := byPath[ip]
	if tp == nil {
		return
	}
	rk, ok := tp.names[name]
	if !ok {
		rk = name
	}
	a, b := "go:"+prefix+"."+lk, "go:"+ip+"."+rk
	e.edge(a, b, "linkname")
	e.edge(b, a, "linkname")
}

// splitLinkname splits a linkname target "path/to/pkg.name" (or
// "pkg.(*T).m", keyed "T.m").
func splitLinkname(target string) (ip, name string) {
	cut := strings.LastIndex(target, ".")
	if i := strings.Index(target, ".("); i >= 0 {
		cut = i
	}
	if cut < 0 {
		return "", target
	}
	name = strings.NewReplacer("(", "", ")", "", "*", "").Replace(target[cut+1:])
	return target[:cut], name
}

// tie is a //go:linkname local remote directive in package from.
type tie struct {
	from, to    *pkg
	local, name string
}

// linknameTies finds the linkname directives with a target in the
// graph's packages, by a byte search of every file.
func (b *builder) linknameTies() []tie {
	byPath := map[string]*pkg{}
	for _, p := range b.pkgs {
		byPath[p.path] = p
	}
	var mu sync.Mutex
	var ties []tie
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, p := range b.pkgs {
		g.Go(func() error {
			for _, gf := range p.f.gofiles {
				if gf.excluded || !gf.parsed {
					continue
				}
				for _, ln := range linknamesMemo(b.in, filepath.Join(p.dir, gf.name)) {
					ip, name := splitLinkname(ln[1])
					if q := byPath[ip]; q != nil && q != p {
						mu.Lock()
						ties = append(ties, tie{from: p, to: q, local: ln[0], name: name})
						mu.Unlock()
					}
				}
			}
			return nil
		})
	}
	_ = g.Wait()
	return ties
}

// pkgEdges emits the package graph's edges a declaration's change walks
// up through, between packages that can reach it: a test file's package,
// test binary and imports, a package's imports (their init functions and
// vars run for every test that links them). Not the edges to files: a
// test file is used through its declarations only, which declEdges say.
func (e *emitter) pkgEdges(p *pkg, reach map[*pkg]bool) {
	pn := pkgNode(p)
	for _, gf := range p.f.gofiles {
		if !gf.parsed || gf.excluded {
			continue
		}
		user := pn
		if gf.test {
			user = e.rel(filepath.Join(p.dir, gf.name))
			e.edge(user, testNode(p), "same test binary")
			switch {
			case !gf.external:
				e.edge(user, pn, "same package")
			case !slices.Contains(gf.imports, p.path):
				e.edge(user, pn, "package under test")
			}
		}
		for _, ip := range gf.imports {
			d := p.deps[ip]
			if d.res == local && reach[d.p] && (d.p != p || gf.external) {
				e.edge(user, pkgNode(d.p), "import")
			}
		}
	}
}
