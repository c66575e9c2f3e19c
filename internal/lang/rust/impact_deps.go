package rust

import (
	"maps"
	"path/filepath"
	"slices"

	"github.com/BurntSushi/toml"
)

// depTables are a manifest's dependency tables, by kind; each value is a
// version string or a table (path, workspace, package, ...).
type depTables struct {
	Dependencies       map[string]any `toml:"dependencies"`
	DevDependencies    map[string]any `toml:"dev-dependencies"`
	DevDependencies2   map[string]any `toml:"dev_dependencies"`
	BuildDependencies  map[string]any `toml:"build-dependencies"`
	BuildDependencies2 map[string]any `toml:"build_dependencies"`
}

// kinds pairs each table with the edge's Why.
func (t depTables) kinds() []struct {
	why   string
	table map[string]any
} {
	return []struct {
		why   string
		table map[string]any
	}{
		{"dependency", t.Dependencies},
		{"dev-dependency", t.DevDependencies}, {"dev-dependency", t.DevDependencies2},
		{"build-dependency", t.BuildDependencies}, {"build-dependency", t.BuildDependencies2},
	}
}

// depManifest is the part of a crate's Cargo.toml its dependencies are
// read from: the top-level tables and [target.'cfg(...)'.*] ones.
type depManifest struct {
	Dependencies       map[string]any            `toml:"dependencies"`
	DevDependencies    map[string]any            `toml:"dev-dependencies"`
	DevDependencies2   map[string]any            `toml:"dev_dependencies"`
	BuildDependencies  map[string]any            `toml:"build-dependencies"`
	BuildDependencies2 map[string]any            `toml:"build_dependencies"`
	Target             map[string]depTables      `toml:"target"`
	Patch              map[string]map[string]any `toml:"patch"`
	Package            *struct {
		Name  string `toml:"name"`
		Build any    `toml:"build"`
	} `toml:"package"`
}

func (m *depManifest) tables() []depTables {
	out := []depTables{{m.Dependencies, m.DevDependencies, m.DevDependencies2, m.BuildDependencies, m.BuildDependencies2}}
	for _, k := range slices.Sorted(maps.Keys(m.Target)) {
		out = append(out, m.Target[k])
	}
	return out
}

// readDepManifest reads dir/Cargo.toml; ok is false when it cannot be
// read or decoded.
func readDepManifest(read func(string) ([]byte, error), dir string) (depManifest, bool) {
	var m depManifest
	data, err := read(filepath.Join(dir, "Cargo.toml"))
	if err != nil {
		return m, false
	}
	_, err = toml.Decode(string(data), &m)
	return m, err == nil
}

// buildScript is the crate's build script, crate-relative: package.build
// when it is a path, "" when it is false, else build.rs (whether or not
// it exists yet: adding one changes the build).
func buildScript(read func(string) ([]byte, error), dir string) string {
	m, ok := readDepManifest(read, dir)
	if ok && m.Package != nil {
		switch v := m.Package.Build.(type) {
		case bool:
			if !v {
				return ""
			}
		case string:
			return filepath.ToSlash(filepath.Clean(v))
		}
	}
	return "build.rs"
}

// deps links the crate node to the crates of the tree it depends on:
// path dependencies, `workspace = true` ones whose [workspace.dependencies]
// entry has a path, and registry dependencies a [patch] replaces by a
// path. Versions from a registry or git are not in the tree: no edge.
func (b *crateGraph) deps() {
	m, ok := readDepManifest(b.in.ReadFile, b.c.Dir)
	if !ok {
		return // the Detector already reported it
	}
	ws, hasWS := findWorkspace(b.in.ReadFile, b.c.Dir)
	patchDir, patches := b.c.Dir, m.Patch
	if hasWS {
		patchDir, patches = ws.Dir, ws.Manifest.Patch
	}
	seen := map[string]bool{}
	for _, t := range m.tables() {
		for _, k := range t.kinds() {
			for _, key := range slices.Sorted(maps.Keys(k.table)) {
				dir, pkg := resolveDep(key, k.table[key], b.c.Dir, ws, hasWS)
				if dir == "" {
					dir = patched(pkg, patchDir, patches)
				}
				if dir == "" || dir == b.c.Dir {
					continue
				}
				if dm, ok := readDepManifest(b.in.ReadFile, dir); ok && dm.Package != nil && dm.Package.Name != "" {
					pkg = dm.Package.Name
				}
				if node := "crate:" + pkg; !seen[node+k.why] {
					seen[node+k.why] = true
					b.edge(b.node, node, k.why)
				}
			}
		}
	}
}

// resolveDep returns the folder of a dependency given by path (directly
// or through the workspace's table) and its package name as declared
// ("" folder for a registry or git dependency).
func resolveDep(key string, v any, crateDir string, ws workspace, hasWS bool) (dir, pkg string) {
	pkg = key
	entry, _ := v.(map[string]any)
	if p, ok := entry["package"].(string); ok && p != "" {
		pkg = p
	}
	if p, ok := entry["path"].(string); ok && p != "" {
		return filepath.Join(crateDir, filepath.FromSlash(p)), pkg
	}
	if inherit, _ := entry["workspace"].(bool); !inherit || !hasWS || ws.Manifest.Workspace == nil {
		return "", pkg
	}
	wentry, _ := ws.Manifest.Workspace.Dependencies[key].(map[string]any)
	if p, ok := wentry["package"].(string); ok && p != "" {
		pkg = p
	}
	if p, ok := wentry["path"].(string); ok && p != "" {
		return filepath.Join(ws.Dir, filepath.FromSlash(p)), pkg
	}
	return "", pkg
}

// patched returns the folder a [patch.SOURCE] table gives package pkg,
// "" when no patch names it with a path.
func patched(pkg, base string, patches map[string]map[string]any) string {
	for _, src := range slices.Sorted(maps.Keys(patches)) {
		for key, v := range patches[src] {
			entry, _ := v.(map[string]any)
			name := key
			if p, ok := entry["package"].(string); ok && p != "" {
				name = p
			}
			if p, ok := entry["path"].(string); ok && p != "" && name == pkg {
				return filepath.Join(base, filepath.FromSlash(p))
			}
		}
	}
	return ""
}
