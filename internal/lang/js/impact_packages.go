package js

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"go.yaml.in/yaml/v3"
)

// pkgJSON is the part of a package.json that resolution reads.
type pkgJSON struct {
	Name       string `json:"name"`
	Main       any    `json:"main"`
	Module     any    `json:"module"`
	Browser    any    `json:"browser"`
	Source     any    `json:"source"`
	Types      any    `json:"types"`
	Typings    any    `json:"typings"`
	Exports    any    `json:"exports"`
	Imports    any    `json:"imports"`
	Workspaces any    `json:"workspaces"`
	// The dependencies, by name.
	Deps     map[string]any `json:"dependencies"`
	DevDeps  map[string]any `json:"devDependencies"`
	PeerDeps map[string]any `json:"peerDependencies"`
	OptDeps  map[string]any `json:"optionalDependencies"`
}

// declares reports whether the package.json depends on a package.
func (p *pkgJSON) declares(name string) bool {
	for _, m := range []map[string]any{p.Deps, p.DevDeps, p.PeerDeps, p.OptDeps} {
		if _, ok := m[name]; ok {
			return true
		}
	}
	return false
}

// entryFields are the entry points package.json names when it has no
// exports: Node's main, the bundlers' module, browser and source, and
// the types TypeScript reads.
func (p *pkgJSON) entryFields() []string {
	var out []string
	for _, v := range []any{p.Main, p.Module, p.Browser, p.Source, p.Types, p.Typings} {
		if s, ok := v.(string); ok && s != "" {
			out = append(out, s)
		}
	}
	return out
}

// packageJSON reads a package.json through the cache; nil when absent or
// not JSON.
func (r *resolver) packageJSON(file string) *pkgJSON {
	if v, ok := r.pkgs.Load(file); ok {
		return v.(*pkgJSON)
	}
	var pj *pkgJSON
	if r.stat(file) == statFile {
		if data, err := r.read(file); err == nil {
			p := &pkgJSON{}
			if json.Unmarshal(data, p) == nil {
				pj = p
			}
		}
	}
	r.pkgs.Store(file, pj)
	return pj
}

// nearestPackage returns the package.json governing files of dir (the
// nearest above it in the root) and its folder.
func (r *resolver) nearestPackage(dir string) (*pkgJSON, string) {
	for d := dir; r.inRoot(d); d = filepath.Dir(d) {
		if pj := r.packageJSON(filepath.Join(d, "package.json")); pj != nil {
			return pj, d
		}
		if d == r.root {
			break
		}
	}
	return nil, ""
}

// packageEntries resolves sub ("" for the package itself) inside a
// package of the repository: through its exports when it has them (every
// condition's target: which one a runner picks depends on its
// conditions), else its entry fields and index, or the subpath as a file.
// A target in build output (dist/, build/, ...) brings the source it is
// built from when one is found. When none is, or when nothing resolves
// (not built yet), the target is the package's whole folder: any change
// below it may change what the import loads.
func (r *resolver) packageEntries(dir, sub string) []target {
	pj := r.packageJSON(filepath.Join(dir, "package.json"))
	if pj == nil {
		pj = &pkgJSON{}
	}
	var leaves []string
	switch {
	case pj.Exports != nil:
		key := "."
		if sub != "" {
			key = "./" + sub
		}
		leaves = exportTargets(pj.Exports, key)
	case sub == "":
		leaves = append(pj.entryFields(), "index")
	default:
		leaves = []string{sub}
	}
	via := "package " + pkgName(pj, dir)
	leaves = r.sourcesFirst(dir, leaves)
	var out []target
	built := false
	for _, leaf := range leaves {
		abs := filepath.Join(dir, filepath.FromSlash(leaf))
		for _, f := range r.files(abs, pj.Exports == nil) {
			out = append(out, target{file: f, via: via})
		}
		if !buildOutput(dir, abs) {
			continue
		}
		src := r.sourceOf(dir, abs)
		for _, f := range src {
			out = append(out, target{file: f, via: via + " (source of " + filepath.Base(abs) + ")"})
		}
		if len(src) == 0 {
			built = true
		}
	}
	switch {
	case built:
		out = append(out, target{file: dir, via: via + " (built: any file of it)", tree: true})
	case len(out) == 0:
		out = append(out, target{file: dir, via: via + " (no entry file for " + orDot(sub) + ": any file of it)", tree: true})
	}
	return out
}

