package rust

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Runner runs a crate's tests with `cargo test` in the crate's folder,
// with the user's environment as it is: cargo builds into the crate's own
// target folder (or wherever the user's CARGO_TARGET_DIR and
// .cargo/config.toml say), so a run reuses the build of the user's own
// `cargo test` and the other way round. testdex adds two flags of cargo's
// own, neither visible to the tests: --color never (cargo's messages, not
// libtest's) and --no-fail-fast (every target runs even when one fails, so
// that every test gets its result).
//
// The whole crate (".") runs as plain `cargo test`: every target cargo
// tests by default, then the doc tests. Other paths and IDs become cargo
// target flags and libtest name filters, because cargo cannot select a
// file (see RunCommands). Extra arguments go to cargo; those after a "--"
// among them go to libtest (`testdex run -- --release -- --nocapture`).
// libtest has no per-test timeout on stable Rust, so
// RunOptions.TestTimeout is not used.
//
// With RunOptions.Coverage, Runner records each test's coverage (it is a
// lang.Coverer): cover.go says how.
type Runner struct {
	Crate *Crate
}

// RunCommands returns the cargo test commands running sel, test targets
// first, the doc tests last:
//
//   - "." is plain `cargo test` (with one command per target instead when
//     a target without libtest harness runs, since what it prints cannot
//     be told from the next target's output);
//   - a folder holding target roots (tests/) runs those targets whole
//     (--test NAME for each), and a target's root file its target;
//   - another file or folder runs its module by name: the filter "m::"
//     (libtest filters are substrings, so a module elsewhere whose path
//     holds "m::" runs too; with one such filter, --skip "::m::" drops the
//     modules named m inside others), in the targets its tests belong to;
//   - the doc tests under a path of the library run by the path's name
//     (`--doc -- src/parse.rs`), and doc tests named by ID as runner_doc.go
//     says;
//   - tests named by ID run by exact name (`-- --exact a::t`), suites and
//     dynamic records by their module path, in a second command (libtest
//     applies --exact to every filter).
func (r Runner) RunCommands(p *lang.Project, sel *lang.Selection, o lang.RunOptions) ([]*lang.Command, error) {
	plain, err := r.plainCommands(p, sel, o)
	if err != nil || !o.Coverage {
		return plain, err
	}
	return r.coverCommands(p, plain, o)
}

// plainCommands returns the commands of a run without coverage.
func (r Runner) plainCommands(p *lang.Project, sel *lang.Selection, o lang.RunOptions) ([]*lang.Command, error) {
	cargoExtra, testExtra := splitExtra(o.Extra)
	cargoExtra = append(slices.Clone(r.Crate.FeatureFlags), cargoExtra...) // the listing's features first
	rt := r.readRunTargets()
	if sel.Whole() {
		return r.crateCommands(p, rt, cargoExtra, testExtra), nil
	}
	pl := &cargoPlan{filters: map[string]*targetFilters{}}
	on := rt.enabled(cargoExtra)
	for _, ps := range sel.Paths {
		r.addPath(pl, ps, rt, on)
	}
	for _, t := range sel.Tests {
		if err := r.addTest(pl, t); err != nil {
			return nil, err
		}
	}
	return r.commands(pl, p, rt, cargoExtra, testExtra), nil
}

// cargoPlan is what a selection runs: whole targets, name filters per
// target, and doc tests by path and by name.
type cargoPlan struct {
	whole    []Target
	filters  map[string]*targetFilters // by target flags
	docPaths []string
	docNames []string
}

// targetFilters are the libtest filters of one target.
type targetFilters struct {
	target  Target
	exact   []string
	prefix  []string
	modules int // prefix filters that are modules of selected paths
	// root is true when the target's root file runs without its module
	// files, skipped as rootSkips says.
	root      bool
	rootSkips []string
}

func (pl *cargoPlan) of(t Target) *targetFilters {
	k := strings.Join(targetFlags(t), " ")
	if pl.filters[k] == nil {
		pl.filters[k] = &targetFilters{target: t}
	}
	return pl.filters[k]
}

