package golang

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
)

// module is a module whose sources are in the tree: the project's own, a
// go.work module, a replacement by a local path, the standard library
// (for the std and cmd modules of GOROOT/src), or a vendor folder.
type module struct {
	// path is the module path; "std" for the standard library, "" for a
	// vendor folder (its packages keep their import paths).
	path string
	dir  string // absolute
	// vendor is the vendor folder its packages' other imports resolve
	// in, "" for none.
	vendor string
}

// workspace is what resolves an import path to a folder: the local
// modules, longest path first, and the vendor folders. It reads go.mod,
// go.work and the folders' existence; it never asks the network or the
// module cache: an import that no local module holds is outside the tree,
// where no change can happen (only go.mod and go.sum select for it).
type workspace struct {
	main   *module
	mods   []*module // the local modules but std, longest path first
	std    *module   // the standard library, when the project is std or cmd
	vendor map[string]*module
	// global are the project-relative globs every test depends on.
	global []string
	isDir  map[string]bool // folder -> exists (a cache)
	isFile map[string]bool
}

// errNoModule is returned for a project without a readable module path.
var errNoModule = errors.New("no module path in go.mod")

// loadWorkspace reads the project's go.mod, the go.work above it, and
// the go.mod of every module they name by a local path.
func loadWorkspace(read func(string) ([]byte, error), root, dir string) (*workspace, error) {
	ws := &workspace{vendor: map[string]*module{}, isDir: map[string]bool{}, isFile: map[string]bool{}}
	f, err := parseMod(read, dir)
	if err != nil {
		return nil, err
	}
	ws.main = &module{path: f.Module.Mod.Path, dir: dir}
	ws.global = []string{"go.mod", "go.sum", "vendor/modules.txt"}
	switch ws.main.path {
	case "std":
		ws.main.vendor = filepath.Join(dir, "vendor")
		ws.std = ws.main
	case "cmd":
		ws.main.vendor = filepath.Join(dir, "vendor")
		if g, err := parseMod(read, filepath.Dir(dir)); err == nil && g.Module.Mod.Path == "std" {
			ws.std = &module{path: "std", dir: filepath.Dir(dir), vendor: filepath.Join(filepath.Dir(dir), "vendor")}
			ws.addGlobal(root, filepath.Join(ws.std.dir, "go.mod"))
		}
	}
	if ws.main.path != "std" {
		ws.mods = append(ws.mods, ws.main)
	}
	ws.replace(read, root, f.Replace, dir)
	vendor := ""
	if ws.fileExists(filepath.Join(dir, "vendor", "modules.txt")) {
		vendor = filepath.Join(dir, "vendor")
	}
	if wdir, wf := findWork(read, root, dir, ws); wf != nil {
		if ws.fileExists(filepath.Join(wdir, "vendor", "modules.txt")) {
			vendor = filepath.Join(wdir, "vendor")
			ws.addGlobal(root, filepath.Join(vendor, "modules.txt"))
		}
		for _, u := range wf.Use {
			ws.use(read, root, filepath.Join(wdir, filepath.FromSlash(u.Path)))
		}
		ws.replace(read, root, wf.Replace, wdir)
	}
	for _, m := range ws.mods {
		if m.path != "cmd" {
			m.vendor = vendor
		}
	}
	sort.SliceStable(ws.mods, func(i, j int) bool { return len(ws.mods[i].path) > len(ws.mods[j].path) })
	return ws, nil
}

// parseMod parses dir/go.mod; a module path is required.
func parseMod(read func(string) ([]byte, error), dir string) (*modfile.File, error) {
	name := filepath.Join(dir, "go.mod")
	data, err := read(name)
	if err != nil {
		return nil, err
	}
	f, err := modfile.Parse(name, data, nil)
	if err != nil {
		if f, err = modfile.ParseLax(name, data, nil); err != nil {
			return nil, err
		}
	}
	if f.Module == nil || f.Module.Mod.Path == "" {
		return nil, fmt.Errorf("%s: %w", name, errNoModule)
	}
	return f, nil
}

// findWork finds the go.work the go command would use in dir: the first
// in dir or a folder above it. Every go.work that could appear there
// within the root is a global file (adding one changes the build).
func findWork(read func(string) ([]byte, error), root, dir string, ws *workspace) (string, *modfile.WorkFile) {
	for d := dir; ; d = filepath.Dir(d) {
		ws.addGlobal(root, filepath.Join(d, "go.work"))
		ws.addGlobal(root, filepath.Join(d, "go.work.sum"))
		name := filepath.Join(d, "go.work")
		if data, err := read(name); err == nil {
			if wf, err := modfile.ParseWork(name, data, nil); err == nil {
				return d, wf
			}
			return "", nil // go refuses a go.work it cannot parse: no test runs
		}
		if filepath.Dir(d) == d {
			return "", nil
		}
	}
}

