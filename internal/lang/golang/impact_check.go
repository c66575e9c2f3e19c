package golang

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"github.com/testdex/testdex/internal/lang"
)

// Broken checks that a changed Go file leaves its package buildable
// (lang.BuildChecker), as `go test` here would build it:
//
//   - The file must parse (a stray brace, a NUL byte, invalid UTF-8):
//     else every test of its package and of its importers, or, for a test
//     file, of its package's test binary.
//   - Its package must type-check (go/types over the files this platform
//     builds, the imports from export data: impact_typecheck.go): else
//     the same. A check that cannot be done (no go command, an import
//     that does not build) counts as a failure: it may not build.
//   - When the change is more than a body-only edit and the base version
//     is known, what the package declares may have changed (a removed or
//     renamed function, a signature, a struct's fields, a method set): the
//     declarations whose description changed, and those that mention
//     them, are compared (apiDiff), and every package of the graph that
//     imports it and names one of them is type-checked too, with the
//     package's tests; so are their importers in turn when their own
//     declarations follow the change (derivedChange). One that fails
//     selects its tests and its importers', whole.
//
// A body-only edit, or an added function that compiles, breaks nothing:
// the narrowed selection (Diff) stands.
func (gr *grapher) Broken(in *lang.GraphInput, file string, old []byte) []lang.Break {
	abs := filepath.Join(in.Root, filepath.FromSlash(file))
	name := filepath.Base(abs)
	if !strings.HasSuffix(name, ".go") || strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".") {
		return nil
	}
	b := gr.builderFor(in)
	p := b.pkgs[filepath.Dir(abs)]
	test := strings.HasSuffix(name, "_test.go")
	if p == nil || p.f == nil || test && !p.tests {
		return nil
	}
	cur, err := in.ReadFile(abs)
	if err != nil || !b.filter.keep(cur) {
		return nil
	}
	if _, err := parser.ParseFile(token.NewFileSet(), file, cur, parser.SkipObjectResolution); err != nil {
		k := vPlain
		if test {
			k = vInternal
		}
		return []lang.Break{{Node: unitNode(p, k), Why: fmt.Sprintf("%s does not parse: %s; %s", file, firstError(err), unitWhat(p, k))}}
	}
	c := b.checkerFor()
	if !c.builds(p, name) {
		return nil // no build here includes it: its syntax is all this platform can tell
	}
	c.prefetchPkgs([]*pkg{p}, map[string]*types.Package{p.path: types.Unsafe})
	if test {
		return c.testBreaks(p, file)
	}
	if v := c.verdictOf(p, vPlain); !v.ok() {
		return []lang.Break{c.breakOf(p, vPlain, file, v)}
	}
	if old == nil || bodyOnly(old, cur) {
		return nil
	}
	return c.apiBreaks(p, file, old)
}

// unitNode is the node whose users a failing check of p's variant k
// selects: its package's (the package does not build: its importers
// neither), or its test binary's.
func unitNode(p *pkg, k variant) string {
	if k == vPlain {
		return pkgNode(p)
	}
	return testNode(p)
}

// unitWhat says what a failure of p's variant k selects.
func unitWhat(p *pkg, k variant) string {
	if k == vPlain {
		return "every test of " + p.path + " and its importers"
	}
	return "every test of " + p.path
}

// breakOf words a failed check of p's variant k, for the change of the
// file changed.
func (c *checker) breakOf(p *pkg, k variant, changed string, v *verdict) lang.Break {
	what := p.path
	if k != vPlain {
		what = "the tests of " + p.path
	}
	var why string
	switch {
	case v.unchecked != "":
		why = fmt.Sprintf("%s could not be type-checked with the change of %s (%s), so it may not build", what, changed, v.unchecked)
	case k == vPlain && v.errs[0].Fset.Position(v.errs[0].Pos).Filename == changed:
		why = fmt.Sprintf("%s does not type-check: %s", changed, firstLine([]byte(v.errs[0].Error())))
	default:
		verb := "does"
		if k != vPlain {
			verb = "do"
		}
		why = fmt.Sprintf("%s %s not type-check with the change of %s: %s", what, verb, changed, firstLine([]byte(v.errs[0].Error())))
	}
	return lang.Break{Node: unitNode(p, k), Why: why + "; " + unitWhat(p, k)}
}

// testBreaks checks p's test binary, after the change of the file
// changed: its in-package variant and its external test package.
func (c *checker) testBreaks(p *pkg, file string) []lang.Break {
	for _, k := range []variant{vInternal, vExternal} {
		if v := c.verdictOf(p, k); !v.ok() {
			return []lang.Break{c.breakOf(p, k, file, v)}
		}
	}
	return nil
}

// verdictOf checks p's variant k as it is now, once, each check in a
// world of its own (the external test package in its internal
// variant's). The verdict keeps the errors, not the package.
func (c *checker) verdictOf(p *pkg, k variant) *verdict {
	key := fmt.Sprint(p.dir, "\x00", k)
	c.mu.Lock()
	v, ok := c.verdicts[key]
	c.mu.Unlock()
	if ok {
		return v
	}
	pf := c.parsed(p)
	u := c.world()
	switch {
	case pf.err != "":
		v = &verdict{unchecked: pf.err}
	case k == vPlain:
		v = c.checkFiles(u, p.path, pf.plain, pf.cgo, mode{})
	default:
		v = c.checkFiles(u, p.path, append(slices.Clip(pf.plain), pf.internal...), pf.cgo, mode{})
		if k == vExternal && v.ok() {
			if len(pf.external) == 0 {
				break
			}
			u.add(p.path, v.pkg)
			v = c.checkFiles(u, p.path+"_test", pf.external, false, mode{})
		}
	}
	v = &verdict{errs: v.errs, unchecked: v.unchecked} // the verdict, not the types (memory)
	c.mu.Lock()
	c.verdicts[key] = v
	c.mu.Unlock()
	return v
}

