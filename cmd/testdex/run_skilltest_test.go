package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/cli"
	"github.com/testdex/testdex/internal/testenv"
	"github.com/testdex/testdex/run"
)

// skillFixture copies testdata/run/skilltest to a temp folder and returns
// the folder and a function running testdex there with extra environment.
func skillFixture(t *testing.T) (string, func(env []string, args ...string) (int, string, string)) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		testenv.Missing(t, "node is not installed: the skilltest runner needs it")
	}
	dir := filepath.Join(t.TempDir(), "skilltest")
	if err := os.CopyFS(dir, os.DirFS("../../testdata/run/skilltest")); err != nil {
		t.Fatal(err)
	}
	return dir, runnerIn(t, dir)
}

// TestRunSkillTest runs the whole fixture: each module and command gets
// the result its comment in testdata/run/skilltest/testdex.toml states.
func TestRunSkillTest(t *testing.T) {
	_, td := skillFixture(t)
	code, out, errs := td(nil, "run", "--json")
	if code != cli.ExitFailed {
		t.Fatalf("run: exit %d, want 1\n%s%s", code, out, errs)
	}
	got := finals(t, out)
	want := map[string]testdex.Action{
		"tests/pass.tests.mjs": "pass", "tests/fail.tests.mjs": "fail", "tests/throw.tests.mjs": "fail",
		"tests/liar.tests.mjs": "fail", "tests/hang.tests.mjs": "pass", "tests/busy.tests.mjs": "pass",
		"testdex.toml::tap-check": "fail", "testdex.toml::json-check": "pass",
	}
	for id, a := range want {
		if got[id] != a {
			t.Errorf("%s: %q, want %q", id, got[id], a)
		}
	}
	if len(got) != len(want) {
		t.Errorf("results for %d tests, want %d: %v", len(got), len(want), got)
	}
	// A module's stdout and stderr are its output, with the counts; the
	// batch's end sums the tests' own counts (the seed's totalPassed,
	// totalFailed and errors).
	outputs := map[string]bool{}
	for _, e := range events(t, out) {
		if e.ID == "" && e.Action == testdex.ActionFail {
			want := &testdex.Inner{Passed: 10, Failed: 3, Skipped: 1, Errors: []string{"not ok 2 - equipment has a price", `expected "aa!", got "aa"`, "the real result"}}
			if !reflect.DeepEqual(e.Inner, want) {
				t.Errorf("the batch's own counts: %+v, want %+v", e.Inner, want)
			}
		}
		if e.ID == "tests/pass.tests.mjs" && e.Action == testdex.ActionOutput {
			outputs[e.Output] = true
		}
	}
	for _, w := range []string{"a warning on stderr\n", "skilltest: 3 passed, 0 failed\n"} {
		if !outputs[w] {
			t.Errorf("tests/pass.tests.mjs has no output event %q", w)
		}
	}

	code, out, _ = td(nil, "failures", "--json")
	if code != 0 {
		t.Fatalf("failures: exit %d", code)
	}
	var fails []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var f struct{ ID, File, Message string }
		json.Unmarshal([]byte(l), &f)
		fails = append(fails, f.ID+" | "+f.File+" | "+f.Message)
	}
	sort.Strings(fails)
	wantFails := []string{
		"testdex.toml::tap-check | testdex.toml | not ok 2 - equipment has a price",
		"tests/fail.tests.mjs | tests/fail.tests.mjs | expected \"aa!\", got \"aa\"",
		"tests/liar.tests.mjs | tests/liar.tests.mjs | the real result",
		"tests/throw.tests.mjs | tests/throw.tests.mjs | skill catalog not loaded",
	}
	if strings.Join(fails, "\n") != strings.Join(wantFails, "\n") {
		t.Errorf("failures:\n%s\nwant:\n%s", strings.Join(fails, "\n"), strings.Join(wantFails, "\n"))
	}
}

// TestRunSkillTestHang runs a module that hangs after a command that
// passes (tests run in ID order): the run's timeout kills the hang, which
// is reported as timed out, and no process of it is left.
func TestRunSkillTestHang(t *testing.T) {
	_, td := skillFixture(t)
	pids := fixturePIDs(t)
	start := time.Now()
	code, out, errs := td([]string{"TESTDEX_FIXTURE_HANG=1"}, "run", "--json", "--timeout", "3s", "testdex.toml::json-check", "tests/hang.tests.mjs")
	if code != run.ExitTimeout {
		t.Fatalf("exit %d, want %d (timed out)\n%s%s", code, run.ExitTimeout, out, errs)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("the run took %v; the hang was not killed at --timeout 3s", d)
	}
	got := finals(t, out)
	if got["testdex.toml::json-check"] != "pass" {
		t.Errorf("the command before the hang: %q, want pass\n%s", got["testdex.toml::json-check"], tail(out))
	}
	hangMsg := ""
	for _, e := range events(t, out) {
		if e.ID == "tests/hang.tests.mjs" && e.Action == testdex.ActionFail {
			hangMsg = e.Message
		}
	}
	if got["tests/hang.tests.mjs"] != "fail" || hangMsg != "timed out after 3s" {
		t.Errorf("hang not reported as a timeout:\n%s", tail(out))
	}
	checkGone(t, pids, 1) // the hanging module's process
}

