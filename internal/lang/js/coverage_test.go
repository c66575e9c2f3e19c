package js

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/testenv"
)

// coverageFixtures are testdata/coverage.txtar's projects: the framework,
// and the lines of the bodies of a and b in their lib file; extra are
// arguments for the runner (a second run of a project, by another name).
var coverageFixtures = []struct {
	fw           testdex.Framework
	dir, lib     string
	bodyA, bodyB int
	name         map[string]string // test -> its Name in events
	extra        []string
	label        string
}{
	{testdex.Mocha, "mocha", "lib.js", 4, 10, map[string]string{"test_a": "lib > test_a", "test_b": "lib > test_b"}, nil, ""},
	{testdex.NodeTest, "node-test", "lib.js", 4, 10, map[string]string{"test_a": "lib > test_a", "test_b": "lib > test_b"}, nil, ""},
	{testdex.Jest, "jest", "lib.js", 4, 10, map[string]string{"test_a": "lib > test_a", "test_b": "lib > test_b"}, nil, ""},
	{testdex.Vitest, "vitest", "lib.ts", 6, 12, map[string]string{"test_a": "lib > test_a", "test_b": "lib > test_b"}, nil, ""},
	// Jest 30 with ts-jest: in band, and in jest-worker's processes.
	{testdex.Jest, "jest30-ts", "src/lib.ts", 6, 12, map[string]string{"test_a": "lib > test_a", "test_b": "lib > test_b"}, []string{"--runInBand"}, "jest30-ts"},
	{testdex.Jest, "jest30-ts", "src/lib.ts", 6, 12, map[string]string{"test_a": "lib > test_a", "test_b": "lib > test_b"}, []string{"--maxWorkers=2"}, "jest30-ts-workers"},
}

// TestCoverageRuns runs each framework on its coverage fixture, with and
// without coverage: the results are the same, and test_a's coverage holds
// the body of a and not that of b, test_b's the reverse (node:test's
// test_b runs b in a subtest: a parent executed what its subtests did),
// and the recorder leaves no note (nothing is missing).
//
// It needs node and the frameworks of testdata/run/node (scripts/setup/node.sh).
func TestCoverageRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the frameworks (a second or two each)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		testenv.Missing(t, "node is not installed")
	}
	ar, err := txtar.ParseFile("testdata/coverage.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range coverageFixtures {
		label := f.label
		if label == "" {
			label = f.dir
		}
		t.Run(label, func(t *testing.T) {
			t.Parallel()
			dir := coverageProject(t, ar, f.dir, f.dir)
			plain := runFixture(t, f.fw, dir, false, f.extra...)
			withCov := runFixture(t, f.fw, dir, true, f.extra...)
			var results []lang.RunEvent
			covered := map[string][]lang.CoveredFile{}
			for _, e := range withCov {
				if e.Action == lang.ActionCovered && e.Name == "" {
					t.Errorf("note: %s", e.Message)
				}
				if e.Action == lang.ActionCovered {
					covered[e.Name] = append(covered[e.Name], e.Covered...)
					continue
				}
				results = append(results, e)
			}
			if !reflect.DeepEqual(finals(results), finals(plain)) || len(finals(plain)) < 2 {
				t.Errorf("results with coverage:\n%v\nwithout:\n%v", finals(results), finals(plain))
			}
			lib := filepath.Join(dir, f.lib)
			for test, own := range map[string]int{"test_a": f.bodyA, "test_b": f.bodyB} {
				other := f.bodyA + f.bodyB - own
				lines := linesOf(covered[f.name[test]], lib)
				if !slices.Contains(lines, own) || slices.Contains(lines, other) {
					t.Errorf("%s covered %s lines %v, want %d and not %d (all: %+v)", test, f.lib, lines, own, other, covered)
				}
			}
		})
	}
}

// TestCoverageNotes runs fixtures whose coverage cannot be recorded, and
// checks the recorder says why (a note: lang.ActionCovered without a
// test) and records nothing for their tests: a Jest transform that moves
// lines without a source map (the lines V8 counts are not the file's, and
// a test short of them would claim less than it executed), and Mocha's
// --parallel (the tests run in workers the recorder is not in).
func TestCoverageNotes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the frameworks (a second or two each)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		testenv.Missing(t, "node is not installed")
	}
	ar, err := txtar.ParseFile("testdata/coverage.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		fw             testdex.Framework
		dir, installed string
		note           string
	}{
		{testdex.Jest, "jest-nomap", "jest", "2 files ran as code transformed without a source map (lib.test.js, lib.js), so what ran of them cannot be told"},
		{testdex.Mocha, "mocha-parallel", "mocha", "Mocha's --parallel runs the tests in worker processes"},
	} {
		t.Run(f.dir, func(t *testing.T) {
			t.Parallel()
			dir := coverageProject(t, ar, f.dir, f.installed)
			var notes []string
			ran := 0
			for _, e := range runFixture(t, f.fw, dir, true) {
				switch {
				case e.Action == lang.ActionCovered && e.Name == "":
					notes = append(notes, e.Message)
				case e.Action == lang.ActionCovered:
					t.Errorf("%s: recorded %+v", e.Name, e.Covered)
				case e.Action == testdex.ActionPass:
					ran++
				}
			}
			if ran == 0 || len(notes) != 1 || !strings.HasPrefix(notes[0], f.note) {
				t.Errorf("%d passed, notes %q; want one starting %q", ran, notes, f.note)
			}
		})
	}
}

