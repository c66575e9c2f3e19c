package golang

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/testenv"
)

// boundaryModule is a module whose tests each reach their own function of
// a.go (line numbers in the comments): sequential tests, a parallel pair,
// parallel subtests (which run after their parent's function returns), a
// TestMain that calls Setup before m.Run, a test with an unnamed
// parameter, an external test package, an example, and a file go does not
// build (of another package clause: hooked, it would break the build).
var boundaryModule = map[string]string{
	"go.mod": "module example.com/bt\n\ngo 1.21\n",
	"a/a.go": `package a

func One() int { return 1 }

func Two() int { return 2 }

func Par1() int { return 3 }

func Par2() int { return 4 }

func Sub() int { return 5 }

func Setup() int { return 6 }

func Ext() int { return 7 }

func Hello() string { return "hello" }

func Unnamed() int { return 8 }
`,
	"a/a_test.go": `package a

import "testing"

func TestOne(t *testing.T) { One() }

func TestTwo(t *testing.T) {
	Two()
}

func TestPar1(t *testing.T) {
	t.Parallel()
	Par1()
}

func TestPar2(t *testing.T) {
	t.Parallel()
	Par2()
}

func TestSub(t *testing.T) {
	for _, n := range []string{"x", "y"} {
		t.Run(n, func(t *testing.T) {
			t.Parallel()
			Sub()
		})
	}
}

func TestUnnamed(*testing.T) { Unnamed() }
`,
	"a/main_test.go": `package a

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	Setup()
	os.Exit(m.Run())
}
`,
	"a/tool_test.go": `//go:build ignore

package main

import "testing"

func TestTool(t *testing.T) {}
`,
	"a/ext_test.go": `package a_test

import (
	"fmt"
	"testing"

	"example.com/bt/a"
)

func TestExt(t *testing.T) { a.Ext() }

func ExampleHello() {
	fmt.Println(a.Hello())
	// Output: hello
}
`,
}