// TestRunSkillTestBusy runs a module that blocks the event loop, so no
// timer of its own can fire, before one that passes: the per-test limit
// kills it from outside, it fails as timed out after the limit, the next
// module still runs, and the run is a failure, not a timeout.
func TestRunSkillTestBusy(t *testing.T) {
	_, td := skillFixture(t)
	pids := fixturePIDs(t)
	start := time.Now()
	code, out, errs := td([]string{"TESTDEX_FIXTURE_BUSY=1"}, "run", "--json", "--test-timeout", "1s", "tests/busy.tests.mjs", "tests/pass.tests.mjs")
	if code != cli.ExitFailed {
		t.Fatalf("exit %d, want %d (a test failed)\n%s%s", code, cli.ExitFailed, tail(out), errs)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the run took %v; the busy module was not killed at --test-timeout 1s", d)
	}
	got := finals(t, out)
	if got["tests/pass.tests.mjs"] != "pass" {
		t.Errorf("the module after the busy one: %q, want pass\n%s", got["tests/pass.tests.mjs"], tail(out))
	}
	msg := ""
	for _, e := range events(t, out) {
		if e.ID == "tests/busy.tests.mjs" && e.Action == testdex.ActionFail {
			msg = e.Message
		}
		if e.Action == testdex.ActionError {
			t.Errorf("batch error %q: a per-test timeout is the test's failure, not the run's", e.Message)
		}
	}
	if got["tests/busy.tests.mjs"] != "fail" || msg != "timed out after 1000 ms" {
		t.Errorf("busy module: %q %q, want fail \"timed out after 1000 ms\"\n%s", got["tests/busy.tests.mjs"], msg, tail(out))
	}
	checkGone(t, pids, 1)
}

// TestRunSkillTestParallel runs two modules that each wait for the
// other's mark: with [skilltest] parallel and -j 2 they run at once and
// pass; one after the other the first would wait out its limit.
func TestRunSkillTestParallel(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		testenv.Missing(t, "node is not installed: the skilltest runner needs it")
	}
	module := func(mine, other string) string {
		return "import { writeFileSync, existsSync } from 'node:fs';\n" +
			"export default async () => {\n  writeFileSync('" + mine + "', '');\n" +
			"  for (let i = 0; i < 200 && !existsSync('" + other + "'); i++) await new Promise((r) => setTimeout(r, 50));\n" +
			"  return existsSync('" + other + "') ? {passed: 1, failed: 0} : {passed: 0, failed: 1, errors: ['alone']};\n}\n"
	}
	for _, parallel := range []bool{true, false} {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{
			"testdex.toml":      fmt.Sprintf("[skilltest]\nparallel = %v\n", parallel),
			"tests/a.tests.mjs": module("a.mark", "b.mark"),
			"tests/b.tests.mjs": module("b.mark", "a.mark"),
		})
		code, out, errs := cliIn(t, root, os.Environ(), "run", "--json", "-j", "2", "--test-timeout", "4s")
		got := finals(t, out)
		switch {
		case parallel && (code != 0 || got["tests/a.tests.mjs"] != "pass" || got["tests/b.tests.mjs"] != "pass"):
			t.Errorf("parallel: exit %d, %v; want both passed\n%s", code, got, errs)
		case !parallel && (code != cli.ExitFailed || got["tests/a.tests.mjs"] != "fail"):
			t.Errorf("one after the other: exit %d, %v; want the first to fail alone", code, got)
		}
	}
}

// TestListSkillCatalog lists modules against a declared skill catalog:
// the skill's test carries its record fields in the listing's meta, and a
// module that is no skill's test is listed with an orphan warning.
func TestListSkillCatalog(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"testdex.toml":              "[skilltest]\nskills = [{name = \"equipment-manager\", shortName = \"equipment\", type = \"dbtable\", skillDir = \"skills/equipment\"}]\n",
		"tests/equipment.tests.mjs": "export default () => ({passed: 1, failed: 0})\n",
		"tests/stray.tests.mjs":     "export default () => ({passed: 1, failed: 0})\n",
	})
	code, out, errs := cliIn(t, root, os.Environ(), "list", "--json")
	if code != 0 {
		t.Fatalf("list: exit %d\n%s", code, errs)
	}
	meta := map[string]map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var rec testdex.Test
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatal(err)
		}
		meta[rec.ID] = rec.Meta
	}
	want := map[string]map[string]string{
		"tests/equipment.tests.mjs": {"skillName": "equipment-manager", "shortName": "equipment", "skillType": "dbtable", "skillDir": "skills/equipment"},
		"tests/stray.tests.mjs":     nil,
	}
	if !reflect.DeepEqual(meta, want) {
		t.Errorf("meta %v, want %v", meta, want)
	}
	if !strings.Contains(errs, "tests/stray.tests.mjs:1: orphan skill test") || strings.Contains(errs, "equipment.tests.mjs:1: orphan") {
		t.Errorf("stderr does not flag the orphan alone:\n%s", errs)
	}
}
