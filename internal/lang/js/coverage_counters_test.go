package js

import (
	"bufio"
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/testenv"
)

// countersProject holds the shapes of function the counting recorder
// must find: a declaration, an arrow with an expression body, a function
// reached only through a callback, a class with an instance field (its
// construction counts), a method, a getter, a static method, a static
// field and block (run where the class is defined), a default value that
// throws (its function counts though its body never runs), an object's
// getter, a file loaded after the first test, ES modules in a cycle
// (cyc-b.mjs calls a function of esm.mjs before esm.mjs's body runs), and
// functions that resume in a later window than their call (an await, a
// yield, a for await), which V8 counts again there.
var countersProject = map[string]string{
	"lib/forms.js": `'use strict';
function decl(a) {
  return a + 1;
}
const arrow = (x) =>
  x * 2;
function viaCallback(xs) {
  return xs.map(function cb(x) {
    return x + 1;
  });
}
class Shape {
  size = 1;
  constructor(n) {
    this.n = n;
  }
  area() {
    return this.n * this.n;
  }
  get twice() {
    return this.n * 2;
  }
  static make() {
    return new Shape(3);
  }
  static count = 0;
  static {
    Shape.ready = true;
  }
}
function boom() {
  throw new Error('boom');
}
function withDefault(a = boom()) {
  return a;
}
const obj = {
  get answer() {
    return 42;
  },
};
module.exports = { decl, arrow, viaCallback, Shape, withDefault, obj };
`,
	"lib/late.js": `exports.late = function () {
  return 'late';
};
`,
	"lib/esm.mjs": `import { fromB } from './cyc-b.mjs';
export function esmFn(x) {
  return x + 1;
}
export const esmArrow = () =>
  'arrow';
export function usedByB() {
  return 'b';
}
export { fromB };
`,
	"lib/cyc-b.mjs": `import { usedByB } from './esm.mjs';
export const fromB = usedByB();
`,
	"lib/async.js": `async function wait() {
  await new Promise((r) => setImmediate(r));
  return 1;
}
function* gen() {
  yield 1;
  yield 2;
}
async function loop(xs) {
  let n = 0;
  for await (const x of xs) n += x;
  return n;
}
module.exports = { wait, gen, loop };
`,
	"tests.js": `module.exports = async (rec, forms) => {
  const asyncs = require('./lib/async.js');
  rec.outside('');
  forms.decl(1);
  rec.test('t', ['decl']);
  forms.arrow(2);
  rec.test('t', ['arrow']);
  forms.viaCallback([1]);
  rec.test('t', ['callback']);
  new forms.Shape(2).area();
  rec.test('t', ['method']);
  void forms.Shape.make().twice;
  rec.test('t', ['static getter']);
  try { forms.withDefault(); } catch (e) {}
  rec.test('t', ['default']);
  void forms.obj.answer;
  rec.test('t', ['object getter']);
  require('./lib/late.js').late();
  rec.test('t', ['late']);
  const esm = await import('./lib/esm.mjs');
  rec.test('t', ['esm load']);
  esm.esmFn(1);
  esm.esmArrow();
  rec.test('t', ['esm']);
  const p = asyncs.wait();
  rec.test('t', ['async start']);
  await p;
  rec.test('t', ['async resume']);
  const it = asyncs.gen();
  it.next();
  rec.test('t', ['generator']);
  it.next();
  rec.test('t', ['generator resume']);
  const q = asyncs.loop([1, 2]);
  rec.test('t', ['for await']);
  await q;
  rec.test('t', ['for await resume']);
  rec.flush();
};
`,
}

// countersDriver runs tests.js with the recorder (argv[2]) in a mode
// (argv[3]); it lies outside the project, as testdex's wrapper does.
// With "early", a file of the project loads before the recorder.
const countersDriver = `const [rec, mode, early] = process.argv.slice(2);
if (early) require(early);
const r = require(rec).recorder(mode);
const dir = require('node:path').join(__dirname, 'proj');
require(dir + '/tests.js')(r, require(dir + '/lib/forms.js'));
`

// countersBypass loads a test file of the project around the recorder's
// hooks (vm.runInThisContext), as a module system of its own would: the
// recorder's check of the test file must then mark the takes incomplete.
const countersBypass = `const [rec, file] = process.argv.slice(2);
const r = require(rec).recorder('counters');
require('node:vm').runInThisContext(require('node:fs').readFileSync(file, 'utf8'), { filename: file });
r.expect(file);
r.outside('');
r.test(file, ['bypassed']);
r.flush();
`

// countersWant are lines each test must hold (file: lines), whichever
// recorder: what the test's own functions hold.
var countersWant = map[string]map[string][]int{
	"decl":             {"lib/forms.js": {2, 3, 4}},
	"arrow":            {"lib/forms.js": {5, 6}},
	"callback":         {"lib/forms.js": {7, 8, 9, 10, 11}},
	"method":           {"lib/forms.js": {12, 13, 14, 15, 16, 17, 18, 19}},
	"static getter":    {"lib/forms.js": {20, 21, 22, 23, 24, 25}},
	"default":          {"lib/forms.js": {31, 32, 33, 34, 35, 36}},
	"object getter":    {"lib/forms.js": {38, 39, 40}},
	"late":             {"lib/late.js": {1, 2, 3}},
	"esm load":         {"lib/esm.mjs": {1, 7, 8, 9, 10}, "lib/cyc-b.mjs": {1, 2}},
	"esm":              {"lib/esm.mjs": {2, 3, 4, 5, 6}},
	"async resume":     {"lib/async.js": {1, 2, 3, 4}},
	"generator resume": {"lib/async.js": {5, 6, 7, 8}},
	"for await resume": {"lib/async.js": {9, 10, 11, 12, 13}},
}

