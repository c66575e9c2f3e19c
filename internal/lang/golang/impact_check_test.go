package golang_test

import (
	"context"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/testdex/testdex/changes"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/impacttest"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/testenv"
)

// buildModule is a module whose packages reach a's declarations in
// every way a change can break them: b calls a.Add and returns an a.T;
// c reaches the field X of a.T through b without naming package a; e's
// tests import a, e itself does not; d is unrelated. helper.go holds an
// unexported function another file of a uses.
var buildModule = map[string]string{
	"go.mod": "module example.com/m\n\ngo 1.22\n",
	"a/a.go": `package a

// T is a thing.
type T struct{ X int }

// Add adds.
func Add(x, y int) int { return x + y }

// M uses a helper.
func (t T) M() int { return helper() }
`,
	"a/helper.go": "package a\n\nfunc helper() int { return 1 }\n",
	"a/a_test.go": `package a

import "testing"

func TestAdd(t *testing.T) {
	if Add(1, 2) != 3 {
		t.Fatal("bad")
	}
}
`,
	"a/ext_test.go": `package a_test

import (
	"testing"

	"example.com/m/a"
)

func TestExt(t *testing.T) {
	if (a.T{X: 1}).M() != 1 {
		t.Fatal("bad")
	}
}
`,
	"b/b.go": `package b

import "example.com/m/a"

// Twice doubles.
func Twice(x int) int { return a.Add(x, x) }

// New makes a T.
func New() a.T { return a.T{} }
`,
	"b/b_test.go": "package b\n\nimport \"testing\"\n\nfunc TestTwice(t *testing.T) {\n\tif Twice(2) != 4 {\n\t\tt.Fatal(\"bad\")\n\t}\n}\n",
	"c/c.go": `package c

import "example.com/m/b"

// Four is four.
func Four() int { return b.Twice(2) }

// Field reads a.T's X through b.
func Field() int { return b.New().X }
`,
	"c/c_test.go": "package c\n\nimport \"testing\"\n\nfunc TestFour(t *testing.T) {\n\tif Four() != 4 {\n\t\tt.Fatal(\"bad\")\n\t}\n}\n",
	"d/d.go":      "package d\n\n// D is one.\nfunc D() int { return 1 }\n",
	"d/d_test.go": "package d\n\nimport \"testing\"\n\nfunc TestD(t *testing.T) {\n\tif D() != 1 {\n\t\tt.Fatal(\"bad\")\n\t}\n}\n",
	"e/e.go":      "package e\n",
	"e/e_test.go": "package e\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/a\"\n)\n\nfunc TestE(t *testing.T) {\n\tif a.Add(1, 1) != 2 {\n\t\tt.Fatal(\"bad\")\n\t}\n}\n",
}

// TestBrokenBuild edits buildModule in every class of change that can
// break a build (and two that cannot), and checks the selection against
// the native run: the packages whose tests the build rule selects
// (Reason.Rule "build") are exactly those `go test` fails to build, and
// every package go test fails has selected tests.
func TestBrokenBuild(t *testing.T) {
	for _, tool := range []string{"git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.Missing(t, "%s is not installed: the native run cannot be compared", tool)
		}
	}
	add := func(text string) func(string) string {
		return func(src string) string { return src + text }
	}
	sub := func(old, new string) func(string) string {
		return func(src string) string { return strings.Replace(src, old, new, 1) }
	}
	all := []string{"a", "b", "c", "e"} // a and everything that uses it
	cases := []struct {
		name   string
		file   string
		edit   func(string) string
		broken []string // the packages whose tests go test cannot build
		reason string   // a substring of the reason of a/a_test.go (or of the first broken file)
	}{
		{"stray brace", "a/a.go", add("}\n"), all, "a/a.go does not parse: a/a.go:11:1: expected declaration, found '}'"},
		{"NUL byte", "a/a.go", add("// \x00\n"), all, "illegal character NUL"},
		{"invalid UTF-8", "a/a.go", add("// \xff\n"), all, "illegal UTF-8 encoding"},
		{"undefined call", "a/a.go", add("func Bad() { undefined() }\n"), all,
			"a/a.go does not type-check: a/a.go:11:14: undefined: undefined; every test of example.com/m/a and its importers"},
		{"body type error", "a/a.go", sub("return x + y", `return x + "y"`), all, "a/a.go does not type-check"},
		{"removed helper", "a/helper.go", sub("func helper() int { return 1 }", ""), all,
			"example.com/m/a does not type-check with the change of a/helper.go: a/a.go:10:29: undefined: helper"},
		{"signature", "a/a.go", sub("func Add(x, y int) int { return x + y }", "func Add(x int) int { return x }"), all,
			"the tests of example.com/m/a do not type-check with the change of a/a.go: a/a_test.go:6:12: too many arguments in call to Add; every test of example.com/m/a"},
		{"field renamed", "a/a.go", sub("type T struct{ X int }", "type T struct{ Y int }"), []string{"a", "c"},
			"the tests of example.com/m/a do not type-check with the change of a/a.go"},
		{"test file", "a/a_test.go", add("func helper2() { undefined() }\n"), []string{"a"},
			"the tests of example.com/m/a do not type-check with the change of a/a_test.go: a/a_test.go:10:18: undefined: undefined; every test of example.com/m/a"},
		{"body edit", "a/a.go", sub("return x + y", "return y + x"), nil, ""},
		{"added function", "a/a.go", add("// Sub subtracts.\nfunc Sub(x, y int) int { return x - y }\n"), nil, ""},
	}
	root := impacttest.WriteTree(t, buildModule)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	if failing := goTestBuildFailures(t, root); len(failing) > 0 {
		t.Fatalf("the base does not build: %v", failing)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			defer git("checkout", "-q", "--", ".")
			abs := filepath.Join(root, filepath.FromSlash(tc.file))
			src, err := os.ReadFile(abs)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(abs, []byte(tc.edit(string(src))), 0o644); err != nil {
				t.Fatal(err)
			}
			byBuild, selected, reasons := selectBuild(t, root)
			failing := goTestBuildFailures(t, root)
			if !slices.Equal(failing, tc.broken) {
				t.Fatalf("go test fails to build %v, want %v (the case is wrong)", failing, tc.broken)
			}
			if !slices.Equal(byBuild, failing) {
				t.Errorf("the build rule selects the tests of %v; go test fails to build %v", byBuild, failing)
			}
			for _, p := range failing {
				if !slices.Contains(selected, p) {
					t.Errorf("go test fails to build %s, whose tests are not selected", p)
				}
			}
			if tc.reason != "" && !strings.Contains(strings.Join(reasons, "\n"), tc.reason) {
				t.Errorf("no reason says %q:\n\t%s", tc.reason, strings.Join(reasons, "\n\t"))
			}
		})
	}
}