// sourcesFirst keeps only the TypeScript sources among an entry's
// targets when there are any: the JavaScript and declaration files beside
// them are built from them (zod's exports give "./src/index.ts" under a
// condition of its own, and "./index.js", "./index.cjs" and
// "./index.d.cts" built from it under the others); a change reaches the
// built files only through their sources.
func (r *resolver) sourcesFirst(dir string, leaves []string) []string {
	var src []string
	for _, l := range leaves {
		if tsSource(l) && r.stat(filepath.Join(dir, filepath.FromSlash(l))) == statFile {
			src = append(src, l)
		}
	}
	if len(src) == 0 {
		return leaves
	}
	return src
}

// tsSource reports whether a file name is TypeScript source, not a
// declaration file.
func tsSource(name string) bool {
	switch filepath.Ext(name) {
	case ".ts", ".tsx", ".mts", ".cts":
		return !strings.HasSuffix(strings.TrimSuffix(name, filepath.Ext(name)), ".d")
	}
	return false
}

func orDot(sub string) string {
	if sub == "" {
		return "."
	}
	return "./" + sub
}

func pkgName(pj *pkgJSON, dir string) string {
	if pj.Name != "" {
		return pj.Name
	}
	return filepath.Base(dir)
}

// buildDirs are the folder names that hold built files, not sources.
var buildDirs = map[string]bool{"dist": true, "build": true, "out": true, "esm": true, "cjs": true, "umd": true, "es": true, "lib": true}

// buildOutput reports whether abs lies in a build folder of the package
// at dir (lib/ only when the package also has a src/).
func buildOutput(dir, abs string) bool {
	rel, err := filepath.Rel(dir, abs)
	if err != nil {
		return false
	}
	first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
	if first == "lib" {
		fi, err := os.Stat(filepath.Join(dir, "src"))
		return err == nil && fi.IsDir()
	}
	return buildDirs[first]
}

// sourceOf guesses the source a built file comes from: the same path
// under src/ or without the build folders, with a source extension.
func (r *resolver) sourceOf(dir, abs string) []string {
	rel, _ := filepath.Rel(dir, abs)
	parts := strings.Split(filepath.ToSlash(rel), "/")
	i := 0
	for i < len(parts)-1 && buildDirs[parts[i]] {
		i++
	}
	rest := strings.Join(parts[i:], "/")
	for _, ext := range []string{".d.ts", ".d.mts", ".d.cts", ".js", ".mjs", ".cjs", ".jsx"} {
		if strings.HasSuffix(rest, ext) {
			rest = strings.TrimSuffix(rest, ext)
			break
		}
	}
	var out []string
	for _, base := range []string{filepath.Join(dir, "src"), dir} {
		for _, f := range r.files(filepath.Join(base, filepath.FromSlash(rest)), true) {
			if !buildOutput(dir, f) {
				out = append(out, f)
			}
		}
		if len(out) > 0 {
			break
		}
	}
	return out
}

// exportTargets returns every target an exports (or imports) map gives
// for key ("." or "./sub" or "#sub"), across all conditions; a pattern
// key ("./*", "./a/*.js") has its * replaced.
func exportTargets(exp any, key string) []string {
	m, ok := exp.(map[string]any)
	if !ok || !subpathKeys(m) {
		if key == "." {
			return leaves(exp, "")
		}
		return nil
	}
	if v, ok := m[key]; ok {
		return leaves(v, "")
	}
	best, star := "", ""
	for k := range m {
		i := strings.IndexByte(k, '*')
		if i < 0 {
			if strings.HasSuffix(k, "/") && strings.HasPrefix(key, k) && len(k) > len(best) { // legacy folder mapping
				best, star = k, key[len(k):]
			}
			continue
		}
		pre, suf := k[:i], k[i+1:]
		if strings.HasPrefix(key, pre) && strings.HasSuffix(key, suf) && len(key) >= len(pre)+len(suf) && len(pre) >= len(best) {
			best, star = k, key[len(pre):len(key)-len(suf)]
		}
	}
	if best == "" {
		return nil
	}
	if strings.HasSuffix(best, "/") && !strings.Contains(best, "*") {
		var out []string
		for _, l := range leaves(m[best], "") {
			out = append(out, l+star)
		}
		return out
	}
	return leaves(m[best], star)
}

