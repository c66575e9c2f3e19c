package js

import (
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Grapher is the node ecosystem's impact graph (lang.Grapher): the module
// graph of a project's test files, read with tree-sitter and resolved the
// way Node, TypeScript, Jest and Vite resolve, without running anything.
//
//	test files + setup files ──scan──▶ import, export from, require,
//	    import(), jest.mock, vi.mock, path strings
//	  ──resolve──▶ mappings (moduleNameMapper, aliases, tsconfig paths),
//	    relative paths (extensions, .js → .ts, index, package.json),
//	    #imports, baseUrl, workspace packages (exports, main, source of
//	    dist), __mocks__
//	  ──▶ edges; each file reached is scanned in turn (bounded workers)
//
// What cannot be resolved selects more, never less: a computed import
// (require(name), import.meta.glob) and a file that does not parse reach
// lang.AnyNode; a relative path naming no file reaches
// lang.UnresolvedNode; a bare specifier that no installed package
// explains while a mapping could not be read reaches lang.AnyNode. A
// package outside the repository (node_modules) gives no edge: its
// changes come through the lock file, which is global.
//
// Existence checks and folder listings (workspace globs, tsconfig*.json)
// use the file system; contents come from GraphInput.ReadFile.
var Grapher lang.Grapher = grapher{}

type grapher struct{}

func (grapher) Graph(in *lang.GraphInput) (*lang.Graph, error) {
	r := &resolver{root: filepath.Clean(in.Root), proj: filepath.Clean(in.Project.Dir), readFile: in.ReadFile}
	var fws []testdex.Framework
	for _, s := range in.Project.Frameworks {
		fws = append(fws, s.Framework)
	}
	var wsRoot string
	r.packages, wsRoot = r.workspace()
	r.cfg = readProjectConfig(r, fws)
	c := &crawl{in: in, r: r, seen: map[string]bool{}, edges: map[[2]string]string{}, trees: map[string]bool{}, configs: map[string]bool{},
		sem: make(chan struct{}, runtime.GOMAXPROCS(0))} // parsing is CPU-bound
	for _, s := range r.cfg.setup {
		if s.why == "config" {
			c.configs[s.file] = true
		}
	}
	for _, f := range in.Files {
		c.visit(filepath.Join(r.root, filepath.FromSlash(f)))
		for _, s := range r.cfg.setup {
			if c.r.inRoot(s.file) {
				c.edge(f, c.rel(s.file), s.why)
			}
		}
	}
	for _, s := range r.cfg.setup {
		c.visit(s.file)
	}
	c.wg.Wait()
	g := &lang.Graph{Global: append(r.cfg.globals, c.enclosing(wsRoot)...), Problems: c.probs, Owners: c.owners()}
	for k, why := range c.edges {
		g.Edges = append(g.Edges, lang.Edge{From: k[0], To: k[1], Why: why})
	}
	sort.Slice(g.Edges, func(i, j int) bool {
		a, b := g.Edges[i], g.Edges[j]
		if a.From != b.From {
			return a.From < b.From
		}
		if a.To != b.To {
			return a.To < b.To
		}
		return a.Why < b.Why
	})
	sort.Slice(g.Problems, func(i, j int) bool { return g.Problems[i].Path < g.Problems[j].Path })
	return g, nil
}

// read reads a file through the input's ReadFile.
func (r *resolver) read(p string) ([]byte, error) { return r.readFile(p) }

// crawl scans the files reached from the test files, each once, in
// parallel, and gathers the edges.
type crawl struct {
	in    *lang.GraphInput
	r     *resolver
	mu    sync.Mutex
	seen  map[string]bool
	edges map[[2]string]string // from, to -> why
	trees map[string]bool      // root-relative folders whose node is used
	// configs are the framework config files (absolute), read only for
	// their imports.
	configs map[string]bool
	probs   []testdex.Problem
	wg      sync.WaitGroup
	sem     chan struct{}
}

// scanned are the extensions whose imports are read; other files (JSON,
// styles, images) are leaves.
var scanned = map[string]bool{".js": true, ".jsx": true, ".mjs": true, ".cjs": true, ".ts": true, ".tsx": true,
	".mts": true, ".cts": true, ".vue": true, ".svelte": true, ".astro": true}

// visit scans a file once, in a worker, when it is source in the root.
func (c *crawl) visit(abs string) {
	if !scanned[filepath.Ext(abs)] || !c.r.inRoot(abs) || inNodeModules(abs) {
		return
	}
	c.mu.Lock()
	seen := c.seen[abs]
	c.seen[abs] = true
	c.mu.Unlock()
	if seen {
		return
	}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		c.sem <- struct{}{}
		defer func() { <-c.sem }()
		c.file(abs)
	}()
}

