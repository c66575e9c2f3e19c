package golang

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// boundaryCommands are the plain run's go test commands, built with
// coverage of every package of the module and the overlay of hooks (see
// cover.go), each with its own folder for the hooks' files. A folder's
// pattern (./...) names its packages that have test files instead, and
// those without run in one more command, without coverage: go test
// -cover runs a go tool covdata per package without tests (0.1 s of CPU
// each), where the plain go test only builds it and says it has none.
func boundaryCommands(p *lang.Project, sel *lang.Selection, o lang.RunOptions, linkFlag bool) ([]*lang.Command, error) {
	plain := o
	plain.Coverage = false
	overlay, folders, err := writeOverlay(p, sel, filepath.Join(o.Dir, "overlay"), coverContext(o))
	if err != nil {
		return nil, fmt.Errorf("write the coverage overlay: %w", err)
	}
	untested := map[string]bool{}
	cmds := plainCommands(p, sel, plain, func(pattern string) []string {
		return treePackages(pattern, folders, untested)
	})
	for i, c := range cmds {
		at := slices.Index(c.Args, "-count=1") + 1
		flags := []string{"-cover", "-covermode=" + boundaryMode(o), "-coverpkg=./...", "-overlay=" + overlay}
		c.Args = slices.Insert(c.Args, at, flags...)
		if linkFlag {
			c.Args = withLinkFlag(c.Args, at+len(flags))
		}
		dir := filepath.Join(o.Dir, "cov"+strconv.Itoa(i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		c.Env = append(c.Env, coverEnv+"="+dir)
	}
	if len(untested) > 0 {
		rest := slices.Sorted(maps.Keys(untested))
		extra := goCommands(p, map[string][]string{"\x00": rest}, plain)[0]
		extra.Lane = "go test, packages without tests"
		if len(cmds) == 1 && cmds[0].Lane == "" { // both at once
			cmds[0].Lane = "go test"
		}
		cmds = append(cmds, extra)
	}
	return cmds, nil
}

// treePackages turns a folder's pattern (./... or ./dir/...) into the
// folders under it that have test files (as ./dir), adding those that
// hold only other Go files to untested; the pattern itself when none has
// test files.
func treePackages(pattern string, folders map[string]bool, untested map[string]bool) []string {
	root := strings.TrimSuffix(strings.TrimPrefix(pattern, "./"), "...")
	var out, rest []string
	for f, tests := range folders {
		if root != "" && f+"/" != root && !strings.HasPrefix(f, root) {
			continue
		}
		pkg := "./" + f
		if f == "." {
			pkg = "."
		}
		if tests {
			out = append(out, pkg)
		} else {
			rest = append(rest, pkg)
		}
	}
	if len(out) == 0 {
		return []string{pattern}
	}
	for _, f := range rest {
		untested[f] = true
	}
	slices.Sort(out)
	return out
}

// boundaryMode is the boundary path's -covermode: set (a plain store of 1
// per unit run, the cheapest) where the architecture's stores are seen by
// other threads in program order (amd64, 386), which the hook's walk of
// the counters needs (see hookSource); atomic elsewhere, and under
// -race (after "--" or in GOFLAGS), where go test refuses any other mode.
// GOARCH is the run's, else testdex's own.
func boundaryMode(o lang.RunOptions) string {
	if slices.ContainsFunc(append(strings.Fields(o.Getenv("GOFLAGS")), o.Extra...), isRaceFlag) {
		return "atomic"
	}
	arch := o.Getenv("GOARCH")
	if arch == "" {
		arch = runtime.GOARCH
	}
	if arch == "amd64" || arch == "386" {
		return "set"
	}
	return "atomic"
}

// isRaceFlag reports -race, --race or -race=true (go test's forms of the flag).
func isRaceFlag(a string) bool {
	if !strings.HasPrefix(a, "-") {
		return false
	}
	a = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
	return a == "race" || a == "race=true" || a == "race=1"
}

// withLinkFlag adds -checklinkname=0 to the command's -ldflags (the
// user's, after "--", or its own at at), which the hook's go:linkname
// needs since Go 1.23.
func withLinkFlag(args []string, at int) []string {
	for i, a := range args {
		switch {
		case strings.HasPrefix(a, "-ldflags=") || strings.HasPrefix(a, "--ldflags="):
			args[i] = a + " -checklinkname=0"
			return args
		case (a == "-ldflags" || a == "--ldflags") && i+1 < len(args):
			args[i+1] += " -checklinkname=0"
			return args
		}
	}
	return slices.Insert(args, at, "-ldflags=-checklinkname=0")
}

// coverDirOf is the hooks' folder of a boundary run's command, "" for
// another command.
func coverDirOf(cmd *lang.Command) string {
	for _, e := range cmd.Env {
		if v, ok := strings.CutPrefix(e, coverEnv+"="); ok {
			return v
		}
	}
	return ""
}

// boundaryParser reads a boundary run's go test stream as a plain run's,
// then, at the end, what each test process's hook wrote.
type boundaryParser struct {
	*jsonParser
	dir, root string
	ran       map[string]int // per package, tests (and subtests) that passed or failed
}

func newBoundaryParser(p *lang.Project, dir string, j *jsonParser) *boundaryParser {
	c := &boundaryParser{jsonParser: j, dir: dir, root: p.Dir, ran: map[string]int{}}
	emit := j.emit
	j.emit = func(e lang.RunEvent) {
		if e.Name != "" && (e.Action == testdex.ActionPass || e.Action == testdex.ActionFail) {
			c.ran[e.Scope]++
		}
		emit(e)
	}
	return c
}

// Close emits each top-level test's coverage, per process in the order
// its tests started; a package whose tests ran and none of whose processes
// recorded, or whose recording failed, gets a note.
func (c *boundaryParser) Close(exitCode int) error {
	if err := c.jsonParser.Close(exitCode); err != nil {
		return err
	}
	procs, _ := filepath.Glob(filepath.Join(c.dir, "*.*"))
	slices.Sort(procs)
	recorded := map[string]bool{}
	for _, dir := range procs {
		pc, err := readProcess(dir, c.module, c.root)
		if err != nil {
			c.emit(lang.RunEvent{Action: lang.ActionCovered, Message: err.Error()})
			recorded[pc.pkg] = true // said
			continue
		}
		recorded[pc.pkg] = true
		proc := filepath.Base(c.dir) + "/" + filepath.Base(dir) // the command's folder, the process's
		for _, t := range pc.tests {
			c.emit(lang.RunEvent{Action: lang.ActionCovered, Scope: pc.pkg, Name: t, Covered: pc.covered(t), Process: proc, Seq: pc.seq[t]})
		}
	}
	pkgs := make([]string, 0, len(c.ran))
	for pkg := range c.ran {
		pkgs = append(pkgs, pkg)
	}
	slices.Sort(pkgs)
	for _, pkg := range pkgs {
		if !recorded[pkg] {
			c.emit(lang.RunEvent{Action: lang.ActionCovered, Message: fmt.Sprintf(
				"the test process of %s wrote no coverage: its tests ran without testdex's hook (a test file that does not parse, or tests declared in a way testdex did not find)", pkg)})
		}
	}
	return nil
}

// boundaryToolchain says why a run cannot use the boundary path (""
// when it can), and whether the linker needs -checklinkname=0 for the
// hook's go:linkname (it has the check since Go 1.23). The Go toolchain's
// coverage data format, read from GOROOT/src/internal/coverage/defs.go,
// must be the one cover_decode.go reads, and its runtime must have the
// functions the hook calls, and the run must not bring an -overlay of its
// own (after "--" or in GOFLAGS). The hook walks the counters as
// internal/coverage's defs.go lays them out, and calls prepareForMetaEmit
// and getCovCounterList of emit.go. The boundary path is the default;
// TESTDEX_GO_COVERAGE=process asks for a process per test (then why is ""
// and shared false; see cover.go for when to ask).
func boundaryToolchain(o lang.RunOptions) (why string, linkFlag, shared bool) {
	if o.Getenv("TESTDEX_GO_COVERAGE") == "process" {
		return "", false, false
	}
	for _, a := range append(slices.Clone(o.Extra), strings.Fields(o.Getenv("GOFLAGS"))...) {
		if a == "-overlay" || a == "--overlay" || strings.HasPrefix(a, "-overlay=") || strings.HasPrefix(a, "--overlay=") {
			return "the run has an -overlay of its own (" + a + "), and go build takes one only", false, true
		}
	}
	root := o.Getenv("GOROOT")
	if root == "" {
		goBin, err := lookPath("go", o.Getenv("PATH"))
		if err != nil {
			return "go is not on PATH", false, true
		}
		if real, err := filepath.EvalSymlinks(goBin); err == nil {
			goBin = real
		}
		root = filepath.Dir(filepath.Dir(goBin))
	}
	defs := filepath.Join(root, "src", "internal", "coverage", "defs.go")
	src, err := os.ReadFile(defs)
	if err != nil {
		return "Go's coverage data format is unknown (no " + defs + ": Go before 1.20, or GOROOT elsewhere; set GOROOT)", false, true
	}
	// The meta-data's format, and the layout of a function's counters
	// that the hook walks.
	for name, want := range map[string]int{"MetaFileVersion": metaVersion, "NumCtrsOffset": 0, "PkgIdOffset": 1, "FuncIdOffset": 2, "FirstCtrOffset": 3} {
		m := regexp.MustCompile(`(?m)^const ` + name + ` = (\d+)`).FindSubmatch(src)
		if m == nil || string(m[1]) != strconv.Itoa(want) {
			return fmt.Sprintf("Go's coverage data format is not the one testdex reads (%s: %s is not %d)", defs, name, want), false, true
		}
	}
	emit := filepath.Join(root, "src", "internal", "coverage", "cfile", "emit.go")
	src, _ = os.ReadFile(emit)
	for _, fn := range []string{"prepareForMetaEmit() ([]rtcov.CovMetaBlob, error)", "getCovCounterList() []rtcov.CovCounterBlob"} {
		if !bytes.Contains(src, []byte("\nfunc "+fn)) {
			return "this Go toolchain's coverage runtime lacks what the hook calls (" + fn + " in " + emit + ")", false, true
		}
	}
	ld, _ := os.ReadFile(filepath.Join(root, "src", "cmd", "link", "internal", "ld", "main.go"))
	return "", bytes.Contains(ld, []byte("checklinkname")), true
}
