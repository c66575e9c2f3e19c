package rust_test

import (
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/config"
	"github.com/testdex/testdex/internal/impacttest"
)

// listCfgCrate lists testdata/cfgcrate with [cargo] set to fw, and with
// --all-platforms when all is true; it returns the bare test names.
func listCfgCrate(t *testing.T, fw config.Framework, all bool) []string {
	t.Helper()
	ix, err := index.Build(t.Context(), index.Options{Root: "testdata/cfgcrate", Frameworks: []testdex.Framework{testdex.Cargo},
		AllPlatforms: all, Config: &config.Config{Frameworks: map[string]config.Framework{"cargo": fw}}})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range ix.Tests {
		out = append(out, r.Name[strings.LastIndex(r.Name, "::")+2:])
	}
	slices.Sort(out)
	return out
}

// TestCfgFeatures checks which gated tests are listed under cargo's
// feature selections, with all platforms so that the host does not
// matter.
func TestCfgFeatures(t *testing.T) {
	always := []string{"always", "debug_assertions_on", "not_miri", "not_unknown_kept", "on_unix", "on_unix_family", "on_windows", "unknown_kept"}
	for _, tc := range []struct {
		name string
		fw   config.Framework
		want []string
	}{
		{"default", config.Framework{}, []string{"default_alloc_transitive", "default_std", "without_unicode"}},
		{"no-default", config.Framework{NoDefaultFeatures: true}, []string{"without_unicode"}},
		{"features", config.Framework{Features: []string{"unicode-case"}},
			[]string{"default_alloc_transitive", "default_std", "needs_unicode", "needs_unicode_file", "needs_unicode_mod"}},
		{"comma-list", config.Framework{NoDefaultFeatures: true, Features: []string{"alloc,regex"}},
			[]string{"default_alloc_transitive", "needs_regex", "without_unicode"}},
		{"dep-and-weak", config.Framework{Features: []string{"fancy"}}, []string{"default_alloc_transitive", "default_std", "without_unicode"}},
		{"dep-slash", config.Framework{NoDefaultFeatures: true, Features: []string{"full"}},
			[]string{"needs_regex", "needs_unicode", "needs_unicode_file", "needs_unicode_mod"}},
		{"all-features", config.Framework{AllFeatures: true},
			[]string{"default_alloc_transitive", "default_std", "needs_regex", "needs_unicode", "needs_unicode_file", "needs_unicode_mod"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := slices.Sorted(slices.Values(append(tc.want, always...)))
			if got := listCfgCrate(t, tc.fw, true); !slices.Equal(got, want) {
				t.Errorf("listed %q\nwant   %q", got, want)
			}
		})
	}
}

// TestCfgHost checks that platform gates are evaluated against the host
// unless all_platforms (config or --all-platforms) is set.
func TestCfgHost(t *testing.T) {
	has := func(names []string, n string) bool { return slices.Contains(names, n) }
	host := listCfgCrate(t, config.Framework{}, false)
	unix := runtime.GOOS != "windows" && runtime.GOOS != "js" && runtime.GOOS != "wasip1"
	if has(host, "on_unix") != unix || has(host, "on_unix_family") != unix || has(host, "on_windows") != (runtime.GOOS == "windows") {
		t.Errorf("on %s: listed %q", runtime.GOOS, host)
	}
	for _, n := range []string{"unknown_kept", "not_unknown_kept", "debug_assertions_on", "not_miri"} {
		if !has(host, n) {
			t.Errorf("%s not listed: an undecided or true cfg keeps the test", n)
		}
	}
	for _, names := range [][]string{listCfgCrate(t, config.Framework{AllPlatforms: true}, false), listCfgCrate(t, config.Framework{}, true)} {
		if !has(names, "on_unix") || !has(names, "on_windows") {
			t.Errorf("all platforms: listed %q, want both on_unix and on_windows", names)
		}
	}
}

// TestCfgMemberDocTests: a method's doc test is compiled only when the
// method is, whether its cfg attribute stands before or after its docs
// (smallvec's drain_filter).
func TestCfgMemberDocTests(t *testing.T) {
	files := map[string]string{
		"Cargo.toml": "[package]\nname = \"m\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[features]\ngated = []\n",
		"src/lib.rs": "pub struct S;\n\nimpl S {\n    /// ```\n    /// assert!(true);\n    /// ```\n    pub fn plain() {}\n\n" +
			"    #[cfg(feature = \"gated\")]\n    /// ```\n    /// assert!(true);\n    /// ```\n    pub fn before() {}\n\n" +
			"    /// ```\n    /// assert!(true);\n    /// ```\n    #[cfg(feature = \"gated\")]\n    pub fn after() {}\n}\n",
	}
	dir := impacttest.WriteTree(t, files)
	for _, tc := range []struct {
		fw   config.Framework
		want []string
	}{
		{config.Framework{}, []string{"S::plain"}},
		{config.Framework{Features: []string{"gated"}}, []string{"S::after", "S::before", "S::plain"}},
	} {
		ix, err := index.Build(t.Context(), index.Options{Root: dir, Frameworks: []testdex.Framework{testdex.Cargo},
			Config: &config.Config{Frameworks: map[string]config.Framework{"cargo": tc.fw}}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range ix.Tests {
			if _, rest, ok := strings.Cut(r.Name, " - "); ok {
				got = append(got, strings.Fields(rest)[0])
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("features %v: doc tests %q, want %q", tc.fw.Features, got, tc.want)
		}
	}
}
