package changes

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/config"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/testenv"
)

// testGraph is a Python-like project "app" with three test files:
// t1 imports a, which imports b; t2 imports c; t3 imports something
// unresolved; conftest.py is global.
func testGraph() (*Graph, *index.Index) {
	p := &project{dir: "app", files: []string{"app/tests/t1.py", "app/tests/t2.py", "app/tests/t3.py"}, evidence: true}
	g := &Graph{users: map[string][]use{}, owners: map[string]string{}, projects: []*project{p,
		{dir: "web", files: []string{"web/x.test.js"}}}}
	g.add(p, &lang.Graph{Edges: []lang.Edge{
		{From: "app/tests/t1.py", To: "app/a.py", Why: "import"},
		{From: "app/a.py", To: "app/b.py", Why: "import"},
		{From: "app/tests/t2.py", To: "app/c.py", Why: "import"},
		{From: "app/tests/t3.py", To: lang.UnresolvedNode, Why: "import missing"},
		{From: "app/c.py", To: lang.AnyNode, Why: "importlib.import_module(name)"},
	}, Global: []string{"conftest.py", "pyproject.toml"}})
	ix := &index.Index{Tests: []testdex.Test{{ID: "app/tests/t1.py::test_a", File: "app/tests/t1.py"}, {ID: "app/tests/t2.py::test_c", File: "app/tests/t2.py"},
		{ID: "app/tests/t3.py::test_d", File: "app/tests/t3.py"}, {ID: "web/x.test.js::x", File: "web/x.test.js"}}}
	return g, ix
}

func selected(g *Graph, ix *index.Index, set Set) map[string]string {
	out := map[string]string{}
	for _, a := range g.Select(ix, set) {
		out[a.File] = a.Reason.String()
	}
	return out
}