// cargoBase is the start of every command.
func cargoBase(flags, cargoExtra []string) []string {
	args := append([]string{"cargo", "test", "--color", "never", "--no-fail-fast"}, flags...)
	return append(args, cargoExtra...)
}

// withTestArgs appends libtest's arguments, if any, after a "--".
func withTestArgs(args []string, testArgs ...[]string) []string {
	var all []string
	for _, a := range testArgs {
		all = append(all, a...)
	}
	if len(all) == 0 {
		return args
	}
	return append(append(args, "--"), all...)
}

// crateCommands runs the whole crate as `cargo test` does.
func (r Runner) crateCommands(p *lang.Project, rt *runTargets, cargoExtra, testExtra []string) []*lang.Command {
	bins, doc := r.binaries(rt, cargoExtra)
	if !slices.ContainsFunc(bins, rt.unharnessed) {
		return []*lang.Command{{Args: withTestArgs(cargoBase(nil, cargoExtra), testExtra), Dir: p.Dir}}
	}
	pl := &cargoPlan{whole: bins}
	if doc {
		pl.docPaths = []string{""}
	}
	return r.commands(pl, p, rt, cargoExtra, testExtra)
}

// commands builds the plan's commands: the whole targets, each filtered
// target's commands in cargo's target order, then the doc tests.
func (r Runner) commands(pl *cargoPlan, p *lang.Project, rt *runTargets, cargoExtra, testExtra []string) []*lang.Command {
	var cmds []*lang.Command
	add := func(args []string) { cmds = append(cmds, &lang.Command{Args: args, Dir: p.Dir}) }
	whole := targetCommands(pl.whole, rt, cargoExtra, testExtra, add)
	var filtered []Target
	for k, f := range pl.filters {
		if !whole[k] {
			filtered = append(filtered, f.target)
		}
	}
	sortTargets(filtered)
	for _, t := range filtered {
		pl.of(t).commands(cargoBase(targetFlags(t), cargoExtra), testExtra, add)
	}
	if docPaths := dedupe(pl.docPaths); len(docPaths) > 0 {
		if slices.Contains(docPaths, "") {
			docPaths = nil // every doc test
		}
		add(withTestArgs(cargoBase([]string{"--doc"}, cargoExtra), testExtra, docPaths))
	}
	if len(pl.docNames) > 0 {
		for _, sel := range r.docSelections(dedupe(pl.docNames)) {
			add(withTestArgs(cargoBase([]string{"--doc"}, cargoExtra), testExtra, sel))
		}
	}
	return cmds
}

// targetCommands adds the command running targets whole (one command, and
// one per target without harness) and returns their flags, as keys.
func targetCommands(targets []Target, rt *runTargets, cargoExtra, testExtra []string, add func([]string)) map[string]bool {
	var flags []string
	var alone []Target
	whole := map[string]bool{}
	sortTargets(targets)
	for _, t := range targets {
		k := strings.Join(targetFlags(t), " ")
		switch {
		case whole[k]:
		case rt.unharnessed(t):
			alone = append(alone, t)
		default:
			flags = append(flags, targetFlags(t)...)
		}
		whole[k] = true
	}
	if len(flags) > 0 {
		add(withTestArgs(cargoBase(flags, cargoExtra), testExtra))
	}
	for _, t := range alone {
		add(withTestArgs(cargoBase(targetFlags(t), cargoExtra), testExtra))
	}
	return whole
}

// commands adds one target's commands: its exact names (--exact applies
// to every filter of a command), its root file without its module files,
// its module prefixes.
func (f *targetFilters) commands(base, testExtra []string, add func([]string)) {
	if len(f.exact) > 0 {
		add(withTestArgs(slices.Clone(base), []string{"--exact"}, testExtra, dedupe(f.exact)))
	}
	if f.root {
		var skips []string
		for _, m := range f.rootSkips {
			skips = append(skips, "--skip", m)
		}
		add(withTestArgs(slices.Clone(base), testExtra, skips))
	}
	if prefix := dedupe(f.prefix); len(prefix) > 0 {
		var skip []string
		if len(prefix) == 1 && f.modules == 1 {
			skip = []string{"--skip", "::" + prefix[0]}
		}
		add(withTestArgs(slices.Clone(base), testExtra, prefix, skip))
	}
}