// coverageProject writes a fixture's files to a temporary folder, with the
// framework installed in testdata/run/node/<installed> as its
// node_modules.
func coverageProject(t *testing.T, ar *txtar.Archive, name, installed string) string {
	dir := t.TempDir()
	for _, f := range ar.Files {
		rel, ok := strings.CutPrefix(f.Name, name+"/")
		if !ok {
			continue
		}
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if installed != "node-test" {
		modules, _ := filepath.Abs(filepath.Join("../../../testdata/run/node", installed, "node_modules"))
		if _, err := os.Stat(modules); err != nil {
			testenv.Missing(t, "%s is not installed: run scripts/setup/node.sh", modules)
		}
		if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runFixture runs a project whole, with extra arguments for its runner,
// and returns its events.
func runFixture(t *testing.T, fw testdex.Framework, dir string, cover bool, extra ...string) []lang.RunEvent {
	t.Helper()
	p := &lang.Project{Dir: dir}
	cmds, err := runnerFor(fw).RunCommands(p, wholeProject, lang.RunOptions{Dir: t.TempDir(), Coverage: cover, Extra: extra})
	if err != nil {
		t.Fatal(err)
	}
	var evs []lang.RunEvent
	for _, cmd := range cmds {
		c := exec.Command(cmd.Args[0], cmd.Args[1:]...)
		c.Dir, c.Env = cmd.Dir, append(os.Environ(), cmd.Env...)
		out, err := c.CombinedOutput()
		code := 0
		if err != nil {
			code = 1
		}
		ps := runnerFor(fw).NewParser(p, cmd, func(e lang.RunEvent) { evs = append(evs, e) })
		ps.Close(code)
		if code != 0 {
			t.Logf("%s: %v\n%s", fw, err, tail(out))
		}
	}
	return evs
}

// finals are the results of a run: test -> action.
func finals(evs []lang.RunEvent) map[string]testdex.Action {
	out := map[string]testdex.Action{}
	for _, e := range evs {
		if e.Action == testdex.ActionPass || e.Action == testdex.ActionFail || e.Action == testdex.ActionSkip {
			out[e.Scope+"::"+e.Name] = e.Action
		}
	}
	return out
}

// linesOf lists a file's covered lines.
func linesOf(files []lang.CoveredFile, file string) []int {
	var out []int
	for _, f := range files {
		if f.File == file {
			for _, s := range f.Lines {
				for l := s.Start; l <= s.End; l++ {
					out = append(out, l)
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestParserCoverage checks the coverage events: a test's own at once, in
// the project's files only; those of code run outside tests, of a file or
// the process, at Close to each test that ran there (not skipped ones).
func TestParserCoverage(t *testing.T) {
	dir := t.TempDir()
	events := filepath.Join(dir, "events-1.jsonl")
	os.WriteFile(events, []byte(`{"a":"run","file":"/p/a.js","titles":["s","t"]}
{"a":"pass","file":"/p/a.js","titles":["s","t"]}
{"a":"skip","file":"/p/a.js","titles":["s","u"]}
{"a":"pass","file":"/p/b.js","titles":["v"]}
`), 0o644)
	os.WriteFile(covFileOf(events), []byte(`{"a":"cov","file":"/p/a.js","titles":["s","t"],"cov":{"/p/lib.js":[[5,6],[3,4]],"/p/node_modules/x/i.js":[[1,2]],"/elsewhere.js":[[1,1]]}}
{"a":"cov","file":"/p/a.js","cov":{"/p/lib.js":[[1,1]]}}
{"a":"cov","cov":{"/p/a.js":[[1,2]]}}
`), 0o644)
	var evs []lang.RunEvent
	ps := newParser("/p", func(e lang.RunEvent) {
		if e.Action == lang.ActionCovered {
			evs = append(evs, e)
		}
	})
	ps.eventsFile = events
	ps.Close(0)
	lib, a := []lang.Span{{Start: 3, End: 6}}, []lang.Span{{Start: 1, End: 2}}
	want := []lang.RunEvent{
		{Action: lang.ActionCovered, Scope: "a.js", Name: "s > t", Covered: []lang.CoveredFile{{File: "/p/lib.js", Lines: lib}}},
		{Action: lang.ActionCovered, Scope: "a.js", Name: "s > t", Covered: []lang.CoveredFile{{File: "/p/a.js", Lines: a}, {File: "/p/lib.js", Lines: []lang.Span{{Start: 1, End: 1}}}}},
		{Action: lang.ActionCovered, Scope: "b.js", Name: "v", Covered: []lang.CoveredFile{{File: "/p/a.js", Lines: a}}},
	}
	if !reflect.DeepEqual(evs, want) {
		t.Errorf("covered:\n got %+v\nwant %+v", evs, want)
	}
}

// TestParserUnmapped: a test whose window ran code transformed without a
// source map, or whose file's shared code did, records nothing; the other
// tests record as usual; the recorder's notes come out once each, with
// the generic one only when it wrote no coverage while tests ran.
func TestParserUnmapped(t *testing.T) {
	dir := t.TempDir()
	events := filepath.Join(dir, "events-1.jsonl")
	os.WriteFile(recorderOf(events), nil, 0o644) // a coverage run
	os.WriteFile(events, []byte(`{"a":"pass","file":"/p/a.js","titles":["t"]}
{"a":"pass","file":"/p/a.js","titles":["u"]}
{"a":"pass","file":"/p/b.js","titles":["v"]}
{"a":"pass","file":"/p/c.js","titles":["w"]}
`), 0o644)
	os.WriteFile(covFileOf(events), []byte(`{"a":"covnote","nomap":"/p/gen.js"}
{"a":"covnote","nomap":"/p/gen.js"}
{"a":"cov","file":"/p/a.js","titles":["t"],"cov":{"/p/lib.js":[[1,1]]},"unmapped":true}
{"a":"cov","file":"/p/a.js","titles":["u"],"cov":{"/p/lib.js":[[2,2]]}}
{"a":"cov","file":"/p/b.js","titles":["v"],"cov":{"/p/lib.js":[[3,3]]}}
{"a":"cov","file":"/p/b.js","cov":{},"unmapped":true}
{"a":"cov","file":"/p/c.js","titles":["w"],"cov":{"/p/lib.js":[[4,4]]}}
`), 0o644)
	var got []string
	ps := newParser("/p", func(e lang.RunEvent) {
		if e.Action == lang.ActionCovered {
			got = append(got, e.Scope+"::"+e.Name+" "+e.Message)
		}
	})
	ps.eventsFile, ps.fw, ps.covering = events, testdex.Jest, true
	ps.Close(0)
	want := []string{"a.js::u ", "c.js::w ",
		":: 1 file ran as code transformed without a source map (gen.js), so what ran of it cannot be told, and the tests that ran it record nothing: have the transformer emit source maps (inline, or a .map file named by a sourceMappingURL comment)"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("covered:\n got %q\nwant %q", got, want)
	}

	// No coverage at all while tests ran: the framework's reason.
	os.WriteFile(covFileOf(events), nil, 0o644)
	got = nil
	ps = newParser("/p", func(e lang.RunEvent) {
		if e.Action == lang.ActionCovered {
			got = append(got, e.Message)
		}
	})
	ps.eventsFile, ps.fw, ps.covering = events, testdex.Jest, true
	ps.Close(0)
	if len(got) != 1 || got[0] != unreached[testdex.Jest] {
		t.Errorf("notes without coverage: %q", got)
	}
}

// TestCoverageHooks runs testdata/coverage_hooks.txtar's fixtures: what a
// suite's beforeAll and afterAll hooks run goes to every test of the
// file, even across two adjacent suites of one name (where a recorder
// that skips the take between two tests of one suite must still cut), and
// each test keeps its own lines (t1 and t3 call a, the others b).
//
// It needs node and the frameworks of testdata/run/node (scripts/setup/node.sh).
func TestCoverageHooks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the frameworks (a second or two each)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		testenv.Missing(t, "node is not installed")
	}
	ar, err := txtar.ParseFile("testdata/coverage_hooks.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		fw        testdex.Framework
		installed string
		lib       string
	}{
		{testdex.Mocha, "mocha", "lib.js"},
		{testdex.Jest, "jest", "lib.js"},
		{testdex.Vitest, "vitest", "lib.ts"},
		{testdex.NodeTest, "node-test", "lib.js"},
	} {
		t.Run(string(f.fw), func(t *testing.T) {
			t.Parallel()
			dir := coverageProject(t, ar, f.installed+"-hooks", f.installed)
			covered := map[string][]lang.CoveredFile{}
			for _, e := range runFixture(t, f.fw, dir, true) {
				if e.Action == lang.ActionCovered && e.Name != "" {
					title := e.Name
					if i := strings.LastIndex(title, " > "); i >= 0 {
						title = title[i+len(" > "):]
					}
					covered[title] = append(covered[title], e.Covered...)
				}
			}
			if len(covered) != 5 {
				t.Fatalf("coverage of %d tests, want 5: %+v", len(covered), covered)
			}
			for test, files := range covered {
				lines := linesOf(files, filepath.Join(dir, f.lib))
				own, other := 6, 3
				if test == "t1" || test == "t3" {
					own, other = 3, 6
				}
				for _, want := range []int{own, 9, 12, 15} {
					if !slices.Contains(lines, want) {
						t.Errorf("%s covered %s lines %v, want %d among them", test, f.lib, lines, want)
					}
				}
				if slices.Contains(lines, other) {
					t.Errorf("%s covered %s lines %v, want not %d", test, f.lib, lines, other)
				}
			}
		})
	}
}
