package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/cli"
)

// TestLinksLeavingTheRoot: a folder linked from inside the root to tests
// outside it is not run, though pytest, Vitest, Mocha and node --test
// follow such links when they collect tests themselves (docs/reliability.md,
// "Paths"): pytest is told to --ignore it, node:test (which cannot be told) is
// refused with a message naming the link, and a linked file outside the
// root is not even read by the listing.
func TestLinksLeavingTheRoot(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(base, "outside", "tests")
	os.MkdirAll(outside, 0o755)
	os.WriteFile(filepath.Join(outside, "test_secret.py"), []byte("def test_secret():\n    pass\n"), 0o644)
	os.WriteFile(filepath.Join(outside, "secret.test.js"), []byte("require('node:test').test('secret', () => {});\n"), 0o644)
	root := filepath.Join(base, "repo")
	for f, text := range map[string]string{
		"py/pytest.ini":        "[pytest]\n",
		"py/tests/test_in.py":  "def test_in():\n    pass\n",
		"node/package.json":    `{"name": "n", "scripts": {"test": "node --test"}}`,
		"node/test/in.test.js": "require('node:test').test('in', () => {});\n",
		"go.mod":               "module example.com/links\n\ngo 1.22\n",
		"gopkg/in_test.go":     "package gopkg\n\nimport \"testing\"\n\nfunc TestIn(t *testing.T) {}\n",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755)
		os.WriteFile(filepath.Join(root, f), []byte(text), 0o644)
	}
	for link, target := range map[string]string{
		"py/tests/linkdir":        outside,
		"py/tests/test_passwd.py": "/etc/passwd",
		"node/test/linkdir":       outside,
		"gopkg/linkdir":           outside,
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	td := runnerIn(t, root, "PYTHONDONTWRITEBYTECODE=1")
	code, out, errs := td(nil, "list", "--json")
	if code != 0 || strings.Contains(out, "secret") || strings.Contains(errs, "error") ||
		!strings.Contains(errs, "py/tests/test_passwd.py: symlink to /etc/passwd leaves the root; not read") {
		t.Errorf("list: exit %d\n%s%s", code, out, errs)
	}
	if _, err := exec.LookPath("python3"); err == nil && exec.Command("python3", "-c", "import pytest").Run() == nil {
		for _, args := range [][]string{{"run", "--json", "py"}, {"run", "--json", "py/tests"}} {
			code, out, errs := td(nil, args...)
			got := finals(t, out)
			if code != cli.ExitOK || len(got) != 1 || got["py/tests/test_in.py::test_in"] != "pass" {
				t.Errorf("%s: exit %d, results %v\n%s", args, code, got, errs)
			}
		}
	} else {
		t.Log("pytest is not installed for python3: its part is skipped (run scripts/setup/python.sh)")
	}
	if _, err := exec.LookPath("node"); err == nil {
		code, out, _ := td(nil, "run", "node")
		if code != cli.ExitFailed || !strings.Contains(out, "node/test/linkdir is a symbolic link leaving the root, which node would follow") {
			t.Errorf("node: exit %d, want 1 and the refusal\n%s", code, out)
		}
		if code, out, _ := td(nil, "run", "node/test/in.test.js"); code != cli.ExitOK {
			t.Errorf("node by its file beside the link: exit %d\n%s", code, out)
		}
	}
	if _, err := exec.LookPath("go"); err == nil {
		if code, out, errs := td(nil, "run", "gopkg"); code != cli.ExitOK {
			t.Errorf("go: a linked folder is not entered by go test: exit %d\n%s%s", code, out, errs)
		}
	}
}
