package rust

import (
	"slices"

	"github.com/BurntSushi/toml"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Manifest is the part of Cargo.toml that decides a crate's targets.
type Manifest struct {
	Package *struct {
		Name         string `toml:"name"`
		AutoBins     *bool  `toml:"autobins"`
		AutoTests    *bool  `toml:"autotests"`
		AutoExamples *bool  `toml:"autoexamples"`
		AutoBenches  *bool  `toml:"autobenches"`
	} `toml:"package"`
	Lib     *targetSpec  `toml:"lib"`
	Bin     []targetSpec `toml:"bin"`
	Test    []targetSpec `toml:"test"`
	Example []targetSpec `toml:"example"`
	Bench   []targetSpec `toml:"bench"`
	// Features is the [features] table; with the optional dependencies
	// it decides which cfg(feature = "...") gates are on.
	Features map[string][]string `toml:"features"`
	manifestDeps
}

// targetSpec is one [lib], [[bin]], [[test]], [[example]] or [[bench]]
// table; nil booleans take cargo's defaults for the kind.
type targetSpec struct {
	Name    string `toml:"name"`
	Path    string `toml:"path"`
	Test    *bool  `toml:"test"`
	Doctest *bool  `toml:"doctest"`
	Harness *bool  `toml:"harness"`
}

// Crate is a detected crate: its folder, package name and targets.
type Crate struct {
	Dir     string // absolute
	Name    string
	Targets []Target
	// DocPrefix is the crate's folder relative to its workspace root ("" at
	// the root, or without a workspace): rustdoc names doc tests by paths
	// from there (crates/m/src/lib.rs - f (line 1)).
	DocPrefix string
	// trees are the targets' module trees (target root -> its files,
	// crate-relative), computed by the Linker for the Grapher; nil until
	// the crate is linked.
	trees map[string][]string
	// Cfg is what cfg(...) gates are evaluated against: the features
	// cargo test enables and the host. nil keeps every test.
	Cfg *CfgEnv
	// FeatureFlags are the cargo flags of the configured feature
	// selection (--features a,b, --all-features, --no-default-features),
	// passed to every cargo command so that runs and runtime listings
	// compile what the static listing assumed; nil for the defaults.
	FeatureFlags []string
}

// Target is one compilation target of a crate. Root is the crate-relative,
// slash-separated root file (src/lib.rs, tests/it.rs).
type Target struct {
	Kind string // lib, bin, test, example, bench
	Name string
	Root string
	// Tested is true when `cargo test` runs the target's tests: its test
	// flag (cargo's default: true for lib, bins and tests, false for
	// examples and benches) and a libtest harness.
	Tested bool
	// Doctest is true for a library whose doc tests cargo runs.
	Doctest bool
}

// listDir returns the names in a folder, nil when it cannot be read.
func listDir(abs string) []os.DirEntry {
	ents, _ := os.ReadDir(abs)
	return ents
}

// targets computes the targets the way cargo does: the explicit tables,
// plus the auto-discovered files (src/main.rs, src/bin/*, tests/*,
// examples/*, benches/*) unless auto discovery is off for the kind; an
// explicit table overrides the auto target of the same name.
func (m *Manifest) targets(dir string, ls func(string) []os.DirEntry) []Target {
	exists := func(rel string) bool {
		st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel)))
		return err == nil && st.Mode().IsRegular()
	}
	var out []Target
	lib := targetSpec{Path: "src/lib.rs"}
	if m.Lib != nil {
		lib = *m.Lib
		if lib.Path == "" {
			lib.Path = "src/lib.rs"
		}
	}
	if m.Lib != nil || exists(lib.Path) {
		out = append(out, lib.target("lib", m.Package.Name, true, true))
	}
	pkg := m.Package
	auto := func(kind, folder string, on *bool) map[string]string {
		if on != nil && !*on {
			return nil
		}
		return discover(dir, folder, ls)
	}
	bins := auto("bin", "src/bin", pkg.AutoBins)
	if (pkg.AutoBins == nil || *pkg.AutoBins) && exists("src/main.rs") {
		if bins == nil {
			bins = map[string]string{}
		}
		bins[pkg.Name] = "src/main.rs"
	}
	out = append(out, merge("bin", "src/bin", bins, m.Bin, true, exists)...)
	out = append(out, merge("test", "tests", auto("test", "tests", pkg.AutoTests), m.Test, true, exists)...)
	out = append(out, merge("example", "examples", auto("example", "examples", pkg.AutoExamples), m.Example, false, exists)...)
	out = append(out, merge("bench", "benches", auto("bench", "benches", pkg.AutoBenches), m.Bench, false, exists)...)
	return out
}

