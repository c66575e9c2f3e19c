package golang

import (
	"go/build"
	"slices"
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
