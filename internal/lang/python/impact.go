package python

import (
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// grapher is the Python impact graph (lang.Grapher): the import graph of
// the modules a project's tests reach, read by a lexical scan (see
// scanImports) or, where the scan does not suffice, with tree-sitter;
// never run.
//
//	test file ──conftest──► each conftest.py from its folder up to pytest's
//	    │                   confcutdir (written or not: adding one counts)
//	    └──import──► module ──import──► module ... (breadth first, parsed
//	                   │                 in parallel, memoised by content)
//	                   └──package __init__──► the __init__.py of its folder
//
// Names resolve as pytest's default import mode sees them: from each test
// file's and conftest's basedir (the first folder up without an
// __init__.py), the rootdir, the ini option pythonpath, src/ folders and
// the project folder, every candidate counted. A name whose first part
// is in none of them (the standard library, an installed package) makes
// no edge; one whose first part is the project's but whose rest is not
// found goes to lang.UnresolvedNode and to the files that would resolve
// it. A computed import (importlib.import_module(name), __import__(name),
// exec, runpy, pytest_plugins = expression) and a file that does not
// parse go to lang.AnyNode.
//
// The files beside a module, and the folders below it that hold no
// module, are its data (see data).
//
// eval and compile are not dynamic imports here, exec is: code
// generators (attrs, dataclass-like libraries) compile the text of
// methods they assemble from their own literals, and counting them would
// make every change select every test of such a project; an exec of a
// string literal imports what the literal imports, and an exec of code
// its caller builds from its own literals (a template filled with names,
// lines joined: impact_exec.go) imports nothing unless its literals do.
//
// Blind spots: data files a test reads from outside its folder's tree,
// modules run in subprocesses, sys.path changed at run time, session-wide
// hooks of a conftest.py below the rootdir (pytest_collection_modifyitems),
// installed plugins (entry points), compiled extensions' C sources.
type grapher struct {
	cfg    *pytestConfig
	pytest bool
}

// globalFiles are the project-relative files whose change affects every
// test: packaging and pytest configuration, requirements and lock files.
var globalFiles = []string{"pyproject.toml", "setup.cfg", "setup.py", "pytest.ini", ".pytest.ini", "pytest.toml",
	".pytest.toml", "tox.ini", "requirements*.txt", "requirements/*.txt", "constraints*.txt", "Pipfile", "Pipfile.lock",
	"poetry.lock", "uv.lock", "pdm.lock"}

// Graph implements lang.Grapher.
func (g grapher) Graph(in *lang.GraphInput) (*lang.Graph, error) {
	b := &impactBuild{in: in, g: g, fs: newFSCache(in.ReadFile), facts: map[string]*modImports{}, named: map[string]*modImports{},
		queued: map[string]bool{}, edgeSeen: map[[2]string]bool{}, out: &lang.Graph{}}
	b.global()
	tests := make([]string, len(in.Files))
	for i, f := range in.Files {
		tests[i] = filepath.Join(in.Root, filepath.FromSlash(f))
		b.enqueue(tests[i])
	}
	conftests := b.conftests(tests)
	b.roots = b.importRoots(append(tests, conftests...))
	b.plugins(tests)
	for len(b.frontier) > 0 {
		files := b.frontier
		b.frontier = nil
		b.parse(files)
		for _, f := range files {
			b.module(f)
		}
	}
	b.data(tests)
	return b.out, nil
}

// impactBuild is one Graph call's state. Paths are absolute until they
// become node keys (root-relative).
type impactBuild struct {
	in       *lang.GraphInput
	g        grapher
	fs       *fsCache
	roots    []string
	facts    map[string]*modImports
	named    map[string]*modImports // __init__.py files read again for their names
	queued   map[string]bool
	frontier []string
	edgeSeen map[[2]string]bool
	out      *lang.Graph
}

// node is a file's node key: root-relative, slash-separated.
func (b *impactBuild) node(abs string) string { return lang.NodeKey(b.in.Root, abs) }

// edge adds from → to once; a file it reaches is parsed in turn. Special
// nodes (lang.AnyNode, lang.UnresolvedNode) pass as they are.
func (b *impactBuild) edge(from, to, why string) {
	toKey := to
	if to != lang.AnyNode && to != lang.UnresolvedNode {
		toKey = b.node(to)
		if strings.HasSuffix(to, ".py") && b.fs.isFile(to) {
			b.enqueue(to)
		}
	}
	b.nodeEdge(b.node(from), toKey, why)
}

// nodeEdge adds an edge between node keys once.
func (b *impactBuild) nodeEdge(from, to, why string) {
	key := [2]string{from, to}
	if from == to || b.edgeSeen[key] {
		return
	}
	b.edgeSeen[key] = true
	b.out.Edges = append(b.out.Edges, lang.Edge{From: from, To: to, Why: why})
}

func (b *impactBuild) enqueue(abs string) {
	if !b.queued[abs] {
		b.queued[abs] = true
		b.frontier = append(b.frontier, abs)
	}
}

// global lists the files every test depends on, the configuration file
// and the rootdir's conftest.py included wherever they are.
func (b *impactBuild) global() {
	dir := b.in.Project.Dir
	b.out.Global = append(b.out.Global, globalFiles...)
	if b.g.cfg == nil {
		return
	}
	if ini := b.g.cfg.Inifile; ini != "" {
		b.out.Global = appendNew(b.out.Global, relTo(dir, ini))
	}
	if b.g.pytest {
		b.out.Global = appendNew(b.out.Global, relTo(dir, filepath.Join(b.g.cfg.Rootdir, "conftest.py")))
	}
}

// confcutdir is the folder above which pytest loads no conftest.py: the
// configuration file's folder, else the rootdir.
func (b *impactBuild) confcutdir() string {
	if b.g.cfg.Inifile != "" {
		return filepath.Dir(b.g.cfg.Inifile)
	}
	return b.g.cfg.Rootdir
}

// conftests links each test file to the conftest.py of its folder and of
// every folder above it that is not above the confcutdir, as pytest loads
// them; a conftest.py not written yet is a node too, so that adding one
// selects the tests below it. It returns the existing ones.
func (b *impactBuild) conftests(tests []string) []string {
	if !b.g.pytest || b.g.cfg == nil {
		return nil
	}
	cut := b.confcutdir()
	var found []string
	for _, t := range tests {
		for d := filepath.Dir(t); !isAbove(d, cut); d = filepath.Dir(d) {
			c := filepath.Join(d, "conftest.py")
			b.edge(t, c, "conftest")
			if b.fs.isFile(c) {
				found = appendNew(found, c)
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return found
}

// isAbove reports whether d is a strict ancestor of cut.
func isAbove(d, cut string) bool {
	r, err := filepath.Rel(d, cut)
	return err == nil && r != "." && !strings.HasPrefix(r, "..")
}

// importRoots are the folders absolute imports resolve from (see grapher).
func (b *impactBuild) importRoots(entry []string) []string {
	var roots []string
	add := func(d string) {
		if b.fs.isDir(d) {
			roots = appendNew(roots, d)
		}
	}
	for _, f := range entry {
		add(b.fs.basedir(f)) // unittest's top-level folder too, when the project folder is a package
	}
	dir := b.in.Project.Dir
	add(dir)
	add(filepath.Join(dir, "src"))
	if cfg := b.g.cfg; cfg != nil && b.g.pytest {
		add(cfg.Rootdir)
		add(filepath.Join(cfg.Rootdir, "src"))
		base := cfg.Rootdir
		if cfg.Inifile != "" {
			base = filepath.Dir(cfg.Inifile)
		}
		for _, v := range cfg.Options["pythonpath"] {
			for _, p := range strings.Fields(v) {
				add(filepath.Join(base, filepath.FromSlash(p)))
			}
		}
	}
	return roots
}

// plugins links every test file to the plugins addopts loads (-p name).
func (b *impactBuild) plugins(tests []string) {
	if !b.g.pytest || b.g.cfg == nil {
		return
	}
	args := b.g.cfg.Options["addopts"]
	for i := 0; i < len(args); i++ {
		name := ""
		switch a := args[i]; {
		case a == "-p" && i+1 < len(args):
			i++
			name = args[i]
		case strings.HasPrefix(a, "-p") && len(a) > 2:
			name = a[2:]
		}
		if name == "" || strings.HasPrefix(name, "no:") {
			continue
		}
		use := importUse{module: name, why: "-p " + name}
		for _, t := range tests {
			b.resolveImport(t, use)
		}
	}
}

// parse reads the facts of files not read yet, in parallel: parsing is
// CPU-bound, so as many workers as processors.
func (b *impactBuild) parse(files []string) {
	type job struct {
		abs  string
		data []byte
	}
	var jobs []job
	for _, f := range files {
		if _, done := b.facts[f]; done {
			continue
		}
		st := b.fs.file(f)
		if st.exists && st.err == nil {
			jobs = append(jobs, job{f, st.data})
		}
	}
	results := make([]*modImports, len(jobs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, j := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			results[i] = b.imports(j.abs, j.data, false)
		}()
	}
	wg.Wait()
	for i, j := range jobs {
		b.facts[j.abs] = results[i]
		b.fs.file(j.abs).data = nil // parsed: the bytes are no longer needed
	}
}

// factsOf returns a parsed file's facts, parsing it now if needed (an
// __init__.py whose names a from-import asks about).
func (b *impactBuild) factsOf(abs string) *modImports {
	if f, ok := b.facts[abs]; ok {
		return f
	}
	b.parse([]string{abs})
	return b.facts[abs]
}

// module adds the edges of one parsed file.
func (b *impactBuild) module(abs string) {
	st := b.fs.file(abs)
	if st.err != nil {
		b.problem(abs, 0, fmt.Sprintf("cannot read: %v", st.err))
		return
	}
	f := b.factsOf(abs)
	if f == nil {
		return
	}
	if f.bad != "" {
		b.problem(abs, f.badLine, f.bad)
	}
	b.packageInit(abs)
	for _, use := range f.imports {
		b.resolveImport(abs, use)
	}
	for _, why := range f.dynamic {
		b.edge(abs, lang.AnyNode, why)
	}
}

// problem records a file the graph cannot trust: it uses everything.
func (b *impactBuild) problem(abs string, line int, what string) {
	why := what
	if line > 0 {
		why = fmt.Sprintf("%s, line %d", what, line)
	}
	b.edge(abs, lang.AnyNode, why)
	b.out.Problems = append(b.out.Problems, testdex.Problem{Severity: testdex.SevWarning, Path: b.node(abs), Line: line,
		Message: fmt.Sprintf("impact graph: %s: what this file imports is not known, so any change in the project selects the tests that use it (fix the file)", what)})
}

// packageInit links a module to the __init__.py of its package, which
// Python runs first (an __init__.py to its parent package's). One not
// written yet is a node too: adding it changes how the module imports.
func (b *impactBuild) packageInit(abs string) {
	dir := filepath.Dir(abs)
	if filepath.Base(abs) == "__init__.py" {
		dir = filepath.Dir(dir)
	}
	if dir == filepath.Dir(dir) {
		return
	}
	b.edge(abs, filepath.Join(dir, "__init__.py"), "package __init__")
}

// resolveImport adds the edges of one import statement of file from.
func (b *impactBuild) resolveImport(from string, use importUse) {
	mod := use.module
	bases := b.roots
	relative := strings.HasPrefix(mod, ".")
	if relative {
		n := len(mod) - len(strings.TrimLeft(mod, "."))
		d := filepath.Dir(from)
		for i := 1; i < n; i++ {
			d = filepath.Dir(d)
		}
		bases, mod = []string{d}, mod[n:]
	}
	var parts []string
	if mod != "" {
		parts = strings.Split(mod, ".")
	}
	r := b.fs.lookup(bases, parts, relative)
	if !r.top {
		return
	}
	var subs []resolved
	for _, name := range use.names {
		if name != "*" && r.ok && len(r.pkgs) > 0 {
			subs = append(subs, b.fs.lookup(r.pkgs, []string{name}, true))
		}
	}
	if r.weak && len(r.files) == 0 && !anyFiles(subs) {
		return // a folder named like an installed module (json/), nothing of it imported
	}
	for _, f := range r.files {
		b.edge(from, f, use.why)
	}
	if !r.ok {
		b.unresolved(from, use.why, r.missing)
		return
	}
	si := 0
	for _, name := range use.names {
		switch {
		case name == "*":
			b.star(from, use, r.pkgs)
		case len(r.pkgs) > 0:
			b.fromPackage(from, use, name, r.pkgs, subs[si])
			si++
		}
	}
}

func anyFiles(rs []resolved) bool {
	for _, r := range rs {
		if len(r.files) > 0 {
			return true
		}
	}
	return false
}

// fromPackage adds the edges of `from pkg import name`: name is a
// submodule, or a name pkg/__init__.py binds; when it is neither, it may
// be a module not written yet.
func (b *impactBuild) fromPackage(from string, use importUse, name string, pkgs []string, sub resolved) {
	why := "from " + use.module + " import " + name
	for _, f := range sub.files {
		b.edge(from, f, why)
	}
	if sub.ok {
		return
	}
	for _, p := range pkgs {
		if f := b.initFacts(p); f != nil && (f.open || f.names[name]) {
			return
		}
	}
	var missing []string
	for _, p := range pkgs {
		missing = append(missing, filepath.Join(p, name+".py"), filepath.Join(p, name, "__init__.py"))
	}
	b.unresolved(from, why, missing)
}

// initFacts returns the facts of a folder's __init__.py with the names it
// binds (parsing it again with tree-sitter if the scan read it), nil when
// it has none or it cannot be read.
func (b *impactBuild) initFacts(dir string) *modImports {
	init := filepath.Join(dir, "__init__.py")
	if !b.fs.isFile(init) {
		return nil
	}
	if f := b.factsOf(init); f == nil || f.named {
		return f
	}
	if f, ok := b.named[init]; ok {
		return f
	}
	data, err := b.in.ReadFile(init)
	var f *modImports
	if err == nil {
		f = b.imports(init, data, true)
	}
	b.named[init] = f
	return f
}

// star adds the submodules `from pkg import *` imports: those its
// __all__ lists, or every one when __all__ is not a literal.
func (b *impactBuild) star(from string, use importUse, pkgs []string) {
	for _, p := range pkgs {
		f := b.initFacts(p)
		if f == nil {
			continue
		}
		if f.allOpen {
			for _, m := range b.fs.pyFiles(p) {
				b.edge(from, m, use.why)
			}
			continue
		}
		for _, name := range f.all {
			sub := b.fs.lookup([]string{p}, []string{name}, true)
			for _, m := range sub.files {
				b.edge(from, m, use.why)
			}
		}
	}
}

// unresolved links an import the project does not satisfy today to
// lang.UnresolvedNode (an added or deleted file may satisfy it) and to the
// files that would satisfy it.
func (b *impactBuild) unresolved(from, why string, missing []string) {
	sort.Strings(missing)
	for _, m := range missing {
		b.edge(from, m, why)
	}
	b.edge(from, lang.UnresolvedNode, why+" (not found)")
}