// file scans one file and resolves what it uses.
func (c *crawl) file(abs string) {
	rel := c.rel(abs)
	defer func() {
		if p := recover(); p != nil {
			c.problem(rel, 0, fmt.Sprintf("internal error reading imports (please report it): %v", p))
			c.edge(rel, lang.AnyNode, "imports not read (internal error)")
		}
	}()
	res, err, readErr := scanCached(c.in, abs)
	if readErr != nil {
		c.problem(rel, 0, "cannot read it for the impact graph: "+readErr.Error()+"; any change in the project selects the tests that use it")
		c.edge(rel, lang.AnyNode, "unreadable")
		return
	}
	if err != nil {
		c.problem(rel, 0, "cannot parse it for the impact graph: "+err.Error()+"; any change in the project selects the tests that use it")
		c.edge(rel, lang.AnyNode, "imports not read")
		return
	}
	if res.syntaxLine > 0 {
		c.problem(rel, res.syntaxLine, "syntax error where an import may be; any change in the project selects the tests that use this file (fix it, or check it with tsc or node --check)")
		c.edge(rel, lang.AnyNode, fmt.Sprintf("syntax error at line %d", res.syntaxLine))
	}
	for _, rf := range res.refs {
		if rf.path && c.configs[abs] {
			continue // a config's paths are read as settings ("@": "./src" is no use of src)
		}
		c.ref(abs, rel, rf)
	}
	c.scope(abs, rel)
}

// ref adds the edges of one reference and visits the files it reaches.
func (c *crawl) ref(abs, rel string, rf ref) {
	if rf.spec == "" {
		dir, _ := path.Split(rf.prefix)
		if d := filepath.Join(filepath.Dir(abs), filepath.FromSlash(dir)); isRelative(rf.prefix) && dir != "" && c.r.stat(d) == statDir {
			c.tree(rel, d, rf.expr)
			return
		}
		c.edge(rel, lang.AnyNode, rf.expr)
		return
	}
	targets, out, note := c.r.resolve(abs, rf)
	switch out {
	case missing:
		if !rf.path {
			c.edge(rel, lang.UnresolvedNode, rf.kind+" "+rf.spec+" (no such file)")
		}
	case unknown:
		c.edge(rel, lang.AnyNode, rf.kind+" "+rf.spec+" ("+note+")")
	}
	for _, t := range targets {
		if !c.r.inRoot(t.file) || inNodeModules(t.file) || t.file == abs {
			continue
		}
		why := rf.kind
		if t.via != "" {
			why += " via " + t.via
		}
		if t.tree {
			c.tree(rel, t.file, why)
			continue
		}
		c.edge(rel, c.rel(t.file), why)
		if !t.mock || c.r.stat(t.file) == statFile {
			c.visit(t.file)
		}
	}
}

// scope adds the edges from a file to what governs it outside the
// project's global files: the package.json of a nested package (its
// "type", "imports", "exports") and tsconfig files outside the project.
func (c *crawl) scope(abs, rel string) {
	dir := filepath.Dir(abs)
	if _, pdir := c.r.nearestPackage(dir); pdir != "" && pdir != c.r.proj {
		c.edge(rel, c.rel(filepath.Join(pdir, "package.json")), "package.json")
	}
	for _, tc := range c.r.tsconfigs(dir) {
		for _, f := range tc.files {
			if c.r.inRoot(f) && !inNodeModules(f) && !c.inProject(f) {
				c.edge(rel, c.rel(f), "tsconfig")
			}
		}
	}
}