// TestCoverageCounters runs the same tests under V8's recorder and the
// counting one: each test holds the lines countersWant says, and the
// counting recorder gives every test (and the code run outside tests)
// exactly V8's lines, and again from the instrumented files it cached
// (one per file of the project). A file of the project loaded before the recorder
// runs uncounted, as does a test file run around the recorder's hooks:
// every test is then marked unmapped (records nothing).
func TestCoverageCounters(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		testenv.Missing(t, "node is not installed")
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(dir, "proj")
	for name, text := range countersProject {
		p := filepath.Join(proj, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "driver.js"), []byte(countersDriver), 0o644)
	os.WriteFile(filepath.Join(dir, "bypass.js"), []byte(countersBypass), 0o644)
	os.WriteFile(filepath.Join(proj, "vm.test.js"), []byte("globalThis.ran = 1;\n"), 0o644)
	scratch := filepath.Join(dir, "scratch")
	os.MkdirAll(scratch, 0o755)
	got := map[string]map[string]map[string][]int{}
	cache := filepath.Join(dir, "cache")
	runs := []struct{ name, mode, cache string }{
		{"v8", "v8", ""}, {"counters", "counters", ""},
		{"counters, filling the cache", "counters", cache}, {"counters, from the cache", "counters", cache},
	}
	for i, r := range runs {
		got[r.name] = runCounters(t, dir, scratch, proj, i, r.cache, "", "driver.js", r.mode)
		for title, want := range countersWant {
			for file, lines := range want {
				if have := got[r.name][title][file]; !isSubset(lines, have) {
					t.Errorf("%s: test %q holds %s lines %v, want %v among them", r.name, title, file, have, lines)
				}
			}
		}
		if i > 0 && !maps.EqualFunc(got["v8"], got[r.name], func(a, b map[string][]int) bool { return maps.EqualFunc(a, b, slices.Equal) }) {
			t.Errorf("%s: the counting recorder's lines differ from V8's:\nv8       %v\ncounters %v", r.name, got["v8"], got[r.name])
		}
	}
	if entries, _ := filepath.Glob(filepath.Join(cache, "*", "*", "*", "*.js")); len(entries) != len(countersProject) {
		t.Errorf("the cache holds %d instrumented files, want %d (the project's): %v", len(entries), len(countersProject), entries)
	}
	// Told that no file of the project is an ES module ("no", which
	// projectModules would not say of this one), the recorder starts no
	// loader hooks: the CommonJS files count as before, the ES module runs
	// uncounted.
	noHooks := runCounters(t, dir, scratch, proj, 8, "", "no", "driver.js", "counters")
	for title := range countersWant {
		want := got["v8"][title]
		if strings.HasPrefix(title, "esm") {
			if len(noHooks[title]["lib/esm.mjs"]) != 0 {
				t.Errorf("without the hooks, test %q holds lib/esm.mjs lines %v, want none", title, noHooks[title]["lib/esm.mjs"])
			}
			continue
		}
		if !maps.EqualFunc(want, noHooks[title], slices.Equal) {
			t.Errorf("without the hooks, test %q holds %v, want V8's %v", title, noHooks[title], want)
		}
	}
	early := runCounters(t, dir, scratch, proj, 9, "", "", "driver.js", "counters", filepath.Join(proj, "lib", "late.js"))
	if len(early) != 0 {
		t.Errorf("with a file loaded before the recorder, tests recorded %v, want nothing (all unmapped)", early)
	}
	if bypassed := runCounters(t, dir, scratch, proj, 10, "", "", "bypass.js", filepath.Join(proj, "vm.test.js")); len(bypassed) != 0 {
		t.Errorf("with a test file run around the hooks, the test recorded %v, want nothing (unmapped)", bypassed)
	}
}

// runCounters runs a driver script (with the recorder and args) and returns each window's lines by title
// ("" for what ran outside tests), relative to proj; windows marked
// unmapped are left out.
func runCounters(t *testing.T, dir, scratch, proj string, n int, cache, modules, script string, args ...string) map[string]map[string][]int {
	events := filepath.Join(scratch, "events.jsonl")
	rec, err := writeCoverage(scratch, proj, events, cache, modules, n)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", append([]string{script, rec}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node %s %v: %v\n%s", script, args, err, out)
	}
	f, err := os.Open(covFileOf(events))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { f.Close(); os.Remove(covFileOf(events)) }()
	out := map[string]map[string][]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	var c coverage // the counting recorder's tables, read as the parser reads them
	for sc.Scan() {
		var e jsEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("%s: %v", covFileOf(events), err)
		}
		if e.A == "covtab" {
			c.table(e.ID, e.Table)
		}
		if e.A == "cov" {
			c.resolve(&e, func(string) {})
		}
		if e.A != "cov" || e.Unmapped {
			continue
		}
		title := strings.Join(e.Titles, " > ")
		if out[title] == nil {
			out[title] = map[string][]int{}
		}
		for file, spans := range e.Cov {
			rel, _ := filepath.Rel(proj, file)
			for _, s := range spans {
				for l := s[0]; l <= s[1]; l++ {
					out[title][filepath.ToSlash(rel)] = append(out[title][filepath.ToSlash(rel)], l)
				}
			}
		}
	}
	return out
}

func isSubset(want, have []int) bool {
	for _, l := range want {
		if !slices.Contains(have, l) {
			return false
		}
	}
	return true
}
