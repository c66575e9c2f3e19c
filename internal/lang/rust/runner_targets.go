package rust

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// runTargets is what the runner needs of Cargo.toml beyond the Crate's
// targets to know which test binaries a cargo test command runs: the
// features and each target's required-features (cargo test leaves out a
// target whose required features are off, and refuses one named by a
// flag), and the targets without libtest harness that cargo test runs
// (the Crate's Tested is false for them; what they print is their own).
type runTargets struct {
	features  map[string][]string
	required  map[string][]string // "kind name" -> required-features
	unharness map[string]bool     // "kind name" of harness = false targets cargo test runs
}

// targetTable is one target table, as read for running.
type targetTable struct {
	Name     string   `toml:"name"`
	Test     *bool    `toml:"test"`
	Harness  *bool    `toml:"harness"`
	Required []string `toml:"required-features"`
}

// readRunTargets reads the crate's Cargo.toml; a crate without one (or
// one that does not parse: cargo will say why) has no features and every
// target harnessed.
func (r Runner) readRunTargets() *runTargets {
	rt := &runTargets{features: map[string][]string{}, required: map[string][]string{}, unharness: map[string]bool{}}
	if r.Crate == nil || r.Crate.Dir == "" {
		return rt
	}
	data, err := os.ReadFile(filepath.Join(r.Crate.Dir, "Cargo.toml"))
	if err != nil {
		return rt
	}
	var m struct {
		Features map[string][]string `toml:"features"`
		Lib      *targetTable        `toml:"lib"`
		Bin      []targetTable       `toml:"bin"`
		Test     []targetTable       `toml:"test"`
		Example  []targetTable       `toml:"example"`
		Bench    []targetTable       `toml:"bench"`
	}
	if _, err := toml.Decode(string(data), &m); err != nil {
		return rt
	}
	if m.Features != nil {
		rt.features = m.Features
	}
	for kind, tables := range map[string][]targetTable{"bin": m.Bin, "test": m.Test, "example": m.Example, "bench": m.Bench} {
		for _, t := range tables {
			rt.required[kind+" "+t.Name] = t.Required
			tested := kind == "bin" || kind == "test"
			if t.Test != nil {
				tested = *t.Test
			}
			if t.Harness != nil && !*t.Harness && tested {
				rt.unharness[kind+" "+t.Name] = true
			}
		}
	}
	return rt
}

// unharnessed reports whether t is a target without libtest harness
// that cargo test runs.
func (rt *runTargets) unharnessed(t Target) bool { return rt.unharness[t.Kind+" "+t.Name] }

// enabled returns the crate features a command's cargo arguments turn on:
// "default" unless --no-default-features, those of --features/-F, all of
// them with --all-features, and what those enable in turn.
func (rt *runTargets) enabled(cargoArgs []string) map[string]bool {
	on := map[string]bool{}
	var todo []string
	all, noDefault := false, false
	for i := 0; i < len(cargoArgs); i++ {
		a := cargoArgs[i]
		switch {
		case a == "--all-features":
			all = true
		case a == "--no-default-features":
			noDefault = true
		case (a == "--features" || a == "-F") && i+1 < len(cargoArgs):
			i++
			todo = append(todo, strings.FieldsFunc(cargoArgs[i], func(r rune) bool { return r == ',' || r == ' ' })...)
		case strings.HasPrefix(a, "--features="):
			todo = append(todo, strings.FieldsFunc(strings.TrimPrefix(a, "--features="), func(r rune) bool { return r == ',' || r == ' ' })...)
		}
	}
	if all {
		for f := range rt.features {
			on[f] = true
		}
		return on
	}
	if !noDefault {
		todo = append(todo, "default")
	}
	for len(todo) > 0 {
		f := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if i := strings.Index(f, "/"); i >= 0 { // dep/feat enables dep (an optional dependency's feature)
			f = strings.TrimSuffix(f[:i], "?")
		}
		f = strings.TrimPrefix(f, "dep:")
		if on[f] {
			continue
		}
		on[f] = true
		todo = append(todo, rt.features[f]...)
	}
	return on
}

// runs reports whether cargo test builds and runs target t with the
// features on: its required features are all on.
func (rt *runTargets) runs(t Target, on map[string]bool) bool {
	for _, f := range rt.required[t.Kind+" "+t.Name] {
		if i := strings.Index(f, "/"); i >= 0 {
			f = f[:i]
		}
		if !on[f] {
			return false
		}
	}
	return true
}

// kindOrder is cargo's order of target kinds: cargo test runs the test
// binaries sorted by unit, that is by target kind (lib, bins, tests,
// benches, examples) and then name.
var kindOrder = map[string]int{"lib": 0, "bin": 1, "test": 2, "bench": 3, "example": 4}

// sortTargets sorts targets into the order cargo test runs them.
func sortTargets(ts []Target) {
	sort.SliceStable(ts, func(i, j int) bool {
		if ki, kj := kindOrder[ts[i].Kind], kindOrder[ts[j].Kind]; ki != kj {
			return ki < kj
		}
		return ts[i].Name < ts[j].Name
	})
}

// binaries returns the targets a cargo test command runs, in cargo's
// order, and whether it runs the doc tests after them, from the command's
// cargo arguments (those before "--"): no target flag runs every target
// whose test flag is on (or that has no harness) and the doc tests; --doc
// only the doc tests; otherwise the targets the flags name.
func (r Runner) binaries(rt *runTargets, cargoArgs []string) ([]Target, bool) {
	if r.Crate == nil {
		return nil, false
	}
	on := rt.enabled(cargoArgs)
	pick := map[int]bool{}
	flagged, doc := false, false
	for i := 0; i < len(cargoArgs); i++ {
		a, val := cargoArgs[i], ""
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "--") {
			a, val = k, v
		} else if i+1 < len(cargoArgs) && slices.Contains([]string{"--bin", "--test", "--bench", "--example"}, a) {
			i++
			val = cargoArgs[i]
		}
		for j, t := range r.Crate.Targets {
			switch {
			case a == "--lib" && t.Kind == "lib",
				a == "--bins" && t.Kind == "bin",
				a == "--tests" && (t.Tested || rt.unharnessed(t)),
				a == "--benches" && t.Kind == "bench",
				a == "--examples" && t.Kind == "example",
				a == "--all-targets",
				a == "--"+t.Kind && t.Kind != "lib" && val == t.Name:
				pick[j] = true
			}
		}
		switch a {
		case "--doc":
			doc = true
		case "--lib", "--bins", "--tests", "--benches", "--examples", "--all-targets", "--bin", "--test", "--bench", "--example":
			flagged = true
		}
	}
	var out []Target
	for j, t := range r.Crate.Targets {
		chosen := pick[j]
		if !flagged && !doc {
			chosen = t.Tested || rt.unharnessed(t)
		}
		if chosen && rt.runs(t, on) {
			out = append(out, t)
		}
	}
	sortTargets(out)
	if doc {
		return nil, r.doctests()
	}
	return out, !flagged && r.doctests()
}

// doctests reports whether the crate's library has doc tests cargo runs.
func (r Runner) doctests() bool {
	lib := r.lib()
	return lib != nil && lib.Doctest
}

func (r Runner) lib() *Target {
	if r.Crate == nil {
		return nil
	}
	for i := range r.Crate.Targets {
		if r.Crate.Targets[i].Kind == "lib" {
			return &r.Crate.Targets[i]
		}
	}
	return nil
}
