package js

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// fakeProject writes a project folder whose package.json runs test, under
// a folder whose node_modules holds Jest, Vitest and Mocha (package.json
// files only: nothing runs), and returns the project folder.
func fakeProject(t *testing.T, test string) string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "web")
	files := map[string]string{
		"web/package.json":                    `{"scripts": {"test": ` + quoteJSON(test) + `}}`,
		"node_modules/jest/package.json":      `{"name": "jest", "bin": "./bin/jest.js"}`,
		"node_modules/.bin/jest":              "",
		"node_modules/vitest/package.json":    `{"name": "vitest", "bin": {"vitest": "./vitest.mjs"}}`,
		"node_modules/mocha/package.json":     `{"name": "mocha", "bin": {"mocha": "./bin/mocha.js", "_mocha": "./bin/_mocha"}}`,
		"web/test/a.test.js":                  "",
		"web/test/b.test.js":                  "",
		"web/test/helpers/not-a-test-file.js": "",
	}
	for name, data := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// specOf decodes the wrapper's spec from a command.
func specOf(t *testing.T, c *lang.Command) wrapperSpec {
	t.Helper()
	var s wrapperSpec
	if err := json.Unmarshal([]byte(c.Args[len(c.Args)-1]), &s); err != nil {
		t.Fatalf("no wrapper spec in %q: %v", c.Args, err)
	}
	return s
}

// TestRunCommandsWhole checks a whole-project run: the project's own
// framework (from an ancestor's node_modules, its .bin command or its bin
// script), its test command's flags and paths and its environment, what
// the tests see as argv, and nothing of testdex in either.
func TestRunCommandsWhole(t *testing.T) {
	dir := fakeProject(t, "cross-env TZ=UTC jest test/ --coverage --ci -i --reporters default --setupFiles ./s.js && eslint .")
	scratch := t.TempDir()
	o := lang.RunOptions{Dir: scratch, Extra: []string{"--bail"}}
	cmds, err := runnerFor(testdex.Jest).RunCommands(&lang.Project{Dir: dir}, wholeProject, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) != 1 {
		t.Fatalf("%d commands, want 1", len(cmds))
	}
	c, s := cmds[0], specOf(t, cmds[0])
	modules := filepath.Join(filepath.Dir(dir), "node_modules")
	rep := filepath.Join(scratch, "testdex-jest-reporter-1.cjs")
	if w := []string{"node", filepath.Join(scratch, "testdex-run.cjs")}; !reflect.DeepEqual(c.Args[:2], w) || c.Dir != dir {
		t.Errorf("command %q in %s, want %q... in %s", c.Args, c.Dir, w, dir)
	}
	if !reflect.DeepEqual(c.Env, []string{"TZ=UTC"}) {
		t.Errorf("env %q, want the test command's own [TZ=UTC]", c.Env)
	}
	want := wrapperSpec{Framework: testdex.Jest, Pkg: filepath.Join(modules, "jest"), Bin: filepath.Join(modules, ".bin", "jest"),
		Argv:   []string{"test/", "--coverage", "--ci", "-i", "--reporters", "default", "--setupFiles", "./s.js", "--bail"},
		Args:   []string{"test/", "--ci", "-i", "--setupFiles", "./s.js", "--bail", "--reporters=" + rep},
		Set:    map[string]any{},
		Events: filepath.Join(scratch, "events-1.jsonl")}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("spec:\n got %+v\nwant %+v", s, want)
	}
	data, err := os.ReadFile(rep)
	if err != nil || !strings.Contains(string(data), quoteJSON(want.Events)) {
		t.Errorf("the reporter does not name its events file: %v", err)
	}
	if eventsFileOf(c) != want.Events {
		t.Errorf("the parser reads %q", eventsFileOf(c))
	}
}

