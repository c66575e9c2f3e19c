package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/cli"
	"github.com/testdex/testdex/internal/testenv"
)

// TestRunNothingRan: a run in which the runner reported no test at all is
// no pass (seed 003's "no tests found", exit 2): here a cargo test file no
// target compiles (autotests = false), named on its own.
func TestRunNothingRan(t *testing.T) {
	if _, err := exec.LookPath("cargo"); err != nil {
		testenv.Missing(t, "cargo is not installed")
	}
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"Cargo.toml": "[package]\nname = \"cz\"\nversion = \"0.1.0\"\nedition = \"2021\"\nautotests = false\n\n[[test]]\nname = \"a\"\npath = \"tests/a.rs\"\n",
		"src/lib.rs": "pub fn one() -> i32 { 1 }\n",
		"tests/a.rs": "#[test]\nfn in_a() { assert_eq!(cz::one(), 1); }\n",
		"tests/b.rs": "#[test]\nfn in_b() { assert_eq!(cz::one(), 2); }\n",
	})
	code, _, errs := cliIn(t, root, os.Environ(), "run", "tests/b.rs")
	if code != cli.ExitNoTests || !strings.Contains(errs, "no test ran") {
		t.Errorf("a file no target compiles: exit %d, want %d: %s", code, cli.ExitNoTests, errs)
	}
	if code, _, errs := cliIn(t, root, os.Environ(), "run", "tests/a.rs"); code != cli.ExitOK {
		t.Errorf("a file a target compiles: exit %d: %s", code, errs)
	}
}
