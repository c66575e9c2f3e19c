package golang

import (
	"fmt"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/testdex/testdex/internal/lang"
)

// Which methods a type reaches. A method runs only when something
// selects it: a selector .M in Go code (a call, a method value, a method
// expression, through a concrete type, an embedding or an interface), an
// interface call by code outside the graph (fmt calls String, sort calls
// Less), or reflection by name or index. So the declaration graph gives
// every declaration that mentions .M an edge to every method named M of
// the packages it reads, through one name node ("go:*.M", class
// hierarchy analysis by name, no types needed), and keeps the edge from a
// type to its method only where outside code may call it:
//
//   - an unexported method never: only its own package can name it (an
//     interface with an unexported method is satisfiable and callable
//     only there; reflection sees exported methods only), and its
//     package's selectors are all in the graph. Its name node is the
//     package's own ("go:M/p.*.m"). A //go:linkname to it keeps its own
//     edges.
//   - an exported method when its name is a method of an interface that
//     code outside the graph may call it through: the standard library
//     packages the module's packages import, transitively (interfaces
//     in function bodies too: errors.Is's Unwrap), the predeclared
//     error's Error, and any selector of a local package whose
//     declarations the graph does not read (it cannot reach the changed
//     package, but a test may hand it a value that does).
//   - every exported method (the old rule: a type reaches all its
//     methods) when that cannot be known: a local package imports a
//     module outside the tree, a local package selects .Method or
//     .MethodByName (reflection, as go-cmp's Equal and expr's method
//     calls), a standard package the tests link does (text/template,
//     html/template through it, net/rpc, go/types), or the standard
//     library is not found (no GOROOT/src, or a go directive newer than
//     its VERSION: a toolchain switch may bring other interfaces).
//
// A name whose methods their types reach needs no selector edges: the
// code that made a value mentions its type, and the test that runs that
// code reaches it (the rule before this one), so the selector node
// exists only for the other names. A value's type still reaches the
// methods that remain; a change of a
// method's body reaches the declarations that select it, and those lead
// up to the tests as any use does. Safety before savings: the rule only
// drops an edge when every other way to the method is in the graph.
type methodScope struct {
	all   bool            // keep every type → exported method edge
	names map[string]bool // exported names outside code may call
}

// stdFacts are what a standard package's files say about methods: the
// interface method names they declare, the standard packages they
// import, and whether they call methods by reflection.
type stdFacts struct {
	names   []string
	imports []string
	reflect bool
}

var stdMemo sync.Map // package folder and build tags -> *stdFacts

// methodScope computes the builder's scope once.
func (b *builder) methodScope() *methodScope {
	b.scopeOnce.Do(func() { b.scope = b.computeScope() })
	return b.scope
}

func (b *builder) computeScope() *methodScope {
	all := &methodScope{all: true}
	src := gorootSrc()
	if src == "" || !b.goVersionOK(src) {
		return all
	}
	seeds := []string{"runtime", "os", "reflect", "testing", "testing/internal/testdeps"} // the test main's
	for _, p := range b.pkgs {
		for _, gf := range p.f.gofiles {
			if !gf.parsed || gf.excluded {
				continue
			}
			for _, ip := range gf.imports {
				switch d := p.deps[ip]; {
				case d.res == local || d.res == unresolved || ip == "C":
				case isStd(ip):
					seeds = append(seeds, ip)
				default:
					return all // a module outside the tree: its interfaces are unknown
				}
			}
		}
	}
	s := &methodScope{names: map[string]bool{"Error": true}}
	seen := map[string]bool{}
	for level := seeds; len(level) > 0; {
		var fresh []string
		for _, ip := range level {
			if !seen[ip] {
				seen[ip] = true
				fresh = append(fresh, ip)
			}
		}
		facts := make([]*stdFacts, len(fresh))
		var g errgroup.Group
		g.SetLimit(runtime.GOMAXPROCS(0)) // scanning tokens is CPU-bound
		for i, ip := range fresh {
			g.Go(func() error { facts[i] = stdPackage(b.in, src, ip, b.filter); return nil })
		}
		_ = g.Wait()
		level = nil
		for _, f := range facts {
			if f == nil || f.reflect {
				return all
			}
			for _, n := range f.names {
				s.names[n] = true
			}
			level = append(level, f.imports...)
		}
	}
	return s
}

