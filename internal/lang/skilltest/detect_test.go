package skilltest

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/config"
	"github.com/testdex/testdex/internal/lang"
)

const fixture = "../../../testdata/run/skilltest"

// TestDetectAndExtract reads the run fixture: modules match by name,
// testdex.toml's commands are records at their declaring lines.
func TestDetectAndExtract(t *testing.T) {
	root, _ := filepath.Abs(fixture)
	p, probs := Detector.Detect(&lang.DetectEnv{Root: root, ReadFile: os.ReadFile}, root, nil)
	if len(probs) > 0 || p == nil {
		t.Fatalf("Detect: %v %v", p, probs)
	}
	s := p.Frameworks[0]
	for rel, want := range map[string]bool{"tests/pass.tests.mjs": true, "a/b.tests.mjs": true, "testdex.toml": true,
		"node_modules/x/a.tests.mjs": false, "a.test.mjs": false, "sub/testdex.toml": false} {
		if s.Match(rel) != want {
			t.Errorf("Match(%q) = %v", rel, !want)
		}
	}
	data, _ := os.ReadFile(filepath.Join(root, "testdex.toml"))
	got := Extractor{}.Extract(&lang.File{Rel: "testdex.toml", Data: data})
	want := []lang.Test{{Kind: "test", Name: "tap-check", Scope: "testdex.toml", Line: 10}, {Kind: "test", Name: "json-check", Scope: "testdex.toml", Line: 11}}
	if !reflect.DeepEqual(got.Tests, want) || len(got.Problems) > 0 {
		t.Errorf("commands: %+v %v", got.Tests, got.Problems)
	}
	got = Extractor{}.Extract(&lang.File{Rel: "tests/pass.tests.mjs", Data: []byte("not even read")})
	if w := []lang.Test{{Kind: "test", Name: "pass.tests.mjs", Scope: "tests", WholeFile: true, Line: 1}}; !reflect.DeepEqual(got.Tests, w) {
		t.Errorf("module: %+v", got.Tests)
	}
}

// TestBadCommands reports each bad declaration at its line and keeps the
// good ones.
func TestBadCommands(t *testing.T) {
	toml := `[skilltest]
commands = [
  {name = "ok", run = ["./a.sh"]},
  {name = "ok", run = ["./b.sh"]},
  {name = "noargv"},
  {name = "fmt", run = ["x"], format = "xml"},
]
`
	got := Extractor{}.Extract(&lang.File{Rel: "testdex.toml", Data: []byte(toml)})
	if len(got.Tests) != 1 || got.Tests[0].Name != "ok" || got.Tests[0].Line != 3 {
		t.Errorf("tests: %+v", got.Tests)
	}
	var msgs []string
	for _, p := range got.Problems {
		msgs = append(msgs, p.Message)
	}
	want := []string{
		`[skilltest] command 2 repeats an earlier command's name (names must be unique)`,
		`[skilltest] command 3 has no run argv (add run = ["./check.sh"])`,
		`[skilltest] command 4 has format "xml" (use "json" or "tap")`,
	}
	if !reflect.DeepEqual(msgs, want) || got.Problems[2].Line != 6 || got.Problems[0].Severity != testdex.SevError {
		t.Errorf("problems: %+v", got.Problems)
	}
}

