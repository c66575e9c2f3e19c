package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/cli"
	"github.com/testdex/testdex/internal/testenv"
	"github.com/testdex/testdex/internal/treecopy"
)

// planTree is a Go module and a pytest project, each with a passing and
// a failing test and rows whose names carry spaces and brackets.
var planTree = map[string]string{
	"svc/go.mod": "module example.com/svc\n\ngo 1.21\n",
	"svc/add_test.go": `package svc

import "testing"

func TestAdd(t *testing.T) {
	for _, name := range []string{"one plus one", "a[1]"} {
		t.Run(name, func(t *testing.T) {})
	}
}

func TestBroken(t *testing.T) { t.Fatal("broken on purpose") }
`,
	"py/pytest.ini": "[pytest]\npython_functions = test_*\n",
	"py/tests/test_m.py": `import pytest

@pytest.mark.parametrize("v", ["x y", "[z]"])
def test_rows(v):
    assert v

def test_fails():
    assert 1 == 2
`,
}

// TestPlanRoundTrip: the plan `list --plan` writes runs, through
// `run --plan`, exactly what `run` of the same selection runs, in the
// tree it was made in and in a copy of it elsewhere (another machine's
// checkout); a filtered listing's plan runs the chosen tests alone; a
// plan of another version, a project configured otherwise or a plan
// given with a selection is refused as a usage error.
func TestPlanRoundTrip(t *testing.T) {
	if exec.Command("python3", "-c", "import pytest").Run() != nil {
		testenv.Missing(t, "python3 with pytest is not installed")
	}
	root := t.TempDir()
	writeFiles(t, root, planTree)
	planFile := filepath.Join(t.TempDir(), "plan.json")
	if code, _, errs := cliIn(t, root, os.Environ(), "list", "-q", "--plan", planFile); code != 0 {
		t.Fatalf("list --plan: exit %d\n%s", code, errs)
	}
	code, direct, _ := cliIn(t, root, os.Environ(), "run", "--json")
	codeP, planned, errs := cliIn(t, root, os.Environ(), "run", "--json", "--plan", planFile)
	want := finals(t, direct)
	if code != cli.ExitFailed || codeP != code || !reflect.DeepEqual(finals(t, planned), want) {
		t.Fatalf("run --plan: exit %d, %v\nrun: exit %d, %v\n%s", codeP, finals(t, planned), code, want, errs)
	}
	for _, id := range []string{"svc/add_test.go::TestAdd/one_plus_one", "svc/add_test.go::TestBroken", "py/tests/test_m.py::test_rows[[z]]", "py/tests/test_m.py::test_fails"} {
		if _, ok := want[id]; !ok {
			t.Errorf("%s not among the results %v", id, want)
		}
	}

	elsewhere := filepath.Join(t.TempDir(), "checkout")
	if err := treecopy.Copy(root, elsewhere, nil); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(elsewhere, ".testdex-cache"))
	if code, out, errs := cliIn(t, elsewhere, os.Environ(), "run", "--json", "--plan", planFile); code != cli.ExitFailed || !reflect.DeepEqual(finals(t, out), want) {
		t.Errorf("the plan in another checkout: exit %d, %v\n%s", code, finals(t, out), errs)
	}

	named := filepath.Join(t.TempDir(), "named.json")
	if code, _, errs := cliIn(t, root, os.Environ(), "list", "-q", "--framework", "pytest", "--plan", named); code != 0 {
		t.Fatalf("list --framework --plan: exit %d\n%s", code, errs)
	}
	code, out, _ := cliIn(t, root, os.Environ(), "run", "--json", "--plan", named)
	for id := range finals(t, out) {
		if !strings.HasPrefix(id, "py/") {
			t.Errorf("the filtered plan ran %s", id)
		}
	}
	if code != cli.ExitFailed || len(finals(t, out)) != 3 {
		t.Errorf("the filtered plan: exit %d, %v", code, finals(t, out))
	}

	refused := func(why, plan string, args ...string) {
		t.Helper()
		code, _, errs := cliIn(t, root, os.Environ(), append([]string{"run", "--plan", plan}, args...)...)
		if code != cli.ExitUsage || !strings.Contains(errs, why) {
			t.Errorf("want exit %d saying %q; got %d: %s", cli.ExitUsage, why, code, errs)
		}
	}
	data, _ := os.ReadFile(planFile)
	future := filepath.Join(t.TempDir(), "future.json")
	os.WriteFile(future, []byte(strings.Replace(string(data), `"version": 1`, `"version": 99`, 1)), 0o644)
	refused("version 99", future)
	refused("takes no IDs", planFile, "svc/add_test.go::TestAdd")
	os.WriteFile(filepath.Join(root, "py/pytest.ini"), []byte("[pytest]\npython_functions = check_*\n"), 0o644)
	refused("settings differ", planFile)
}
