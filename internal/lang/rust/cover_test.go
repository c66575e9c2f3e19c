package rust_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/rust"
	"github.com/testdex/testdex/internal/parsertest"
	"github.com/testdex/testdex/internal/testenv"
)

// TestCoverage runs testdata/cover (src/lib.rs: a's body is lines 10-11,
// b's 15-16; tests/it.rs calls b) with and without coverage: the results
// must be the same, test_a's lines hold a's body and not b's, test_b's
// the reverse (through S::m), the integration test's b's, and the doc
// test records nothing. Then, where LLVM tools that read rustc's
// profiles are installed (scripts/setup/rust.sh installs llvm-19), each
// test's lines must be those llvm-cov export gives
// (TESTDEX_RUST_COVERAGE=llvm-tools).
func TestCoverage(t *testing.T) {
	if _, err := exec.LookPath("cargo"); err != nil {
		testenv.Missing(t, "cargo is not installed: install Rust (https://rustup.rs) to run the coverage test")
	}
	dir := t.TempDir()
	copySources(t, "testdata/cover", dir)
	p, _ := rust.Detector.Detect(&lang.DetectEnv{Root: dir, ReadFile: os.ReadFile}, dir, []string{"Cargo.toml"})
	r, ok := p.Frameworks[0].Runner.(lang.Coverer)
	if !ok {
		t.Fatal("the cargo runner is no lang.Coverer")
	}
	env := append(os.Environ(), "CARGO_TARGET_DIR="+filepath.Join(t.TempDir(), "target"))
	if err := r.CoverageCheck(p, lang.RunOptions{Env: env}); err != nil {
		if errors.Is(err, lang.ErrNotInstalled) {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	plain := runCargo(t, r, p, env, false)
	covered := runCargo(t, r, p, env, true)
	if got, want := results(covered), results(plain); !reflect.DeepEqual(got, want) {
		t.Errorf("results with coverage differ:\n got %v\nwant %v", got, want)
	}
	if len(results(plain)) != 6 {
		t.Errorf("plain run: %d results, want 6: %v", len(results(plain)), results(plain))
	}
	cov := map[string][]lang.Span{}
	for _, e := range covered {
		if e.Action != lang.ActionCovered {
			continue
		}
		for _, f := range e.Covered {
			if !filepath.IsAbs(f.File) || !strings.HasPrefix(f.File, dir) {
				t.Errorf("%s: covered file %s is not the crate's", e.Name, f.File)
			}
			if filepath.Base(f.File) == "lib.rs" {
				cov[e.Scope+" "+e.Name] = f.Lines
			}
		}
		if e.Kind == testdex.KindDoctest {
			t.Errorf("doc test %s has coverage", e.Name)
		}
		if e.Name == "" {
			t.Errorf("note: %s", e.Message)
		}
	}
	check := func(test string, has, hasNot []int) {
		t.Helper()
		spans, ok := cov[test]
		if !ok {
			t.Errorf("%s: no coverage of lib.rs (got %v)", test, cov)
		}
		for _, l := range has {
			if !slices.ContainsFunc(spans, func(s lang.Span) bool { return s.Start <= l && l <= s.End }) {
				t.Errorf("%s: line %d not covered (%v)", test, l, spans)
			}
		}
		for _, l := range hasNot {
			if slices.ContainsFunc(spans, func(s lang.Span) bool { return s.Start <= l && l <= s.End }) {
				t.Errorf("%s: line %d covered, it did not run (%v)", test, l, spans)
			}
		}
	}
	check("src/lib.rs tests::test_a", []int{10, 11}, []int{15, 16, 23})
	check("src/lib.rs tests::test_b", []int{15, 16, 23}, []int{10, 11})
	check("src/lib.rs tests::test_fails", []int{10, 11}, []int{15, 16})
	check("tests/it.rs it_b", []int{15, 16}, []int{10, 11})

	// The same lines through LLVM's tools, where they are installed.
	viaTools := runCargo(t, r, p, append(env, "TESTDEX_RUST_COVERAGE=llvm-tools"), true)
	for _, e := range viaTools {
		if e.Action == lang.ActionCovered && e.Name == "" {
			t.Skipf("LLVM's tools: %s", e.Message)
		}
	}
	if got, want := coveredEvents(covered), coveredEvents(viaTools); !reflect.DeepEqual(got, want) {
		t.Errorf("testdex's reader recorded\n%+v\nllvm-cov export\n%+v", got, want)
	}
}

// coveredEvents are the tests' coverage events in name order.
func coveredEvents(evs []lang.RunEvent) []lang.RunEvent {
	var out []lang.RunEvent
	for _, e := range evs {
		if e.Action == lang.ActionCovered {
			out = append(out, e)
		}
	}
	slices.SortStableFunc(out, func(a, b lang.RunEvent) int { return strings.Compare(a.Scope+" "+a.Name, b.Scope+" "+b.Name) })
	return out
}

// runCargo runs the runner's commands for the whole crate, as the core
// would, and returns the parsed events.
func runCargo(t *testing.T, r lang.Coverer, p *lang.Project, env []string, coverage bool) []lang.RunEvent {
	t.Helper()
	o := lang.RunOptions{Dir: t.TempDir(), Env: env, Coverage: coverage}
	cmds, err := r.RunCommands(p, &lang.Selection{Paths: []lang.PathSelection{{Path: ".", Dir: true}}}, o)
	if err != nil {
		t.Fatal(err)
	}
	evs, ran := parsertest.Live(t, r, p, cmds, env)
	for _, c := range ran {
		if c.Code != 0 && c.Code != 101 {
			t.Fatalf("%v: exit %d\n%s", c.Args, c.Code, c.Stderr)
		}
	}
	return evs
}

// results are parsertest.Results in name order (libtest's threads finish
// in any order).
func results(evs []lang.RunEvent) []lang.RunEvent {
	out := parsertest.Results(evs)
	slices.SortStableFunc(out, func(a, b lang.RunEvent) int { return strings.Compare(a.Scope+" "+a.Name, b.Scope+" "+b.Name) })
	return out
}

// TestCoverageNotes: LLVM tools that fail on the profiles (an
// llvm-profdata too old for rustc's format), when TESTDEX_RUST_COVERAGE
// asks for them, record nothing and say why with the tool's own words (a
// note: lang.ActionCovered without a test);
// CARGO_ENCODED_RUSTFLAGS, which outranks RUSTFLAGS, still gets -C
// instrument-coverage, so its run records.
func TestCoverageNotes(t *testing.T) {
	if _, err := exec.LookPath("cargo"); err != nil {
		testenv.Missing(t, "cargo is not installed: install Rust (https://rustup.rs) to run the coverage test")
	}
	dir := t.TempDir()
	copySources(t, "testdata/cover", dir)
	p, _ := rust.Detector.Detect(&lang.DetectEnv{Root: dir, ReadFile: os.ReadFile}, dir, []string{"Cargo.toml"})
	r := p.Frameworks[0].Runner.(lang.Coverer)
	target := "CARGO_TARGET_DIR=" + filepath.Join(t.TempDir(), "target")
	if err := r.CoverageCheck(p, lang.RunOptions{Env: append(os.Environ(), target)}); err != nil {
		t.Skip(err)
	}
	old := filepath.Join(t.TempDir(), "llvm-profdata")
	os.WriteFile(old, []byte("#!/bin/sh\necho 'error: unsupported instrumentation profile format version' >&2\nexit 1\n"), 0o755)
	env := append(os.Environ(), target, "LLVM_PROFDATA="+old, "LLVM_COV=/bin/true", "TESTDEX_RUST_COVERAGE=llvm-tools")
	var notes []string
	for _, e := range runCargo(t, r, p, env, true) {
		switch {
		case e.Action == lang.ActionCovered && e.Name == "":
			notes = append(notes, e.Message)
		case e.Action == lang.ActionCovered:
			t.Errorf("%s recorded %+v with a failing llvm-profdata", e.Name, e.Covered)
		}
	}
	want := "the coverage profiles of 5 of 5 tests could not be read: " + old + " merge: exit status 1: error: unsupported instrumentation profile format version"
	if len(notes) != 1 || notes[0] != want {
		t.Errorf("notes %q; want one starting %q", notes, want)
	}

	env = append(os.Environ(), target, "CARGO_ENCODED_RUSTFLAGS=")
	recorded := 0
	for _, e := range runCargo(t, r, p, env, true) {
		if e.Action == lang.ActionCovered && e.Name == "" {
			t.Errorf("note with CARGO_ENCODED_RUSTFLAGS set: %s", e.Message)
		} else if e.Action == lang.ActionCovered && len(e.Covered) > 0 {
			recorded++
		}
	}
	if recorded == 0 {
		t.Error("nothing recorded with CARGO_ENCODED_RUSTFLAGS set")
	}
}