// targetFlags returns the cargo flags selecting target t.
func targetFlags(t Target) []string {
	if t.Kind == "lib" {
		return []string{"--lib"}
	}
	return []string{"--" + t.Kind, t.Name}
}

// addTest adds a record named by ID.
func (r Runner) addTest(pl *cargoPlan, t *testdex.Test) error {
	name := t.Run
	if name == "" {
		name = t.Name
	}
	if t.Kind == testdex.KindDoctest || isDocName(name) {
		pl.docNames = append(pl.docNames, name)
		return nil
	}
	tg := r.target(t.Scope)
	if tg == nil {
		return fmt.Errorf("no target of crate %s has the root file %s (run 'testdex list' again to refresh the records)", r.crateName(), t.Scope)
	}
	f := pl.of(*tg)
	if t.Run != "" && !t.Dynamic {
		f.exact = append(f.exact, t.Run)
	} else {
		f.prefix = append(f.prefix, modulePrefix(t))
	}
	return nil
}

// addPath adds a file or folder: the targets whose roots it holds run
// whole; otherwise its module runs by name in the targets its tests
// belong to (those of the listed records, else the targets whose folder
// holds it); and its doc tests run when it holds library sources.
func (r Runner) addPath(pl *cargoPlan, ps lang.PathSelection, rt *runTargets, on map[string]bool) {
	var roots []Target
	for _, t := range r.runnable(rt, on) {
		switch {
		case ps.Dir && under(t.Root, ps.Path):
			roots = append(roots, t)
		case t.Root == ps.Path:
			roots = append(roots, t)
			if mods := r.moduleFiles(t); len(mods) > 0 {
				f := pl.of(t)
				f.root, f.rootSkips = true, mods
				continue
			}
			pl.whole = append(pl.whole, t)
		}
	}
	if ps.Dir {
		pl.whole = append(pl.whole, roots...)
	}
	if len(roots) == 0 {
		r.addModule(pl, ps, rt, on)
	}
	if lib := r.lib(); lib != nil && lib.Doctest && r.holdsLibSources(ps) {
		name := "" // the whole crate: every doc test
		if ps.Path != "." {
			name = path.Join(r.Crate.DocPrefix, ps.Path)
		}
		if ps.Dir && name != "" {
			name += "/"
		}
		pl.docPaths = append(pl.docPaths, name)
	}
}

// addModule adds the module of a file or folder that holds no target
// root, in each target it belongs to.
func (r Runner) addModule(pl *cargoPlan, ps lang.PathSelection, rt *runTargets, on map[string]bool) {
	scopes := map[string]bool{}
	for _, t := range ps.Tests {
		if t.Kind != testdex.KindDoctest {
			scopes[t.Scope] = true
		}
	}
	var targets []Target
	for _, t := range r.runnable(rt, on) {
		if scopes[t.Root] {
			targets = append(targets, t)
		}
	}
	if len(scopes) == 0 {
		targets = r.layoutTargets(ps.Path, rt, on)
	}
	for _, t := range targets {
		f := pl.of(t)
		mod := modulePath(t.Root, ps.Path)
		if mod != "" && recordsUnder(ps.Tests, t.Root, mod) {
			f.prefix = append(f.prefix, mod+"::")
			f.modules++
			continue
		}
		for _, rec := range ps.Tests { // a layout rustc's does not explain (#[path]): the records' own names
			if rec.Scope == t.Root && rec.Kind != testdex.KindDoctest {
				f.prefix = append(f.prefix, modulePrefix(rec))
			}
		}
	}
}

