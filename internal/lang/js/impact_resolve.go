package js

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// resolver finds the files a module specifier names, from the importing
// file's folder, the way Node, TypeScript, Jest and Vite do; where they
// differ, it returns every file any of them would load (safety before
// savings). Its caches are safe for concurrent use.
type resolver struct {
	root string // absolute listed root
	proj string // absolute project folder
	cfg  *projectConfig
	// readFile reads a file's contents (GraphInput.ReadFile).
	readFile func(string) ([]byte, error)
	// packages are the workspace's packages by name, the project itself
	// included (a package may import itself by name): absolute folders.
	packages map[string]string
	stats    sync.Map // absolute path -> statFile, statDir or statNone
	pkgs     sync.Map // absolute package.json path -> *pkgJSON (nil when absent)
	tsconfig sync.Map // absolute folder -> []*tsconfig
}

// outcome says what became of a specifier.
type outcome uint8

const (
	found    outcome = iota // targets hold the files
	external                // a builtin or a package outside the repository: no edge
	missing                 // a path naming no file: UnresolvedNode
	unknown                 // may name any file (a mapping testdex cannot read): AnyNode
)

// target is one file a specifier resolves to, and through what.
type target struct {
	file string // absolute
	via  string // "" for plain resolution; "tsconfig paths", "moduleNameMapper", ...
	mock bool   // a __mocks__ file, not the module itself
	tree bool   // file is a folder: any file below it
}

// probeExts are the extensions tried after an extensionless specifier,
// the union of Node's, TypeScript's, Jest's and Vite's lists.
var probeExts = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".d.mts", ".d.cts", ".json", ".vue", ".svelte", ".node"}

// tsFor maps a JavaScript extension to the TypeScript sources a
// specifier with it may name ("./a.js" names a.ts in TypeScript).
var tsFor = map[string][]string{".js": {".ts", ".tsx", ".d.ts"}, ".jsx": {".tsx"}, ".mjs": {".mts", ".d.mts"}, ".cjs": {".cts", ".d.cts"}}

// resolve finds what one reference of the file from names.
func (r *resolver) resolve(from string, rf ref) ([]target, outcome, string) {
	spec := rf.spec
	if i := strings.IndexAny(spec, "?#"); i > 0 && !strings.HasPrefix(spec, "#") {
		spec = spec[:i] // Vite's "./a.svg?raw", "./b.js#hash"
	}
	dir := filepath.Dir(from)
	if rf.path {
		return r.pathString(dir, spec)
	}
	out, note := r.mapped(from, spec)
	if note != "" {
		return nil, unknown, note
	}
	switch {
	case isRelative(spec):
		for _, f := range r.files(filepath.Join(dir, spec), true) {
			out = append(out, target{file: f})
		}
		return r.withMocks(out, rf, spec), orMissing(out), ""
	case strings.HasPrefix(spec, "/"):
		for _, f := range r.files(spec, true) {
			out = append(out, target{file: f})
		}
		for _, f := range r.files(filepath.Join(r.proj, spec), true) { // Vite: root-relative
			out = append(out, target{file: f})
		}
		return r.withMocks(out, rf, spec), orMissing(out), ""
	}
	bare, o, note := r.bare(dir, spec)
	out = append(out, bare...)
	out = r.withMocks(out, rf, spec)
	if len(out) > 0 {
		return out, found, ""
	}
	return nil, o, note
}

// pathString resolves a string that looks like a relative path, from
// the file's folder or the project's (the working folder of a test
// run): the files it names, or a folder below the file's as a whole
// (fixtures read by a computed path); a folder above it is too much.
func (r *resolver) pathString(dir, spec string) ([]target, outcome, string) {
	var out []target
	for _, base := range []string{dir, r.proj} {
		p := filepath.Join(base, filepath.FromSlash(spec))
		files := r.files(p, false)
		for _, f := range files {
			out = append(out, target{file: f})
		}
		if len(files) == 0 && r.stat(p) == statDir && !within(dir, p) {
			out = append(out, target{file: p, tree: true})
		}
	}
	return out, orMissing(out), ""
}

// within reports whether dir is folder or lies below it.
func within(dir, folder string) bool {
	return dir == folder || strings.HasPrefix(dir, folder+string(filepath.Separator))
}

func orMissing(out []target) outcome {
	if len(out) == 0 {
		return missing
	}
	return found
}

func isRelative(spec string) bool {
	return spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../")
}