// enclosing returns the project-relative globs of the manifests, lock
// files and babel configs of the folders above the project (up to the
// root) that hold a package.json: a workspace root installs the
// project's dependencies.
func (c *crawl) enclosing(wsRoot string) []string {
	var out []string
	for d := filepath.Dir(c.r.proj); c.r.inRoot(d) && d != c.r.proj; d = filepath.Dir(d) {
		if d == wsRoot || c.r.stat(filepath.Join(d, "package.json")) == statFile {
			rel, err := filepath.Rel(c.r.proj, d)
			if err != nil {
				break
			}
			for _, n := range enclosingFiles {
				out = append(out, globEscape(filepath.ToSlash(rel))+"/"+n)
			}
		}
		if d == c.r.root {
			break
		}
	}
	return out
}

// enclosingFiles are the files of an enclosing package that matter.
var enclosingFiles = []string{"package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml",
	"pnpm-workspace.yaml", "bun.lock", "bun.lockb", ".pnp.cjs", ".yarnrc.yml", ".npmrc", "babel.config.*"}

// tree records that from may use any file below the folder dir: an
// edge to the folder's node, which Owners make every file below reach
// (one added later included), and from the node to each file below it,
// whose imports are read in turn (a locale a computed import loads uses
// modules of its own) and whose contents count in a fingerprint. A
// folder of more than maxTree files stands for any change.
func (c *crawl) tree(from, dir, why string) {
	if !c.r.inRoot(dir) {
		c.edge(from, lang.AnyNode, why)
		return
	}
	rel := c.rel(dir)
	node := treeNode(rel)
	c.edge(from, node, why)
	c.mu.Lock()
	seen := c.trees[rel]
	c.trees[rel] = true
	c.mu.Unlock()
	if seen {
		return
	}
	var files []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir() && p != dir && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")):
			return filepath.SkipDir
		case !d.IsDir():
			files = append(files, p)
		}
		if len(files) > maxTree {
			return fs.SkipAll
		}
		return nil
	})
	if len(files) > maxTree {
		c.edge(node, lang.AnyNode, fmt.Sprintf("more than %d files", maxTree))
		return
	}
	for _, f := range files {
		c.edge(node, c.rel(f), "in folder")
		c.visit(f)
	}
}

// maxTree bounds the files a folder node lists.
const maxTree = 5000

func treeNode(rel string) string { return rel + "/**" }

// owners makes each folder node the owner of the files below it. A file
// reaches only the nearest folder's node, so a folder's node uses the
// nodes of the folders inside it.
func (c *crawl) owners() map[string]string {
	if len(c.trees) == 0 {
		return nil
	}
	out := map[string]string{}
	for d := range c.trees {
		out[treeNode(d)] = treeNode(d)
		for up := path.Dir(d); ; up = path.Dir(up) {
			if c.trees[up] && up != d {
				c.edges[[2]string{treeNode(up), treeNode(d)}] = "contains"
				break
			}
			if up == "." || up == "/" {
				break
			}
		}
	}
	return out
}

func (c *crawl) inProject(abs string) bool {
	return strings.HasPrefix(abs, c.r.proj+string(filepath.Separator))
}

// rel is a root-relative slash path.
func (c *crawl) rel(abs string) string { return lang.NodeKey(c.r.root, abs) }

// edge records that from uses to; of several reasons for one edge, the
// first is kept, unless it is a mere path string.
func (c *crawl) edge(from, to, why string) {
	c.mu.Lock()
	k := [2]string{from, to}
	if old, ok := c.edges[k]; !ok || old == "path string" {
		c.edges[k] = why
	}
	c.mu.Unlock()
}

func (c *crawl) problem(rel string, line int, msg string) {
	c.mu.Lock()
	c.probs = append(c.probs, testdex.Problem{Severity: testdex.SevWarning, Path: rel, Line: line, Message: msg})
	c.mu.Unlock()
}

func inNodeModules(p string) bool {
	return strings.Contains(filepath.ToSlash(p), "/node_modules/")
}