// isStd reports whether an import path is the standard library's (no
// dot in its first element).
func isStd(ip string) bool {
	first, _, _ := strings.Cut(ip, "/")
	return !strings.Contains(first, ".")
}

// gorootSrc finds the standard library the tests build with: $GOROOT, or
// the folder above the bin of the go command on PATH; "" when none.
func gorootSrc() string {
	root := os.Getenv("GOROOT")
	if root == "" {
		goCmd, err := exec.LookPath("go")
		if err != nil {
			return ""
		}
		if goCmd, err = filepath.EvalSymlinks(goCmd); err != nil {
			return ""
		}
		root = filepath.Dir(filepath.Dir(goCmd))
	}
	src := filepath.Join(root, "src")
	if _, err := os.Stat(filepath.Join(src, "runtime")); err != nil {
		return ""
	}
	return src
}

// goVersionOK reports whether every module's go directive is at most the
// standard library's VERSION (a newer one may switch toolchains).
func (b *builder) goVersionOK(src string) bool {
	v, err := os.ReadFile(filepath.Join(filepath.Dir(src), "VERSION"))
	if err != nil {
		return false
	}
	have := strings.TrimPrefix(strings.Fields(string(v) + " ")[0], "go")
	for _, p := range b.pkgs {
		if p.mod == nil {
			return false
		}
		data, err := b.in.ReadFile(filepath.Join(p.mod.dir, "go.mod"))
		if err != nil {
			continue // std, cmd, a vendor folder: GOROOT's own
		}
		for _, line := range strings.Split(string(data), "\n") {
			f := strings.Fields(line)
			if len(f) == 2 && (f[0] == "go" || f[0] == "toolchain") && versionLess(have, strings.TrimPrefix(f[1], "go")) {
				return false
			}
		}
	}
	return true
}

// versionLess compares dotted Go versions numerically ("1.9" < "1.26");
// a suffix (rc1) counts as its numbers.
func versionLess(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) || i < len(bs); i++ {
		x, y := 0, 0
		if i < len(as) {
			x = leadingInt(as[i])
		}
		if i < len(bs) {
			y = leadingInt(bs[i])
		}
		if x != y {
			return x < y
		}
	}
	return false
}

