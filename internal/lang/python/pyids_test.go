package python_test

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/testenv"
)

var updateIDs = flag.Bool("update-ids", false, "rewrite testdata/pyids*.golden from the installed pytest and unittest")

// idsCase is a fixture project whose test names the framework itself
// recorded in a golden file: pytest's or unittest's own listing, one name
// a line, sorted. Regenerate with
//
//	go test ./internal/lang/python -run TestIDsGolden -update-ids
//
// which runs, in the fixture's folder,
//
//	python3 -B -m pytest -p no:cacheprovider --collect-only -q   (lines "tests/...::...", any "...::..." for anyFile)
//	python3 -B -m unittest discover -v                          (the dotted names)
type idsCase struct {
	dir      string
	unittest bool
	// dynamic are the names of the dynamic records, each covering the
	// golden names under its parent.
	dynamic []string
	// warning is a substring of the one warning expected, "" for none.
	warning string
	// anyFile takes every node ID pytest prints, not only those under
	// tests/ (doctests live in the package's own modules).
	anyFile bool
}

var idsCases = []idsCase{
	{dir: "pyids", dynamic: []string{
		"tests/test_assume.py::test_module_value[{[sub, fn]}]",
		"tests/test_assume.py::test_module_attr[{[mods.sub]}]",
		"tests/test_assume.py::test_alias[{[mods.alias]}]",
		// An imported constant whose enum has a __str__ of its own.
		"tests/test_consts.py::test_own_str[{[SHOWN]}]",
		// A name a class body binds in a loop; a helper whose body the
		// interpreter does not run (a with block).
		"tests/test_helpers.py::test_unknown[{_unknown()}]",
		"tests/test_helpers.py::TestClassScope::test_loop_bound[{[_name]}]",
		"tests/test_ids.py::test_ids_function[{make_id}]",
		"tests/test_ids.py::test_hidden[{[pytest.param(1, id=pytest.HIDDEN_PARAM), 2]}]",
		"tests/test_ids.py::test_int_enum[{[Shade.DARK]}]",
		"tests/test_ids.py::test_enum_alias[{[Alias.B]}]",
		"tests/test_ids.py::test_ids_str_bytes[{[b\"a\"]}]",
		// An alias's __name__ is not its name; a str constant with a tab
		// is escaped as the importing project says.
		"tests/test_kinds.py::test_alias[{[kinds.Str]}]",
		"tests/test_kinds.py::test_str_consts[{[MODE, kinds.MODE, ODD]}]",
		// A row whose ID holds a str() of an object (v2-???) beside rows
		// that are known; the table stays whole where the known IDs could
		// meet it (an anchor in a known ID, known duplicates).
		"tests/test_partial.py::test_some_unknown[{(OBJ, str(OBJ))}]",
		`tests/test_partial.py::test_anchor_in_known[{[("v1", "a"), (OBJ, str(OBJ))]}]`,
		`tests/test_partial.py::test_known_duplicates[{[(1, "a"), (1, "a"), (OBJ, str(OBJ))]}]`,
		"tests/test_partial.py::test_stacked[{(OBJ, str(OBJ))}]",
		// A decorator factory whose body is more than a parametrize.
		"tests/test_seqs.py::test_decorator_local[{mark_local(\"bar\")}]",
		// Iterators spent after one pass: a name read twice, a local
		// read twice, a memoized generator called twice, a mark bound to
		// a name used twice, a method a subclass inherits, a function a
		// module-level name aliases (pytest collects it twice).
		"tests/test_spent.py::test_shared_first[{SHARED}]",
		"tests/test_spent.py::test_shared_second[{SHARED}]",
		"tests/test_spent.py::test_local_twice[{_pairs_twice()}]",
		"tests/test_spent.py::test_cached_first[{_cached_gen()}]",
		"tests/test_spent.py::test_cached_second[{_cached_gen()}]",
		"tests/test_spent.py::test_mark_first[{iter([10, 20])}]",
		"tests/test_spent.py::test_mark_second[{iter([10, 20])}]",
		"tests/test_spent.py::TestBase::test_method[{map(str, [1, 2])}]",
		"tests/test_spent.py::TestDerived::test_method[{map(str, [1, 2])}]",
		"tests/test_spent.py::test_aliased[{iter([\"p\", \"q\"])}]",
		"tests/test_spent.py::test_alias_too[{iter([\"p\", \"q\"])}]",
	}, warning: "3 parameter sets specified, with different number of ids: 2"},
	{dir: "pyids_noescape"},
	{dir: "pyids_strict", warning: "duplicate parametrization IDs with strict_parametrization_ids set"},
	// load_tests hooks: one loads some of its module's classes only;
	// classes a factory names from a mixin, named where the bound names
	// are the names made (a base indexed by kind and other names stay
	// dynamic); metaclasses whose added methods are fixed by their source,
	// named, and two whose are not, dynamic; a hook that loads a fresh
	// module's classes renamed with literal suffixes; a function that
	// copies another module's classes under their names (and one that
	// names them otherwise, dynamic); DocTestSuite of the hook's module
	// and of another; classes a module-level loop makes with type(); the
	// classes a function defines and returns, bound by the module; a class
	// decorator that hides inherited tests under a condition; class-body
	// loops that bind tests through locals(); a class decorator of another
	// module run over its classes' namespaces.
	{dir: "pyids_unittest", unittest: true, dynamic: []string{"test_copied.{install_unnamed()}", "test_copied.{install_foreign()}",
		"test_docsuite.{load_tests}", "docsuitehelper.{load_tests:docsuitehelper}", "test_factorymade.{other()}",
		"test_loadmore.{load_tests}",
		"test_loadsuite.{load_tests}", "test_localsloop.Rebinding.{locals()}", "test_localsloop.Calling.{locals()}",
		"test_loopmade.{globals()}", "test_loopmade.{type()}",
		"test_metaclass.{metaclass:Named}", "test_metaclass.{metaclass:Hidden}",
		"test_mutated.Changed.{@add_tests}", "test_mutated.Untouched.{@add_tests}", "test_paramdeco.Unknown.{@parameterize}",
		"test_renamed.{load_tests}",
		"test_specialize.{specutil.test_both()}"}},
	// --doctest-modules and --doctest-glob: docstrings in every module,
	// text files; pkg/dyn.py, pkg/edited.py and an except clause in
	// pkg/core.py make or remove some at run time.
	{dir: "doctest", anyFile: true, dynamic: []string{"pkg/core.py::pkg.core.{except: fast}", "pkg/dyn.py::pkg.dyn.{made.__doc__}", "pkg/edited.py::pkg.edited.{delattr}"}},
}

