package changes

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

// globEach is globalFiles as one Glob per glob: what the shared walk
// must give.
func globEach(root string, globs []string) ([]string, bool) {
	var out []string
	for _, g := range globs {
		m, err := doublestar.Glob(os.DirFS(root), g, doublestar.WithFilesOnly(), doublestar.WithFailOnIOErrors())
		if err != nil {
			return nil, false
		}
		out = append(out, m...)
	}
	sort.Strings(out)
	return out, true
}

// The globs of the form DIR/**/NAME share a walk and give the files one
// Glob each gives: nested and hidden files, a folder named as a glob's
// file, a linked folder and file, files at the top, globs of a
// subproject's folder, and globs that are not of that form.
func TestGlobalFilesShareAWalk(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{
		"tsconfig.json", "package.json", "web/tsconfig.base.json", "web/node_modules/x/tsconfig.json",
		"web/node_modules/x/.babelrc", "web/.babelrc.js", ".hidden/deep/jsconfig.json", "web/src/jsconfig.json",
		"other/tsconfig.json", "web/jest.config.js", "web/a[b]/tsconfig.json", "web/weird{x}/.babelrc",
	} {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(root, "web/dir/tsconfig.dir.json"), 0o755) // a folder, not a file
	os.Symlink(filepath.Join(root, "other"), filepath.Join(root, "web/linked"))
	os.Symlink(filepath.Join(root, "tsconfig.json"), filepath.Join(root, "web/tsconfig.link.json"))
	for _, globs := range [][]string{
		{"package.json", "**/tsconfig*.json", "**/jsconfig.json", "babel.config.*", "**/.babelrc", "**/.babelrc.*"},
		{"web/package.json", "web/**/tsconfig*.json", "web/**/jsconfig.json", "web/**/.babelrc", "web/**/.babelrc.*", "web/jest.config.*"},
		{"web/**/src/jsconfig.json", "**/node_modules/**/tsconfig.json", "web/**/*.json", "web/a\\[b]/**/tsconfig.json", "**/{tsconfig,jsconfig}.json"},
	} {
		p := &project{global: globs}
		got, ok := p.globalFiles(root)
		want, wantOK := globEach(root, globs)
		if ok != wantOK || !slices.Equal(got, want) {
			t.Errorf("%v:\n got %v %v\nwant %v %v", globs, ok, got, wantOK, want)
		}
		if len(want) == 0 {
			t.Errorf("%v: the tree holds none of them", globs)
		}
	}
}

func TestDeepName(t *testing.T) {
	for glob, want := range map[string]string{
		"**/tsconfig*.json":      "** tsconfig*.json",
		"web/**/.babelrc.*":      "web/** .babelrc.*",
		"a/**/b/**/x":            "a/**/b/** x",
		"package.json":           "",
		"**/{a,b/c}.json":        "",
		"web/**/src/x.json":      "",
		"x**/y":                  "",
		"a\\*/**/b":              "a\\*/** b",
		"**/a\\*b":               "",
		"{a,b}/**/tsconfig.json": "",
	} {
		dir, name, ok := deepName(glob)
		got := ""
		if ok {
			got = dir + " " + name
		}
		if got != want {
			t.Errorf("deepName(%q) = %q, want %q", glob, got, want)
		}
	}
}