// TestRunCommands builds one command per test: node on the wrapper in
// the module's folder, the declared argv from the root.
func TestRunCommands(t *testing.T) {
	scratch := t.TempDir()
	r := &runner{commands: map[string]config.Command{"lint": {Name: "lint", Run: []string{"./bin/lint.sh", "-q"}, Format: "tap"},
		"make": {Name: "make", Run: []string{"make", "check"}, Format: "json"}}}
	tests := []*testdex.Test{
		{File: "testdex.toml", Scope: "testdex.toml", Name: "lint"},
		{File: "s/a.tests.mjs", Scope: "s", Name: "a.tests.mjs"},
		{File: "testdex.toml", Scope: "testdex.toml", Name: "make"},
	}
	cmds, err := r.RunCommands(&lang.Project{Dir: "/r"}, &lang.Selection{Tests: tests}, lang.RunOptions{Dir: scratch, Extra: []string{"--x"}})
	if err != nil {
		t.Fatal(err)
	}
	wrapperPath := filepath.Join(scratch, "skilltest-wrapper.mjs")
	want := []*lang.Command{
		{Args: []string{"/r/bin/lint.sh", "-q", "--x"}, Dir: "/r", Env: []string{"TESTDEX_SKILLTEST_COMMAND=lint"}},
		{Args: []string{"node", "--x", wrapperPath, "/r/s/a.tests.mjs"}, Dir: "/r/s", Env: []string{
			"TESTDEX_SKILLTEST_RESULT=" + filepath.Join(scratch, "result-1.json")}, Timeout: DefaultTestTimeout},
		{Args: []string{"make", "check", "--x"}, Dir: "/r", Env: []string{"TESTDEX_SKILLTEST_COMMAND=make"}},
	}
	if !reflect.DeepEqual(cmds, want) {
		for i := range cmds {
			t.Errorf("command %d: %+v", i, *cmds[i])
		}
	}
	if data, err := os.ReadFile(wrapperPath); err != nil || len(data) == 0 {
		t.Errorf("wrapper not written: %v", err)
	}
	if _, err := r.RunCommands(&lang.Project{Dir: "/r"}, &lang.Selection{Tests: []*testdex.Test{{File: "testdex.toml", Name: "gone"}}}, lang.RunOptions{Dir: scratch}); err == nil {
		t.Error("a command no longer declared: no error")
	}
}

// TestCatalog declares a skill catalog: a skill's test (tests/SHORT.tests.mjs)
// carries the skill's record fields, a short name defaulting to the name
// and a type to "unknown"; any other module is listed and flagged as an
// orphan; a skill without a name is an error of testdex.toml; and the
// catalog is part of the cache key.
func TestCatalog(t *testing.T) {
	root := t.TempDir()
	toml := `[skilltest]
skills = [
  {name = "equipment-manager", shortName = "equipment", type = "dbtable", skillDir = "skills/equipment"},
  {name = "pricing"},
  {shortName = "nameless"},
]
`
	if err := os.WriteFile(filepath.Join(root, "testdex.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	p, probs := Detector.Detect(&lang.DetectEnv{Root: root, ReadFile: os.ReadFile}, root, nil)
	if len(probs) > 0 || p == nil {
		t.Fatalf("Detect: %v %v", p, probs)
	}
	ex := p.Frameworks[0].Extractor
	for _, c := range []struct {
		rel    string
		meta   map[string]string
		orphan bool
	}{
		{"tests/equipment.tests.mjs", map[string]string{"skillName": "equipment-manager", "shortName": "equipment", "skillType": "dbtable", "skillDir": "skills/equipment"}, false},
		{"tests/pricing.tests.mjs", map[string]string{"skillName": "pricing", "shortName": "pricing", "skillType": "unknown"}, false},
		{"tests/stray.tests.mjs", nil, true},
		{"other/equipment.tests.mjs", nil, true},
		{"tests/sub/pricing.tests.mjs", nil, true},
	} {
		res := ex.Extract(&lang.File{Rel: c.rel})
		if len(res.Tests) != 1 || !reflect.DeepEqual(res.Tests[0].Meta, c.meta) {
			t.Errorf("%s: %+v, want meta %v", c.rel, res.Tests, c.meta)
		}
		if got := len(res.Problems) == 1 && res.Problems[0].Severity == testdex.SevWarning; got != c.orphan {
			t.Errorf("%s: problems %v, want an orphan warning: %v", c.rel, res.Problems, c.orphan)
		}
	}
	res := ex.Extract(&lang.File{Rel: "testdex.toml", Data: []byte(toml)})
	if len(res.Problems) != 1 || res.Problems[0].Message != `[skilltest] skill 3 has no name (add name = "...")` {
		t.Errorf("testdex.toml problems: %v", res.Problems)
	}
	if ex.CacheKey() == (Extractor{}).CacheKey() {
		t.Errorf("the catalog is not part of the cache key %q", ex.CacheKey())
	}
	if res := (Extractor{}).Extract(&lang.File{Rel: "tests/stray.tests.mjs"}); len(res.Problems) > 0 || res.Tests[0].Meta != nil {
		t.Errorf("without a catalog: %+v", res)
	}
}
