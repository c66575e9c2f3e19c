package js

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// tsconfig is what module resolution needs from a tsconfig.json (or
// jsconfig.json), its extends chain applied.
type tsconfig struct {
	// files are the config and the configs it extends, absolute.
	files     []string
	baseURL   string // absolute; "" when unset
	paths     map[string][]string
	pathsBase string // the folder paths are relative to
}

// match resolves spec through the paths patterns: the exact key, else
// the pattern with the longest prefix; its substitutions are tried in
// order and the first that names files wins, as in TypeScript.
func (tc *tsconfig) match(r *resolver, spec string) []target {
	best, star, ok := "", "", false
	for k := range tc.paths {
		if k == spec {
			best, star, ok = k, "", true
			break
		}
		pre, suf, wild := strings.Cut(k, "*")
		if wild && strings.HasPrefix(spec, pre) && strings.HasSuffix(spec, suf) && len(spec) >= len(pre)+len(suf) &&
			(!ok || len(pre) > strings.Index(best, "*")) {
			best, star, ok = k, spec[len(pre):len(spec)-len(suf)], true
		}
	}
	if !ok {
		return nil
	}
	for _, sub := range tc.paths[best] {
		p := filepath.Join(tc.pathsBase, filepath.FromSlash(strings.Replace(sub, "*", star, 1)))
		if files := r.files(p, true); len(files) > 0 {
			out := make([]target, len(files))
			for i, f := range files {
				out[i] = target{file: f, via: "tsconfig paths"}
			}
			return out
		}
	}
	return nil
}

// tsconfigs returns the configs of the nearest folder from dir up to the
// root that has any (tsconfig.json, tsconfig.*.json, jsconfig.json: a
// solution-style tsconfig.json names others beside it, and which one a
// runner reads is its own choice, so all count).
func (r *resolver) tsconfigs(dir string) []*tsconfig {
	if v, ok := r.tsconfig.Load(dir); ok {
		return v.([]*tsconfig)
	}
	var out []*tsconfig
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() && (n == "jsconfig.json" || strings.HasPrefix(n, "tsconfig") && strings.HasSuffix(n, ".json")) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		if tc := r.loadTSConfig(filepath.Join(dir, n), 0); tc != nil {
			out = append(out, tc)
		}
	}
	if len(names) == 0 && dir != r.root && r.inRoot(dir) {
		out = r.tsconfigs(filepath.Dir(dir))
	}
	r.tsconfig.Store(dir, out)
	return out
}

// loadTSConfig reads one config and what it extends; nil when it cannot
// be read (TypeScript would fail on it; the file is global anyway).
func (r *resolver) loadTSConfig(file string, depth int) *tsconfig {
	data, err := r.read(file)
	if err != nil || depth > 16 {
		return nil
	}
	var doc struct {
		Extends         any `json:"extends"`
		CompilerOptions struct {
			BaseURL *string             `json:"baseUrl"`
			Paths   map[string][]string `json:"paths"`
		} `json:"compilerOptions"`
	}
	if json.Unmarshal(stripJSONComments(data), &doc) != nil {
		return nil
	}
	dir := filepath.Dir(file)
	tc := &tsconfig{files: []string{file}}
	var pathsDir string
	for _, e := range leaves(doc.Extends, "") {
		p := r.loadTSConfig(r.extendsFile(dir, e), depth+1)
		if p == nil {
			continue
		}
		tc.files = append(tc.files, p.files...)
		if p.baseURL != "" {
			tc.baseURL = p.baseURL
		}
		if p.paths != nil {
			tc.paths, pathsDir = p.paths, p.pathsBase
		}
	}
	if o := doc.CompilerOptions; o.BaseURL != nil {
		tc.baseURL = filepath.Join(dir, filepath.FromSlash(*o.BaseURL))
	}
	if doc.CompilerOptions.Paths != nil {
		tc.paths, pathsDir = doc.CompilerOptions.Paths, dir
	}
	tc.pathsBase = pathsDir
	if tc.baseURL != "" {
		tc.pathsBase = tc.baseURL
	}
	return tc
}

// extendsFile finds the file an "extends" names: a path (".json"
// optional) or a package's file in node_modules above dir.
func (r *resolver) extendsFile(dir, e string) string {
	if isRelative(e) || filepath.IsAbs(e) {
		p := filepath.Join(dir, filepath.FromSlash(e))
		if r.stat(p) != statFile && r.stat(p+".json") == statFile {
			p += ".json"
		}
		return p
	}
	for d := dir; ; d = filepath.Dir(d) {
		base := filepath.Join(d, "node_modules", filepath.FromSlash(e))
		for _, p := range []string{base, base + ".json", filepath.Join(base, "tsconfig.json")} {
			if r.stat(p) == statFile {
				return p
			}
		}
		if filepath.Dir(d) == d {
			return base
		}
	}
}
