package fidelity

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/testenv"
)

func TestResultsAddKeepsWorst(t *testing.T) {
	r := Results{}
	k := Key{"pytest", "", "t.py::test_a"}
	r.Add(k, Fail)
	r.Add(k, Pass) // a teardown that passed after a failing call
	r.Add(Key{"pytest", "", "t.py::test_b"}, Skip)
	r.Add(Key{"pytest", "", "t.py::test_b"}, Pass)
	want := Results{k: Fail, {"pytest", "", "t.py::test_b"}: Skip}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("got %v, want %v", r, want)
	}
	if c := r.Counts(); c != (Counts{Fail: 1, Skip: 1}) {
		t.Errorf("counts %+v", c)
	}
}

func TestCompare(t *testing.T) {
	a, b, c, d := Key{"go", "p", "TestA"}, Key{"go", "p", "TestB"}, Key{"go", "p", "TestC"}, Key{"go", "p", "TestD"}
	native := Results{a: Pass, b: Fail, c: Pass}
	testdex := Results{a: Pass, b: Pass, d: Skip}
	diff := Compare(native, testdex)
	want := Diff{OnlyNative: []Key{c}, OnlyTestdex: []Key{d}, Differ: []Differ{{b, Fail, Pass}}}
	if !reflect.DeepEqual(diff, want) {
		t.Fatalf("got %+v, want %+v", diff, want)
	}
	got := diff.Format(0)
	for _, line := range []string{"only native: 1\n  p :: TestC", "only testdex: 1\n  p :: TestD", "p :: TestB: fail -> pass"} {
		if !strings.Contains(got, line) {
			t.Errorf("Format lacks %q:\n%s", line, got)
		}
	}
	if !Compare(native, native).Empty() {
		t.Error("a run compared with itself differs")
	}
}

// Recorded from `go test -json` (trimmed): a parent, its subtests, a skip,
// a build failure.
const goJSON = `{"Action":"start","Package":"example.com/m"}
{"Action":"run","Package":"example.com/m","Test":"TestA"}
{"Action":"run","Package":"example.com/m","Test":"TestA/one"}
{"Action":"output","Package":"example.com/m","Test":"TestA/one","Output":"--- PASS: TestA/one (0.00s)\n"}
{"Action":"pass","Package":"example.com/m","Test":"TestA/one","Elapsed":0}
{"Action":"fail","Package":"example.com/m","Test":"TestA/two","Elapsed":0}
{"Action":"fail","Package":"example.com/m","Test":"TestA","Elapsed":0}
{"Action":"skip","Package":"example.com/m","Test":"TestSkip","Elapsed":0}
{"Action":"fail","Package":"example.com/m","Elapsed":0.01}
{"Action":"pass","Package":"example.com/ok","Elapsed":0.01}
`

