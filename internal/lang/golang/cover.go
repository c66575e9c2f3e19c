package golang

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Per-test coverage (`testdex run --coverage`) takes one of two paths.
//
// The boundary path (cover_boundary.go, one process per package) is the
// default; a process per test (below, cover_parse.go) is asked with
// TESTDEX_GO_COVERAGE=process. On the boundary path a test's record misses
// what it would run alone but an earlier test of its process already ran
// for it (a cache, a sync.Once, a pool: on go-toml, 8 tests miss a cached
// plan builder's body), so each test's ActionCovered event names its
// process and its start order there (RunEvent.Process, Seq), and a
// coverage-backed selection also gives a test the changed functions that
// earlier tests of its process executed (changes.SelectCovered): sound,
// where the record alone was not. That rule is narrowed by the static
// graph (Reaches, impact_reach.go): an earlier test's function counts
// only when a function the test ran reaches it. It stays wider than a
// process per test's selection: a test that decodes runs the API that
// reaches nearly everything (go-toml, 15 changed functions: 30,008
// results selected, against 15,224 with a process per test and 42,500 by
// the static evidence). The boundary path is the default all the same
// because it records at about a plain run's cost (1.1x to 1.3x its
// CPU), where a process per test costs 1.5x to 6x.
//
// The boundary path runs the plain run's go test commands, with -cover
// -covermode=set (atomic off amd64 and 386: see hookSource)
// -coverpkg=./... (a test's coverage reaches across the module's
// packages) and -overlay: for each _test.go file that declares tests, a
// copy with a call to a hook inserted after each top-level Test, Fuzz and
// Example function's opening brace, on the same line, and the hook itself
// (cover_hook.go), one file per package clause. At each boundary of a
// top-level test (its start; its end with all its subtests, through
// t.Cleanup, so parallel subtests are inside) the hook takes the units
// that ran since the last snapshot from the runtime's counters, resetting
// them, and appends them to a file, and the boundary to an events file.
// After the run, testdex decodes the meta-data (cover_decode.go, the
// format of Go's internal/coverage, version 1) and the snapshots, and
// gives each window between two snapshots to the tests that ran in it
// (cover_intervals.go): parallel tests share their windows, the window
// before the first test (package initialisation, TestMain before m.Run)
// goes to every test. Results are go test's own, as in a plain run.
//
// Why: a process per test costs a process start, TestMain and package
// initialisation per test (1.5x to 6x a plain run); the boundary path
// costs the instrumentation (a plain store per unit run) and a snapshot
// per test. Why not go tool covdata per test: a process per test again.
// Why not runtime/coverage (WriteCounters, ClearCounters): it takes
// atomic mode only (about 1 s of CPU on go-toml's 4 s), writes all the
// counters of every function run so far at each snapshot, and a clear
// loses what a parallel test counts between the write and the clear; the
// hook's swap loses nothing.
// Why a go:linkname (with -ldflags=-checklinkname=0): a test binary
// computes its meta-data hash only when it ends, and runtime/coverage
// refuses to write before; the hook calls the runtime's own preparation
// first, and reads the counter sections the runtime lists.
//
// What changes against a process per test: tests share their process as
// under go test, so a line that a test runs only when it runs first (a
// lazy initialisation, a branch on state earlier tests leave) goes to the
// test that ran it. Each test is also given the lines, of every function
// it ran, that first ran before it started (attributor.earlier): Go's
// changes are judged per function, so a test that ran a function keeps
// its answer; a function it would have entered only on its own is the
// remaining difference.
//
// The process per test path (below, cover_parse.go) is asked with
// TESTDEX_GO_COVERAGE=process, and is the boundary path's fallback, with
// a note in the run's output saying why, for a Go toolchain whose
// coverage data format or runtime is not the one the hook and the decoder
// know (read from GOROOT's sources before the run: Go before 1.20, a
// version other than 1), and for a run with an -overlay of its own:
//
//  1. go build cmd/test2json, then go test -c -json -cover
//     -covermode=atomic -coverpkg=./... -o DIR/ builds each selected
//     package's test binary once, instrumenting every package of the
//     module;
//  2. per package, test2json -t -p PKG sh SCRIPT runs the binary once
//     per top-level test (-test.run '^TestX$' -test.coverprofile=...) in
//     the package folder, as go test does, one after the other (tests of
//     a package may share files in its folder), packages at once up to
//     -j; one test2json reads them all, its events read by the same parser
//     as go test -json's, and the parser turns the profiles into each
//     test's ActionCovered at the end;
//  3. for a package run whole, the script then runs what the listing did
//     not name (-test.skip over the listed tests), so a test the static
//     listing missed still runs; it records no coverage (it may be several
//     tests).
//
// Why sh there: a shell loop under one test2json costs one process per
// test where a command per test costs three (testdex's process handling,
// test2json, the binary).