// apiBreaks checks what a change of p's declarations may break: p's own
// tests, and the packages of the graph that import it, as the package
// comment of Broken says. p type-checks as it is now.
func (c *checker) apiBreaks(p *pkg, file string, old []byte) []lang.Break {
	pf := c.parsed(p)
	u := c.world()
	cur := c.checkFiles(u, p.path, pf.plain, pf.cgo, mode{})
	if !cur.ok() {
		return []lang.Break{c.breakOf(p, vPlain, file, cur)}
	}
	change := &apiChange{all: true}
	if prev := c.previous(u, p, pf, file, old); prev != nil && prev.ok() {
		change = apiDiff(prev.pkg, cur.pkg)
	}
	if change.empty() {
		return nil
	}
	u.add(p.path, cur.pkg)
	changed := map[*pkg]*apiChange{p: change}
	var out []lang.Break
	if mentionsAny(pf.internal, change) || namesFrom(pf.external, p.path, change) {
		out = append(out, c.testBreaks(p, file)...)
	}
	importers, reach := c.b.importers(p)
	skip := map[string]*types.Package{p.path: cur.pkg}
	for q := range reach {
		u.lazy[q.path] = q
		skip[q.path] = types.Unsafe
	}
	c.prefetchPkgs(append(importers, p), skip)
	broken := map[*pkg]bool{}
	for _, q := range importers {
		qf := c.parsed(q)
		if c.b.dependsOn(q, false, broken) {
			broken[q] = true // selected whole through its import of a broken package
			continue
		}
		if reach[q] && c.triggered(q, qf.plain, false, changed) {
			v := u.source(q, true)
			if !v.ok() {
				out = append(out, c.breakOf(q, vPlain, file, v))
				broken[q] = true
				continue
			}
			all := map[types.Object]bool{}
			for _, ch := range changed {
				for o := range ch.objs {
					all[o] = true
				}
			}
			if d := derivedChange(v.pkg, qf.plain, v.info, all); !d.empty() {
				changed[q] = d
			}
		}
		if q.tests && !c.b.dependsOn(q, true, broken) && c.triggered(q, append(slices.Clip(qf.internal), qf.external...), true, changed) {
			out = append(out, c.testBreaks(q, file)...)
		}
	}
	return out
}

// previous type-checks p with the changed file's base content instead of
// its current one (in u, whose source packages p does not import); nil
// when the base does not parse.
func (c *checker) previous(u *world, p *pkg, pf *pkgFiles, file string, old []byte) *verdict {
	af, err := parser.ParseFile(c.fset(), file, old, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var files []*ast.File
	replaced := false
	for _, f := range pf.plain {
		if c.fset().Position(f.Package).Filename == file {
			f, replaced = af, true
		}
		files = append(files, f)
	}
	if !replaced {
		return nil // a file this build did not include before (added, or renamed into it)
	}
	return c.checkFiles(u, p.path, files, pf.cgo, mode{})
}

// triggered reports whether files of q (its non-test files, or its test
// files) name one of a changed package's changed objects: q's own tests
// by the bare name, other packages as import.Name through an import of
// it (or bare, through a dot import).
func (c *checker) triggered(q *pkg, files []*ast.File, tests bool, changed map[*pkg]*apiChange) bool {
	for dep, ch := range changed {
		switch {
		case dep == q && !tests:
		case dep == q && mentionsAny(files, ch):
			return true
		case dep != q && namesFrom(files, dep.path, ch):
			return true
		}
	}
	return false
}

// localDeps returns the packages of the graph that q's non-test files
// (or its test files) import, q itself aside.
func (b *builder) localDeps(q *pkg, tests bool) []*pkg {
	var out []*pkg
	for _, gf := range q.f.gofiles {
		if gf.test != tests {
			continue
		}
		for _, ip := range gf.imports {
			if d := q.deps[ip]; d.p != nil && d.p != q && !slices.Contains(out, d.p) {
				out = append(out, d.p)
			}
		}
	}
	return out
}

// dependsOn reports whether q's non-test files (or its test files)
// import one of the packages in set.
func (b *builder) dependsOn(q *pkg, tests bool, set map[*pkg]bool) bool {
	for _, d := range b.localDeps(q, tests) {
		if set[d] {
			return true
		}
	}
	return false
}

// importers returns the packages of the graph whose build p's
// declarations reach: those that import it through non-test imports, at
// any depth (reach), and those whose test files import one of these or
// p; each after the packages it imports (its dependencies are checked
// first).
func (b *builder) importers(p *pkg) ([]*pkg, map[*pkg]bool) {
	all := b.sorted()
	reach := map[*pkg]bool{p: true}
	for grew := true; grew; {
		grew = false
		for _, q := range all {
			if !reach[q] && q.f != nil && b.dependsOn(q, false, reach) {
				reach[q], grew = true, true
			}
		}
	}
	in := map[*pkg]bool{}
	for _, q := range all {
		if q != p && q.f != nil && (reach[q] || q.tests && b.dependsOn(q, true, reach)) {
			in[q] = true
		}
	}
	var order []*pkg
	done := map[*pkg]bool{}
	var visit func(q *pkg)
	visit = func(q *pkg) {
		if done[q] {
			return
		}
		done[q] = true
		for _, d := range b.localDeps(q, false) {
			if in[d] {
				visit(d)
			}
		}
		order = append(order, q)
	}
	for _, q := range all {
		if in[q] {
			visit(q)
		}
	}
	delete(reach, p)
	return order, reach
}
