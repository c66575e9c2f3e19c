package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/testdex/testdex"
)

// writeTree creates files under dir from a map of slash paths to contents.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var monorepo = map[string]string{
	"svc/go.mod":               "module example.com/svc\n\ngo 1.22\n",
	"svc/a_test.go":            "package svc\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tt.Run(\"x y\", func(t *testing.T) {})\n}\n",
	"svc/inner/b_test.go":      "package inner_test\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) {}\n",
	"svc/testdata/c_test.go":   "package c\n\nimport \"testing\"\n\nfunc TestHidden(t *testing.T) {}\n",
	"svc/_skip/d_test.go":      "package d\n\nimport \"testing\"\n\nfunc TestUnderscore(t *testing.T) {}\n",
	"lib/go.mod":               "module example.com/lib\n",
	"lib/broken_test.go":       "package lib\n\nimport \"testing\"\n\nfunc TestOK(t *testing.T) {}\n\nfunc TestBroken(t *testing.T) {\n",
	"docs/intro.spec.md":       "---\ntags: [docs]\n---\n# Intro\n",
	"node_modules/x/y.spec.md": "# dependency, skipped\n",
	".gitignore":               "ignored/\n",
	"ignored/z.spec.md":        "# ignored\n",
}

func ids(tests []testdex.Test) []string {
	var out []string
	for _, t := range tests {
		out = append(out, t.ID)
	}
	return out
}

func TestBuildMonorepo(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, monorepo)
	ix, err := Build(context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"docs/intro.spec.md",
		"lib/broken_test.go::TestOK",
		"lib/broken_test.go::TestBroken", // from the partial parse, beside the error
		"svc/a_test.go::TestA",
		"svc/a_test.go::TestA/x_y",
		"svc/inner/b_test.go::TestB",
	}
	if got := ids(ix.Tests); !reflect.DeepEqual(got, want) {
		t.Errorf("IDs:\n got %q\nwant %q", got, want)
	}
	scopes := map[string]string{}
	for _, r := range ix.Tests {
		scopes[r.ID] = r.Scope + " @" + r.Project
	}
	for id, want := range map[string]string{
		"svc/a_test.go::TestA/x_y":   "example.com/svc @svc",
		"svc/inner/b_test.go::TestB": "example.com/svc/inner @svc",
		"lib/broken_test.go::TestOK": "example.com/lib @lib",
		"docs/intro.spec.md":         "docs @.",
	} {
		if scopes[id] != want {
			t.Errorf("%s: scope @project = %q, want %q", id, scopes[id], want)
		}
	}
	if len(ix.Problems) != 1 || ix.Problems[0].Path != "lib/broken_test.go" || ix.Problems[0].Severity != testdex.SevError {
		t.Errorf("problems = %v, want one syntax error in lib/broken_test.go", ix.Problems)
	}
	if p := ix.Tests[4]; p.Parent != "svc/a_test.go::TestA" || p.Kind != testdex.KindSubtest {
		t.Errorf("subtest record = %+v", p)
	}
}