// CoverageCheck reports why a module cannot record coverage: go is not on
// PATH, or go.mod has no module path (a profile's import paths would map
// to no file).
func (runner) CoverageCheck(p *lang.Project, o lang.RunOptions) error {
	if p.Name == "" {
		return fmt.Errorf("coverage of %s needs a module path in go.mod", p.Dir)
	}
	if _, err := lookPath("go", o.Getenv("PATH")); err != nil {
		return fmt.Errorf("%w: go (needed for coverage; install Go or put it on PATH)", lang.ErrNotInstalled)
	}
	return nil
}

// lookPath finds a program on the given PATH.
func lookPath(name, pathEnv string) (string, error) {
	for _, dir := range filepath.SplitList(pathEnv) {
		if p, err := exec.LookPath(filepath.Join(dir, name)); err == nil {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

// Granularity is "test": each top-level test, its subtests with it.
func (runner) Granularity() string { return "test" }

// coverPkg is one package to run test by test.
type coverPkg struct {
	importPath string
	tests      []coverTest // top-level tests to run one by one
	whole      bool        // run the unnamed rest too (-test.skip)
	bench      []string    // -bench patterns for the rest
}

type coverTest struct {
	name string // the top-level test coverage is filed under
	run  string // its -test.run pattern
}

// coverCommands builds the commands of a coverage run (see above).
func coverCommands(p *lang.Project, sel *lang.Selection, o lang.RunOptions) ([]*lang.Command, error) {
	pkgs := coverPlan(sel, o.Bench)
	build, test := splitExtra(o.Extra)
	// go's own test2json, built once (cached by go): `go tool test2json`
	// would cost a go command's start per test, 8 times the test's own.
	t2j := filepath.Join(o.Dir, "test2json")
	cmds := []*lang.Command{{Args: []string{"go", "build", "-o", t2j, "cmd/test2json"}, Dir: p.Dir}}
	bins := map[string]string{}
	for gi, group := range byBinaryName(pkgs) {
		dir := filepath.Join(o.Dir, "bin"+strconv.Itoa(gi))
		args := []string{"go", "test", "-c", "-json", "-cover", "-covermode=atomic", "-coverpkg=./...", "-o", dir + string(filepath.Separator)}
		args = append(args, build...)
		for _, pk := range group {
			args = append(args, "./"+pkgRel(p.Name, pk.importPath))
			bins[pk.importPath] = filepath.Join(dir, testBinaryName(pk.importPath))
		}
		cmds = append(cmds, &lang.Command{Args: args, Dir: p.Dir})
	}
	timeout := "10m0s" // go test's default
	if o.TestTimeout > 0 {
		timeout = o.TestTimeout.String()
	}
	for i, pk := range pkgs {
		dir := filepath.Join(p.Dir, filepath.FromSlash(pkgRel(p.Name, pk.importPath)))
		prefix := filepath.Join(o.Dir, strconv.Itoa(i)) // the parser finds the profiles by it
		script := packageScript(pk, bins[pk.importPath], timeout, test)
		// The script goes in a file: a package of a thousand tests makes
		// it longer than an argument may be.
		file := prefix + ".sh"
		if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
			return nil, fmt.Errorf("write the coverage script: %w", err)
		}
		cmds = append(cmds, &lang.Command{Args: []string{t2j, "-t", "-p", pk.importPath, "sh", file, prefix},
			Dir: dir, Lane: pk.importPath})
	}
	return cmds, nil
}

// packageScript runs a package's test binary once per top-level test, in
// order, each writing its profile to $1.J.NAME.out, then the rest of a
// package run whole; it exits 1 when any run failed. One test2json reads
// the whole script's output: its events are go test -json's.
func packageScript(pk *coverPkg, bin, timeout string, test []string) string {
	var b strings.Builder
	b.WriteString("rc=0\n")
	run := func(args ...string) {
		b.WriteString(shellQuote(bin) + " -test.v=test2json " + shellQuote("-test.timeout="+timeout))
		for _, a := range append(args, test...) {
			b.WriteString(" " + shellQuote(a))
		}
		b.WriteString(" || rc=1\n")
	}
	for j, t := range pk.tests {
		b.WriteString(`prof="$1.` + strconv.Itoa(j) + "." + t.name + `.out"` + "\n")
		run("-test.run="+t.run, "-test.coverprofile=$prof")
	}
	if pk.whole {
		args := []string{"-test.coverprofile=$1.rest"}
		if len(pk.tests) > 0 {
			names := make([]string, len(pk.tests))
			for j, t := range pk.tests {
				names[j] = regexp.QuoteMeta(t.name)
			}
			args = append(args, "-test.skip=^("+strings.Join(names, "|")+")$")
		}
		if len(pk.bench) > 0 {
			args = append(args, "-test.bench="+strings.Join(pk.bench, "|"))
		}
		run(args...)
	}
	b.WriteString("exit $rc\n")
	return b.String()
}

// shellQuote quotes s for sh; in a -test.coverprofile= argument, "$1"
// and "$prof" are left for the script to expand.
func shellQuote(s string) string {
	q := "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	if !strings.HasPrefix(s, "-test.coverprofile=") {
		return q
	}
	q = strings.ReplaceAll(q, "$prof", `'"$prof"'`)
	return strings.ReplaceAll(q, "$1", `'"$1"'`)
}

// coverPlan sorts the selection into packages and top-level tests, in a
// stable order.
func coverPlan(sel *lang.Selection, bench bool) []*coverPkg {
	byPath := map[string]*coverPkg{}
	get := func(ip string) *coverPkg {
		if byPath[ip] == nil {
			byPath[ip] = &coverPkg{importPath: ip}
		}
		return byPath[ip]
	}
	addTest := func(t *testdex.Test, run string) {
		pk := get(t.Scope)
		top, _, _ := strings.Cut(t.Name, "/")
		if !slices.ContainsFunc(pk.tests, func(c coverTest) bool { return c.name == top && c.run == run }) {
			pk.tests = append(pk.tests, coverTest{name: top, run: run})
		}
	}
	for _, ps := range sel.Paths {
		for _, t := range ps.Tests {
			if t.Scope == "" || t.Kind == testdex.KindBenchmark || t.Dynamic {
				continue
			}
			addTest(t, runPattern(t.Name))
			if ps.Dir || ps.Path == "." {
				get(t.Scope).whole = true
				if bench {
					get(t.Scope).bench = []string{"."}
				}
			}
		}
	}
	for _, t := range sel.Tests {
		run := t.Run
		if run == "" {
			run = runPattern(t.Name)
		}
		if t.Kind == testdex.KindBenchmark {
			pk := get(t.Scope)
			pk.whole, pk.bench = true, append(pk.bench, run)
			continue
		}
		addTest(t, run)
	}
	out := make([]*coverPkg, 0, len(byPath))
	for _, pk := range byPath {
		out = append(out, pk)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].importPath < out[j].importPath })
	return out
}