// TestRunCommandsSelections checks paths and named tests together: two
// commands, the paths whole and the tests by their files and patterns;
// the project's paths and name pattern give way; the bin script stands
// for a missing .bin command.
func TestRunCommandsSelections(t *testing.T) {
	dir := fakeProject(t, "NODE_ENV=test mocha --require test/env.js -R dot --grep @slow --check-leaks 'test/**/*.spec.js'")
	sel := &lang.Selection{
		Paths: []lang.PathSelection{{Path: "test/unit", Dir: true}, {Path: "test/a.test.js"}},
		Tests: []*testdex.Test{
			{Framework: testdex.Mocha, Scope: "test/b.test.js", Name: "s > t", Run: "^s t$"},
			{Framework: testdex.Mocha, Scope: "test/b.test.js", Name: "s > u > v"},     // runtime-only: its pattern from its name
			{Framework: testdex.Mocha, Scope: "test/c.test.js", Dynamic: true},         // no pattern: its file runs whole
			{Framework: testdex.Mocha, Scope: "test/a.test.js", Name: "x", Run: "^x$"}, // under a path
		},
	}
	scratch := t.TempDir()
	o := lang.RunOptions{Dir: scratch, TestTimeout: 2e9}
	cmds, err := runnerFor(testdex.Mocha).RunCommands(&lang.Project{Dir: dir}, sel, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) != 2 {
		t.Fatalf("%d commands, want 2", len(cmds))
	}
	own := []string{"--require", "test/env.js", "-R", "dot", "--grep", "@slow", "--check-leaks", "test/**/*.spec.js"}
	mocha := filepath.Join(filepath.Dir(dir), "node_modules", "mocha")
	for i, want := range []wrapperSpec{
		{Paths: []specPath{{"test/unit", true}, {"test/a.test.js", false}, {"test/c.test.js", false}},
			Set: map[string]any{"reporter": filepath.Join(scratch, "testdex-mocha-reporter-1.cjs"), "timeout": 2000.0}},
		{Paths: []specPath{{"test/b.test.js", false}},
			Set: map[string]any{"reporter": filepath.Join(scratch, "testdex-mocha-reporter-2.cjs"), "timeout": 2000.0,
				"grep": `^s t$|^s u v$`}},
	} {
		s := specOf(t, cmds[i])
		want.Framework, want.Pkg, want.Bin, want.Argv, want.Args = testdex.Mocha, mocha, filepath.Join(mocha, "bin/mocha.js"), own, own
		want.Events = filepath.Join(scratch, "events-"+string(rune('1'+i))+".jsonl")
		if !reflect.DeepEqual(s, want) {
			t.Errorf("command %d:\n got %+v\nwant %+v", i+1, s, want)
		}
		if !reflect.DeepEqual(cmds[i].Env, []string{"NODE_ENV=test"}) {
			t.Errorf("command %d: env %q", i+1, cmds[i].Env)
		}
	}
}