// TestBuildIsDeterministic builds the same tree repeatedly, with several
// worker counts, and expects identical results.
func TestBuildIsDeterministic(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, monorepo)
	first, err := Build(context.Background(), Options{Root: root, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{2, 3, 8, 8} {
		ix, err := Build(context.Background(), Options{Root: root, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ix.Tests, first.Tests) || !reflect.DeepEqual(ix.Problems, first.Problems) {
			t.Fatalf("workers=%d: results differ", w)
		}
	}
}

func TestCache(t *testing.T) {
	root, cacheDir := t.TempDir(), t.TempDir()
	writeTree(t, root, monorepo)
	// A clock far ahead makes every file old enough to trust by stat.
	later := func() time.Time { return time.Now().Add(time.Hour) }
	opts := Options{Root: root, CacheDir: cacheDir, Now: later}
	cold, err := Build(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if cold.Stats.Cached != 0 || cold.Stats.Parsed != cold.Stats.Candidates {
		t.Fatalf("cold stats = %+v", cold.Stats)
	}
	warm, err := Build(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if warm.Stats.Parsed != 0 || warm.Stats.Cached != cold.Stats.Candidates {
		t.Fatalf("warm stats = %+v, want everything from the cache", warm.Stats)
	}
	if !reflect.DeepEqual(warm.Tests, cold.Tests) || !reflect.DeepEqual(warm.Problems, cold.Problems) {
		t.Fatal("warm results differ from cold ones")
	}

	// A changed file is re-parsed, and only it.
	writeTree(t, root, map[string]string{"svc/inner/b_test.go": "package inner_test\n\nimport \"testing\"\n\nfunc TestB2(t *testing.T) {}\n"})
	edited, err := Build(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if edited.Stats.Parsed != 1 {
		t.Errorf("after one edit: stats = %+v, want 1 parsed", edited.Stats)
	}
	if !strings.Contains(strings.Join(ids(edited.Tests), " "), "TestB2") {
		t.Errorf("edit not seen: %q", ids(edited.Tests))
	}

	// A damaged cache file is a warning, and the listing is still right.
	snaps, _ := filepath.Glob(filepath.Join(cacheDir, "*", "*.testdex-cache"))
	if len(snaps) != 1 {
		t.Fatalf("cache files: %v", snaps)
	}
	os.WriteFile(snaps[0], []byte("garbage"), 0o644)
	damaged, err := Build(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(damaged.Tests, edited.Tests) || damaged.Stats.Parsed != damaged.Stats.Candidates {
		t.Errorf("damaged cache: stats %+v", damaged.Stats)
	}
}

func TestExplicitTargets(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, monorepo)
	ctx := context.Background()

	ix, err := Build(ctx, Options{Root: root, Dir: filepath.Join(root, "svc"), Paths: []string{"inner", "svc/inner/b_test.go", "a_test.go"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(ix.Tests), []string{"svc/a_test.go::TestA", "svc/a_test.go::TestA/x_y", "svc/inner/b_test.go::TestB"}; !reflect.DeepEqual(got, want) {
		t.Errorf("IDs = %q, want %q", got, want)
	}

	_, err = Build(ctx, Options{Root: root, Paths: []string{"missing_test.go"}})
	var nf *NotFoundError
	if !errors.As(err, &nf) || err.Error() != "Test file not found: missing_test.go" {
		t.Errorf("missing: err = %v", err)
	}
	_, err = Build(ctx, Options{Root: filepath.Join(root, "svc"), Paths: []string{"../lib"}})
	var out *OutsideRootError
	if !errors.As(err, &out) {
		t.Errorf("outside: err = %v", err)
	}
	os.MkdirAll(filepath.Join(root, "empty"), 0o755)
	ix, err = Build(ctx, Options{Root: root, Paths: []string{"empty"}})
	if err != nil {
		t.Fatal(err)
	}
	if e := ix.NoTests(); e == nil || e.Error() != "No test files found in "+filepath.Join(root, "empty") {
		t.Errorf("empty: NoTests = %v", e)
	}
}

func TestModuleAboveRoot(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, monorepo)
	ix, err := Build(context.Background(), Options{Root: filepath.Join(root, "svc", "inner")})
	if err != nil {
		t.Fatal(err)
	}
	if len(ix.Tests) != 1 || ix.Tests[0].Scope != "example.com/svc/inner" || ix.Tests[0].Project != ".." {
		t.Errorf("tests = %+v", ix.Tests)
	}
}

func TestSelect(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, monorepo)
	ix, err := Build(context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		f    Filter
		want []string
	}{
		{Filter{Name: "^TestA$"}, []string{"svc/a_test.go::TestA", "svc/a_test.go::TestA/x_y"}},
		{Filter{Tags: []string{"docs"}}, []string{"docs/intro.spec.md"}},
		{Filter{Frameworks: []testdex.Framework{testdex.Go}, Kinds: []testdex.Kind{testdex.KindSubtest}}, []string{"svc/a_test.go::TestA/x_y"}},
		{Filter{IDs: []string{"svc/a_test.go::TestA"}}, []string{"svc/a_test.go::TestA", "svc/a_test.go::TestA/x_y"}},
	} {
		got, err := ix.Select(tc.f)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ids(got), tc.want) {
			t.Errorf("Select(%+v) = %q, want %q", tc.f, ids(got), tc.want)
		}
	}
	if _, err := ix.Select(Filter{Name: "("}); err == nil {
		t.Error("bad pattern accepted")
	}
}

func TestNameMatcher(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		yes, no []string
	}{
		{"TestA", []string{"TestA", "TestAB", "TestA/x", "TestA/x/y"}, []string{"TestB", "TestB/TestA"}},
		{"^TestA$/^x", []string{"TestA", "TestA/x", "TestA/xy/z"}, []string{"TestAB/x", "TestA/y"}},
		{"TestA/x|TestB", []string{"TestA/x", "TestB/anything"}, []string{"TestA/y", "TestC"}},
		{"spec\\.md$", []string{"routes.spec.md"}, []string{"routes.test.md"}},
	} {
		m, err := compileNameMatcher(tc.pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range tc.yes {
			if !m.matchName(n) {
				t.Errorf("%q does not select %q", tc.pattern, n)
			}
		}
		for _, n := range tc.no {
			if m.matchName(n) {
				t.Errorf("%q selects %q", tc.pattern, n)
			}
		}
	}
}

// TestNamedFolderHonoursIgnoreFilesAbove lists a subfolder: the root's
// .gitignore still applies inside it.
func TestNamedFolderHonoursIgnoreFilesAbove(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".gitignore":              "generated_*\n",
		"sub/a.spec.md":           "# a\n",
		"sub/generated_b.spec.md": "# ignored by the root's .gitignore\n",
	})
	ix, err := Build(context.Background(), Options{Root: root, Paths: []string{"sub"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(ix.Tests); !reflect.DeepEqual(got, []string{"sub/a.spec.md"}) {
		t.Errorf("IDs = %q", got)
	}
}

// TestGoFuzzCorpus lists the seed corpus files of a fuzz target as go test
// names them: FuzzX/FILENAME, after the f.Add seeds, unrewritten.
func TestGoFuzzCorpus(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"go.mod":                          "module fz\n",
		"x_test.go":                       "package fz\n\nimport \"testing\"\n\nfunc FuzzX(f *testing.F) {\n\tf.Add(1)\n\tf.Fuzz(func(t *testing.T, n int) {})\n}\n",
		"testdata/fuzz/FuzzX/abc123":      "go test fuzz v1\nint(5)\n",
		"testdata/fuzz/FuzzX/with space":  "go test fuzz v1\nint(7)\n",
		"testdata/fuzz/FuzzOther/ignored": "go test fuzz v1\nint(7)\n",
	})
	ix, err := Build(context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"x_test.go::FuzzX", "x_test.go::FuzzX/seed#0", "x_test.go::FuzzX/abc123", "x_test.go::FuzzX/with space"}
	if got := ids(ix.Tests); !reflect.DeepEqual(got, want) {
		t.Errorf("IDs = %q, want %q", got, want)
	}
}

// TestResolve keeps paths as paths and IDs as records: listed, or made by
// the ID rules under their listed ancestor (a row known only at run time)
// or at the top of a listed file; an ID whose file is no test file is a
// NoMatchError, as is a path without test files.
func TestResolve(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, monorepo)
	ix, err := Build(context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ix.Resolve([]string{"svc/a_test.go::TestA", "svc/a_test.go::TestA/x_y/runtime_only", "svc/a_test.go::TestNew"}, []string{"docs/"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"svc/a_test.go::TestA", "svc/a_test.go::TestA/x_y/runtime_only", "svc/a_test.go::TestNew"}
	if !reflect.DeepEqual(ids(got.Tests), want) || !reflect.DeepEqual(got.Paths, []string{"docs"}) {
		t.Errorf("Resolve = %q %q, want %q [docs]", ids(got.Tests), got.Paths, want)
	}
	if r := got.Tests[1]; r.Name != "TestA/x_y/runtime_only" || r.Parent != "svc/a_test.go::TestA/x_y" || r.Scope != "example.com/svc" || r.Kind != testdex.KindSubtest {
		t.Errorf("row record = %+v", r)
	}
	if r := got.Tests[2]; r.Name != "TestNew" || r.Parent != "" || r.Scope != "example.com/svc" || r.Project != "svc" {
		t.Errorf("top-level record = %+v", r)
	}
	var nm *NoMatchError
	if _, err := ix.Resolve([]string{"nowhere::TestZ"}, nil); !errors.As(err, &nm) || nm.ID != "nowhere::TestZ" || err.Error() != `no test matches "nowhere::TestZ"` {
		t.Errorf("unknown ID: err = %v", err)
	}
	if _, err := ix.Resolve(nil, []string{"lib/none"}); !errors.As(err, &nm) {
		t.Errorf("empty path: err = %v", err)
	}
}

// TestPlan: a path over a project runs it whole, a path inside one is
// handed over relative to it, an ID under a selected path or ancestor is
// not named again, and specs are a batch of their own (their agent CLI's).
func TestPlan(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, monorepo)
	ix, err := Build(context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	sel, err := ix.Resolve([]string{"svc/a_test.go::TestA/x_y", "lib/broken_test.go::TestOK", "svc/inner/b_test.go::TestB"}, []string{"svc/inner", "docs"})
	if err != nil {
		t.Fatal(err)
	}
	plan := ix.Plan(sel)
	var got []string
	for _, b := range plan.Batches {
		s := b.Name + ":"
		for _, p := range b.Selection.Paths {
			s += fmt.Sprintf(" path=%s(dir=%v,%d)", p.Path, p.Dir, len(p.Tests))
		}
		for _, t := range b.Selection.Tests {
			s += " id=" + t.ID
		}
		s += fmt.Sprintf(" expected=%d", len(b.Expected))
		got = append(got, s)
	}
	want := []string{
		". semtest: path=docs(dir=true,1) expected=1",
		"lib go: id=lib/broken_test.go::TestOK expected=1",
		"svc go: path=inner(dir=true,1) id=svc/a_test.go::TestA/x_y expected=2",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("plan:\n got %q\nwant %q", got, want)
	}
	if len(plan.Unrunnable) != 0 { // every framework has a Runner now, the specs' included
		t.Errorf("unrunnable = %v", ids(plan.Unrunnable))
	}
	all, _ := ix.Resolve(nil, nil)
	for _, b := range ix.Plan(all).Batches {
		if len(b.Selection.Paths) != 1 || !b.Selection.Whole() {
			t.Errorf("everything: batch %s selection %+v", b.Name, b.Selection)
		}
	}
}

// TestCacheRacyEditSurvivesPartialListing: a same-size edit that keeps its
// mtime, inside the racy window of the entry's last check, is still seen
// after a listing of other paths (which must not vouch for the entry).
func TestCacheRacyEditSurvivesPartialListing(t *testing.T) {
	root, cacheDir := t.TempDir(), t.TempDir()
	writeTree(t, root, map[string]string{
		"go.mod":          "module m\n",
		"a/a_test.go":     "package a\n\nimport \"testing\"\n\nfunc TestAAAA(t *testing.T) {}\n",
		"other/o_test.go": "package other\n\nimport \"testing\"\n\nfunc TestO(t *testing.T) {}\n",
	})
	file := filepath.Join(root, "a", "a_test.go")
	st, _ := os.Stat(file)
	t0 := st.ModTime()
	at := func(d time.Duration) func() time.Time { return func() time.Time { return t0.Add(d) } }
	build := func(now func() time.Time, paths ...string) *Index {
		ix, err := Build(context.Background(), Options{Root: root, CacheDir: cacheDir, Now: now, Paths: paths})
		if err != nil {
			t.Fatal(err)
		}
		return ix
	}
	build(at(500 * time.Millisecond)) // checked within the racy window
	if err := os.WriteFile(file, []byte("package a\n\nimport \"testing\"\n\nfunc TestBBBB(t *testing.T) {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(file, t0, t0) // same size, same mtime
	build(at(10*time.Second), "other")
	ix := build(at(20 * time.Second))
	if got := strings.Join(ids(ix.Tests), " "); !strings.Contains(got, "TestBBBB") {
		t.Errorf("the edit was hidden by the cache: %s", got)
	}
}

// TestSelectNameByLabels: --name matches what the tree view shows of a
// record (its lineage's labels), so a pytest test whose name holds its
// file's path is matched by the function's name, and its rows by the
// second level, as a Go subtest is.
func TestSelectNameByLabels(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"py/pytest.ini":      "[pytest]\n",
		"py/tests/test_m.py": "import pytest\n\n@pytest.mark.parametrize('v', ['x y', '[z]'])\ndef test_rows(v):\n    assert v\n\ndef test_fails():\n    assert 1 == 2\n",
		"go.mod":             "module m\n\ngo 1.21\n",
		"a_test.go":          "package m\n\nimport \"testing\"\n\nfunc TestRows(t *testing.T) {\n\tt.Run(\"x\", func(t *testing.T) {})\n}\n",
	})
	ix, err := Build(context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	for pattern, want := range map[string][]string{
		"test_rows":    {"py/tests/test_m.py::test_rows", "py/tests/test_m.py::test_rows[x y]", "py/tests/test_m.py::test_rows[[z]]"},
		"test_rows/z":  {"py/tests/test_m.py::test_rows", "py/tests/test_m.py::test_rows[[z]]"},
		"Rows$/x":      {"a_test.go::TestRows", "a_test.go::TestRows/x"},
		"^test_fails$": {"py/tests/test_m.py::test_fails"},
	} {
		got, err := ix.Select(Filter{Name: pattern})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, r := range got {
			ids = append(ids, r.ID)
		}
		slices.Sort(ids)
		slices.Sort(want)
		if !slices.Equal(ids, want) {
			t.Errorf("--name %q selects %q, want %q", pattern, ids, want)
		}
	}
}
