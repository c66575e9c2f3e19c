package fidelity

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testdex/testdex/internal/testenv"
)

// TestFidelity runs every project of Projects twice, natively with the
// runner's own report and through `testdex run --json`, and requires the
// same outcome for every test and so the same counts; then, for the
// projects with a Breakage, the same on a copy with assertions broken on
// purpose, where natively exactly the broken tests fail.
//
// The projects come from scripts/setup/fidelity.sh (which scripts/test.sh
// runs); a project it has not installed is skipped with that message.
//
// It runs in the suite (scripts/test.sh installs the projects first);
// -short or TESTDEX_FIDELITY=0 skips it. With TESTDEX_FIDELITY_REPORT=FILE
// it also writes the discrepancy report (markdown) to FILE; with
// TESTDEX_FIDELITY_BIN=FILE it runs that testdex binary instead of building
// ./cmd/testdex.
func TestFidelity(t *testing.T) {
	if testing.Short() || os.Getenv("TESTDEX_FIDELITY") == "0" {
		t.Skip("the fidelity suite runs two to three minutes of real projects; skipped with -short or TESTDEX_FIDELITY=0")
	}
	dir := Dir()
	rep := &report{}
	for _, p := range Projects {
		t.Run(p.Name, func(t *testing.T) {
			if _, err := exec.LookPath(p.Tool); err != nil {
				testenv.Missing(t, "%s not on PATH", p.Tool)
			}
			if !p.Installed(dir) {
				t.Skipf("%s is not installed in %s: run scripts/setup/fidelity.sh", p.Name, dir)
			}
			bin := testdexBinary(t)
			sec := rep.section(p)
			compareRuns(t, p, filepath.Join(dir, p.Name), bin, "as published", nil, sec)
			if p.Breakage != nil {
				broken := filepath.Join(t.TempDir(), p.Name)
				if err := p.Breakage.Break(filepath.Join(dir, p.Name), broken, filepath.Join(testdataDir(t), "breakage", p.Name)); err != nil {
					t.Fatal(err)
				}
				compareRuns(t, p, broken, bin, "broken on purpose", p.Breakage.Want, sec)
			}
		})
	}
	if out := os.Getenv("TESTDEX_FIDELITY_REPORT"); out != "" {
		if err := os.WriteFile(out, []byte(rep.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// compareRuns runs the project in dir both ways and compares; want, when
// set, are the tests that must fail natively (the breakage's design).
func compareRuns(t *testing.T, p Project, dir, bin, what string, want []Key, sec *strings.Builder) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	env := ProjectEnv(os.Environ(), dir)

	nc := &Cmd{Ctx: ctx, Dir: dir, Env: clone(env), Recorders: recordersDir(t), Out: filepath.Join(t.TempDir(), "native-report")}
	native, err := p.Native(nc)
	if err != nil {
		t.Fatalf("%s, native run: %v\n%s", what, err, tail(nc.Log.Bytes(), 3000))
	}
	if len(native) == 0 {
		t.Fatalf("%s, native run reported no test:\n%s", what, tail(nc.Log.Bytes(), 3000))
	}
	if want != nil {
		if got := native.Failed(); !sameKeys(got, want) {
			t.Errorf("%s: natively failed %v, the breakage means %v (fix breakage.go)", what, got, want)
		}
	}

	tc := &Cmd{Ctx: ctx, Dir: dir, Env: append(clone(env), "TESTDEX_CACHE_DIR="+t.TempDir())}
	run, err := runTestdex(tc, bin)
	if err != nil {
		t.Fatalf("%s, testdex run: %v\n%s", what, err, tail(tc.Log.Bytes(), 3000))
	}
	d := Compare(native, run.Results)
	writeSection(sec, what, native, run, d, nc.Elapsed, tc.Elapsed)
	if !d.Empty() {
		t.Errorf("%s: testdex run differs from the native run\nnative:  %s\ntestdex: %s\n%s",
			what, native.Counts(), run.Results.Counts(), d.Format(15))
	}
	if len(run.Errors) > 0 {
		t.Errorf("%s: testdex reported batch errors: %s", what, strings.Join(run.Errors, "; "))
	}
}

// runTestdex lists the project (for the scope and name of events that
// carry none) and runs it with --json.
func runTestdex(c *Cmd, bin string) (*Run, error) {
	out, err := c.Output(bin, "list", "--json", "--root", c.Dir)
	if err != nil {
		return nil, err
	}
	listing, err := ParseListing(bytes.NewReader(out))
	if err != nil {
		return nil, err
	}
	out, err = c.Output(bin, "run", "--json", "--root", c.Dir)
	if err != nil {
		return nil, err
	}
	return ParseRun(bytes.NewReader(out), listing)
}

func clone(env []string) []string { return append([]string{}, env...) }

func sameKeys(a, b []Key) bool {
	if len(a) != len(b) {
		return false
	}
	set := map[Key]bool{}
	for _, k := range a {
		set[k] = true
	}
	for _, k := range b {
		if !set[k] {
			return false
		}
	}
	return true
}

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// testdexBinary builds cmd/testdex once per test binary, or returns
// $TESTDEX_FIDELITY_BIN when set (a binary built elsewhere, e.g. from a
// clean checkout of a commit).
func testdexBinary(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("TESTDEX_FIDELITY_BIN"); bin != "" {
		return bin
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "testdex-fidelity-bin")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "testdex")
		cmd := exec.Command("go", "build", "-o", builtBin, "./cmd/testdex")
		cmd.Dir = filepath.Join("..", "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/testdex: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBin
}

func testdataDir(t *testing.T) string {
	t.Helper()
	abs, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

func recordersDir(t *testing.T) string { return filepath.Join(testdataDir(t), "recorders") }