func TestSelect(t *testing.T) {
	g, ix := testGraph()
	for _, c := range []struct {
		name string
		set  Set
		want map[string]string
	}{
		{"a transitive import", Set{{Path: "app/b.py", Status: Modified}}, map[string]string{
			"app/tests/t1.py": "app/tests/t1.py → (import) app/a.py → (changed) app/b.py",
			// c.py imports by a computed name: any change may matter to t2
			"app/tests/t2.py": "app/tests/t2.py → (import) app/c.py → (importlib.import_module(name)) * app → (changed) app/b.py",
		}},
		{"a test file", Set{{Path: "app/tests/t1.py", Status: Modified}}, map[string]string{
			"app/tests/t1.py": "changed",
			"app/tests/t2.py": "app/tests/t2.py → (import) app/c.py → (importlib.import_module(name)) * app → (changed) app/tests/t1.py",
		}},
		{"a global file", Set{{Path: "app/conftest.py", Status: Modified}}, map[string]string{
			"app/tests/t1.py": "changed app/conftest.py (every test of the project depends on it)",
			"app/tests/t2.py": "changed app/conftest.py (every test of the project depends on it)",
			"app/tests/t3.py": "changed app/conftest.py (every test of the project depends on it)",
		}},
		{"an added file may resolve a missing import", Set{{Path: "app/new.py", Status: Added}}, map[string]string{
			"app/tests/t2.py": "app/tests/t2.py → (import) app/c.py → (importlib.import_module(name)) * app → (changed) app/new.py",
			"app/tests/t3.py": "app/tests/t3.py → (import missing) ? app → (changed) app/new.py",
		}},
		{"a project without evidence", Set{{Path: "web/lib.js", Status: Modified}}, map[string]string{
			"web/x.test.js": "changed web/lib.js (no dependency graph for this project: any change selects its tests)",
		}},
		{"outside every project", Set{{Path: "README.md", Status: Modified}}, map[string]string{}},
	} {
		if got := selected(g, ix, c.set); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

func TestParseNameStatus(t *testing.T) {
	out := []byte("M\x00a.go\x00R087\x00old.py\x00new.py\x00D\x00gone.js\x00A\x00added.rs\x00")
	want := Set{{Path: "a.go", Status: Modified}, {Path: "new.py", Status: Renamed, Old: "old.py"},
		{Path: "gone.js", Status: Deleted}, {Path: "added.rs", Status: Added}}
	if got := parseNameStatus(out); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

// TestFromGit: staged, unstaged, untracked, deleted and renamed files
// against HEAD, and against an older revision; ignored files stay out.
func TestFromGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		testenv.Missing(t, "git is not installed")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("init", "-q")
	write("a.go", "package a\n")
	write("b.go", "package a\n\nfunc B() {}\n")
	write("c.go", "package a\n// a longer file so a rename is found as one\nfunc C() {}\nfunc D() {}\n")
	write(".gitignore", "*.log\n")
	run("add", ".")
	run("commit", "-q", "-m", "one")
	write("a.go", "package a\n\nvar X = 1\n") // unstaged
	write("new.go", "package a\n")            // untracked
	write("x.log", "ignored\n")
	run("rm", "-q", "b.go")
	run("mv", "c.go", "d.go")
	got, err := FromGit(context.Background(), GitOptions{Root: dir, Env: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	want := Set{{Path: "a.go", Status: Modified, Base: "HEAD"}, {Path: "b.go", Status: Deleted}, {Path: "d.go", Status: Renamed, Old: "c.go"}, {Path: "new.go", Status: Added}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("against HEAD:\n got %+v\nwant %+v", got, want)
	}
	if _, err := FromGit(context.Background(), GitOptions{Root: t.TempDir(), Env: os.Environ()}); !errors.Is(err, ErrNotGit) {
		t.Errorf("outside a work tree: %v", err)
	}
	for _, since := range []string{"nosuchref", "-p", "HEAD~9"} {
		if _, err := FromGit(context.Background(), GitOptions{Root: dir, Since: since, Env: os.Environ()}); !errors.Is(err, ErrBadRevision) {
			t.Errorf("--since %s: %v, want ErrBadRevision", since, err)
		}
	}
}

// TestFingerprints: a test file's fingerprint changes with any file its
// walk reaches and with a global file, not with others; a walk reaching
// AnyNode, and a project without evidence, give none.
func TestFingerprints(t *testing.T) {
	root := t.TempDir()
	for name, body := range map[string]string{
		"app/tests/t1.py": "import a", "app/tests/t2.py": "import c", "app/tests/t3.py": "import x",
		"app/a.py": "import b", "app/b.py": "B = 1", "app/c.py": "", "app/other.py": "", "app/conftest.py": "",
		"web/x.test.js": "",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	g, _ := testGraph()
	before := g.Fingerprints(root)
	if before["app/tests/t1.py"] == "" || before["app/tests/t2.py"] != "" || before["web/x.test.js"] != "" {
		t.Fatalf("fingerprints %q: t1 has one; t2 (reaches AnyNode) and the evidence-free web project none", before)
	}
	os.WriteFile(filepath.Join(root, "app/other.py"), []byte("changed"), 0o644)
	if g.Fingerprints(root)["app/tests/t1.py"] != before["app/tests/t1.py"] {
		t.Error("a file t1 does not use changed its fingerprint")
	}
	os.WriteFile(filepath.Join(root, "app/b.py"), []byte("B = 2"), 0o644)
	afterB := g.Fingerprints(root)["app/tests/t1.py"]
	if afterB == before["app/tests/t1.py"] {
		t.Error("b.py, which t1 reaches through a.py, changed; its fingerprint did not")
	}
	os.WriteFile(filepath.Join(root, "app/conftest.py"), []byte("# global"), 0o644)
	if g.Fingerprints(root)["app/tests/t1.py"] == afterB {
		t.Error("the global conftest.py changed; t1's fingerprint did not")
	}
}

// TestSuffixOwners: a folder's test files reach their own owner (a Go
// package's test binary), its other files the folder's (the package that
// importers reach), deleted files included; a tree owner reaches files
// deleted with their folder; a global file may lie outside the project.
func TestSuffixOwners(t *testing.T) {
	p := &project{dir: ".", files: []string{"a/a_test.go", "b/b_test.go"}, evidence: true}
	g := &Graph{users: map[string][]use{}, owners: map[string]string{}, projects: []*project{p}}
	g.add(p, &lang.Graph{Edges: []lang.Edge{
		{From: "a/a_test.go", To: "go:m/a.test", Why: "same test binary"},
		{From: "a/a_test.go", To: "go:m/a", Why: "same package"},
		{From: "b/b_test.go", To: "go:m/b", Why: "same package"},
		{From: "go:m/b", To: "go:m/a", Why: "import"},
		{From: "go:m/a.test", To: "a/testdata/", Why: "testdata"},
	}, Owners: map[string]string{"a": "go:m/a", "a/*_test.go": "go:m/a.test", "b": "go:m/b", "b/*_test.go": "go:m/b.test",
		"a/testdata/**": "a/testdata/"}, Global: []string{"../go.work"}})
	ix := &index.Index{Tests: []testdex.Test{{ID: "a/a_test.go::TestA", File: "a/a_test.go"}, {ID: "b/b_test.go::TestB", File: "b/b_test.go"}}}
	for _, c := range []struct {
		name string
		set  Set
		want map[string]string
	}{
		{"a deleted source file", Set{{Path: "a/gone.go", Status: Deleted}}, map[string]string{
			"a/a_test.go": "a/a_test.go → (same package) go:m/a → (changed) a/gone.go",
			"b/b_test.go": "b/b_test.go → (same package) go:m/b → (import) go:m/a → (changed) a/gone.go",
		}},
		{"a deleted test file", Set{{Path: "a/gone_test.go", Status: Deleted}}, map[string]string{
			"a/a_test.go": "a/a_test.go → (same test binary) go:m/a.test → (changed) a/gone_test.go",
		}},
		{"a file deleted with its folder from a tree", Set{{Path: "a/testdata/old/x.txt", Status: Deleted}}, map[string]string{
			"a/a_test.go": "a/a_test.go → (same test binary) go:m/a.test → (testdata) a/testdata/ → (changed) a/testdata/old/x.txt",
		}},
		{"a global file outside the project folder", Set{{Path: "../go.work", Status: Modified}}, map[string]string{
			"a/a_test.go": "changed ../go.work (every test of the project depends on it)",
			"b/b_test.go": "changed ../go.work (every test of the project depends on it)",
		}},
	} {
		if got := selected(g, ix, c.set); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestDeclaredRules: testdex.toml's [affected] selects what the graph
// cannot see, by the change's new or old name, and nothing else.
func TestDeclaredRules(t *testing.T) {
	g, ix := testGraph()
	g.addRules([]config.Rule{
		{Changed: "data/**", Tests: []string{"app/tests/t2.py"}},
		{Changed: "tools/gen", Tests: []string{"web/..."}},
		{Changed: "x", Tests: []string{"nowhere/..."}},
	})
	if len(g.Problems) != 1 || !strings.Contains(g.Problems[0].Message, "no test file matches nowhere/...") {
		t.Errorf("problems = %v, want one warning for the rule that names no test", g.Problems)
	}
	for _, c := range []struct {
		name string
		set  Set
		want map[string]string
	}{
		{"a data file", Set{{Path: "data/golden/1.json", Status: Added}}, map[string]string{
			"app/tests/t2.py": `changed data/golden/1.json (declared in testdex.toml: [affected] "data/**" = ["app/tests/t2.py"])`,
		}},
		{"renamed out of the folder", Set{{Path: "old/1.json", Old: "data/1.json", Status: Renamed}}, map[string]string{
			"app/tests/t2.py": `changed old/1.json (declared in testdex.toml: [affected] "data/**" = ["app/tests/t2.py"])`,
		}},
		{"below a folder", Set{{Path: "tools/gen/a/b.sh", Status: Modified}}, map[string]string{
			"web/x.test.js": `changed tools/gen/a/b.sh (declared in testdex.toml: [affected] "tools/gen" = ["web/..."])`,
		}},
		{"a sibling is not below", Set{{Path: "tools/generate.sh", Status: Modified}}, map[string]string{}},
	} {
		if got := selected(g, ix, c.set); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: selected %v, want %v", c.name, got, c.want)
		}
	}
}

func TestCovers(t *testing.T) {
	for _, c := range []struct {
		pat, file string
		want      bool
	}{
		{"pkg/...", "pkg/a_test.go", true},
		{"pkg/...", "pkg/sub/a_test.go", true},
		{"pkg/...", "pkgx/a_test.go", false},
		{"...", "a/b/c.py", true},
		{"./...", "c.py", true},
		{"pkg", "pkg/a_test.go", true},
		{"pkg/", "pkg/a_test.go", true},
		{"**/testdata/**", "a/b/testdata/x/y.txt", true},
		{"testdata/**", "a/testdata/y.txt", false},
		{"web/**/*.test.ts", "web/a/b.test.ts", true},
		{"web/**/*.test.ts", "web/a/b.ts", false},
		{"a_test.go", "a_test.go", true},
		{"a_test.go", "b/a_test.go", false},
	} {
		if got := covers(c.pat, c.file); got != c.want {
			t.Errorf("covers(%q, %q) = %v, want %v", c.pat, c.file, got, c.want)
		}
	}
}

// TestSelectTests: a walk that reaches a test file only through nodes a
// Grapher names as its tests selects those tests and the records below
// them; a test node no record has selects the file whole; another edge
// into the file selects it whole.
func TestSelectTests(t *testing.T) {
	p := &project{dir: ".", files: []string{"a_test.go", "b_test.go"}, evidence: true}
	g := &Graph{users: map[string][]use{}, owners: map[string]string{}, projects: []*project{p}}
	g.add(p, &lang.Graph{Edges: []lang.Edge{
		{From: "a_test.go", To: "go:m.TestA", Why: "declares"},
		{From: "a_test.go", To: "go:m.TestB", Why: "declares"},
		{From: "go:m.TestA", To: "f.go", Why: "uses"},
		{From: "go:m.TestB", To: "g.go", Why: "uses"},
		{From: "b_test.go", To: "go:m.TestGone", Why: "declares"},
		{From: "go:m.TestGone", To: "g.go", Why: "uses"},
		{From: "a_test.go", To: "h.go", Why: "same package"},
	}, Tests: []lang.TestNode{
		{Node: "go:m.TestA", File: "a_test.go", Name: "TestA"},
		{Node: "go:m.TestB", File: "a_test.go", Name: "TestB"},
		{Node: "go:m.TestGone", File: "b_test.go", Name: "TestGone"},
	}})
	ix := &index.Index{Tests: []testdex.Test{
		{ID: "a_test.go::TestA", Name: "TestA", File: "a_test.go", Framework: testdex.Go},
		{ID: "a_test.go::TestA/x", Name: "TestA/x", Parent: "a_test.go::TestA", File: "a_test.go", Framework: testdex.Go},
		{ID: "a_test.go::TestA/x/y", Name: "TestA/x/y", Parent: "a_test.go::TestA/x", File: "a_test.go", Framework: testdex.Go},
		{ID: "a_test.go::TestB", Name: "TestB", File: "a_test.go", Framework: testdex.Go},
		{ID: "b_test.go::TestOther", Name: "TestOther", File: "b_test.go", Framework: testdex.Go},
	}}
	ids := func(set Set) map[string][]string {
		out := map[string][]string{}
		for _, a := range g.Select(ix, set) {
			for i, tt := range a.Tests {
				out[a.File] = append(out[a.File], tt.ID+": "+a.ReasonOf(i).String())
			}
		}
		return out
	}
	got := ids(Set{{Path: "f.go", Status: Modified}})
	want := map[string][]string{"a_test.go": {
		"a_test.go::TestA: go:m.TestA → (changed) f.go",
		"a_test.go::TestA/x: go:m.TestA → (changed) f.go",
		"a_test.go::TestA/x/y: go:m.TestA → (changed) f.go",
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("f.go:\n got %q\nwant %q", got, want)
	}
	got = ids(Set{{Path: "g.go", Status: Modified}})
	want = map[string][]string{
		"a_test.go": {"a_test.go::TestB: go:m.TestB → (changed) g.go"},
		// TestGone names no record of b_test.go: the whole file
		"b_test.go": {"b_test.go::TestOther: go:m.TestGone → (changed) g.go"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("g.go:\n got %q\nwant %q", got, want)
	}
	all := g.Select(ix, Set{{Path: "h.go", Status: Modified}, {Path: "f.go", Status: Modified}})
	if len(all) != 1 || !all[0].Whole() || len(all[0].Tests) != 4 {
		t.Errorf("h.go and f.go: want a_test.go whole, got %+v", all)
	}
	if s := Summary(Set{{Path: "f.go"}}, g.Select(ix, Set{{Path: "f.go", Status: Modified}})); s != "3 tests in 1 test file affected by 1 changed file" {
		t.Errorf("summary %q", s) // go test reports a parent and each subtest
	}
}

// TestSummaryCountsAsRunners: the closing line counts what the runners
// report: no describe blocks, no parametrized parent besides its rows,
// dynamic records apart.
func TestSummaryCountsAsRunners(t *testing.T) {
	js := Affected{File: "t.test.js", Tests: []testdex.Test{
		{ID: "t.test.js::d", Kind: testdex.KindSuite, Framework: testdex.Jest},
		{ID: "t.test.js::d > a", Parent: "t.test.js::d", Kind: testdex.KindTest, Framework: testdex.Jest},
		{ID: "t.test.js::d > b", Parent: "t.test.js::d", Kind: testdex.KindTest, Framework: testdex.Jest},
		{ID: "t.test.js::d > {file}", Parent: "t.test.js::d", Kind: testdex.KindTest, Dynamic: true, Framework: testdex.Jest},
	}}
	py := Affected{File: "test_p.py", Tests: []testdex.Test{
		{ID: "test_p.py::test_x", Kind: testdex.KindTest, Framework: testdex.Pytest},
		{ID: "test_p.py::test_x[1]", Parent: "test_p.py::test_x", Kind: testdex.KindSubtest, Framework: testdex.Pytest},
		{ID: "test_p.py::test_x[2]", Parent: "test_p.py::test_x", Kind: testdex.KindSubtest, Framework: testdex.Pytest},
	}}
	got := Summary(Set{{Path: "src.js"}}, []Affected{js, py})
	want := "4 tests (and those of 1 dynamic record, known when they run) in 2 test files affected by 1 changed file"
	if got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}

// TestSelectSkipsFilesWithoutTests: a test file selected whole that
// declares no test is not listed (nothing to run); one the listing could
// not read is (its runner reports the failure).
func TestSelectSkipsFilesWithoutTests(t *testing.T) {
	g, ix := testGraph()
	ix.Tests = ix.Tests[:1] // t1 only
	set := Set{{Path: "app/conftest.py", Status: Modified}}
	if got := selected(g, ix, set); len(got) != 1 || got["app/tests/t1.py"] == "" {
		t.Errorf("selected %v, want t1 alone (t2 and t3 declare no test)", got)
	}
	ix.Problems = []testdex.Problem{{Severity: testdex.SevError, Path: "app/tests/t2.py", Message: "syntax error"}}
	if got := selected(g, ix, set); len(got) != 2 || got["app/tests/t2.py"] == "" {
		t.Errorf("selected %v, want t1 and the unreadable t2", got)
	}
}