// TestCoverBoundary runs boundaryModule's tests with coverage through the
// boundary path (one go test, the hook at each top-level test) and checks
// each test's lines of a.go, then that they hold every line the process
// per test path records.
func TestCoverBoundary(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		testenv.Missing(t, "go is not on PATH")
	}
	root := t.TempDir()
	for name, src := range boundaryModule {
		os.MkdirAll(filepath.Join(root, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := &lang.Project{Dir: root, Name: "example.com/bt"}
	sel := &lang.Selection{}
	for _, name := range []string{"TestOne", "TestTwo", "TestPar1", "TestPar2", "TestSub", "TestUnnamed", "TestExt", "ExampleHello"} {
		sel.Tests = append(sel.Tests, &testdex.Test{Scope: "example.com/bt/a", Name: name, Run: runPattern(name)})
	}
	aGo := filepath.Join(root, "a", "a.go")
	// The default path.
	got, passed, where := coverRun(t, p, sel, os.Environ())
	if passed != 10 { // 8 tests and examples, 2 subtests
		t.Errorf("%d passed, want 10", passed)
	}
	want := map[string][]int{ // lines each test must have, and lines it must not
		"TestOne": {3}, "TestTwo": {5}, "TestPar1": {7}, "TestPar2": {9}, "TestSub": {11},
		"TestExt": {15}, "ExampleHello": {17}, "TestUnnamed": {19},
	}
	for name, lines := range want {
		have := got[name][aGo]
		if !slices.Contains(have, 13) {
			t.Errorf("%s: no line 13 (Setup, from TestMain before m.Run): %v", name, have)
		}
		for _, l := range lines {
			if !slices.Contains(have, l) {
				t.Errorf("%s: line %d missing: %v", name, l, have)
			}
		}
	}
	if slices.Contains(got["TestOne"][aGo], 5) || slices.Contains(got["TestTwo"][aGo], 3) {
		t.Errorf("sequential tests share lines: TestOne %v, TestTwo %v", got["TestOne"][aGo], got["TestTwo"][aGo])
	}

	// Every test of the one process has its place there: one key, the
	// numbers 0 to 7 once each, TestOne before TestTwo (file order).
	procs, seqs := map[string]bool{}, map[int]bool{}
	for _, w := range where {
		procs[w.Process], seqs[w.Seq] = true, true
	}
	if len(procs) != 1 || procs[""] || len(seqs) != len(where) || len(where) != 8 || seqs[-1] || seqs[8] {
		t.Errorf("processes %v, numbers %v of %d tests", procs, seqs, len(where))
	}
	if where["TestOne"].Seq >= where["TestTwo"].Seq {
		t.Errorf("TestOne %+v started after TestTwo %+v", where["TestOne"], where["TestTwo"])
	}

	old, _, oldWhere := coverRun(t, p, sel, append(os.Environ(), "TESTDEX_GO_COVERAGE=process"))
	for name, w := range oldWhere {
		if w.Process != "" {
			t.Errorf("%s ran alone, but its record names process %q", name, w.Process)
		}
	}
	for name, files := range old {
		for file, lines := range files {
			for _, l := range lines {
				if !slices.Contains(got[name][file], l) {
					t.Errorf("%s: %s:%d recorded by a process per test, not by the boundary path", name, file, l)
				}
			}
		}
	}
	if len(old) != len(got) {
		t.Errorf("tests recorded: %d by the boundary path, %d by a process per test", len(got), len(old))
	}
}

// coverRun runs a coverage run's commands as the core does and returns
// each test's covered lines per file, how many results passed, and each
// test's coverage event (its process and order there).
func coverRun(t *testing.T, p *lang.Project, sel *lang.Selection, env []string) (map[string]map[string][]int, int, map[string]lang.RunEvent) {
	t.Helper()
	o := lang.RunOptions{Coverage: true, Dir: t.TempDir(), Env: env}
	cmds, err := runner{}.RunCommands(p, sel, o)
	if err != nil {
		t.Fatal(err)
	}
	shared := !slices.Contains(env, "TESTDEX_GO_COVERAGE=process")
	if boundary := slices.ContainsFunc(cmds[0].Args, func(a string) bool { return strings.HasPrefix(a, "-overlay=") }); boundary != shared {
		t.Fatalf("the boundary path asked %v (TESTDEX_GO_COVERAGE=process not set), but taken %v: %q", shared, boundary, cmds[0].Args)
	}
	got := map[string]map[string][]int{}
	where := map[string]lang.RunEvent{}
	passed := 0
	for _, c := range cmds {
		ps := runner{}.NewParser(p, c, func(e lang.RunEvent) {
			switch {
			case e.Action == testdex.ActionPass && e.Name != "":
				passed++
			case e.Action == testdex.ActionFail:
				t.Errorf("%s failed: %s", e.Name, e.Message)
			case e.Action == lang.ActionCovered && e.Name == "":
				t.Errorf("note: %s", e.Message)
			case e.Action == lang.ActionCovered:
				where[e.Name] = e
				if got[e.Name] == nil {
					got[e.Name] = map[string][]int{}
				}
				for _, f := range e.Covered {
					for _, s := range f.Lines {
						for l := s.Start; l <= s.End; l++ {
							got[e.Name][f.File] = append(got[e.Name][f.File], l)
						}
					}
				}
			}
		})
		cmd := exec.Command(c.Args[0], c.Args[1:]...)
		cmd.Dir, cmd.Env = c.Dir, append(append([]string{}, env...), c.Env...)
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = ps, &stderr
		err := cmd.Run()
		code := 0
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", strings.Join(c.Args, " "), err)
		}
		if code != 0 {
			t.Errorf("%s: exit %d: %s", strings.Join(c.Args, " "), code, stderr.String())
		}
		ps.Close(code)
	}
	return got, passed, where
}

// FuzzCoverDecode checks that the coverage data decoders never panic: bad
// input is an error (the seeds are headers cut short, wrong versions and
// lengths that point past the end), and a snapshot's units lie within
// their function's counters.
func FuzzCoverDecode(f *testing.F) {
	meta := append(append([]byte{}, metaMagic[:]...), 1, 0, 0, 0)
	f.Add(meta)
	f.Add(append(append([]byte{}, meta...), make([]byte, 60)...))
	big := append(append([]byte{}, meta...), make([]byte, 60)...)
	big[16] = 0xff // entries
	f.Add(big)
	f.Add([]byte{1, 0, 2, 1, 1})                   // a record: package slot 0, function 0, unit 1 of 2
	f.Add([]byte{1, 0, 2, 0xff, 0xff, 0xff, 0x0f}) // more units than counters
	f.Add([]byte{1, 0, 2, 2, 1, 1})                // a unit past the counters
	f.Fuzz(func(t *testing.T, b []byte) {
		if m, err := decodeMeta(b); err == nil && m == nil {
			t.Error("no meta-data and no error")
		}
		recs, err := decodeSnapshot(b)
		for _, r := range recs {
			for _, u := range r.units {
				if err == nil && u >= r.n {
					t.Errorf("unit %d of a function of %d counters", u, r.n)
				}
			}
		}
	})
}

// TestBuildTags: the -tags given after "--", in each spelling go takes.
func TestBuildTags(t *testing.T) {
	for _, c := range []struct {
		extra []string
		want  []string
	}{
		{[]string{"-tags=a,b"}, []string{"a", "b"}},
		{[]string{"-race", "--tags", "a b"}, []string{"a", "b"}},
		{[]string{"-tags"}, nil},
		{[]string{"tags=a"}, nil},
	} {
		if got := buildTags(c.extra); !slices.Equal(got, c.want) {
			t.Errorf("buildTags(%q) = %q, want %q", c.extra, got, c.want)
		}
	}
}

// TestStartOrder: tests in the order they started, twice-run ones once,
// and none that never ended (its process died during it); their numbers
// count the unended one, and a test started again has none.
func TestStartOrder(t *testing.T) {
	ev := []boundary{{start: true, name: "B"}, {name: "B"}, {start: true, name: "A"}, {start: true, name: "C"},
		{name: "A"}, {start: true, name: "B"}, {name: "B"}, {start: true, name: "D"}, {name: "D"}}
	got, seq := startOrder(ev)
	if !slices.Equal(got, []string{"B", "A", "D"}) {
		t.Errorf("startOrder = %q, want [B A D] (C never ended)", got)
	}
	if want := map[string]int{"B": lang.Unordered, "A": 1, "C": 2, "D": 3}; !maps.Equal(seq, want) {
		t.Errorf("seq = %v, want %v", seq, want)
	}
}

// TestBoundaryOwnOverlay: a run that brings its own -overlay (after "--"
// or in GOFLAGS) cannot take the shared path, whose hook is an overlay
// too (go build takes one): it falls back to a process per test and says
// why.
func TestBoundaryOwnOverlay(t *testing.T) {
	for _, o := range []lang.RunOptions{
		{Extra: []string{"-overlay=mine.json"}},
		{Env: []string{"TESTDEX_GO_COVERAGE=shared"}, Extra: []string{"-overlay", "mine.json"}},
		{Env: []string{"GOFLAGS=-mod=mod -overlay=/tmp/o.json"}},
	} {
		why, _, shared := boundaryToolchain(o)
		if !shared || !strings.Contains(why, "-overlay") {
			t.Errorf("%q %q: why %q, shared %v; want the overlay named", o.Env, o.Extra, why, shared)
		}
	}
	if why, _, shared := boundaryToolchain(lang.RunOptions{Env: []string{"TESTDEX_GO_COVERAGE=process"}, Extra: []string{"-overlay=mine.json"}}); why != "" || shared {
		t.Errorf("with a process per test asked: %q, shared %v", why, shared)
	}
}

// TestTreePackages: a folder's pattern names its folders that have test
// files; those with other Go files only go to untested, and a pattern
// under which no folder has tests stays as it is.
func TestTreePackages(t *testing.T) {
	folders := map[string]bool{".": true, "a": true, "a/b": false, "ab": true, "c": false, "c/d": false}
	for _, c := range []struct {
		pattern   string
		want, out []string
	}{
		{"./...", []string{".", "./a", "./ab"}, []string{"./a/b", "./c", "./c/d"}},
		{"./a/...", []string{"./a"}, []string{"./a/b"}},
		{"./c/...", []string{"./c/..."}, nil},
	} {
		untested := map[string]bool{}
		got := treePackages(c.pattern, folders, untested)
		if !slices.Equal(got, c.want) || !slices.Equal(slices.Sorted(maps.Keys(untested)), c.out) {
			t.Errorf("treePackages(%q) = %q, untested %q; want %q, %q", c.pattern, got, slices.Sorted(maps.Keys(untested)), c.want, c.out)
		}
	}
}

// TestBoundaryUntestedPackages: on the shared path a run of the whole
// module names its packages that have test files in the coverage command,
// and runs those without (where go test -cover would start a go tool
// covdata each) in a plain go test of their own, at the same time.
func TestBoundaryUntestedPackages(t *testing.T) {
	root := t.TempDir()
	files := maps.Clone(boundaryModule)
	files["b/b.go"] = "package b\n\nfunc B() int { return 1 }\n"
	files["c/c_ignored.go"] = "//go:build ignore\n\npackage c\n"
	for name, src := range files {
		os.MkdirAll(filepath.Join(root, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := &lang.Project{Dir: root, Name: "example.com/bt"}
	sel := &lang.Selection{Paths: []lang.PathSelection{{Path: ".", Dir: true}}}
	o := lang.RunOptions{Coverage: true, Dir: t.TempDir(), Env: os.Environ()}
	cmds, err := runner{}.RunCommands(p, sel, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) != 2 {
		t.Fatalf("%d commands, want 2: %+v", len(cmds), cmds)
	}
	cov, rest := cmds[0].Args, cmds[1].Args
	if !slices.Contains(cov, "-covermode="+boundaryMode(o)) || cov[len(cov)-1] != "./a" || slices.Contains(cov, "./...") {
		t.Errorf("coverage command %q: want ./a alone, with coverage", cov)
	}
	if slices.ContainsFunc(rest, func(a string) bool { return strings.HasPrefix(a, "-cover") }) || rest[len(rest)-1] != "./b" || slices.Contains(rest, "./c") {
		t.Errorf("the other command %q: want ./b alone (c has no file go builds), without coverage", rest)
	}
	if cmds[0].Lane == "" || cmds[1].Lane == "" || cmds[0].Lane == cmds[1].Lane || coverDirOf(cmds[1]) != "" {
		t.Errorf("lanes %q and %q, the other's hook folder %q: want two lanes and none", cmds[0].Lane, cmds[1].Lane, coverDirOf(cmds[1]))
	}
}

// TestBoundaryMode: set mode only where the hook's walk may rely on
// plain stores being seen in program order (amd64, 386), atomic
// elsewhere, by the run's GOARCH.
func TestBoundaryMode(t *testing.T) {
	for arch, want := range map[string]string{"amd64": "set", "386": "set", "arm64": "atomic", "riscv64": "atomic", "ppc64le": "atomic"} {
		if got := boundaryMode(lang.RunOptions{Env: []string{"GOARCH=" + arch}}); got != want {
			t.Errorf("GOARCH=%s: -covermode=%s, want %s", arch, got, want)
		}
	}
	// go test refuses any mode but atomic with -race.
	for _, o := range []lang.RunOptions{
		{Env: []string{"GOARCH=amd64"}, Extra: []string{"-race"}},
		{Env: []string{"GOARCH=amd64"}, Extra: []string{"--race"}},
		{Env: []string{"GOARCH=amd64", "GOFLAGS=-count=1 -race"}},
	} {
		if got := boundaryMode(o); got != "atomic" {
			t.Errorf("%v %v: -covermode=%s, want atomic", o.Env, o.Extra, got)
		}
	}
}

// TestCoverBoundaryParallelEntries: 32 parallel tests each enter their
// own function for the first time while the others' boundaries walk the
// counters (a header written as the walk passes it, a counter set between
// the read and the swap); each test's record must still hold its
// function's lines.
func TestCoverBoundaryParallelEntries(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		testenv.Missing(t, "go is not on PATH")
	}
	const n = 32
	var src, tests strings.Builder
	src.WriteString("package p\n")
	tests.WriteString("package p\n\nimport (\n\t\"runtime\"\n\t\"testing\"\n)\n")
	for i := range n {
		fmt.Fprintf(&src, "\nfunc F%d(k int) int {\n\tif k%%2 == 0 {\n\t\treturn k\n\t}\n\treturn -k\n}\n", i)
		fmt.Fprintf(&tests, "\nfunc TestP%d(t *testing.T) {\n\tt.Parallel()\n\tfor k := 0; k < 2000; k++ {\n\t\tF%d(k)\n\t\truntime.Gosched()\n\t}\n}\n", i, i)
	}
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "p"), 0o755)
	for name, data := range map[string]string{"go.mod": "module example.com/pe\n\ngo 1.21\n", "p/p.go": src.String(), "p/p_test.go": tests.String()} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := &lang.Project{Dir: root, Name: "example.com/pe"}
	sel := &lang.Selection{}
	for i := range n {
		name := fmt.Sprintf("TestP%d", i)
		sel.Tests = append(sel.Tests, &testdex.Test{Scope: "example.com/pe/p", Name: name, Run: runPattern(name)})
	}
	got, passed, _ := coverRun(t, p, sel, os.Environ())
	if passed != n {
		t.Errorf("%d passed, want %d", passed, n)
	}
	pGo := filepath.Join(root, "p", "p.go")
	for i := range n {
		start := 3 + 7*i // F_i's first line
		for _, l := range []int{start, start + 1, start + 2, start + 4} {
			if have := got[fmt.Sprintf("TestP%d", i)][pGo]; !slices.Contains(have, l) {
				t.Errorf("TestP%d: p.go:%d missing: %v", i, l, have)
			}
		}
	}
}