// TestJestArgs checks how Jest's command line is built from the project's
// flags for each kind of run.
func TestJestArgs(t *testing.T) {
	own := []string{"-c", "jest.config.js", "--watchAll", "--coverageReporters", "text", "lcov", "--no-cache", "-t", "own",
		"--testTimeout=9", "--run-in-band", "--json", "--outputFile", "r.json", "src/", "--testPathPattern", "unit"}
	o := lang.RunOptions{TestTimeout: 2e9}
	for _, c := range []struct {
		name string
		run  batchRun
		want []string
	}{
		{"whole", batchRun{whole: true}, []string{"-c", "jest.config.js", "--no-cache", "-t", "own", "--run-in-band", "src/",
			"--testPathPattern", "unit", "--reporters=R", "--testTimeout=2000"}},
		{"files", batchRun{paths: []lang.PathSelection{{Path: "a.test.js"}}, pattern: "^a$"},
			[]string{"a.test.js", "--runTestsByPath", "-c", "jest.config.js", "--no-cache", "--run-in-band",
				"--reporters=R", "--testNamePattern=^a$", "--testTimeout=2000"}},
		{"folders", batchRun{paths: []lang.PathSelection{{Path: "test/x.y", Dir: true}, {Path: "a.test.js"}}},
			[]string{`^/p/test/x\.y/`, `^/p/a\.test\.js$`, "-c", "jest.config.js", "--no-cache", "-t", "own", "--run-in-band",
				"--reporters=R", "--testTimeout=2000"}},
	} {
		if got := jestArgs(own, c.run, "R", "/p", o); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestNodeTestArgs checks node:test's command line: the project's node
// options, testdex's reporter to a file, the project's paths for the whole
// project, else the files (a folder as its listed files).
func TestNodeTestArgs(t *testing.T) {
	dir := fakeProject(t, "node --test --require ./setup.cjs --test-reporter spec --experimental-test-coverage --test-name-pattern=own test/*.test.js")
	scratch := t.TempDir()
	rep, ev := filepath.Join(scratch, "testdex-node-reporter-1.mjs"), filepath.Join(scratch, "events-1.jsonl")
	head := []string{"node", "--require", "./setup.cjs"}
	ours := []string{"--test", "--test-reporter=" + rep, "--test-reporter-destination=" + ev}
	for _, c := range []struct {
		name string
		sel  *lang.Selection
		want []string
	}{
		{"whole", wholeProject, cat(head, []string{"--test-name-pattern=own"}, ours, []string{"test/a.test.js", "test/b.test.js"})},
		{"folder", &lang.Selection{Paths: []lang.PathSelection{{Path: "test", Dir: true, Tests: []*testdex.Test{
			{Scope: "test/b.test.js", Name: "x"}, {Scope: "test/b.test.js", Name: "y"}}}}},
			cat(head, []string{"--test-name-pattern=own"}, ours, []string{"test/b.test.js"})},
		{"tests", &lang.Selection{Tests: []*testdex.Test{{Framework: testdex.NodeTest, Scope: "test/a.test.js", Name: "s > t", Run: "^t$"}}},
			cat(head, ours, []string{"--test-name-pattern=^t$", "test/a.test.js"})},
	} {
		cmds, err := runnerFor(testdex.NodeTest).RunCommands(&lang.Project{Dir: dir}, c.sel, lang.RunOptions{Dir: scratch})
		if err != nil {
			t.Fatal(err)
		}
		if len(cmds) != 1 || !reflect.DeepEqual(cmds[0].Args, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.name, cmds[0].Args, c.want)
		}
		if eventsFileOf(cmds[0]) != ev {
			t.Errorf("%s: the parser reads %q", c.name, eventsFileOf(cmds[0]))
		}
		if cmds[0].Note != "" {
			t.Errorf("%s: note %q, want none", c.name, cmds[0].Note)
		}
	}
	sub := &lang.Selection{Tests: []*testdex.Test{{Framework: testdex.NodeTest, Kind: testdex.KindSubtest, Scope: "test/a.test.js", Name: "t > row", Run: "^t$"}}}
	cmds, err := runnerFor(testdex.NodeTest).RunCommands(&lang.Project{Dir: dir}, sub, lang.RunOptions{Dir: scratch})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(cmds[0].Note, "cannot select a subtest") {
		t.Errorf("a subtest: note %q, want one saying its siblings ran too", cmds[0].Note)
	}
}

func cat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// TestRunCommandsVitest checks what Vitest's wrapper is given: the
// project's arguments to parse, absolute-to-be paths, testdex's options.
func TestRunCommandsVitest(t *testing.T) {
	dir := fakeProject(t, "vitest run --globals")
	scratch := t.TempDir()
	sel := &lang.Selection{Tests: []*testdex.Test{{Framework: testdex.Vitest, Scope: "test/a.test.js", Name: "s", Run: "^s( |$)", Kind: testdex.KindSuite}}}
	cmds, err := runnerFor(testdex.Vitest).RunCommands(&lang.Project{Dir: dir}, sel, lang.RunOptions{Dir: scratch})
	if err != nil {
		t.Fatal(err)
	}
	s := specOf(t, cmds[0])
	vitest := filepath.Join(filepath.Dir(dir), "node_modules", "vitest")
	want := wrapperSpec{Framework: testdex.Vitest, Pkg: vitest, Bin: filepath.Join(vitest, "vitest.mjs"),
		Argv: []string{"--globals"}, Args: []string{"--globals"}, Paths: []specPath{{Path: "test/a.test.js"}},
		Set:    map[string]any{"reporter": []any{filepath.Join(scratch, "testdex-vitest-reporter-1.mjs")}, "testNamePattern": "^s( |$)"},
		Events: filepath.Join(scratch, "events-1.jsonl")}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("spec:\n got %+v\nwant %+v", s, want)
	}
}

