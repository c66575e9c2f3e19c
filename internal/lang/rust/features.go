package rust

import (
	"slices"
	"strings"
)

// FeatureSel is the feature selection of `cargo test`: --features,
// --all-features and --no-default-features. The zero value is cargo's
// default: the package's default features.
type FeatureSel struct {
	Features          []string // each may hold several, separated by commas or spaces
	AllFeatures       bool
	NoDefaultFeatures bool
}

// manifestDeps are the dependency tables whose optional entries are
// implicit features (dev-dependencies cannot be optional).
type manifestDeps struct {
	Dependencies      map[string]any `toml:"dependencies"`
	BuildDependencies map[string]any `toml:"build-dependencies"`
	Target            map[string]struct {
		Dependencies      map[string]any `toml:"dependencies"`
		BuildDependencies map[string]any `toml:"build-dependencies"`
	} `toml:"target"`
}

// optional returns the names of the optional dependencies, sorted.
func (d manifestDeps) optional() []string {
	var out []string
	add := func(m map[string]any) {
		for name, v := range m {
			if t, ok := v.(map[string]any); ok && t["optional"] == true {
				out = append(out, name)
			}
		}
	}
	add(d.Dependencies)
	add(d.BuildDependencies)
	for _, t := range d.Target {
		add(t.Dependencies)
		add(t.BuildDependencies)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// enabledFeatures resolves sel against the [features] table and the
// optional dependencies as cargo does: a feature enables the features it
// lists, transitively; "dep:x" enables dependency x and no feature;
// "x/f" enables dependency x (and x's implicit feature, when it has one)
// and "x?/f" does not; each optional dependency never named as "dep:x" is
// an implicit feature of its own name. Unknown names are ignored (cargo
// would refuse them).
func enabledFeatures(table map[string][]string, optional []string, sel FeatureSel) map[string]bool {
	defs := make(map[string][]string, len(table)+len(optional))
	for k, v := range table {
		defs[k] = v
	}
	for _, dep := range optional {
		if _, ok := defs[dep]; !ok && !namesDep(table, dep) {
			defs[dep] = []string{"dep:" + dep}
		}
	}
	on := map[string]bool{}
	var enable func(string)
	enable = func(f string) {
		if f == "" || on[f] {
			return
		}
		switch dep, _, slash := strings.Cut(f, "/"); {
		case strings.HasPrefix(f, "dep:"), strings.HasSuffix(dep, "?") && slash:
			return
		case slash:
			f = dep
		}
		if _, ok := defs[f]; !ok || on[f] {
			return
		}
		on[f] = true
		for _, g := range defs[f] {
			enable(g)
		}
	}
	if sel.AllFeatures {
		for f := range defs {
			enable(f)
		}
		return on
	}
	if !sel.NoDefaultFeatures {
		enable("default")
	}
	for _, s := range sel.Features {
		for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
			enable(f)
		}
	}
	return on
}

// namesDep reports whether some feature lists "dep:name", which removes
// the implicit feature of an optional dependency.
func namesDep(table map[string][]string, name string) bool {
	for _, v := range table {
		if slices.Contains(v, "dep:"+name) {
			return true
		}
	}
	return false
}

// HostOf is the Host of a Go GOOS/GOARCH pair (runtime.GOOS,
// runtime.GOARCH), in rustc's names; fields it cannot map are empty
// (unknown).
func HostOf(goos, goarch string) *Host {
	h := &Host{OS: goos, Family: "unix"}
	switch goos {
	case "darwin":
		h.OS = "macos"
	case "windows":
		h.Family = "windows"
	case "js", "wasip1":
		h.OS, h.Family = "", "wasm"
	case "linux", "android", "ios", "freebsd", "netbsd", "openbsd", "dragonfly", "solaris", "illumos", "aix":
	default:
		h.OS, h.Family = "", ""
	}
	arch := map[string][3]string{ // arch, pointer width, endian
		"amd64": {"x86_64", "64", "little"}, "arm64": {"aarch64", "64", "little"}, "386": {"x86", "32", "little"},
		"arm": {"arm", "32", "little"}, "riscv64": {"riscv64", "64", "little"}, "loong64": {"loongarch64", "64", "little"},
		"ppc64le": {"powerpc64", "64", "little"}, "ppc64": {"powerpc64", "64", "big"}, "s390x": {"s390x", "64", "big"},
		"wasm": {"wasm32", "32", "little"},
	}
	if a, ok := arch[goarch]; ok {
		h.Arch, h.PointerWidth, h.Endian = a[0], a[1], a[2]
	}
	return h
}