// bare resolves a specifier that is not a path: package.json imports
// (#x), tsconfig baseUrl, Jest's modulePaths and moduleDirectories, a
// package of the workspace (or the project itself); a builtin, an
// installed package or one a package.json depends on is external;
// anything else is unknown when a mapping could not be read (it may be
// an alias), else external (a missing dependency fails the test whatever
// changes).
func (r *resolver) bare(dir, spec string) ([]target, outcome, string) {
	if builtin(spec) {
		return nil, external, ""
	}
	var out []target
	if strings.HasPrefix(spec, "#") {
		if pj, pdir := r.nearestPackage(dir); pj != nil && pj.Imports != nil {
			for _, leaf := range exportTargets(pj.Imports, spec) {
				if isRelative(leaf) {
					for _, f := range r.files(filepath.Join(pdir, leaf), false) {
						out = append(out, target{file: f, via: "package.json imports"})
					}
				} else if !strings.HasPrefix(leaf, "#") {
					t, _, _ := r.bare(pdir, leaf)
					out = append(out, t...)
				}
			}
		}
		return out, orMissing(out), ""
	}
	for _, tc := range r.tsconfigs(dir) {
		if tc.baseURL != "" {
			for _, f := range r.files(filepath.Join(tc.baseURL, spec), true) {
				out = append(out, target{file: f, via: "tsconfig baseUrl"})
			}
		}
	}
	for _, d := range r.cfg.modulePaths {
		for _, f := range r.files(filepath.Join(d, spec), true) {
			out = append(out, target{file: f, via: "modulePaths"})
		}
	}
	for _, name := range r.cfg.moduleDirs {
		for d := dir; r.inRoot(d); d = filepath.Dir(d) {
			for _, f := range r.files(filepath.Join(d, name, spec), true) {
				out = append(out, target{file: f, via: "moduleDirectories"})
			}
			if d == r.root {
				break
			}
		}
	}
	name, sub := packageName(spec)
	if pdir, ok := r.packages[name]; ok {
		out = append(out, r.packageEntries(pdir, sub)...)
	}
	if len(out) > 0 {
		return out, found, ""
	}
	if r.cfg.unknownMapping != "" && !r.installed(dir, name) && !r.declared(dir, name) {
		return nil, unknown, r.cfg.unknownMapping
	}
	return nil, external, ""
}

// packageName splits "@scope/name/sub/path" into "@scope/name" and
// "sub/path".
func packageName(spec string) (name, sub string) {
	parts := strings.SplitN(spec, "/", 3)
	if strings.HasPrefix(spec, "@") && len(parts) >= 2 {
		name = parts[0] + "/" + parts[1]
		if len(parts) == 3 {
			sub = parts[2]
		}
		return name, sub
	}
	name, sub, _ = strings.Cut(spec, "/")
	return name, sub
}

// files resolves an absolute path as a module: the file itself (and the
// TypeScript source a ".js" name stands for), else the path with each
// extension, else, when dirs, the folder's package.json entry or index.
func (r *resolver) files(p string, dirs bool) []string {
	var out []string
	if r.stat(p) == statFile {
		out = append(out, p)
	}
	ext := filepath.Ext(p)
	for _, e := range tsFor[ext] {
		if q := strings.TrimSuffix(p, ext) + e; r.stat(q) == statFile {
			out = append(out, q)
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, e := range probeExts {
		if r.stat(p+e) == statFile {
			out = append(out, p+e)
		}
	}
	if len(out) > 0 || !dirs || r.stat(p) != statDir {
		return out
	}
	if pj := r.packageJSON(filepath.Join(p, "package.json")); pj != nil {
		for _, m := range pj.entryFields() {
			out = append(out, r.files(filepath.Join(p, m), false)...)
		}
	}
	return append(out, r.files(filepath.Join(p, "index"), false)...)
}

// The states of a cached stat.
const (
	statNone = iota + 1
	statFile
	statDir
)

func (r *resolver) stat(p string) int {
	if v, ok := r.stats.Load(p); ok {
		return v.(int)
	}
	s := statNone
	if fi, err := os.Stat(p); err == nil {
		s = statFile
		if fi.IsDir() {
			s = statDir
		}
	}
	r.stats.Store(p, s)
	return s
}

// inRoot reports whether an absolute path lies in the listed root.
func (r *resolver) inRoot(p string) bool {
	return p == r.root || strings.HasPrefix(p, r.root+string(filepath.Separator))
}

// installed reports whether a package of that name is in a node_modules
// folder above dir (or its @types).
func (r *resolver) installed(dir, name string) bool {
	types := "@types/" + strings.Replace(strings.TrimPrefix(name, "@"), "/", "__", 1)
	for d := dir; ; d = filepath.Dir(d) {
		nm := filepath.Join(d, "node_modules")
		if r.stat(nm) == statDir && (r.stat(filepath.Join(nm, name)) == statDir || r.stat(filepath.Join(nm, types)) == statDir) {
			return true
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

// declared reports whether a package.json above dir (in the root)
// depends on a package of that name: a package, if not installed yet.
func (r *resolver) declared(dir, name string) bool {
	for d := dir; r.inRoot(d); d = filepath.Dir(d) {
		if pj := r.packageJSON(filepath.Join(d, "package.json")); pj != nil && pj.declares(name) {
			return true
		}
		if d == r.root {
			break
		}
	}
	return false
}

// builtin reports whether spec names a Node builtin or a virtual module
// ("node:fs", "fs/promises", "bun:test", "virtual:x").
func builtin(spec string) bool {
	if strings.Contains(spec, ":") {
		return true
	}
	name, _, _ := strings.Cut(spec, "/")
	return nodeBuiltins[name]
}

var nodeBuiltins = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`assert async_hooks buffer child_process cluster console constants crypto dgram
		diagnostics_channel dns domain events fs http http2 https inspector module net os path perf_hooks process
		punycode querystring readline repl stream string_decoder sys timers tls trace_events tty url util v8 vm wasi
		worker_threads zlib`) {
		nodeBuiltins[n] = true
	}
}