func TestParseGoJSON(t *testing.T) {
	got, err := ParseGoJSON(strings.NewReader(goJSON))
	if err != nil {
		t.Fatal(err)
	}
	want := Results{
		{"go", "example.com/m", "TestA/one"}: Pass,
		{"go", "example.com/m", "TestA/two"}: Fail,
		{"go", "example.com/m", "TestA"}:     Fail,
		{"go", "example.com/m", "TestSkip"}:  Skip,
		// the package's own failure is its tests': not a result apart
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	// A package that fails without a failing test (a build error) is one.
	got, err = ParseGoJSON(strings.NewReader(`{"Action":"start","Package":"example.com/b"}
{"Action":"output","Package":"example.com/b","Output":"FAIL\texample.com/b [build failed]\n"}
{"Action":"fail","Package":"example.com/b","Elapsed":0}
`))
	if err != nil || !reflect.DeepEqual(got, Results{{"go", "example.com/b", ""}: Fail}) {
		t.Errorf("a build failure: %v, %v", got, err)
	}
}

// Recorded from `cargo test` (stdout and stderr interleaved, trimmed).
const cargoOut = `   Compiling semver v1.0.28
    Finished ` + "`test`" + ` profile [unoptimized + debuginfo] target(s) in 0.05s
     Running unittests src/lib.rs (target/debug/deps/semver-922e23d461720188)

running 2 tests
test tests::parses ... ok
test tests::panics - should panic ... ok
test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

     Running tests/test_version.rs (target/debug/deps/test_version-a5dd028995e26bb6)

running 2 tests
test test_parse ... FAILED
test test_slow ... ignored, takes a minute
   Doc-tests semver

running 1 test
test src/lib.rs - Version::new (line 376) ... ok
`

func TestParseLibtest(t *testing.T) {
	got, err := ParseLibtest(strings.NewReader(cargoOut))
	if err != nil {
		t.Fatal(err)
	}
	want := Results{
		{"cargo", "src/lib.rs", "tests::parses"}:                        Pass,
		{"cargo", "src/lib.rs", "tests::panics"}:                        Pass,
		{"cargo", "tests/test_version.rs", "test_parse"}:                Fail,
		{"cargo", "tests/test_version.rs", "test_slow"}:                 Skip,
		{"cargo", "src/lib.rs", "src/lib.rs - Version::new (line 376)"}: Pass,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

func TestParseJestJSON(t *testing.T) {
	data := `{"testResults":[
	 {"name":"/p/lib/a.spec.js","status":"failed","assertionResults":[
	  {"ancestorTitles":["outer","inner"],"title":"works","status":"passed"},
	  {"ancestorTitles":[],"title":"top","status":"failed"},
	  {"ancestorTitles":["outer"],"title":"later","status":"pending"},
	  {"ancestorTitles":["outer"],"title":"someday","status":"todo"}]},
	 {"name":"/p/lib/broken.spec.js","status":"failed","message":"SyntaxError","assertionResults":[]}]}`
	got, err := ParseJestJSON("jest", "/p", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	want := Results{
		{"jest", "lib/a.spec.js", "outer > inner > works"}: Pass,
		{"jest", "lib/a.spec.js", "top"}:                   Fail,
		{"jest", "lib/a.spec.js", "outer > later"}:         Skip,
		{"jest", "lib/a.spec.js", "outer > someday"}:       Skip,
		{"jest", "lib/broken.spec.js", ""}:                 Fail,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

func TestParseSurefire(t *testing.T) {
	dir := t.TempDir()
	xml := `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="org.x.FooTest" tests="4">
  <testcase name="plain" classname="org.x.FooTest" time="0.01"/>
  <testcase name="rows(int, String)[2]" classname="org.x.FooTest" time="0"><failure message="no"/></testcase>
  <testcase name="boom" classname="org.x.FooTest" time="0"><error type="NPE"/></testcase>
  <testcase name="later" classname="org.x.FooTest$Inner" time="0"><skipped message="off"/></testcase>
</testsuite>`
	if err := os.WriteFile(filepath.Join(dir, "TEST-org.x.FooTest.xml"), []byte(xml), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ParseSurefire(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := Results{
		{"junit", "org.x.FooTest", "plain()"}:              Pass,
		{"junit", "org.x.FooTest", "rows(int, String)[2]"}: Fail,
		{"junit", "org.x.FooTest", "boom()"}:               Fail,
		{"junit", "org.x.FooTest$Inner", "later()"}:        Skip,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

func TestParseRun(t *testing.T) {
	listing := map[string]Record{
		"a_test.go::TestA":   {ID: "a_test.go::TestA", Framework: "go", Kind: "test", Scope: "m", Name: "TestA"},
		"s.test.js::outer":   {ID: "s.test.js::outer", Framework: "node", Kind: "suite", Scope: "s.test.js", Name: "outer"},
		"a_test.go::TestOld": {ID: "a_test.go::TestOld", Framework: "go", Kind: "test", Scope: "m", Name: "TestOld"},
	}
	events := `{"action":"start","framework":"go","batch":". go"}
{"action":"run","id":"a_test.go::TestA","framework":"go"}
{"action":"pass","id":"a_test.go::TestA","framework":"go"}
{"action":"fail","id":"a_test.go::TestA/row","framework":"go","scope":"m","name":"TestA/row","seen":["runtime"]}
{"action":"fail","id":"a_test.go::TestB","framework":"go"}
{"action":"unreported","id":"a_test.go::TestOld","framework":"go","message":"the runner did not report it"}
{"action":"pass","id":"s.test.js::outer","framework":"node"}
{"action":"error","framework":"mocha","batch":". mocha","message":"Error: No test files found:\n  \"test\""}
{"action":"fail","framework":"go","batch":". go"}
`
	run, err := ParseRun(strings.NewReader(events), listing)
	if err != nil {
		t.Fatal(err)
	}
	want := Results{
		{"go", "m", "TestA"}:               Pass,
		{"go", "m", "TestA/row"}:           Fail,
		{"go", "?", "id a_test.go::TestB"}: Fail,
		{"node", "s.test.js", "outer"}:     Pass,
	}
	if !reflect.DeepEqual(run.Results, want) {
		t.Errorf("results %v\nwant %v", run.Results, want)
	}
	if run.Derived != 2 || run.RuntimeOnly != 1 || !reflect.DeepEqual(run.Unnamed, []string{"a_test.go::TestB"}) ||
		!reflect.DeepEqual(run.Unreported, []string{"a_test.go::TestOld"}) {
		t.Errorf("derived %d, runtime-only %d, unnamed %v, unreported %v", run.Derived, run.RuntimeOnly, run.Unnamed, run.Unreported)
	}
	if want := []string{`. mocha: Error: No test files found: "test"`}; !reflect.DeepEqual(run.Errors, want) {
		t.Errorf("errors %q, want %q", run.Errors, want)
	}
	if run.Kinds[Key{"node", "s.test.js", "outer"}] != "suite" {
		t.Errorf("kinds %v", run.Kinds)
	}
}

// TestNodeRecorder runs the node:test recorder on a small file: describe
// nesting, a test with subtests (counted, as node counts it), a skip.
func TestNodeRecorder(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		testenv.Missing(t, "node not on PATH")
	}
	dir := t.TempDir()
	src := `const { test, describe, it } = require('node:test')
describe('outer', () => { it('leaf', () => {}); describe('inner', () => { it('deep', () => {}) }) })
test('parent', async (t) => { await t.test('child', () => {}); await t.test('bad', () => { throw new Error('x') }) })
test('later', { skip: true }, () => {})
`
	if err := os.WriteFile(filepath.Join(dir, "a.test.js"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &Cmd{Ctx: context.Background(), Dir: dir, Env: os.Environ(), Recorders: recordersDir(t), Out: filepath.Join(dir, "out")}
	got, err := Projects[projectIndex(t, "light-my-request")].Native(c)
	if err != nil {
		t.Fatal(err)
	}
	want := Results{
		{"node", "a.test.js", "outer > leaf"}:         Pass,
		{"node", "a.test.js", "outer > inner > deep"}: Pass,
		{"node", "a.test.js", "parent > child"}:       Pass,
		{"node", "a.test.js", "parent > bad"}:         Fail,
		{"node", "a.test.js", "parent"}:               Fail,
		{"node", "a.test.js", "later"}:                Skip,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v\n%s", got, want, c.Log.String())
	}
}

// TestUnittestRecorder runs the unittest recorder on a small package:
// a pass, a failing subtest, a skip, an expected failure.
func TestUnittestRecorder(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		testenv.Missing(t, "python3 not on PATH")
	}
	dir := t.TempDir()
	src := `import unittest

class T(unittest.TestCase):
    def test_ok(self):
        pass

    def test_rows(self):
        for i in range(2):
            with self.subTest(i=i):
                self.assertEqual(i, 0)

    @unittest.skip("later")
    def test_skip(self):
        pass

    @unittest.expectedFailure
    def test_xfail(self):
        self.fail()
`
	if err := os.MkdirAll(filepath.Join(dir, "tests"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"tests/__init__.py": "", "tests/test_a.py": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := &Cmd{Ctx: context.Background(), Dir: dir, Env: os.Environ(), Recorders: recordersDir(t), Out: filepath.Join(dir, "out")}
	if _, err := c.Output("python3", filepath.Join(c.Recorders, "fidelity_unittest.py"), c.Out); err != nil {
		t.Fatal(err)
	}
	got, err := c.Records("unittest")
	if err != nil {
		t.Fatal(err)
	}
	want := Results{
		{"unittest", "", "tests.test_a.T.test_ok"}:    Pass,
		{"unittest", "", "tests.test_a.T.test_rows"}:  Fail,
		{"unittest", "", "tests.test_a.T.test_skip"}:  Skip,
		{"unittest", "", "tests.test_a.T.test_xfail"}: Skip,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v\n%s", got, want, c.Log.String())
	}
}

func projectIndex(t *testing.T, name string) int {
	t.Helper()
	for i, p := range Projects {
		if p.Name == name {
			return i
		}
	}
	t.Fatalf("no project %s", name)
	return -1
}