// TestIDsGolden checks that the static records of each fixture are
// exactly the framework's names, but for the expected dynamic records,
// which cover the rest; then, when the framework is installed, that the
// golden file is still what it prints.
func TestIDsGolden(t *testing.T) {
	for _, c := range idsCases {
		t.Run(c.dir, func(t *testing.T) {
			dir := filepath.Join("testdata", c.dir)
			golden := filepath.Join("testdata", c.dir+".golden")
			if *updateIDs {
				if err := os.WriteFile(golden, []byte(strings.Join(frameworkNames(t, dir, c.unittest, c.anyFile), "\n")+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			data, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
			checkStatic(t, dir, c, want)
			if got := frameworkNames(t, dir, c.unittest, c.anyFile); !slices.Equal(got, want) {
				t.Errorf("%s is stale: the framework now prints\n%s\n(regenerate with -update-ids)", golden, strings.Join(got, "\n"))
			}
		})
	}
}

// checkStatic compares the static leaf records with the golden names.
func checkStatic(t *testing.T, dir string, c idsCase, want []string) {
	t.Helper()
	ix, err := index.Build(context.Background(), index.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	var warnings []string
	for _, p := range ix.Problems {
		warnings = append(warnings, p.Message)
	}
	if c.warning == "" && len(warnings) > 0 || c.warning != "" && (len(warnings) != 1 || !strings.Contains(warnings[0], c.warning)) {
		t.Errorf("problems %q, want %q", warnings, c.warning)
	}
	parents := map[string]bool{}
	byID := map[string]testdex.Test{}
	for _, r := range ix.Tests {
		parents[r.Parent], byID[r.ID] = true, r
	}
	var leaves, dynamic, covers []string
	for _, r := range ix.Tests {
		switch {
		case r.Dynamic && r.Parent == "":
			// A top-level dynamic record covers the names that start
			// with the text before its placeholder.
			dynamic = append(dynamic, r.Name)
			covers = append(covers, r.Name[:strings.IndexByte(r.Name, '{')]+"\x00")
		case r.Dynamic:
			dynamic = append(dynamic, r.Name)
			covers = append(covers, byID[r.Parent].Name)
		case r.Kind != testdex.KindSuite && !parents[r.ID]:
			leaves = append(leaves, r.Name)
		}
	}
	if !slices.Equal(dynamic, c.dynamic) {
		t.Errorf("dynamic records\n%s\nwant\n%s", strings.Join(dynamic, "\n"), strings.Join(c.dynamic, "\n"))
	}
	for _, l := range leaves {
		if !slices.Contains(want, l) {
			t.Errorf("static %q is not a name the framework prints", l)
		}
	}
	for _, w := range want {
		covered := slices.Contains(leaves, w)
		for _, p := range covers {
			// The rows, or the parent itself (all its rows hidden).
			if prefix, ok := strings.CutSuffix(p, "\x00"); ok {
				covered = covered || strings.HasPrefix(w, prefix)
				continue
			}
			// A record under a class: its rows, or its tests (unittest).
			covered = covered || w == p || strings.HasPrefix(w, p+"[") || c.unittest && strings.HasPrefix(w, p+".")
		}
		if !covered {
			t.Errorf("the framework prints %q; no static record matches or covers it", w)
		}
	}
}

var unittestLine = regexp.MustCompile(`^\w+ \((.*)\) \.\.\. ok$`)

// unittestDoctest is a DocTestCase's line: its description is "Doctest:
// NAME".
var unittestDoctest = regexp.MustCompile(`^Doctest: (\S+) \.\.\. ok$`)

// frameworkNames runs pytest's or unittest's listing in dir and returns
// its names, sorted. It skips when the framework is not installed.
func frameworkNames(t *testing.T, dir string, unittest, anyFile bool) []string {
	t.Helper()
	args := []string{"-B", "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q"}
	if unittest {
		args = []string{"-B", "-m", "unittest", "discover", "-v"}
	}
	if _, err := exec.LookPath("python3"); err != nil {
		testenv.Missing(t, "python3 is not on PATH: the golden file was not compared with the framework (install Python 3 and pytest)")
	}
	if !unittest && exec.Command("python3", "-m", "pytest", "--version").Run() != nil {
		testenv.Missing(t, "pytest is not installed (python3 -m pytest --version fails): the golden file was not compared with it")
	}
	cmd := exec.Command("python3", args...)
	cmd.Dir = dir
	out, _ := cmd.CombinedOutput() // a module pytest refuses makes it exit 2
	var names []string
	for _, l := range strings.Split(string(out), "\n") {
		switch {
		case unittest && unittestLine.MatchString(l):
			names = append(names, unittestLine.FindStringSubmatch(l)[1])
		case unittest && unittestDoctest.MatchString(l):
			names = append(names, unittestDoctest.FindStringSubmatch(l)[1])
		case !unittest && (strings.HasPrefix(l, "tests/") || anyFile && !strings.HasPrefix(l, " ")) && strings.Contains(l, "::"):
			names = append(names, l)
		}
	}
	slices.Sort(names)
	return names
}
