package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/cli"
	"github.com/testdex/testdex/internal/testenv"
)

// mochaLoadsProject copies testdata/run/node/mocha-loads to a temp folder
// with testdata/run/node/mocha's node_modules linked in, and returns the
// folder and a function running testdex there.
func mochaLoadsProject(t *testing.T) (string, cliFunc) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		testenv.Missing(t, "node is not installed")
	}
	modules, _ := filepath.Abs("../../testdata/run/node/mocha/node_modules")
	if _, err := os.Stat(modules); err != nil {
		testenv.Missing(t, "%s is not installed (run scripts/setup/node.sh)", modules)
	}
	src, _ := filepath.Abs("../../testdata/run/node/mocha-loads")
	dir := filepath.Join(t.TempDir(), "mocha-loads")
	if err := copyTree(src, dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return dir, runnerIn(t, dir)
}

// mochaResult is one test of Mocha's json reporter: its file (relative to
// the project), full title and outcome.
type mochaResult struct{ file, title, action string }

// mochaJSON runs Mocha in dir with its json reporter and the extra
// arguments, and returns its tests in its order.
func mochaJSON(t *testing.T, dir string, args ...string) []mochaResult {
	t.Helper()
	c := exec.Command("node_modules/.bin/mocha", append([]string{"--reporter", "json"}, args...)...)
	c.Dir = dir
	out, err := c.Output()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("mocha: %v", err)
	}
	var r struct {
		Tests []struct {
			File, FullTitle string
			Err             map[string]any
		}
		Pending []struct{ File, FullTitle string }
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("mocha's report: %v\n%s", err, out)
	}
	pending := map[string]int{}
	for _, p := range r.Pending {
		pending[p.File+"\x00"+p.FullTitle]++
	}
	var res []mochaResult
	for _, x := range r.Tests {
		a := "pass"
		switch k := x.File + "\x00" + x.FullTitle; {
		case pending[k] > 0:
			a, pending[k] = "skip", pending[k]-1
		case len(x.Err) > 0:
			a = "fail"
		}
		rel, _ := filepath.Rel(dir, x.File)
		res = append(res, mochaResult{filepath.ToSlash(rel), x.FullTitle, a})
	}
	return res
}