// selectBuild selects for the work tree's change against HEAD: the
// folders of the test files the build rule selects, of all selected
// test files, and the build reasons.
func selectBuild(t *testing.T, root string) (byBuild, selected, reasons []string) {
	t.Helper()
	ix, err := index.Build(context.Background(), index.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	set, err := changes.FromGit(context.Background(), changes.GitOptions{Root: root, Env: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range changes.Build(ix).Select(ix, set) {
		dir := path.Dir(a.File)
		if !slices.Contains(selected, dir) {
			selected = append(selected, dir)
		}
		if a.Whole() && a.Reason.Rule == "build" {
			if !slices.Contains(byBuild, dir) {
				byBuild = append(byBuild, dir)
			}
			reasons = append(reasons, a.File+": "+a.Reason.String())
		}
	}
	sort.Strings(byBuild)
	sort.Strings(selected)
	return byBuild, selected, reasons
}

var buildFailed = regexp.MustCompile(`(?m)^FAIL\s+example\.com/m/(\S+)\s+\[(build|setup) failed\]`)

// goTestBuildFailures runs the native build of every test binary (no
// test runs: -run '^$') and returns the folders of the packages it fails.
func goTestBuildFailures(t *testing.T, root string) []string {
	t.Helper()
	cmd := exec.Command("go", "test", "-count=1", "-vet=off", "-run", "^$", "./...")
	cmd.Dir = root
	out, _ := cmd.CombinedOutput()
	var failing []string
	for _, m := range buildFailed.FindAllStringSubmatch(string(out), -1) {
		if !slices.Contains(failing, m[1]) {
			failing = append(failing, m[1])
		}
	}
	sort.Strings(failing)
	return failing
}

// TestBrokenWithoutToolchain: a type check that cannot be done (no go
// command to list the imports' export data) counts as a failure, and
// says so; a file that does not parse needs no toolchain.
func TestBrokenWithoutToolchain(t *testing.T) {
	root := impacttest.WriteTree(t, buildModule)
	ix, err := index.Build(context.Background(), index.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	pfs := ix.ProjectFiles()
	if len(pfs) != 1 {
		t.Fatalf("projects: %v", pfs)
	}
	bc, ok := pfs[0].Project.Grapher.(lang.BuildChecker)
	if !ok {
		t.Fatal("the Go Grapher is no lang.BuildChecker")
	}
	in := &lang.GraphInput{Project: pfs[0].Project, Root: ix.Root, Files: pfs[0].Files, ReadFile: os.ReadFile,
		Env: []string{"PATH=" + t.TempDir(), "HOME=" + t.TempDir()}}
	if _, err := bc.(lang.Grapher).Graph(in); err != nil {
		t.Fatal(err)
	}
	got := bc.Broken(in, "b/b.go", nil)
	if len(got) != 1 || got[0].Node != "go:example.com/m/b" ||
		!strings.HasPrefix(got[0].Why, "example.com/m/b could not be type-checked with the change of b/b.go (go list: ") ||
		!strings.HasSuffix(got[0].Why, "so it may not build; every test of example.com/m/b and its importers") {
		t.Errorf("without go: %+v", got)
	}
	if err := os.WriteFile(filepath.Join(root, "d", "d.go"), []byte("package d\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got = bc.Broken(in, "d/d.go", nil)
	if len(got) != 1 || got[0].Why != "d/d.go does not parse: d/d.go:2:1: expected declaration, found '}'; every test of example.com/m/d and its importers" {
		t.Errorf("a syntax error without go: %+v", got)
	}
}