// subpathKeys reports whether an exports object maps subpaths (keys
// starting with "." or "#") rather than conditions.
func subpathKeys(m map[string]any) bool {
	for k := range m {
		if strings.HasPrefix(k, ".") || strings.HasPrefix(k, "#") {
			return true
		}
	}
	return false
}

// leaves collects the strings of a target: a string, an array of
// fallbacks, or conditions, each condition's value (sorted by key, for a
// stable order).
func leaves(v any, star string) []string {
	switch x := v.(type) {
	case string:
		return []string{strings.ReplaceAll(x, "*", star)}
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, leaves(e, star)...)
		}
		return out
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var out []string
		for _, k := range keys {
			out = append(out, leaves(x[k], star)...)
		}
		return out
	}
	return nil
}

// workspace finds the workspace the project belongs to (the nearest
// folder from the project up to the root whose package.json declares
// "workspaces", or with a pnpm-workspace.yaml or lerna.json) and returns
// its packages by name, the project itself and the workspace root
// included, and the workspace root ("" when there is none).
func (r *resolver) workspace() (map[string]string, string) {
	pkgs := map[string]string{}
	if pj := r.packageJSON(filepath.Join(r.proj, "package.json")); pj != nil && pj.Name != "" {
		pkgs[pj.Name] = r.proj
	}
	for d := r.proj; r.inRoot(d); d = filepath.Dir(d) {
		if patterns := r.workspacePatterns(d); patterns != nil {
			if pj := r.packageJSON(filepath.Join(d, "package.json")); pj != nil && pj.Name != "" {
				pkgs[pj.Name] = d
			}
			for name, dir := range expandWorkspaces(d, patterns) {
				if pj := r.packageJSON(filepath.Join(dir, "package.json")); pj != nil && pj.Name == name {
					pkgs[name] = dir
				}
			}
			return pkgs, d
		}
		if d == r.root {
			break
		}
	}
	return pkgs, ""
}

// workspacePatterns reads a folder's workspace globs; nil when it
// declares none.
func (r *resolver) workspacePatterns(dir string) []string {
	var out []string
	if pj := r.packageJSON(filepath.Join(dir, "package.json")); pj != nil && pj.Workspaces != nil {
		w := pj.Workspaces
		if m, ok := w.(map[string]any); ok { // yarn: {"packages": [...]}
			w = m["packages"]
		}
		out = append(out, leaves(w, "*")...)
	}
	for _, name := range []string{"pnpm-workspace.yaml", "lerna.json"} {
		data, err := r.read(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		var doc struct {
			Packages []string `yaml:"packages" json:"packages"`
		}
		if name == "lerna.json" {
			_ = json.Unmarshal(data, &doc)
		} else {
			_ = yaml.Unmarshal(data, &doc)
		}
		out = append(out, doc.Packages...)
		if out == nil {
			out = []string{}
		}
	}
	return out
}

// expandWorkspaces lists the package folders the globs name, by package
// name (read from their package.json); "!glob" removes.
func expandWorkspaces(root string, patterns []string) map[string]string {
	dirs := map[string]bool{}
	fsys := os.DirFS(root)
	for _, p := range patterns {
		neg := strings.HasPrefix(p, "!")
		p = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(p, "!"), "./"), "/")
		matches, _ := doublestar.Glob(fsys, p+"/package.json", doublestar.WithFilesOnly())
		for _, m := range matches {
			if strings.Contains(m, "node_modules/") {
				continue
			}
			dirs[filepath.Join(root, filepath.FromSlash(strings.TrimSuffix(m, "/package.json")))] = !neg
		}
	}
	out := map[string]string{}
	for d, keep := range dirs {
		if !keep {
			continue
		}
		data, err := fs.ReadFile(os.DirFS(d), "package.json")
		var pj pkgJSON
		if err == nil && json.Unmarshal(data, &pj) == nil && pj.Name != "" {
			out[pj.Name] = d
		}
	}
	return out
}