// resultLines renders results sorted, one "file :: title :: action" a line.
func resultLines(rs []mochaResult) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.file+" :: "+r.title+" :: "+r.action)
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// TestRunMochaLoads lists and runs a project whose test files load other
// test files inside describes (js-yaml's shape), next to Mocha's own
// report of the same run. The listing names each test Mocha runs, with
// the count of each name (two loaded files declare tests of one name),
// but those of a computed require, which lie under its dynamic record's
// describe; testdex run reports every result Mocha reports, by the same
// file and title, those under the dynamic record as runtime ones under
// its describe. Running one loaded test by its ID, a duplicate name, the
// dynamic record, and Mocha's --grep of a record's Run select what they
// name.
func TestRunMochaLoads(t *testing.T) {
	dir, td := mochaLoadsProject(t)
	native := mochaJSON(t, dir)
	code, out, errs := td(nil, "list", "--json")
	if code != 0 {
		t.Fatalf("list: exit %d\n%s", code, errs)
	}
	var listed []mochaResult
	var dynamicParents []string
	byID := map[string]testdex.Test{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var r testdex.Test
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		byID[r.ID] = r
		switch {
		case r.Dynamic:
			dynamicParents = append(dynamicParents, r.Scope+" :: "+strings.ReplaceAll(strings.TrimPrefix(r.Parent, r.Scope+"::"), " > ", " ")+" ")
		case r.Kind != testdex.KindSuite:
			listed = append(listed, mochaResult{r.Scope, strings.ReplaceAll(r.Name, " > ", " "), ""})
		}
	}
	var want []mochaResult
	for _, n := range native {
		if !underAny(n.file+" :: "+n.title, dynamicParents) {
			want = append(want, mochaResult{n.file, n.title, ""})
		}
	}
	if g, w := resultLines(listed), resultLines(want); g != w {
		t.Errorf("listed:\n%s\nMocha ran (but under dynamic records):\n%s", g, w)
	}
	if len(want) == len(native) || len(dynamicParents) != 1 {
		t.Errorf("%d dynamic records, %d of Mocha's %d tests under them: the fixture wants one record and tests under it", len(dynamicParents), len(native)-len(want), len(native))
	}

	code, out, errs = td(nil, "run", "--json")
	if code != cli.ExitFailed {
		t.Fatalf("run: exit %d, want 1\n%s", code, errs)
	}
	var ran []mochaResult
	for _, e := range events(t, out) {
		if e.ID == "" || (e.Action != testdex.ActionPass && e.Action != testdex.ActionFail && e.Action != testdex.ActionSkip) {
			continue
		}
		ran = append(ran, mochaResult{e.Scope, strings.ReplaceAll(e.Name, " > ", " "), string(e.Action)})
		_, isListed := byID[e.ID]
		runtime := len(e.Seen) == 1 && e.Seen[0] == "runtime"
		if under := underAny(e.Scope+" :: "+strings.ReplaceAll(e.Name, " > ", " "), dynamicParents); under != runtime || isListed == runtime {
			t.Errorf("%s: seen %v, listed %v; under a dynamic record: %v", e.ID, e.Seen, isListed, under)
		}
		if e.ID != testdex.MakeID(e.Scope, e.Name) {
			t.Errorf("result %s named %s in %s: not the ID of its file and title path", e.ID, e.Name, e.Scope)
		}
	}
	if g, w := resultLines(ran), resultLines(native); g != w {
		t.Errorf("testdex run reported:\n%s\nMocha:\n%s", g, w)
	}
	var counts nodeCounts // Mocha's own, from its report: the duplicate pair is one pass and one failure
	for _, r := range native {
		switch r.action {
		case "pass":
			counts.Passed++
		case "fail":
			counts.Failed++
		case "skip":
			counts.Skipped++
		}
	}
	if got := summaryOf(t, out); got != counts || counts.Failed == 0 {
		t.Errorf("counted %+v, Mocha %+v", got, counts)
	}
	checkMochaLoadsSelections(t, dir, td, byID)
}

// underAny reports whether a "file :: titles" line lies under one of the
// "file :: titles " prefixes.
func underAny(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// checkMochaLoadsSelections runs single IDs of the fixture and Mocha's
// --grep of their Run patterns.
func checkMochaLoadsSelections(t *testing.T, dir string, td cliFunc, byID map[string]testdex.Test) {
	t.Helper()
	for _, c := range []struct {
		id   string
		want []string // the results, "ID action", sorted
	}{
		{"test/00-units.js::Units > alias > works", []string{"test/00-units.js::Units > alias > works pass"}},
		{"test/00-units.js::Units > same title", []string{"test/00-units.js::Units > same title fail", "test/00-units.js::Units > same title pass"}},
		{"test/30-issues.js::Extra > {require(join(__dirname, 'extra', process.env.EXTRA || 'more.js'))}",
			[]string{"test/30-issues.js::Extra > known only at run time pass"}},
	} {
		_, out, errs := td(nil, "run", "--json", c.id)
		var got []string
		for _, e := range events(t, out) {
			if e.ID != "" && (e.Action == testdex.ActionPass || e.Action == testdex.ActionFail || e.Action == testdex.ActionSkip) {
				got = append(got, e.ID+" "+string(e.Action))
			}
		}
		sort.Strings(got)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("run %s:\n%s\nwant:\n%s\n%s", c.id, strings.Join(got, "\n"), strings.Join(c.want, "\n"), errs)
		}
		r, ok := byID[c.id]
		if !ok || r.Dynamic {
			continue
		}
		var titles []string
		for _, n := range mochaJSON(t, dir, "--grep", r.Run, r.Scope) {
			titles = append(titles, n.file+" :: "+n.title)
		}
		want := strings.Repeat(r.Scope+" :: "+strings.ReplaceAll(r.Name, " > ", " ")+"\n", len(c.want))
		if strings.Join(titles, "\n")+"\n" != want {
			t.Errorf("mocha --grep %q %s ran:\n%s\nwant:\n%s", r.Run, r.Scope, strings.Join(titles, "\n"), want)
		}
	}
}
