package rust

import (
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/testdex/testdex/internal/lang"
)

// Grapher is the impact graph of one crate, at crate level as cargo
// builds it: a change to the crate's non-test code can affect every test
// of the crate and of the workspace crates that depend on it.
//
//	src/a.rs, tests/it.rs ─(same crate, crate under test)─▶ crate:NAME
//	crate:NAME ─(module)─▶ every file of the lib's and bins' module trees
//	crate:NAME ─(manifest, build script, lock file, cargo config, toolchain)─▶ those files
//	crate:NAME ─(dependency, dev-dependency, build-dependency)─▶ crate:DEP   (workspace path dependencies)
//	tests/it.rs ─(mod)─▶ tests/common/mod.rs        (an integration test's own module tree)
//	any file ─(include_str!)─▶ the file it includes (a literal path)
//
// Owners: every folder under src/ is the crate node's (a file added,
// deleted or read by the code there); every folder under tests/ (not
// tests/ itself, whose files are targets of their own) belongs to a node
// all integration tests use, "DIR/tests/*/**", for helpers and data.
// Global: Cargo.toml, Cargo.lock, the build script, .cargo/config(.toml)
// and rust-toolchain(.toml) of the crate's folder; the same files of the
// workspace root and of the folders above (up to the listed root) are
// edges from the crate node, so that they reach dependent crates too.
//
// Crate nodes are named by package name ("crate:serde"): two crates of
// one name under one root (two workspaces) share a node, which selects
// more, never less. Blind spots: files read at run time by a computed
// path outside src/ and tests/, files proc macros read, code generated
// from something other than the build script's inputs.
type Grapher struct{ Crate *Crate }

// Graph implements lang.Grapher.
func (g Grapher) Graph(in *lang.GraphInput) (*lang.Graph, error) {
	c := g.Crate
	b := &crateGraph{in: in, c: c, node: "crate:" + c.Name, dir: lang.NodeKey(in.Root, c.Dir),
		out: &lang.Graph{Owners: map[string]string{}}}
	b.sources()
	b.build()
	b.deps()
	b.owners()
	return b.out, nil
}

// crateGraph builds one crate's graph.
type crateGraph struct {
	in   *lang.GraphInput
	c    *Crate
	node string // crate:NAME
	dir  string // the crate folder, root-relative ("." at the root)
	out  *lang.Graph
}

func (b *crateGraph) edge(from, to, why string) {
	b.out.Edges = append(b.out.Edges, lang.Edge{From: from, To: to, Why: why})
}

// rel makes a crate-relative path root-relative.
func (b *crateGraph) rel(crateRel string) string { return joinRel(b.dir, crateRel) }

// sources links the test files to the crate node and the crate node to
// the module trees of its library and binaries; a test, example or bench
// target's root uses its own tree.
func (b *crateGraph) sources() {
	trees := b.c.trees
	if trees == nil {
		tr := &treeReader{dir: b.c.Dir, byRel: map[string]*lang.Linked{}, disk: map[string]*facts{}}
		trees = tr.trees(b.c.Targets)
	}
	testTarget := map[string]bool{}
	for _, t := range b.c.Targets {
		tree := trees[t.Root]
		if t.Kind == "lib" || t.Kind == "bin" {
			for _, f := range tree {
				b.edge(b.node, b.rel(f), "module")
			}
		} else {
			for _, f := range tree {
				testTarget[b.rel(f)] = true
				if f != t.Root {
					b.edge(b.rel(t.Root), b.rel(f), "mod")
				}
			}
		}
		for _, f := range tree {
			b.includes(f)
		}
	}
	for _, f := range b.in.Files {
		why := "same crate"
		if testTarget[f] {
			why = "crate under test"
		}
		b.edge(f, b.node, why)
	}
}