// TestNotInstalled checks that a framework missing from the project is
// one ErrNotInstalled error naming the install command.
func TestNotInstalled(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"scripts": {"test": "jest"}}`), 0o644)
	os.WriteFile(filepath.Join(dir, "yarn.lock"), nil, 0o644)
	for _, fw := range []testdex.Framework{testdex.Jest, testdex.Vitest, testdex.Mocha} {
		_, err := runnerFor(fw).RunCommands(&lang.Project{Dir: dir}, wholeProject, lang.RunOptions{Dir: t.TempDir()})
		if !errors.Is(err, lang.ErrNotInstalled) || !strings.Contains(err.Error(), "run yarn install in "+dir+")") {
			t.Errorf("%s: %v, want ErrNotInstalled naming yarn install", fw, err)
		}
	}
	if _, err := runnerFor(testdex.NodeTest).RunCommands(&lang.Project{Dir: dir}, wholeProject, lang.RunOptions{Dir: t.TempDir()}); err != nil {
		t.Errorf("node:test needs only node: %v", err)
	}
}

// TestReadTestScript checks how the project's test command is found in
// package.json's scripts.
func TestReadTestScript(t *testing.T) {
	dir := fakeProject(t, "")
	for _, c := range []struct {
		fw      testdex.Framework
		scripts string
		want    testScript
	}{
		{testdex.Mocha, `{"test": "mocha --require test/support/env --reporter spec --check-leaks test/ test/acceptance/"}`,
			testScript{Runs: 1, Args: []string{"--require", "test/support/env", "--reporter", "spec", "--check-leaks", "test/", "test/acceptance/"}}},
		{testdex.Mocha, `{"test": "NODE_ENV=test nyc --reporter=lcov mocha -r ts-node/register 'test/**/*.ts' > out.log 2>&1"}`,
			testScript{Runs: 1, Env: []string{"NODE_ENV=test"}, Args: []string{"-r", "ts-node/register", "test/**/*.ts"}}},
		{testdex.Jest, `{"test": "npm run lint && npm run test:unit", "test:unit": "cross-env TZ=UTC jest --ci", "lint": "eslint ."}`,
			testScript{Runs: 1, Env: []string{"TZ=UTC"}, Args: []string{"--ci"}}},
		{testdex.Jest, `{"test": "node --experimental-vm-modules node_modules/jest/bin/jest.js --runInBand"}`,
			testScript{Runs: 1, Node: []string{"--experimental-vm-modules"}, Args: []string{"--runInBand"}}},
		{testdex.Jest, `{"test": "yarn jest", "jest": "npx jest \"__tests__/a b\""}`, testScript{Runs: 1, Args: []string{"__tests__/a b"}}},
		{testdex.Mocha, `{"test": "npm run eslint && nyc npm run test-spec", "eslint": "eslint index.js spec", "test-spec": "mocha spec -R spec"}`,
			testScript{Runs: 1, Args: []string{"spec", "-R", "spec"}}},
		{testdex.Vitest, `{"test": "vitest run --globals"}`, testScript{Runs: 1, Args: []string{"--globals"}}},
		{testdex.Vitest, `{"test": "vitest bench"}`, testScript{}},
		{testdex.NodeTest, `{"test": "tsc -p . && node --test test/*.test.js"}`,
			testScript{Runs: 1, Args: []string{"--test", "test/a.test.js", "test/b.test.js"}}},
		{testdex.NodeTest, `{"test": "node test/run.js"}`, testScript{}},
		{testdex.Jest, `{"test": "echo \"Error: no test specified\" && exit 1"}`, testScript{}},
		{testdex.Jest, `{"test": "npm run a", "a": "npm run b", "b": "npm run a"}`, testScript{}},
		{testdex.Jest, `{"test": "jest --env=node && npm run jsdom", "jsdom": "jest --env=jsdom"}`,
			testScript{Runs: 2, Args: []string{"--env=node"}}},
	} {
		os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"scripts": `+c.scripts+`}`), 0o644)
		got := readTestScript(dir, c.fw)
		got.words = nil
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %s:\n got %+v\nwant %+v", c.fw, c.scripts, got, c.want)
		}
	}
}
