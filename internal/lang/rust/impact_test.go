package rust_test

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/changes"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/impacttest"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/rust"
)

// workspaceTree is a cargo workspace: a is a library with a submodule,
// an included README and two integration tests (one with a shared
// module); b depends on a by path, d through [workspace.dependencies];
// c depends on nothing of the tree; e uses a only as a dev-dependency
// patched in by [patch.crates-io].
var workspaceTree = map[string]string{
	"Cargo.toml": `[workspace]
members = ["a", "b", "c", "d", "e"]

[workspace.dependencies]
a = { path = "a" }

[patch.crates-io]
a = { path = "a" }
`,
	"Cargo.lock":   "# lock\n",
	"a/Cargo.toml": "[package]\nname = \"a\"\n",
	"a/README.md":  "# a\n",
	"a/src/lib.rs": `#![doc = include_str!("../README.md")]
mod parse;

#[cfg(test)]
mod tests {
    #[test]
    fn lib_works() {}
}
`,
	"a/src/parse.rs":        "pub fn parse() {}\n\n#[test]\nfn parses() {}\n",
	"a/src/data/table.txt":  "1\n",
	"a/tests/it.rs":         "mod common;\n\n#[test]\nfn it() { common::help() }\n",
	"a/tests/common/mod.rs": "pub fn help() {}\n",
	"a/tests/other.rs":      "#[test]\nfn other() {}\n",
	"b/Cargo.toml":          "[package]\nname = \"b\"\n\n[dependencies]\nalpha = { path = \"../a\", package = \"a\" }\n",
	"b/src/lib.rs":          "#[test]\nfn b_works() {}\n",
	"c/Cargo.toml":          "[package]\nname = \"c\"\n\n[dev-dependencies]\nserde = \"1\"\n",
	"c/src/lib.rs":          "#[test]\nfn c_works() {}\n",
	"d/Cargo.toml":          "[package]\nname = \"d\"\n\n[target.'cfg(unix)'.dependencies]\na = { workspace = true }\n",
	"d/src/lib.rs":          "#[test]\nfn d_works() {}\n",
	"e/Cargo.toml":          "[package]\nname = \"e\"\n\n[dev-dependencies]\na = \"1\"\n",
	"e/src/lib.rs":          "#[test]\nfn e_works() {}\n",
}

// writeTree writes files under a new temporary folder and returns it.
func writeTree(t *testing.T, files map[string]string) string { return impacttest.WriteTree(t, files) }

// affected lists the tree's cargo tests, then selects for the named
// changed files: the selected files that declare tests, with reasons.
func affected(t *testing.T, root string, changed ...string) map[string]string {
	return impacttest.Affected(t, root, testdex.Cargo, changed...)
}

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestGraphSelects checks each rule of the crate graph on workspaceTree:
// which test files a change selects (the reasons of a few in full).
func TestGraphSelects(t *testing.T) {
	root := writeTree(t, workspaceTree)
	aAll := []string{"a/src/lib.rs", "a/src/parse.rs", "a/tests/it.rs", "a/tests/other.rs"}
	dependents := []string{"b/src/lib.rs", "d/src/lib.rs", "e/src/lib.rs"}
	for _, c := range []struct {
		name    string
		changed []string
		want    []string
	}{
		{"a module of a: a's tests and its dependents'", []string{"a/src/parse.rs"}, append(aAll, dependents...)},
		{"a file added to a's src", []string{"a/src/new.rs"}, append(aAll, dependents...)},
		{"a data file in a's src", []string{"a/src/data/table.txt"}, append(aAll, dependents...)},
		{"a file a's lib includes", []string{"a/README.md"}, append(aAll, dependents...)},
		{"a's manifest", []string{"a/Cargo.toml"}, append(aAll, dependents...)},
		{"an unrelated crate", []string{"c/src/lib.rs"}, []string{"c/src/lib.rs"}},
		{"a dependent crate: not its dependency", []string{"b/src/lib.rs"}, []string{"b/src/lib.rs"}},
		{"one integration test", []string{"a/tests/other.rs"}, []string{"a/tests/other.rs"}},
		{"an integration test's helper module", []string{"a/tests/common/mod.rs"}, []string{"a/tests/it.rs", "a/tests/other.rs"}},
		{"the lock file", []string{"Cargo.lock"}, append(append(aAll, dependents...), "c/src/lib.rs")},
		{"the workspace manifest", []string{"Cargo.toml"}, append(append(aAll, dependents...), "c/src/lib.rs")},
		{"a build script added to c", []string{"c/build.rs"}, []string{"c/src/lib.rs"}},
		{"a toolchain file at the root", []string{"rust-toolchain.toml"}, append(append(aAll, dependents...), "c/src/lib.rs")},
		{"a file outside every crate", []string{"docs/x.md"}, []string{}},
	} {
		got := keys(affected(t, root, c.changed...))
		want := append([]string{}, c.want...)
		sort.Strings(want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: selected\n  %q\nwant\n  %q", c.name, got, want)
		}
	}
}