// includePat finds include!, include_str! and include_bytes! of a
// literal path, or of concat!(env!("CARGO_MANIFEST_DIR"), "/literal").
var includePat = regexp.MustCompile(`\binclude(_str|_bytes)?!\s*\(\s*(?:"([^"\\]+)"|concat!\s*\(\s*env!\s*\(\s*"CARGO_MANIFEST_DIR"\s*\)\s*,\s*"([^"\\]+)"\s*\))`)

// includes adds an edge from a module file to each file it includes.
func (b *crateGraph) includes(crateRel string) {
	data, err := b.in.ReadFile(filepath.Join(b.c.Dir, filepath.FromSlash(crateRel)))
	if err != nil || len(data) > maxDiskFile {
		return
	}
	for _, m := range includePat.FindAllSubmatch(data, -1) {
		macro := "include" + string(m[1]) + "!"
		switch {
		case len(m[2]) > 0:
			b.edge(b.rel(crateRel), b.rel(path.Join(path.Dir(crateRel), string(m[2]))), macro)
		case len(m[3]) > 0:
			b.edge(b.rel(crateRel), b.rel(path.Clean(strings.TrimPrefix(string(m[3]), "/"))), macro)
		}
	}
}

// build adds the crate's build inputs: global for its own tests, and
// edges from its node so that dependent crates see them too.
func (b *crateGraph) build() {
	script := buildScript(b.in.ReadFile, b.c.Dir)
	b.out.Global = []string{"Cargo.toml", "Cargo.lock", ".cargo/config.toml", ".cargo/config", "rust-toolchain", "rust-toolchain.toml"}
	if script != "" {
		b.out.Global = append(b.out.Global, script)
		b.edge(b.node, b.rel(script), "build script")
	}
	b.edge(b.node, b.rel("Cargo.toml"), "manifest")
	lockDir := b.dir
	if ws, ok := findWorkspace(b.in.ReadFile, b.c.Dir); ok && ws.Dir != b.c.Dir {
		lockDir = lang.NodeKey(b.in.Root, ws.Dir)
		b.edge(b.node, joinRel(lockDir, "Cargo.toml"), "workspace manifest")
	}
	b.edge(b.node, joinRel(lockDir, "Cargo.lock"), "lock file")
	for d := b.dir; ; d = path.Dir(d) {
		if strings.HasPrefix(d, "..") {
			break
		}
		b.edge(b.node, joinRel(d, ".cargo/config.toml"), "cargo config")
		b.edge(b.node, joinRel(d, ".cargo/config"), "cargo config")
		b.edge(b.node, joinRel(d, "rust-toolchain"), "toolchain")
		b.edge(b.node, joinRel(d, "rust-toolchain.toml"), "toolchain")
		if d == "." {
			break
		}
	}
}

// owners maps the folders under src/ to the crate node and those under
// tests/ to the node of the integration tests' shared files.
func (b *crateGraph) owners() {
	for _, d := range lang.Subdirs(filepath.Join(b.c.Dir, "src"), skipFolder) {
		b.out.Owners[b.rel(path.Join("src", d))] = b.node
	}
	shared := b.rel("tests") + "/*/**"
	var found bool
	for _, d := range lang.Subdirs(filepath.Join(b.c.Dir, "tests"), skipFolder) {
		if d != "." {
			b.out.Owners[b.rel(path.Join("tests", d))] = shared
			found = true
		}
	}
	if !found {
		return
	}
	for _, t := range b.c.Targets {
		if t.Kind == "test" && hasPrefixDir(t.Root, "tests") {
			b.edge(b.rel(t.Root), shared, "test support files")
		}
	}
}

// skipFolder leaves target/ and hidden folders out of a crate's owners.
func skipFolder(name string) bool { return name == "target" || strings.HasPrefix(name, ".") }

// joinRel joins a root-relative folder and a path below it.
func joinRel(dir, rel string) string {
	if dir == "." || dir == "" {
		return path.Clean(rel)
	}
	return path.Join(dir, rel)
}
