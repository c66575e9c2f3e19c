package rust

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Detector finds cargo crates: a folder whose Cargo.toml has a [package]
// table. A workspace root without [package] is not a crate (Detect returns
// nil), so each member is found as its own project through its own
// Cargo.toml. Every .rs file of a crate is a candidate: the Linker keeps
// only the tests of files reachable from a target that `cargo test` runs.
var Detector lang.Detector = detector{}

type detector struct{}

func (detector) Ecosystem() string    { return "cargo" }
func (detector) Manifests() []string  { return []string{"Cargo.toml"} }
func (detector) Extensions() []string { return []string{".rs"} }

// Detect reads the crate's Cargo.toml and computes its targets. A file of
// no manifest at all (the root fallback) is not a crate: nil.
func (detector) Detect(env *lang.DetectEnv, dir string, manifests []string) (*lang.Project, []testdex.Problem) {
	if len(manifests) == 0 {
		return nil, nil
	}
	abs := filepath.Join(dir, "Cargo.toml")
	data, err := env.ReadFile(abs)
	if err != nil {
		return nil, []testdex.Problem{{Severity: testdex.SevError, Path: abs, Message: "cannot read: " + err.Error()}}
	}
	var m Manifest
	if _, err := toml.Decode(string(data), &m); err != nil {
		return nil, []testdex.Problem{{Severity: testdex.SevError, Path: abs,
			Message: "invalid TOML, so its crate is not listed (fix it; cargo would refuse it too): " + err.Error()}}
	}
	if m.Package == nil {
		return nil, nil // a virtual workspace: members are their own projects
	}
	if env.Options[testdex.Cargo].Disabled {
		return nil, nil
	}
	c := &Crate{Dir: dir, Name: m.Package.Name, Targets: m.targets(dir, listDir), DocPrefix: workspaceRoot(env.ReadFile, dir),
		Cfg: m.cfgEnv(env.Options[testdex.Cargo].Extra), FeatureFlags: featureFlags(env.Options[testdex.Cargo].Extra)}
	return &lang.Project{Dir: dir, Name: c.Name, Manifest: "Cargo.toml", Spanner: Spanner, Frameworks: []*lang.Setup{{
		Framework: testdex.Cargo,
		Extractor: Extractor{},
		Match:     isSource,
		Patterns:  []string{"**/*.rs"},
		Linker:    Linker{Crate: c},
		Lister:    Lister{Crate: c},
		Runner:    Runner{Crate: c},
	}}, Grapher: Grapher{Crate: c}}, nil
}

// isSource accepts every .rs file of the crate outside target/ (cargo's
// build folder): which of them are compiled is decided by the module tree.
func isSource(rel string) bool {
	return filepath.Ext(rel) == ".rs" && !hasPrefixDir(rel, "target")
}

func hasPrefixDir(rel, dir string) bool {
	return len(rel) > len(dir) && rel[:len(dir)] == dir && rel[len(dir)] == '/'
}

// cfgEnv is the CfgEnv of cargo test with the options of [cargo] in
// testdex.toml: features, all_features, no_default_features, and
// all_platforms (target predicates unknown: tests of every platform are
// listed, as --all-platforms does for Go). The host is the machine
// testdex runs on, as for a cargo test without --target.
func (m *Manifest) cfgEnv(extra map[string][]string) *CfgEnv {
	on := func(k string) bool { return slices.Contains(extra[k], "true") }
	sel := FeatureSel{Features: extra["features"], AllFeatures: on("all_features"), NoDefaultFeatures: on("no_default_features")}
	e := &CfgEnv{Features: enabledFeatures(m.Features, m.optional(), sel)}
	if !on("all_platforms") {
		e.Host = HostOf(runtime.GOOS, runtime.GOARCH)
	}
	return e
}

// featureFlags are the cargo flags of the feature options of [cargo].
func featureFlags(extra map[string][]string) []string {
	var out []string
	if len(extra["features"]) > 0 {
		out = append(out, "--features", strings.Join(extra["features"], ","))
	}
	if slices.Contains(extra["all_features"], "true") {
		out = append(out, "--all-features")
	}
	if slices.Contains(extra["no_default_features"], "true") {
		out = append(out, "--no-default-features")
	}
	return out
}
