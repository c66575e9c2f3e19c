package rust

import (
	"maps"
	"slices"
	"testing"
)

// TestCfgEval checks the three-valued evaluation of cfg gates.
func TestCfgEval(t *testing.T) {
	linux := &CfgEnv{Features: map[string]bool{"std": true}, Host: HostOf("linux", "amd64")}
	windows := &CfgEnv{Features: map[string]bool{}, Host: HostOf("windows", "arm64")}
	anyHost := &CfgEnv{Features: map[string]bool{}}
	for _, tc := range []struct {
		tag                   string
		linux, windows, other tri
	}{
		{`cfg(feature = "std")`, cfgTrue, cfgFalse, cfgFalse},
		{`cfg(not(feature = "std"))`, cfgFalse, cfgTrue, cfgTrue},
		{`cfg(unix)`, cfgTrue, cfgFalse, cfgUnknown},
		{`cfg(windows)`, cfgFalse, cfgTrue, cfgUnknown},
		{`cfg(target_os = "macos")`, cfgFalse, cfgFalse, cfgUnknown},
		{`cfg(all(target_arch = "x86_64", target_pointer_width = "64"))`, cfgTrue, cfgFalse, cfgUnknown},
		{`cfg(any(windows, feature = "std"))`, cfgTrue, cfgTrue, cfgUnknown},
		{`cfg(all(windows, foo))`, cfgFalse, cfgUnknown, cfgUnknown},
		{`cfg(any(unix, foo))`, cfgTrue, cfgUnknown, cfgUnknown},
		{`cfg(not(foo))`, cfgUnknown, cfgUnknown, cfgUnknown},
		{`cfg(all(test, debug_assertions, not(miri),))`, cfgTrue, cfgTrue, cfgTrue},
		{`cfg(any())`, cfgFalse, cfgFalse, cfgFalse},
		{`cfg(feature = $f)`, cfgUnknown, cfgUnknown, cfgUnknown},
		{`cfg(all(unix`, cfgUnknown, cfgUnknown, cfgUnknown}, // broken: undecided
		{`should_panic`, cfgTrue, cfgTrue, cfgTrue},
	} {
		for _, c := range []struct {
			env  *CfgEnv
			want tri
		}{{linux, tc.linux}, {windows, tc.windows}, {anyHost, tc.other}} {
			if got := c.env.Eval([]string{tc.tag}, false); got != c.want {
				t.Errorf("%s on %+v: %d, want %d", tc.tag, c.env.Host, got, c.want)
			}
		}
	}
	if (*CfgEnv)(nil).Keep([]string{`cfg(feature = "x")`}, false) != true {
		t.Error("a nil CfgEnv must keep every test")
	}
	if linux.Keep([]string{`cfg(test)`}, true) || !linux.Keep([]string{`cfg(not(test))`, `cfg(doctest)`}, true) {
		t.Error("doc tests: test is false, doctest true")
	}
}

// TestEnabledFeatures checks cargo's feature resolution.
func TestEnabledFeatures(t *testing.T) {
	table := map[string][]string{"default": {"std"}, "std": {"alloc", "log/std"}, "alloc": {}, "x": {"dep:ser", "re?/y"}}
	opt := []string{"log", "ser", "re"}
	for _, tc := range []struct {
		sel  FeatureSel
		want []string
	}{
		{FeatureSel{}, []string{"alloc", "default", "log", "std"}},
		{FeatureSel{NoDefaultFeatures: true}, nil},
		{FeatureSel{NoDefaultFeatures: true, Features: []string{"x re"}}, []string{"re", "x"}},
		{FeatureSel{AllFeatures: true}, []string{"alloc", "default", "log", "re", "std", "x"}},
	} {
		got := slices.Sorted(maps.Keys(enabledFeatures(table, opt, tc.sel)))
		if !slices.Equal(got, tc.want) {
			t.Errorf("%+v: %q, want %q", tc.sel, got, tc.want)
		}
	}
}

// TestFeatureFlags checks the cargo flags that carry [cargo]'s feature
// options to cargo test runs and listings.
func TestFeatureFlags(t *testing.T) {
	got := featureFlags(map[string][]string{"features": {"a", "b"}, "all_features": {"true"}, "no_default_features": {"true"}})
	if want := []string{"--features", "a,b", "--all-features", "--no-default-features"}; !slices.Equal(got, want) {
		t.Errorf("featureFlags = %q, want %q", got, want)
	}
	if got := featureFlags(nil); got != nil {
		t.Errorf("featureFlags(nil) = %q, want nil", got)
	}
}
