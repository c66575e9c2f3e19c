package index

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"

	"golang.org/x/mod/modfile"

	"github.com/testdex/testdex"
)

// Project is one project found in the tree: the folder of a manifest.
type Project struct {
	// Dir is the folder relative to the root ("." for the root itself; it
	// starts with "../" for a manifest above the root).
	Dir string `json:"dir"`
	// Kind is the manifest's ecosystem: go, node, python, cargo, maven, gradle.
	Kind string `json:"kind"`
	// Name is the project's own name where the manifest gives one: the Go
	// module path.
	Name string `json:"name,omitempty"`
	// Manifest is the manifest's file name.
	Manifest string `json:"manifest"`

	abs string // the folder, absolute
}

// projects resolves, for each folder, the nearest manifest of each kind. It
// looks above the root too, so that listing a subfolder of a module still
// knows the module path. It is used from one goroutine.
type projects struct {
	root    string              // absolute
	found   map[string][]string // root-relative folder -> manifest names seen by the walk
	walked  map[string]bool     // folders whose manifests the walk reported
	cache   map[string]*Project // "dir\x00kind" -> nearest project, nil when none
	list    map[string]*Project // "dir\x00manifest" -> project
	probs   []testdex.Problem
	outside map[string][]string // folders above the root -> manifests, read lazily
}

func newProjects(root string, found map[string][]string) *projects {
	return &projects{root: root, found: found, cache: map[string]*Project{}, list: map[string]*Project{}, outside: map[string][]string{}}
}

// nearest returns the project of kind for a root-relative folder, or nil.
// Folders inside the root use what the walk saw; explicit file targets and
// folders above the root are checked on disk.
func (ps *projects) nearest(dir, kind string) *Project {
	key := dir + "\x00" + kind
	if p, ok := ps.cache[key]; ok {
		return p
	}
	var p *Project
	for _, m := range ps.manifestsIn(dir) {
		if manifests[m] == kind {
			p = ps.project(dir, m)
			break
		}
	}
	if p == nil {
		if up, ok := ps.parent(dir); ok {
			p = ps.nearest(up, kind)
		}
	}
	ps.cache[key] = p
	return p
}

// parent climbs one folder. Inside the root folders are root-relative;
// above it they are absolute. ok is false at the file system's top.
func (ps *projects) parent(dir string) (string, bool) {
	switch {
	case dir == ".":
		dir = ps.root
	case !filepath.IsAbs(dir):
		return path.Dir(dir), true
	}
	up := filepath.Dir(dir)
	return up, up != dir
}

func (ps *projects) manifestsIn(dir string) []string {
	if ms, ok := ps.found[dir]; ok {
		return ms
	}
	if ms, ok := ps.outside[dir]; ok {
		return ms
	}
	var ms []string
	abs := ps.abs(dir)
	for name := range manifests {
		if st, err := os.Stat(filepath.Join(abs, name)); err == nil && st.Mode().IsRegular() {
			ms = append(ms, name)
		}
	}
	sort.Strings(ms)
	ps.outside[dir] = ms
	return ms
}

func (ps *projects) abs(dir string) string {
	if filepath.IsAbs(dir) {
		return dir
	}
	return filepath.Join(ps.root, filepath.FromSlash(dir))
}

// project returns the Project of manifest m in dir, reading its name once.
func (ps *projects) project(dir, m string) *Project {
	key := dir + "\x00" + m
	if p := ps.list[key]; p != nil {
		return p
	}
	p := &Project{Dir: ps.display(dir), Kind: manifests[m], Manifest: m, abs: ps.abs(dir)}
	if m == "go.mod" {
		p.Name = ps.modulePath(dir)
	}
	ps.list[key] = p
	return p
}

// display renders a folder relative to the root, even above it.
func (ps *projects) display(dir string) string {
	if !filepath.IsAbs(dir) {
		return dir
	}
	rel, err := filepath.Rel(ps.root, dir)
	if err != nil {
		return dir
	}
	return filepath.ToSlash(rel)
}

func (ps *projects) modulePath(dir string) string {
	file := filepath.Join(ps.abs(dir), "go.mod")
	data, err := os.ReadFile(file)
	if err != nil {
		ps.probs = append(ps.probs, testdex.Problem{Severity: testdex.SevError, Path: ps.display(dir) + "/go.mod", Message: "cannot read: " + err.Error()})
		return ""
	}
	mp := modfile.ModulePath(data)
	if mp == "" {
		ps.probs = append(ps.probs, testdex.Problem{Severity: testdex.SevError, Path: ps.display(dir) + "/go.mod", Message: "no module directive; Go import paths are unknown"})
	}
	return mp
}

// all returns every project seen, sorted by folder.
func (ps *projects) all() []Project {
	var out []Project
	for _, p := range ps.list {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Dir != out[j].Dir {
			return out[i].Dir < out[j].Dir
		}
		return out[i].Manifest < out[j].Manifest
	})
	return slices.Clip(out)
}

// goImportPath is the import path of the package in folder absDir, given
// its module. The standard library's module "std" has import paths without
// a module prefix, as go list reports them.
func goImportPath(mod *Project, absDir string) string {
	r, err := filepath.Rel(mod.abs, absDir)
	if err != nil {
		return filepath.ToSlash(absDir)
	}
	rel := filepath.ToSlash(r)
	switch {
	case mod.Name == "std":
		return rel
	case rel == ".":
		return mod.Name
	}
	return mod.Name + "/" + rel
}