// use adds a go.work module.
func (ws *workspace) use(read func(string) ([]byte, error), root, dir string) {
	if dir == ws.main.dir {
		return
	}
	f, err := parseMod(read, dir)
	if err != nil {
		return
	}
	ws.add(root, &module{path: f.Module.Mod.Path, dir: dir})
	ws.replace(read, root, f.Replace, dir)
}

// replace adds the replacements by a local path (relative to dir, where
// the go.mod or go.work that declares them is). A replacement of one
// version only is applied to all: more edges, never fewer.
func (ws *workspace) replace(read func(string) ([]byte, error), root string, reps []*modfile.Replace, dir string) {
	for _, r := range reps {
		if r.New.Version != "" || !modfile.IsDirectoryPath(r.New.Path) {
			continue
		}
		target := filepath.FromSlash(r.New.Path)
		if !filepath.IsAbs(target) {
			target = filepath.Join(dir, target)
		}
		ws.add(root, &module{path: r.Old.Path, dir: target})
	}
}

// add adds a local module (the first of a path wins) and its go.mod and
// go.sum as global files.
func (ws *workspace) add(root string, m *module) {
	for _, o := range ws.mods {
		if o.path == m.path {
			return
		}
	}
	ws.mods = append(ws.mods, m)
	ws.addGlobal(root, filepath.Join(m.dir, "go.mod"))
	ws.addGlobal(root, filepath.Join(m.dir, "go.sum"))
}

// addGlobal adds an absolute file as a project-relative glob, when it lies
// within the root (no change is ever seen outside it).
func (ws *workspace) addGlobal(root, abs string) {
	r, err := filepath.Rel(root, abs)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return
	}
	p, err := filepath.Rel(ws.main.dir, abs)
	if err != nil {
		return
	}
	g := filepath.ToSlash(p)
	for _, o := range ws.global {
		if o == g {
			return
		}
	}
	ws.global = append(ws.global, g)
}

// resolution says where an import path leads.
type resolution int

const (
	external   resolution = iota // outside the tree (module cache): ignored
	local                        // a folder of a local module or vendor folder
	unresolved                   // a local module's path with no folder today
)

// resolve finds the folder of an import made by a package of module from.
func (ws *workspace) resolve(from *module, ip string) (string, *module, resolution) {
	if m, rest := ws.lookup(ip); m != nil {
		if ws.nested(m.dir, rest) {
			return "", nil, external // another module, from the module cache
		}
		dir := filepath.Join(m.dir, filepath.FromSlash(rest))
		if ws.dirExists(dir) {
			return dir, m, local
		}
		if m != ws.std {
			return "", nil, unresolved
		}
	}
	if from != nil && from.vendor != "" {
		dir := filepath.Join(from.vendor, filepath.FromSlash(ip))
		if ws.dirExists(dir) {
			v := ws.vendor[from.vendor]
			if v == nil {
				v = &module{dir: from.vendor, vendor: from.vendor}
				ws.vendor[from.vendor] = v
			}
			return dir, v, local
		}
	}
	if m, _ := ws.lookup(ip); m == ws.std && m != nil {
		return "", nil, unresolved
	}
	return "", nil, external
}

// lookup returns the local module holding an import path and the path
// within it: the longest module path, then the standard library for a
// path whose first element has no dot.
func (ws *workspace) lookup(ip string) (*module, string) {
	for _, m := range ws.mods {
		if ip == m.path {
			return m, ""
		}
		if strings.HasPrefix(ip, m.path+"/") {
			return m, ip[len(m.path)+1:]
		}
	}
	first, _, _ := strings.Cut(ip, "/")
	if ws.std != nil && !strings.Contains(first, ".") {
		return ws.std, ip
	}
	return nil, ""
}

// nested reports whether a folder between a module's root (excluded) and
// rest (included) has a go.mod: the path then belongs to another module.
func (ws *workspace) nested(dir, rest string) bool {
	if rest == "" {
		return false
	}
	d := dir
	for _, elem := range strings.Split(rest, "/") {
		d = filepath.Join(d, elem)
		if ws.fileExists(filepath.Join(d, "go.mod")) {
			return true
		}
	}
	return false
}

// importPathOf returns the import path of a folder of module m.
func importPathOf(m *module, dir string) string {
	rel, err := filepath.Rel(m.dir, dir)
	if err != nil {
		rel = "."
	}
	return importPath(m.path, filepath.ToSlash(rel))
}

func (ws *workspace) dirExists(dir string) bool {
	ok, seen := ws.isDir[dir]
	if !seen {
		fi, err := os.Stat(dir)
		ok = err == nil && fi.IsDir()
		ws.isDir[dir] = ok
	}
	return ok
}

func (ws *workspace) fileExists(name string) bool {
	ok, seen := ws.isFile[name]
	if !seen {
		fi, err := os.Stat(name)
		ok = err == nil && fi.Mode().IsRegular()
		ws.isFile[name] = ok
	}
	return ok
}
