package golang

import (
	"go/build"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/lang"
)

func TestConstraintTags(t *testing.T) {
	linux := build.Default
	linux.GOOS, linux.GOARCH, linux.CgoEnabled = "linux", "amd64", false
	src := "//go:build neverset || linux\n\npackage p\nimport \"testing\"\nfunc TestX(t *testing.T) {}\n"
	cgo := "package p\nimport \"C\"\nimport \"testing\"\nfunc TestC(t *testing.T) {}\n"
	for _, tc := range []struct {
		name, rel, src string
		all            bool
		wantTests      int
		wantTag        string
	}{
		{"header", "a_test.go", src, false, 1, "go:build neverset || linux"},
		{"file name and header", "a_windows_amd64_test.go", src, false, 0, ""},
		{"file name, all platforms", "a_windows_amd64_test.go", src, true, 1, "go:build windows && amd64 && (neverset || linux)"},
		{"cgo disabled", "c_test.go", cgo, false, 0, ""},
		{"cgo, all platforms", "c_test.go", cgo, true, 1, "go:build cgo"},
		{"ignored name", "_a_test.go", src, true, 0, ""},
		{"no constraint", "b_test.go", "package p\nfunc TestB(t *T) {}\n", false, 1, ""},
	} {
		e := &Extractor{Context: &linux, AllPlatforms: tc.all}
		res := e.Extract(&lang.File{Rel: "dir/" + tc.rel, Data: []byte(tc.src)})
		if len(res.Tests) != tc.wantTests {
			t.Errorf("%s: %d tests, want %d", tc.name, len(res.Tests), tc.wantTests)
			continue
		}
		if tc.wantTests > 0 && tc.wantTag == "" && len(res.Tests[0].Tags) != 0 {
			t.Errorf("%s: tags %q, want none", tc.name, res.Tests[0].Tags)
		}
		if tc.wantTag != "" && !slices.Equal(res.Tests[0].Tags, []string{tc.wantTag}) {
			t.Errorf("%s: tags %q, want %q", tc.name, res.Tests[0].Tags, tc.wantTag)
		}
	}
}

func TestCacheKeyCoversOptions(t *testing.T) {
	base := build.Default
	keys := map[string]string{"zero": (&Extractor{}).CacheKey()}
	add := func(name string, e *Extractor) {
		k := e.CacheKey()
		for other, ok := range keys {
			if ok == k {
				t.Errorf("%s has the same CacheKey as %s: %s", name, other, k)
			}
		}
		keys[name] = k
	}
	add("all", &Extractor{AllPlatforms: true})
	for name, change := range map[string]func(c *build.Context){
		"goos":    func(c *build.Context) { c.GOOS = "plan9" },
		"goarch":  func(c *build.Context) { c.GOARCH = "wasm" },
		"cgo":     func(c *build.Context) { c.CgoEnabled = !c.CgoEnabled },
		"tags":    func(c *build.Context) { c.BuildTags = []string{"x"} },
		"tool":    func(c *build.Context) { c.ToolTags = append(slices.Clone(c.ToolTags), "goexperiment.x") },
		"release": func(c *build.Context) { c.ReleaseTags = c.ReleaseTags[:1] },
	} {
		c := base
		change(&c)
		add(name, &Extractor{Context: &c})
	}
}

func TestRewriteAndUnique(t *testing.T) {
	n := newNamer()
	for _, tc := range []struct{ sub, want string }{
		{"a b", "T/a_b"}, {"a_b", "T/a_b#01"}, {"", "T/#00"}, {"", "T/#01"},
		{"\u2003\u00ff\x7f", "T/_ÿ\\x7f"}, {"a_b#01", "T/a_b#01#01"},
	} {
		if got := n.name("T", tc.sub); got != tc.want {
			t.Errorf("name(%q) = %q, want %q", tc.sub, got, tc.want)
		}
	}
}

// TestConstraintsAgreeWithMatchFile checks the path that skips go/build
// for files with no constraint in their name or header: on awkward
// headers and on every _test.go file of GOROOT, for this platform and
// another, whether a file is built is what MatchFile says.
func TestConstraintsAgreeWithMatchFile(t *testing.T) {
	plan9 := build.Default
	plan9.GOOS, plan9.GOARCH = "plan9", "386"
	headers := map[string]string{
		"plain":              "package p\n",
		"package comment":    "// this package is built\n\npackage p\n",
		"late go:build":      "// Copyright\n// more\n//go:build ignore\n\npackage p\n",
		"plus build":         "// +build ignore\n\npackage p\n",
		"block comment":      "/* a\n//go:build ignore\n*/\n\npackage p\n",
		"after package":      "package p\n\n//go:build ignore\n",
		"two go:build":       "//go:build linux\n//go:build !linux\n\npackage p\n",
		"go:build no space":  "//go:buildignore\n\npackage p\n",
		"plus build in code": "package p\n\nvar s = \"// +build ignore\"\n",
	}
	names := []string{"a_test.go", "a_plan9_test.go", "a_linux_amd64_test.go", "a_unix_test.go"}
	var files []struct{ name, src string }
	for _, h := range headers {
		for _, n := range names {
			files = append(files, struct{ name, src string }{n, h})
		}
	}
	root := filepath.Join(runtime.GOROOT(), "src")
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, "_test.go") {
			if data, err := os.ReadFile(p); err == nil {
				files = append(files, struct{ name, src string }{filepath.Base(p), string(data)})
			}
		}
		return nil
	})
	for _, c := range []*build.Context{&build.Default, &plan9} {
		for _, all := range []bool{false, true} {
			e := &Extractor{Context: c, AllPlatforms: all}
			for _, f := range files {
				ctxt := *c
				ctxt.UseAllFiles = all
				ctxt.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(f.src)), nil }
				ctxt.JoinPath = func(elem ...string) string { return strings.Join(elem, "/") }
				want, _ := ctxt.MatchFile(".", f.name)
				if got := e.constraints(f.name, []byte(f.src)).match; got != want {
					t.Errorf("%s/%s (all %v): %.40q built %v, MatchFile says %v", c.GOOS, f.name, all, f.src, got, want)
				}
			}
		}
	}
}