// moduleFiles returns the filters ("m::") of the module files beside a
// target's root (m.rs, m/mod.rs in the root's folder, other targets' roots
// and src/bin aside), which `cargo test` runs with the root's own tests:
// skipping them leaves the tests declared in the root file.
func (r Runner) moduleFiles(t Target) []string {
	if r.Crate == nil || r.Crate.Dir == "" {
		return nil
	}
	d := path.Dir(t.Root)
	var out []string
	for _, e := range listDir(filepath.Join(r.Crate.Dir, filepath.FromSlash(d))) {
		rel, name := path.Join(d, e.Name()), strings.TrimSuffix(e.Name(), ".rs")
		switch {
		case r.target(rel) != nil || rel == path.Join(path.Dir(r.libRoot()), "bin"):
		case e.IsDir() && fileExists(filepath.Join(r.Crate.Dir, filepath.FromSlash(rel), "mod.rs")),
			!e.IsDir() && strings.HasSuffix(e.Name(), ".rs"):
			out = append(out, name+"::")
		}
	}
	return dedupe(out)
}

func (r Runner) libRoot() string {
	if lib := r.lib(); lib != nil {
		return lib.Root
	}
	return "src/lib.rs"
}

// recordsUnder reports whether every record of target root is under
// module mod (records of other targets aside).
func recordsUnder(recs []*testdex.Test, root, mod string) bool {
	for _, t := range recs {
		if t.Scope == root && t.Kind != testdex.KindDoctest && !strings.HasPrefix(t.Name, mod+"::") {
			return false
		}
	}
	return true
}

// runnable returns the targets plain cargo test runs with the features on.
func (r Runner) runnable(rt *runTargets, on map[string]bool) []Target {
	var out []Target
	if r.Crate == nil {
		return nil
	}
	for _, t := range r.Crate.Targets {
		if (t.Tested || rt.unharnessed(t)) && rt.runs(t, on) {
			out = append(out, t)
		}
	}
	return out
}

// layoutTargets returns the targets whose root's folder holds p, the
// deepest such folder winning (tests/common/mod.rs belongs to every
// tests/*.rs; src/bin/ is not the library's).
func (r Runner) layoutTargets(p string, rt *runTargets, on map[string]bool) []Target {
	var out []Target
	best := -1
	for _, t := range r.runnable(rt, on) {
		d := path.Dir(t.Root)
		if !under(p, d) || t.Kind == "lib" && under(p, path.Join(d, "bin")) {
			continue
		}
		switch n := strings.Count(d, "/"); {
		case n > best:
			out, best = []Target{t}, n
		case n == best:
			out = append(out, t)
		}
	}
	return out
}

// holdsLibSources reports whether a path may hold the library's sources:
// it overlaps the library root's folder, outside src/bin and other
// targets' roots.
func (r Runner) holdsLibSources(ps lang.PathSelection) bool {
	lib := r.lib()
	d := path.Dir(lib.Root)
	if !under(ps.Path, d) && !(ps.Dir && under(d, ps.Path)) || under(ps.Path, path.Join(d, "bin")) {
		return false
	}
	for _, t := range r.Crate.Targets {
		if t.Kind != "lib" && t.Root == ps.Path {
			return false
		}
	}
	return true
}

// modulePath is the module path of a crate-relative file or folder in
// the target rooted at root, by rustc's layout (a.rs and a/mod.rs are
// module a of the root's folder); "" when p is not below the root's
// folder.
func modulePath(root, p string) string {
	d := path.Dir(root)
	rel := p
	if d != "." {
		var ok bool
		if rel, ok = strings.CutPrefix(p, d+"/"); !ok {
			return ""
		}
	}
	rel = strings.TrimSuffix(strings.TrimSuffix(rel, ".rs"), "/mod")
	return strings.ReplaceAll(rel, "/", "::")
}

// under reports whether slash path p is dir or lies below it.
func under(p, dir string) bool {
	return dir == "." || p == dir || strings.HasPrefix(p, dir+"/")
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
