package js

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/testdex/testdex/internal/testenv"
)

// recorderProject is a project for the recorder alone: a function
// hot enough to be inlined into optimized code, project files whose names
// hold "node_modules", a workspace package linked from node_modules, and
// a dependency, which alone must be dropped. driver.js warms the hot
// loop outside any test, then runs everything as one test.
var recorderProject = map[string]string{
	"lib/hot.js": `function leaf(x) {
  return x + 1;
}
function loop(n) { let t = 0; for (let i = 0; i < n; i++) t += leaf(i); return t; }
module.exports = { loop };
`,
	"my_node_modules/util.js": `exports.f = function () {
  return 'f';
};
`,
	"lib/node_modules.js": `exports.g = function () {
  return 'g';
};
`,
	"packages/ws/index.js": `exports.h = function () {
  return 'h';
};
`,
	"packages/ws/package.json": `{"name": "ws", "main": "index.js"}`,
	"node_modules/dep/index.js": `exports.d = function () {
  return 'd';
};
`,
	"node_modules/dep/package.json": `{"name": "dep", "main": "index.js"}`,
	"driver.js": `const rec = require(process.argv[2]).recorder();
const hot = require('./lib/hot.js');
for (let k = 0; k < 5; k++) hot.loop(1e6);
rec.outside('');
hot.loop(1e6);
require('./my_node_modules/util.js').f();
require('./lib/node_modules.js').g();
require('ws').h();
require('dep').d();
rec.test('driver.js', ['all']);
rec.flush();
`,
}

// TestRecorderKeepsProjectFiles runs the recorder in a plain node process
// (and again with --preserve-symlinks, where the linked package runs
// under node_modules/ws), in a project folder and in one under a folder
// named node_modules (a package's own checkout may be): the test holds the line of the inlined hot
// function (which V8's block mode loses), of each project file whatever
// its name or link, and none of the dependency's.
func TestRecorderKeepsProjectFiles(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		testenv.Missing(t, "node is not installed")
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, under := range []string{"plain", filepath.Join("node_modules", "proj")} {
		t.Run(filepath.Base(under), func(t *testing.T) { checkRecorder(t, root, filepath.Join(root, under)) })
	}
}

// checkRecorder writes recorderProject to dir and checks what its test
// recorded, with and without --preserve-symlinks.
func checkRecorder(t *testing.T, root, dir string) {
	for name, text := range recorderProject {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join("..", "packages", "ws"), filepath.Join(dir, "node_modules", "ws")); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"lib/hot.js": 2, "my_node_modules/util.js": 2, "lib/node_modules.js": 2, "packages/ws/index.js": 2}
	for n, flags := range [][]string{nil, {"--preserve-symlinks"}} {
		events := filepath.Join(dir, "events.jsonl")
		rec, err := writeCoverage(dir, dir, events, "", "", n)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("node", append(flags, "driver.js", rec)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("node %v: %v\n%s", flags, err, out)
		}
		cov := recordedTest(t, covFileOf(events), "all")
		os.Remove(covFileOf(events))
		for file, line := range want {
			if !slices.Contains(cov[filepath.Join(dir, file)], line) {
				t.Errorf("node %v: the test's lines of %s are %v, want %d among them (all: %v)", flags, file, cov[filepath.Join(dir, file)], line, cov)
			}
		}
		if lines, ok := cov[filepath.Join(dir, "node_modules", "dep", "index.js")]; ok {
			t.Errorf("node %v: the test holds the dependency's lines %v", flags, lines)
		}
	}
}

// recordedTest reads a recorder's events file and returns the lines of
// the test named title, per file.
func recordedTest(t *testing.T, file, title string) map[string][]int {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var e struct {
			A      string             `json:"a"`
			Titles []string           `json:"titles"`
			Cov    map[string][][]int `json:"cov"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if e.A != "cov" || !slices.Equal(e.Titles, []string{title}) {
			continue
		}
		for f, spans := range e.Cov {
			for _, s := range spans {
				for l := s[0]; l <= s[1]; l++ {
					out[f] = append(out[f], l)
				}
			}
		}
	}
	return out
}
