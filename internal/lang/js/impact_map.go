package js

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// mapper is one Jest moduleNameMapper entry: a regexp over specifiers
// and the module names tried in order, with $1... replaced.
type mapper struct {
	re *regexp.Regexp
	to []string
}

// alias is one Vite resolve.alias entry: a specifier equal to find or
// starting with find + "/" has find replaced by to. known is false when
// to is not a literal; base is the folder of the config file.
type alias struct {
	find, to, base string
	known          bool
}

// mapped resolves a specifier through the project's mappings: Jest's
// moduleNameMapper (the first matching entry), Vite's aliases (the first
// matching one) and the importing file's tsconfig paths. Every mapping
// that applies contributes its files: each runner uses one of them.
// note is set when an applying mapping cannot be read.
func (r *resolver) mapped(from, spec string) (out []target, note string) {
	dir := filepath.Dir(from)
	for _, m := range r.cfg.mappers {
		sub := m.re.FindStringSubmatch(spec)
		if sub == nil {
			continue
		}
		for _, to := range m.to {
			name := dollar.ReplaceAllStringFunc(to, func(d string) string {
				if i, _ := strconv.Atoi(d[1:]); i < len(sub) {
					return sub[i]
				}
				return ""
			})
			out = append(out, r.name(dir, dir, name, "moduleNameMapper")...)
		}
		break
	}
	for _, a := range r.cfg.aliases {
		rest, ok := strings.CutPrefix(spec, a.find)
		if !ok || rest != "" && !strings.HasPrefix(rest, "/") && !strings.HasSuffix(a.find, "/") {
			continue
		}
		if !a.known {
			return nil, "alias " + a.find + " is not a literal path"
		}
		out = append(out, r.name(dir, a.base, a.to+rest, "alias "+a.find)...)
		break
	}
	for _, tc := range r.tsconfigs(dir) {
		out = append(out, tc.match(r, spec)...)
	}
	return out, ""
}

var dollar = regexp.MustCompile(`\$[0-9]+`)

// name resolves a module name a mapping produced: a path relative to
// the importing file's folder (dir) or to the config's (base), an
// absolute or root-relative path, or a package name.
func (r *resolver) name(dir, base, name, via string) []target {
	var files []string
	switch {
	case isRelative(name):
		files = append(r.files(filepath.Join(dir, name), true), r.files(filepath.Join(base, name), true)...)
	case strings.HasPrefix(name, "/"):
		files = append(r.files(name, true), r.files(filepath.Join(r.proj, name), true)...)
	default:
		t, _, _ := r.bare(dir, name)
		for i := range t {
			t[i].via = via
		}
		return t
	}
	var out []target
	for _, f := range files {
		out = append(out, target{file: f, via: via})
	}
	return out
}

// mockExts are the extensions a __mocks__ file may have.
var mockExts = []string{".js", ".ts", ".jsx", ".tsx", ".mjs", ".cjs", ".mts", ".cts"}

// withMocks adds the __mocks__ files a reference may load: for jest.mock
// and vi.mock, the mock beside each module file and, for a package, the
// one in a root's __mocks__ folder; in a Jest project, a package's mock
// in a root's __mocks__ folder even without jest.mock (Jest uses it
// automatically). Each such folder is a target as a whole, so that
// adding a mock file selects the tests that would load it; the mock
// files that exist are targets of their own, whose imports are read.
func (r *resolver) withMocks(out []target, rf ref, spec string) []target {
	bare := !isRelative(spec) && !strings.HasPrefix(spec, "/")
	if rf.mock {
		for _, t := range out {
			if t.mock || t.tree {
				continue
			}
			base := filepath.Base(t.file)
			base = strings.TrimSuffix(base, filepath.Ext(base))
			base = strings.TrimSuffix(base, ".d")
			out = r.mockFolder(out, filepath.Join(filepath.Dir(t.file), "__mocks__"), base)
		}
	}
	switch {
	case !bare, rf.mock && strings.Contains(strings.TrimPrefix(spec, "node:"), ":"):
		return out
	case !rf.mock && (!r.cfg.jest || builtin(spec)): // Jest mocks builtins only when asked
		return out
	}
	spec = strings.TrimPrefix(spec, "node:")
	for _, root := range r.cfg.mockRoots {
		dir := filepath.Join(root, "__mocks__")
		if rf.mock || r.stat(dir) == statDir {
			out = r.mockFolder(out, dir, filepath.FromSlash(spec))
		}
	}
	return out
}

// mockFolder adds a __mocks__ folder and the mock files of name in it.
func (r *resolver) mockFolder(out []target, dir, name string) []target {
	out = append(out, target{file: dir, via: "__mocks__", mock: true, tree: true})
	for _, e := range mockExts {
		if f := filepath.Join(dir, name+e); r.stat(f) == statFile {
			out = append(out, target{file: f, via: "__mocks__", mock: true})
		}
	}
	return out
}
