package golang

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// pkgNode is a package's node; testNode its test binary's (its test
// files and testdata, which only its own tests see).
func pkgNode(p *pkg) string  { return "go:" + p.path }
func testNode(p *pkg) string { return "go:" + p.path + ".test" }

// emitter turns the loaded packages into a lang.Graph.
type emitter struct {
	b    *builder
	out  *lang.Graph
	seen map[lang.Edge]bool
	// claims are the folders whose whole tree a node uses (testdata,
	// embedded folders), with their users.
	claims map[string][]claimUser
	// methods are the declaration graph's methods and which of them a
	// type reaches (impact_methods.go).
	methods *methodEdges
}

type claimUser struct{ node, why string }

// graph emits the edges, owners and global files of the loaded packages.
func (b *builder) graph() *lang.Graph {
	e := &emitter{b: b, out: &lang.Graph{Owners: map[string]string{}, Global: b.ws.global},
		seen: map[lang.Edge]bool{}, claims: map[string][]claimUser{}}
	for _, p := range b.sorted() {
		e.pkg(p)
	}
	e.claimed()
	return e.out
}

func (e *emitter) edge(from, to, why string) {
	ed := lang.Edge{From: from, To: to, Why: why}
	if !e.seen[ed] {
		e.seen[ed] = true
		e.out.Edges = append(e.out.Edges, ed)
	}
}

// rel makes an absolute path a root-relative node key.
func (e *emitter) rel(abs string) string { return lang.NodeKey(e.b.in.Root, abs) }

func (e *emitter) problem(file string, line int, msg string) {
	e.out.Problems = append(e.out.Problems, testdex.Problem{Severity: testdex.SevWarning, Path: file, Line: line,
		Message: "impact graph: " + msg + "; any change in the project selects the tests that use it"})
}

// pkg emits one package's edges and owners.
func (e *emitter) pkg(p *pkg) {
	pn, tn := pkgNode(p), testNode(p)
	dir := e.rel(p.dir)
	e.out.Owners[dir] = pn
	e.out.Owners[dir+"/*_test.go"] = tn
	if p.f.err != nil {
		e.problem(dir, 0, "cannot read the folder: "+p.f.err.Error())
		e.edge(pn, lang.AnyNode, "unreadable folder")
		return
	}
	cgo := false
	for _, gf := range p.f.gofiles {
		file := path.Join(dir, gf.name)
		cgo = cgo || gf.cgo
		if !gf.test {
			e.edge(pn, file, "in package")
			e.fileDeps(p, gf, pn, file)
			continue
		}
		e.edge(tn, file, "test file")
		if !gf.parsed {
			continue
		}
		e.edge(file, tn, "same test binary")
		switch {
		case !gf.external:
			e.edge(file, pn, "same package")
		case !slices.Contains(gf.imports, p.path):
			e.edge(file, pn, "package under test")
		}
		e.fileDeps(p, gf, file, file)
	}
	for _, o := range p.f.others {
		e.edge(pn, path.Join(dir, o), "in package")
	}
	if p.f.testdata && p.tests { // only a package's own tests read its testdata
		e.claim(filepath.Join(p.dir, "testdata"), tn, "testdata")
	}
	if cgo {
		e.cgo(p, pn)
	}
}

// fileDeps emits what one file uses, from user (its package, or itself
// for a test file).
func (e *emitter) fileDeps(p *pkg, gf goFile, user, file string) {
	if gf.err != nil {
		e.problem(file, gf.errLine, "cannot read the imports: "+gf.err.Error())
		e.edge(user, lang.AnyNode, "imports unreadable")
	}
	for _, ip := range gf.imports {
		d := p.deps[ip]
		switch {
		case d.res == unresolved:
			e.edge(user, lang.UnresolvedNode, "import "+strconv.Quote(ip)+" (no such folder)")
		case d.res != local:
		case d.p != p:
			e.edge(user, pkgNode(d.p), "import")
		case gf.external:
			e.edge(user, pkgNode(p), "import")
		}
	}
	for _, pat := range gf.embeds {
		e.embed(p, user, pat)
	}
}

// embed emits the files and folders a //go:embed pattern names.
func (e *emitter) embed(p *pkg, user, pat string) {
	pat = strings.TrimPrefix(pat, "all:")
	missing := func() { e.edge(user, lang.UnresolvedNode, "embed "+strconv.Quote(pat)+" (no match)") }
	use := func(abs string) {
		fi, err := os.Stat(abs)
		switch {
		case err != nil:
		case fi.IsDir():
			e.claim(abs, user, "embed")
		default:
			e.edge(user, e.rel(abs), "embed")
		}
	}
	elems := strings.Split(pat, "/")
	static := 0
	for static < len(elems) && !strings.ContainsAny(elems[static], `*?[\`) {
		static++
	}
	if static == len(elems) {
		abs := filepath.Join(p.dir, filepath.FromSlash(pat))
		if _, err := os.Stat(abs); err != nil {
			missing()
			return
		}
		use(abs)
		return
	}
	if static > 0 { // a file added under the prefix may match: claim it all
		e.claim(filepath.Join(p.dir, filepath.FromSlash(strings.Join(elems[:static], "/"))), user, "embed")
		return
	}
	matches, err := fs.Glob(os.DirFS(p.dir), pat)
	if err != nil || len(matches) == 0 {
		missing()
	}
	for _, m := range matches {
		use(filepath.Join(p.dir, filepath.FromSlash(m)))
	}
}

// claim records that node uses the whole tree of folder dir.
func (e *emitter) claim(dir, node, why string) {
	e.claims[dir] = append(e.claims[dir], claimUser{node: node, why: why})
}

// claimed emits the claimed trees: a node "dir/" per claimed folder, its
// users' edges to it, its edges to every file below (for fingerprints),
// and the tree owner "dir/**" (a claimed folder below is used through its
// own node; a package folder through its package and test binary, which
// own it).
func (e *emitter) claimed() {
	dirs := make([]string, 0, len(e.claims))
	for d := range e.claims {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		node := e.rel(d) + "/"
		users := e.claims[d]
		for _, u := range users {
			e.edge(u.node, node, u.why)
		}
		why := users[0].why
		if p := e.b.pkgs[d]; p != nil {
			e.edge(node, pkgNode(p), why)
			e.edge(node, testNode(p), why)
			continue
		}
		_ = filepath.WalkDir(d, func(abs string, de fs.DirEntry, err error) error {
			switch {
			case err != nil:
				e.problem(e.rel(abs), 0, "cannot read: "+err.Error())
				e.edge(node, lang.AnyNode, "unreadable "+why)
				return nil
			case !de.IsDir():
				e.edge(node, e.rel(abs), why)
				return nil
			case abs == d:
				e.out.Owners[e.rel(abs)+"/**"] = node
			case e.claims[abs] != nil:
				e.edge(node, e.rel(abs)+"/", why)
				return filepath.SkipDir
			case e.b.pkgs[abs] != nil:
				e.edge(node, pkgNode(e.b.pkgs[abs]), why)
				e.edge(node, testNode(e.b.pkgs[abs]), why)
				return filepath.SkipDir
			}
			return nil
		})
	}
}