// TestGraphReasons pins the chains users read.
func TestGraphReasons(t *testing.T) {
	root := writeTree(t, workspaceTree)
	got := affected(t, root, "a/src/parse.rs")
	for file, want := range map[string]string{
		"a/src/lib.rs":  "a/src/lib.rs → (same crate) crate:a → (changed) a/src/parse.rs",
		"a/tests/it.rs": "a/tests/it.rs → (crate under test) crate:a → (changed) a/src/parse.rs",
		"b/src/lib.rs":  "b/src/lib.rs → (same crate) crate:b → (dependency) crate:a → (changed) a/src/parse.rs",
		"e/src/lib.rs":  "e/src/lib.rs → (same crate) crate:e → (dev-dependency) crate:a → (changed) a/src/parse.rs",
	} {
		if got[file] != want {
			t.Errorf("%s: reason %q, want %q", file, got[file], want)
		}
	}
	got = affected(t, root, "a/tests/common/mod.rs")
	if want := "a/tests/it.rs → (changed) a/tests/common/mod.rs"; got["a/tests/it.rs"] != want {
		t.Errorf("it.rs: reason %q, want %q", got["a/tests/it.rs"], want)
	}
	got = affected(t, root, "a/Cargo.toml")
	if want := "changed a/Cargo.toml (every test of the project depends on it)"; got["a/src/lib.rs"] != want {
		t.Errorf("lib.rs: reason %q, want %q", got["a/src/lib.rs"], want)
	}
}

// TestGraphUnlinked: a crate the Linker has not seen (its trees unknown)
// still gets its module tree, read from disk, and the Global files.
func TestGraphUnlinked(t *testing.T) {
	root := writeTree(t, workspaceTree)
	env := &lang.DetectEnv{Root: root, ReadFile: os.ReadFile}
	p, probs := rust.Detector.Detect(env, filepath.Join(root, "a"), []string{"Cargo.toml"})
	if p == nil || len(probs) > 0 {
		t.Fatalf("detect: %v %v", p, probs)
	}
	g, err := p.Grapher.Graph(&lang.GraphInput{Project: p, Root: root, Files: []string{"a/tests/it.rs"}, ReadFile: os.ReadFile})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []lang.Edge{
		{From: "crate:a", To: "a/src/parse.rs", Why: "module"},
		{From: "a/src/lib.rs", To: "a/README.md", Why: "include_str!"},
		{From: "a/tests/it.rs", To: "a/tests/common/mod.rs", Why: "mod"},
		{From: "a/tests/it.rs", To: "crate:a", Why: "crate under test"},
		{From: "crate:a", To: "Cargo.toml", Why: "workspace manifest"},
		{From: "crate:a", To: "Cargo.lock", Why: "lock file"},
		{From: "crate:a", To: "a/build.rs", Why: "build script"},
	} {
		if !slices.Contains(g.Edges, want) {
			t.Errorf("no edge %v in %v", want, g.Edges)
		}
	}
	if g.Owners["a/src/data"] != "crate:a" || g.Owners["a/tests/common"] != "a/tests/*/**" {
		t.Errorf("owners = %v", g.Owners)
	}
	if !slices.Contains(g.Global, "build.rs") || !slices.Contains(g.Global, "Cargo.lock") {
		t.Errorf("global = %v", g.Global)
	}
}

// TestBrokenRust: cargo compiles a crate target as a whole, and the graph
// is at crate level, so a change of a crate source that breaks its build
// (a stray brace, a NUL byte, a call to a function declared nowhere)
// already selects every test of the crate and of the crates that depend
// on it; a broken integration test fails its own target only (testdex
// runs cargo test --no-fail-fast, which builds the other targets).
func TestBrokenRust(t *testing.T) {
	aAll := []string{"a/src/lib.rs", "a/src/parse.rs", "a/tests/it.rs", "a/tests/other.rs"}
	dependents := []string{"b/src/lib.rs", "d/src/lib.rs", "e/src/lib.rs"}
	for _, c := range []struct {
		name, file, content string
		want                []string
	}{
		{"stray brace", "a/src/parse.rs", "pub fn parse() {}\n}\n\n#[test]\nfn parses() {}\n", append(aAll, dependents...)},
		{"NUL byte", "a/src/parse.rs", "pub fn parse() {}\x00\n\n#[test]\nfn parses() {}\n", append(aAll, dependents...)},
		{"undefined call", "a/src/parse.rs", "pub fn parse() { undefined() }\n\n#[test]\nfn parses() {}\n", append(aAll, dependents...)},
		{"a broken crate root", "a/src/lib.rs", "mod parse;\n}\n", append(aAll, dependents...)},
		{"a broken integration test", "a/tests/other.rs", "#[test]\nfn other() { undefined() }}\n", []string{"a/tests/other.rs"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tree := maps.Clone(workspaceTree)
			tree[c.file] = c.content
			root := writeTree(t, tree)
			ix, err := index.Build(context.Background(), index.Options{Root: root, Frameworks: []testdex.Framework{testdex.Cargo}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, a := range changes.Build(ix).Select(ix, changes.Set{{Path: c.file, Status: changes.Modified}}) {
				got = append(got, a.File)
			}
			want := slices.Sorted(slices.Values(c.want))
			if !slices.Equal(got, want) {
				t.Errorf("selected\n  %q\nwant\n  %q", got, want)
			}
		})
	}
}