// byBinaryName groups packages so that no two of a group share a test
// binary name (go test -c -o DIR/ names each binary after its package).
func byBinaryName(pkgs []*coverPkg) [][]*coverPkg {
	var groups [][]*coverPkg
	var names []map[string]bool
	for _, pk := range pkgs {
		n := testBinaryName(pk.importPath)
		i := slices.IndexFunc(names, func(m map[string]bool) bool { return !m[n] })
		if i < 0 {
			groups, names = append(groups, nil), append(names, map[string]bool{})
			i = len(groups) - 1
		}
		groups[i], names[i][n] = append(groups[i], pk), true
	}
	return groups
}

// testBinaryName is go test -c's name for a package's binary: the last
// element of its import path, the one before a major version suffix.
func testBinaryName(importPath string) string {
	dir, elem := path.Split(importPath)
	if dir != "" && len(elem) > 1 && elem[0] == 'v' && strings.Trim(elem[1:], "0123456789") == "" && elem != "v0" && elem != "v1" {
		elem = path.Base(strings.TrimSuffix(dir, "/"))
	}
	return elem + ".test"
}

// pkgRel is a package's folder relative to the module.
func pkgRel(module, importPath string) string {
	if rest, ok := strings.CutPrefix(importPath, module+"/"); ok {
		return rest
	}
	return "."
}

// testFlags are go test's flags that the test binary takes (go help
// testflag), with whether they take a value.
var testFlags = map[string]bool{
	"bench": true, "benchmem": false, "benchtime": true, "blockprofile": true, "blockprofilerate": true,
	"count": true, "cpu": true, "cpuprofile": true, "failfast": false, "fullpath": false, "fuzz": true,
	"fuzzminimizetime": true, "fuzztime": true, "list": true, "memprofile": true, "memprofilerate": true,
	"mutexprofile": true, "mutexprofilefraction": true, "outputdir": true, "parallel": true, "run": true,
	"short": false, "shuffle": true, "skip": true, "timeout": true, "trace": true, "v": false, "artifacts": false,
}

// splitExtra sorts the arguments given after "--" for go test into build
// flags (for go test -c) and test flags (for the binary, as -test.NAME).
func splitExtra(extra []string) (build, test []string) {
	for i := 0; i < len(extra); i++ {
		a := extra[i]
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		takes, isTest := testFlags[name]
		switch {
		case !strings.HasPrefix(a, "-"):
			build = append(build, a)
		case isTest:
			test = append(test, "-test."+strings.TrimLeft(a, "-"))
			if takes && !hasValue && i+1 < len(extra) {
				i++
				test = append(test, extra[i])
			}
		default:
			build = append(build, a)
		}
	}
	return build, test
}