func leadingInt(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// stdPackage reads a standard package's facts (GOROOT/src/ip, or its
// vendor folder for golang.org/x) from the files some platform builds
// (not a generator's "//go:build ignore"); nil when it has no folder.
func stdPackage(in *lang.GraphInput, src, ip string, bf buildFilter) *stdFacts {
	dir := filepath.Join(src, filepath.FromSlash(ip))
	if !isStd(ip) {
		dir = filepath.Join(src, "vendor", filepath.FromSlash(ip))
	}
	key := dir + "\x00" + fmt.Sprint(bf)
	if v, ok := stdMemo.Load(key); ok {
		return v.(*stdFacts)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	f := &stdFacts{}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		ff, ok := ifaceMemo(in, filepath.Join(dir, n), bf)
		if !ok {
			return nil
		}
		if !ff.kept {
			continue
		}
		f.names = append(f.names, ff.names...)
		f.imports = append(f.imports, ff.imports...)
		// reflect declares Method and MethodByName; who calls them on a
		// module's values is elsewhere.
		if ip != "reflect" && ff.methodCalls {
			f.reflect = true
		}
	}
	stdMemo.Store(key, f)
	return f
}

// interfaceNames returns the exported method names of every interface
// type a Go file spells (declared or literal, in function bodies too),
// and the paths it imports.
func interfaceNames(src []byte) (names, imports []string) {
	l := &lexer{src: src, intern: map[string]string{}}
	var prev, prevPrev token.Token
	var prevLit string
	inImport := false
	depth := 0
	var iface []int // the depths of the open interface bodies
	for {
		tok, lit := l.scan()
		if tok == token.COMMENT {
			continue
		}
		switch tok {
		case token.EOF:
			return names, imports
		case token.IMPORT:
			inImport = true
		case token.FUNC, token.TYPE, token.VAR, token.CONST:
			inImport = false
		case token.STRING:
			if inImport && len(lit) >= 2 && lit[1:len(lit)-1] != "C" {
				imports = append(imports, lit[1:len(lit)-1])
			}
		case token.LBRACE, token.LPAREN, token.LBRACK:
			// a method: "Name(" at the top of an interface body
			if tok == token.LPAREN && prev == token.IDENT && len(iface) > 0 && iface[len(iface)-1] == depth &&
				(prevPrev == token.LBRACE || prevPrev == token.SEMICOLON) && token.IsExported(prevLit) {
				names = append(names, prevLit)
			}
			depth++
			if tok == token.LBRACE && prev == token.INTERFACE {
				iface = append(iface, depth)
			}
		case token.RBRACE, token.RPAREN, token.RBRACK:
			if len(iface) > 0 && iface[len(iface)-1] == depth {
				iface = iface[:len(iface)-1]
			}
			depth--
		}
		prevPrev, prev, prevLit = prev, tok, lit
	}
}

// methodEdges are one declaration graph's methods: the selector nodes
// that lead to them, and which names a type reaches.
type methodEdges struct {
	declared map[string]bool // selector nodes with a method
	all      bool            // a type reaches all its exported methods
	names    map[string]bool // else those of these names
}

// selectorNode is the node of a selector .name: one per exported name
// for the whole graph, one per package (own: "go:path.") for an
// unexported one.
func selectorNode(own, name string) string {
	if token.IsExported(name) {
		return "go:*." + name
	}
	return own + "*." + name
}

// typeReaches reports whether a type keeps its edge to its method name.
func (m *methodEdges) typeReaches(name string) bool {
	return token.IsExported(name) && (m.all || m.names[name])
}

// methodsOf finds the methods of the graph's packages and the scope:
// the builder's, with the selectors of the local packages whose
// declarations the graph does not read (reach), and every type →
// exported method edge kept when any local package selects .Method or
// .MethodByName.
func (b *builder) methodsOf(reach map[*pkg]bool, pkgs []*declPkg) *methodEdges {
	m := &methodEdges{declared: map[string]bool{}}
	for _, dp := range pkgs {
		for _, df := range dp.files {
			own := "go:" + dp.p.path + "."
			if df.gf.external {
				own = "go:" + dp.p.path + "_test."
			}
			for _, d := range df.fd.decls {
				if d.recv != "" && len(d.names) == 1 {
					m.declared[selectorNode(own, d.names[0])] = true
				}
				if reflects(d.sels) {
					m.all = true
				}
			}
		}
	}
	if m.all {
		return m
	}
	m.names = map[string]bool{}
	for _, p := range b.pkgs {
		if _, read := reach[p]; read {
			continue
		}
		for _, gf := range p.f.gofiles {
			if gf.excluded || !gf.parsed {
				continue
			}
			fd := declsMemo(b.in, filepath.Join(p.dir, gf.name))
			if fd == nil {
				m.all = true
				return m
			}
			for _, d := range fd.decls {
				if reflects(d.sels) {
					m.all = true
					return m
				}
				for _, s := range d.sels {
					m.names[s] = true
				}
			}
		}
	}
	scope := b.methodScope() // last: reading the standard library costs most
	if scope.all {
		m.all, m.names = true, nil
		return m
	}
	for n := range scope.names {
		m.names[n] = true
	}
	return m
}

// reflects reports whether selectors call methods by reflection.
func reflects(sels []string) bool {
	for _, s := range sels {
		if s == "Method" || s == "MethodByName" {
			return true
		}
	}
	return false
}
