package golang

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

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
// cp: those that import it, directly or not (their test files included),
// and those tied to one of them by a //go:linkname, either way.
func (b *builder) declGraph(cp *pkg) *declGraph {
	reach := b.reaching(cp)
	dg := &declGraph{out: &lang.Graph{Owners: map[string]string{}}, importNames: map[string]map[string]bool{}, ok: true}
	pkgs := make([]*declPkg, 0, len(reach))
	for _, p := range b.sorted() {
		if reach[p] {
			pkgs = append(pkgs, &declPkg{p: p})
		}
	}
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0)) // scanning tokens is CPU-bound
	var mu sync.Mutex
	for _, dp := range pkgs {
		g.Go(func() error {
			if !dp.scan(b.in.ReadFile) {
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
	e := &emitter{b: b, out: dg.out, seen: map[lang.Edge]bool{}}
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

// scan reads the package's files whose declarations matter: the Go files
// some platform builds, its test files when its tests are the project's.
func (dp *declPkg) scan(read func(string) ([]byte, error)) bool {
	dp.names, dp.testNames, dp.extNames = map[string]string{}, map[string]string{}, map[string]string{}
	for _, gf := range dp.p.f.gofiles {
		if gf.excluded || !gf.parsed {
			continue
		}
		fd := declsMemo(read, filepath.Join(dp.p.dir, gf.name))
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

// declEdges emits one file's declarations' edges.
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
	local := df.localNames(byPath)
	file := e.rel(filepath.Join(dp.p.dir, df.gf.name))
	for _, d := range df.fd.decls {
		node := "go:" + prefix + "." + d.key
		switch {
		case df.gf.test:
			e.edge(file, node, "declares")
			if d.init || len(d.names) == 1 && d.names[0] == "TestMain" && d.recv == "" {
				e.edge(testNode(dp.p), node, "init")
			}
		case d.init:
			e.edge(pkgNode(dp.p), node, "init")
		}
		if d.recv != "" {
			tk, ok := lookup(d.recv)
			if !ok {
				tk = d.recv
			}
			e.edge("go:"+prefix+"."+tk, node, "method")
		}
		seen := map[string]bool{}
		for _, r := range d.refs {
			if seen[r] {
				continue
			}
			seen[r] = true
			if k, ok := lookup(r); ok {
				e.edge(node, "go:"+prefix+"."+k, "uses")
			}
			for _, dot := range df.fd.dots {
				if tp := byPath[dot]; tp != nil {
					if k, ok := tp.names[r]; ok {
						e.edge(node, "go:"+tp.p.path+"."+k, "uses")
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
				e.edge(node, "go:"+tp.p.path+"."+k, "uses")
			}
		}
		for _, ln := range d.linknames {
			e.linkname(ln, prefix, lookup, byPath)
		}
	}
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

// reaching returns cp and the packages that can reach it: importers,
// directly or not (a test file's import counts), closed under
// //go:linkname ties either way (a package may pull a symbol of one it
// does not import).
func (b *builder) reaching(cp *pkg) map[*pkg]bool {
	rev := map[*pkg][]*pkg{}
	byPath := map[string]*pkg{}
	for _, p := range b.pkgs {
		byPath[p.path] = p
		for _, d := range p.deps {
			if d.p != nil && d.p != p {
				rev[d.p] = append(rev[d.p], p)
			}
		}
	}
	links := b.linknameTies(byPath)
	reach := map[*pkg]bool{cp: true}
	queue := []*pkg{cp}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, q := range append(rev[p], links[p]...) {
			if !reach[q] {
				reach[q] = true
				queue = append(queue, q)
			}
		}
	}
	return reach
}

// linknameTies finds the packages tied by //go:linkname directives with
// a target, both ways, by a byte search of every file of the graph.
func (b *builder) linknameTies(byPath map[string]*pkg) map[*pkg][]*pkg {
	type tie struct{ from, to *pkg }
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
				for _, target := range linknamesMemo(b.in.ReadFile, filepath.Join(p.dir, gf.name)) {
					ip, _ := splitLinkname(target)
					if q := byPath[ip]; q != nil && q != p {
						mu.Lock()
						ties = append(ties, tie{p, q})
						mu.Unlock()
					}
				}
			}
			return nil
		})
	}
	_ = g.Wait()
	links := map[*pkg][]*pkg{}
	for _, t := range ties {
		links[t.from] = append(links[t.from], t.to)
		links[t.to] = append(links[t.to], t.from)
	}
	return links
}

// decls and links memoize, like headers, a file's declarations and its
// linkname targets by path, size and modification time.
var decls, links sync.Map // headerKey -> *fileDecls, []string

// fileKey returns a file's memo key, false when it cannot be memoized
// (unreadable, or modified within racyWindow).
func fileKey(abs, kind string) (headerKey, bool) {
	info, err := os.Stat(abs)
	if err != nil || !info.Mode().IsRegular() || time.Since(info.ModTime()) <= racyWindow {
		return headerKey{}, false
	}
	return headerKey{path: abs, size: info.Size(), mtime: info.ModTime().UnixNano(), filter: kind}, true
}

// declsMemo returns a file's declarations; nil when it cannot be read.
func declsMemo(read func(string) ([]byte, error), abs string) *fileDecls {
	k, memo := fileKey(abs, "decls")
	if memo {
		if v, ok := decls.Load(k); ok {
			return v.(*fileDecls)
		}
	}
	src, err := read(abs)
	if err != nil {
		return nil
	}
	fd := scanDecls(filepath.Base(abs), src)
	if memo {
		decls.Store(k, fd)
	}
	return fd
}

// linknamesMemo returns the targets of a file's //go:linkname local
// target directives.
func linknamesMemo(read func(string) ([]byte, error), abs string) []string {
	k, memo := fileKey(abs, "linknames")
	if memo {
		if v, ok := links.Load(k); ok {
			return v.([]string)
		}
	}
	src, err := read(abs)
	if err != nil {
		return nil
	}
	var targets []string
	for rest := src; ; {
		i := bytes.Index(rest, []byte("//go:linkname "))
		if i < 0 {
			break
		}
		line := rest[i:]
		if j := bytes.IndexByte(line, '\n'); j >= 0 {
			line = line[:j]
		}
		if f := strings.Fields(string(line)); len(f) >= 3 {
			targets = append(targets, f[2])
		}
		rest = rest[i+len("//go:linkname "):]
	}
	if memo {
		links.Store(k, targets)
	}
	return targets
}
