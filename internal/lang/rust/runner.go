package rust

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Runner runs a crate's tests with `cargo test`, one command per target
// (and one for the doc tests, which cargo will not mix with other target
// flags), so that every line libtest prints belongs to a known Scope: the
// target's root file, as in the static records.
//
// Records with a Run filter are selected exactly (`-- --exact NAME...`);
// suites and dynamic records (test_case groups, tests a macro generates)
// have none and run everything under their module path, in a second
// command without --exact (libtest applies --exact to every filter).
//
// Doc tests are selected by their whole name without --exact: rustdoc
// (1.95) matches no doc test under --exact, and "FILE - ITEM (line N)"
// is not a substring of another doc test's name within the crate.
//
// Extra arguments go to cargo; those after a "--" among them go to libtest
// (`testdex run -- --release -- --nocapture`). libtest has no per-test
// timeout on stable Rust, so RunOptions.TestTimeout is not used.
//
// CARGO_TARGET_DIR is set to a folder of the user cache, one per crate
// folder, unless the user chose a target folder (CARGO_TARGET_DIR,
// CARGO_BUILD_TARGET_DIR, or build.target-dir in a .cargo/config.toml of
// the crate or a folder above it): testdex's builds then never wait on the
// build lock an editor or a `cargo watch` holds on target/, and never
// invalidate their artefacts with other flags. The cost is one build of
// the crate's tests in that folder, reused by every later run.
type Runner struct {
	Crate *Crate
	// Getenv reads the user's environment; nil means the environment the
	// core runs the commands with (RunOptions.Env).
	Getenv func(string) string
	// CacheDir is the user cache folder; nil means os.UserCacheDir.
	CacheDir func() (string, error)
}

// RunCommands returns the cargo test commands for tests, ordered by target
// root, the doc tests last.
func (r Runner) RunCommands(p *lang.Project, sel *lang.Selection, o lang.RunOptions) ([]*lang.Command, error) {
	tests := sel.Records()
	type filters struct{ exact, prefix []string }
	byTarget := map[string]*filters{} // target flags, space-separated
	for _, t := range tests {
		flags, err := r.targetFlags(t)
		if err != nil {
			return nil, err
		}
		k := strings.Join(flags, " ")
		s := byTarget[k]
		if s == nil {
			s = &filters{}
			byTarget[k] = s
		}
		switch {
		case t.Kind == testdex.KindDoctest:
			s.prefix = append(s.prefix, t.Run) // see Runner on doc tests and --exact
		case t.Run != "":
			s.exact = append(s.exact, t.Run)
		default:
			s.prefix = append(s.prefix, modulePrefix(t))
		}
	}
	keys := make([]string, 0, len(byTarget))
	for k := range byTarget {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if (keys[i] == "--doc") != (keys[j] == "--doc") {
			return keys[j] == "--doc"
		}
		return keys[i] < keys[j]
	})
	cargoExtra, testExtra := splitExtra(o.Extra)
	env := r.env(p, o)
	var cmds []*lang.Command
	for _, k := range keys {
		s := byTarget[k]
		base := append([]string{"cargo", "test", "--color", "never", "--no-fail-fast"}, strings.Fields(k)...)
		base = append(base, cargoExtra...)
		if len(s.exact) > 0 {
			args := append(slices.Clone(base), "--", "--exact")
			args = append(append(args, testExtra...), s.exact...)
			cmds = append(cmds, &lang.Command{Args: args, Dir: p.Dir, Env: env})
		}
		if len(s.prefix) > 0 {
			args := append(slices.Clone(base), "--")
			args = append(append(args, testExtra...), s.prefix...)
			cmds = append(cmds, &lang.Command{Args: args, Dir: p.Dir, Env: env})
		}
	}
	return cmds, nil
}

// targetFlags returns the cargo flags selecting t's target.
func (r Runner) targetFlags(t *testdex.Test) ([]string, error) {
	if t.Kind == testdex.KindDoctest {
		return []string{"--doc"}, nil
	}
	tg := r.target(t.Scope)
	if tg == nil {
		return nil, fmt.Errorf("no target of crate %s has the root file %s (run 'testdex list' again to refresh the records)", r.crateName(), t.Scope)
	}
	if tg.Kind == "lib" {
		return []string{"--lib"}, nil
	}
	return []string{"--" + tg.Kind, tg.Name}, nil
}

func (r Runner) target(root string) *Target {
	if r.Crate == nil {
		return nil
	}
	for i := range r.Crate.Targets {
		if r.Crate.Targets[i].Root == root {
			return &r.Crate.Targets[i]
		}
	}
	return nil
}

func (r Runner) crateName() string {
	if r.Crate == nil {
		return "?"
	}
	return r.Crate.Name
}

// modulePrefix is the libtest filter running a record that has no exact
// name: a suite's module path, or a dynamic record's enclosing module,
// followed by "::".
func modulePrefix(t *testdex.Test) string {
	name := t.Name
	if t.Dynamic {
		if i := strings.LastIndex(name, "::"); i >= 0 {
			name = name[:i]
		}
	}
	return name + "::"
}

// splitExtra splits the user's arguments at their first "--": cargo's,
// then libtest's.
func splitExtra(extra []string) (cargo, test []string) {
	if i := slices.Index(extra, "--"); i >= 0 {
		return extra[:i], extra[i+1:]
	}
	return extra, nil
}

// env returns CARGO_TARGET_DIR=<cache>/testdex/cargo-target/<crate>-<hash>
// unless the user chose a target folder (see Runner) or there is no cache
// folder.
func (r Runner) env(p *lang.Project, o lang.RunOptions) []string {
	getenv, cacheDir := r.Getenv, r.CacheDir
	if getenv == nil {
		getenv = o.Getenv
	}
	if cacheDir == nil {
		cacheDir = os.UserCacheDir
	}
	if getenv("CARGO_TARGET_DIR") != "" || getenv("CARGO_BUILD_TARGET_DIR") != "" || configTargetDir(p.Dir) {
		return nil
	}
	base, err := cacheDir()
	if err != nil || base == "" {
		return nil
	}
	sum := sha256.Sum256([]byte(p.Dir))
	name := filepath.Base(p.Dir)
	if r.Crate != nil && r.Crate.Name != "" {
		name = r.Crate.Name
	}
	return []string{"CARGO_TARGET_DIR=" + filepath.Join(base, "testdex", "cargo-target", name+"-"+hex.EncodeToString(sum[:6]))}
}

// configTargetDir reports whether a .cargo/config.toml (or .cargo/config)
// in dir or a folder above it sets target-dir.
func configTargetDir(dir string) bool {
	for d := dir; ; d = filepath.Dir(d) {
		for _, f := range []string{"config.toml", "config"} {
			if b, err := os.ReadFile(filepath.Join(d, ".cargo", f)); err == nil && strings.Contains(string(b), "target-dir") {
				return true
			}
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}
