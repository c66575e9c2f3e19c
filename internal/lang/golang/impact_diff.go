package golang

import (
	"path/filepath"
	"strings"

	"github.com/testdex/testdex/internal/lang"
)

// Diff narrows a modified Go file's change to its changed declarations
// (lang.Differ): functions, methods, types, vars, const groups, the
// file's init functions, compared by canonical hashes (go/scanner
// tokens; positions, spaces and comments dropped, compiler directives
// kept). The Diff's graph links each declaration to those it mentions,
// in the packages that can reach the file's package, up to the test
// files that declare them:
//
//	a/x_test.go ─declares─► go:M/a.TestParse ─uses─► go:M/a.parseVersion
//	                (a test function of a test file: lang.Graph.Tests,
//	                so the change selects that test, not the whole file;
//	                a test file's other declarations have no such edge)
//	go:M/a ─init─► go:M/a.init(a.go), go:M/a.someVar (they run whenever
//	                the package is linked: a test reaches them through
//	                its package graph)
//	go:M/a.Parse ─selects─► go:*.Set ─method─► go:M/a.boolValue.Set (a
//	                selector .Set reaches every method named Set)
//	go:M/a.T ─method─► go:M/a.T.String (a type reaches the exported
//	                methods that outside code may call: interfaces of the
//	                standard library, reflection; see impact_methods.go)
//	go:M/a.local ◄─linkname─► go:runtime.remote (both ways)
//
// The references are syntactic: every identifier of a declaration that
// names a package-level declaration of its package (a local variable of
// that name too), every name.Sel whose name is an import, and every
// selector .M, which may name a method. So no type information is
// needed, and the graph errs on the side of more.
//
// The whole file counts (nil Diff) when its header changed (the package
// clause, an import: an init that now runs, a build constraint), when it
// uses cgo, when a changed declaration carries a //go:linkname, when an
// added or removed name is one of the universe's (len, error) or an
// import's name in the package (a declaration can then change what
// unchanged code means), and when the file is not in a package the
// project's tests reach. An added or removed method also changes its
// type (method sets, interface satisfaction).
func (gr *grapher) Diff(in *lang.GraphInput, file string, old []byte) (*lang.Diff, error) {
	abs := filepath.Join(in.Root, filepath.FromSlash(file))
	name := filepath.Base(abs)
	if !strings.HasSuffix(name, ".go") || strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".") {
		return nil, nil
	}
	b := gr.builderFor(in)
	p := b.pkgs[filepath.Dir(abs)]
	test := strings.HasSuffix(name, "_test.go")
	if p == nil || test && !p.tests {
		return nil, nil
	}
	cur, err := in.ReadFile(abs)
	if err != nil || !b.filter.keep(cur) || !b.filter.keep(old) {
		return nil, nil
	}
	before, after := scanDecls(name, old), scanDecls(name, cur)
	if before.header != after.header || before.cgo || after.cgo || before.pkg != after.pkg {
		return nil, nil
	}
	keys, names, ok := changedKeys(before, after)
	if !ok {
		return nil, nil
	}
	prefix := p.path
	if test && strings.HasSuffix(after.pkg, "_test") {
		prefix += "_test"
	}
	d := &lang.Diff{}
	for _, k := range keys {
		d.Start = append(d.Start, "go:"+prefix+"."+k)
	}
	dg := b.declGraph(p, d.Start)
	if !dg.ok {
		return nil, nil
	}
	for _, n := range names {
		if universe[n] || dg.importNames[p.dir][n] {
			return nil, nil
		}
	}
	d.Graph = dg.out
	return d, nil
}

// changedKeys compares two versions of a file's declarations: the keys
// whose hashes differ or that exist in one version only (with the
// receiver type of an added or removed method), and the names added or
// removed. ok is false when a changed declaration carries a linkname.
func changedKeys(before, after *fileDecls) (keys, names []string, ok bool) {
	b, a := hashes(before), hashes(after)
	seen := map[string]bool{}
	add := func(k string) {
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	for _, side := range []struct {
		mine, other map[string]*keyed
	}{{b, a}, {a, b}} {
		for k, d := range side.mine {
			o := side.other[k]
			if o != nil && o.hash == d.hash {
				continue
			}
			if d.linkname {
				return nil, nil, false
			}
			add(k)
			if o == nil {
				names = append(names, d.names...)
				if d.recv != "" {
					add(d.recv)
				}
			}
		}
	}
	return keys, names, true
}

// keyed is the declarations of one key in a file (init functions and
// blank vars share theirs).
type keyed struct {
	hash     uint64
	names    []string
	recv     string
	linkname bool
}

func hashes(fd *fileDecls) map[string]*keyed {
	m := map[string]*keyed{}
	for _, d := range fd.decls {
		k := m[d.key]
		if k == nil {
			k = &keyed{recv: d.recv}
			m[d.key] = k
		}
		k.hash = k.hash*1099511628211 ^ d.hash
		k.names = append(k.names, d.names...)
		k.linkname = k.linkname || len(d.linknames) > 0
	}
	return m
}

// universe are the predeclared names: a package-level declaration of one
// changes what unchanged code of the package means.
var universe = setOf("any append bool byte cap clear close comparable complex complex64 complex128 copy delete error false float32 float64 imag int int8 int16 int32 int64 iota len make max min new nil panic print println real recover rune string true uint uint8 uint16 uint32 uint64 uintptr")
var _ lang.Differ = (*grapher)(nil)