// discover maps target names to roots in folder: NAME.rs and NAME/main.rs.
func discover(dir, folder string, ls func(string) []os.DirEntry) map[string]string {
	found := map[string]string{}
	for _, e := range ls(filepath.Join(dir, filepath.FromSlash(folder))) {
		name := e.Name()
		switch {
		case e.IsDir():
			if st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(folder), name, "main.rs")); err == nil && st.Mode().IsRegular() {
				found[name] = folder + "/" + name + "/main.rs"
			}
		case strings.HasSuffix(name, ".rs"):
			found[strings.TrimSuffix(name, ".rs")] = folder + "/" + name
		}
	}
	return found
}

// merge combines auto-discovered and explicit targets of one kind, sorted
// by root for a stable order.
func merge(kind, folder string, autos map[string]string, specs []targetSpec, testDefault bool, exists func(string) bool) []Target {
	byName := map[string]Target{}
	for name, root := range autos {
		byName[name] = Target{Kind: kind, Name: name, Root: root, Tested: testDefault}
	}
	for _, s := range specs {
		if s.Path == "" {
			s.Path = folder + "/" + s.Name + ".rs"
			if d := folder + "/" + s.Name + "/main.rs"; !exists(s.Path) && exists(d) {
				s.Path = d
			}
			if a, ok := autos[s.Name]; ok {
				s.Path = a
			}
		}
		byName[s.Name] = s.target(kind, s.Name, testDefault, false)
	}
	out := make([]Target, 0, len(byName))
	for _, t := range byName {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Root < out[j].Root })
	return out
}

// target applies a table's flags over the kind's defaults.
func (s targetSpec) target(kind, name string, testDefault, doctestDefault bool) Target {
	t := Target{Kind: kind, Name: name, Root: path.Clean(filepath.ToSlash(s.Path)), Tested: testDefault, Doctest: doctestDefault}
	if s.Name != "" {
		t.Name = s.Name
	}
	if s.Test != nil {
		t.Tested = *s.Test
	}
	if s.Doctest != nil {
		t.Doctest = *s.Doctest
	}
	if s.Harness != nil && !*s.Harness {
		t.Tested = false // a custom main: libtest's --list does not apply
	}
	return t
}

// workspaceRoot finds the folder of the nearest Cargo.toml at or above dir
// with a [workspace] table that does not exclude dir, and returns dir
// relative to it ("" when none or dir itself).
func workspaceRoot(read func(string) ([]byte, error), dir string) string {
	ws, ok := findWorkspace(read, dir)
	if !ok || ws.Dir == dir {
		return ""
	}
	rel, err := filepath.Rel(ws.Dir, dir)
	if err != nil {
		return ""
	}
	return filepath.ToSlash(rel)
}

// workspace is the nearest [workspace] manifest at or above a crate.
type workspace struct {
	Dir      string // absolute
	Manifest workspaceManifest
}

// workspaceManifest is the part of a workspace root's Cargo.toml that
// the listing and the impact graph read.
type workspaceManifest struct {
	Workspace *struct {
		Exclude      []string       `toml:"exclude"`
		Dependencies map[string]any `toml:"dependencies"`
	} `toml:"workspace"`
	Patch map[string]map[string]any `toml:"patch"`
}

// findWorkspace finds the nearest Cargo.toml at or above dir with a
// [workspace] table; ok is false when there is none, or when it excludes
// dir (the crate is then a workspace of its own, as cargo sees it).
func findWorkspace(read func(string) ([]byte, error), dir string) (workspace, bool) {
	for up, i := dir, 0; i < 32; i++ {
		if data, err := read(filepath.Join(up, "Cargo.toml")); err == nil {
			var m workspaceManifest
			if _, err := toml.Decode(string(data), &m); err == nil && m.Workspace != nil {
				rel, err := filepath.Rel(up, dir)
				if err != nil || slices.Contains(m.Workspace.Exclude, filepath.ToSlash(rel)) {
					return workspace{}, false
				}
				return workspace{Dir: up, Manifest: m}, true
			}
		}
		next := filepath.Dir(up)
		if next == up {
			break
		}
		up = next
	}
	return workspace{}, false
}
