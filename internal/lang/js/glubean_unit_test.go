package js

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

func glubeanExtract(src string) lang.Result {
	return glubeanExtractor{}.Extract(&lang.File{Rel: "api.test.ts", Data: []byte(src), Framework: testdex.Glubean})
}

// TestGlubeanExtract covers what the all-shapes fixture does not: aliases,
// namespace imports, extensions, export clauses, rows the SDK's template
// rules fill in, tables that are not literals.
func TestGlubeanExtract(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`import { test as t } from "jsr:@glubean/sdk@0.11.0"; export const a = t("alias", async () => {});`, "alias"},
		{`import * as sdk from "npm:@glubean/sdk"; export const a = sdk.test({ id: "ns" }, async () => {});`, "ns"},
		{`import { test as base } from "@glubean/sdk"; export const test = base.extend({ db: () => 1 });
		  export const a = test("extended", async () => {});`, "extended"},
		{`import { test } from "@glubean/sdk"; const a = test("late"); const b = test("unlisted"); export { a as renamed };`, "late"},
		{`import { test } from "@glubean/sdk"; export const a = test.each([{ n: 1, 0: "z" }, { n: 2, 0: "y" }])("r-$index-$n-$0", () => {});`,
			"r-0-1-z r-1-2-y"},
		{`import { test } from "@glubean/sdk"; export const a = test.each([{ id: 1, idx: 9 }])("x-$idx", () => {});`, "x-1x"}, // $id is replaced inside $idx, as the SDK does
		{`import { test } from "@glubean/sdk"; export const a = test.each(load())("row-$id", () => {});`, "dynamic:row-$id"},
		{`import { test } from "@glubean/sdk"; export const a = test.each([{ id: 1 }])({ id: "f-$id", filter: (r) => r.id > 0 }, () => {});`,
			"dynamic:f-$id"},
		{`import { test } from "@glubean/sdk"; export const a = test(name, () => {});`, "dynamic:{name}"},
		{`import { test } from "@glubean/sdk"; export const a = test("b").skip().step(label, () => {});`, "b dynamic:b > {label}"},
		{`import { test } from "@glubean/sdk"; export const helper = makeThing("x");`, ""},
	} {
		var got []string
		for _, r := range glubeanExtract(c.src).Tests {
			s := r.Name
			if r.Dynamic {
				s = "dynamic:" + s
			}
			got = append(got, s)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.src, strings.Join(got, " "), c.want)
		}
	}
}

// TestGlubeanWarnings: a second test of one id is listed with a warning
// (the runner runs both), and a test the module does not export is a
// warning, as the runner never sees it.
func TestGlubeanWarnings(t *testing.T) {
	res := glubeanExtract(`import { test } from "@glubean/sdk";
export const a = test("same", async () => {});
export const b = test({ id: "same" }, async () => {});
test("loose", async () => {});
`)
	if len(res.Tests) != 2 || res.Tests[0].Name != "same" || res.Tests[1].Name != "same" || res.Tests[1].Line != 3 {
		t.Fatalf("tests %+v, want both records of id same", res.Tests)
	}
	var msgs []string
	for _, p := range res.Problems {
		msgs = append(msgs, p.Message)
	}
	if len(msgs) != 2 || !strings.Contains(msgs[0], `duplicate test id "same" (lines 2 and 3)`) || !strings.Contains(msgs[1], "not exported") {
		t.Errorf("problems %q", msgs)
	}
}

// TestGlubeanPlan: tests named by ID run by their filters, one command a
// file; a filter another contains shares its command; a path runs its
// files whole.
func TestGlubeanPlan(t *testing.T) {
	rec := func(file, run string) *testdex.Test { return &testdex.Test{Scope: file, Run: run} }
	sel := &lang.Selection{
		Paths: []lang.PathSelection{{Path: "tests/b.test.ts", Tests: []*testdex.Test{rec("tests/b.test.ts", "x")}}},
		Tests: []*testdex.Test{rec("tests/a.test.ts", "flow2"), rec("tests/a.test.ts", "flow"),
			rec("tests/a.test.ts", "p-$_pick --pick edge"), rec("tests/a.test.ts", "p-$_pick --pick normal"),
			rec("tests/b.test.ts", "ignored"), rec("tests/c.test.ts", "")},
	}
	got := glubeanPlan(sel)
	want := []gcmd{{file: "tests/b.test.ts"}, {file: "tests/a.test.ts", filter: "flow"},
		{file: "tests/a.test.ts", filter: "p-$_pick", picks: []string{"edge", "normal"}}, {file: "tests/c.test.ts"}}
	if !slices.EqualFunc(got, want, func(a, b gcmd) bool {
		return a.file == b.file && a.filter == b.filter && slices.Equal(a.picks, b.picks)
	}) {
		t.Errorf("plan %+v\nwant %+v", got, want)
	}
}

// TestGlubeanRunCommands: the CLI is found on PATH and given the file, the
// result file, the filter and the picks; without it the error says it is
// not installed and how to install it.
func TestGlubeanRunCommands(t *testing.T) {
	dir, bin := t.TempDir(), t.TempDir()
	p := &lang.Project{Dir: dir}
	sel := &lang.Selection{Tests: []*testdex.Test{{Scope: "tests/a.test.ts", Run: "p-$_pick --pick edge"}}}
	_, err := glubeanRunner{}.RunCommands(p, sel, lang.RunOptions{Dir: dir, Env: []string{"PATH=" + bin}})
	if !errors.Is(err, lang.ErrNotInstalled) || !strings.Contains(err.Error(), "npm install -D @glubean/cli") {
		t.Fatalf("without the CLI: %v", err)
	}
	if err := os.WriteFile(filepath.Join(bin, "glubean"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmds, err := glubeanRunner{}.RunCommands(p, sel, lang.RunOptions{Dir: dir, Env: []string{"PATH=" + bin}, Extra: []string{"--verbose"}})
	if err != nil || len(cmds) != 1 {
		t.Fatalf("commands %v, %v", cmds, err)
	}
	want := []string{filepath.Join(bin, "glubean"), "run", "tests/a.test.ts", "--result-json", filepath.Join(dir, "glubean-0.result.json"),
		"--filter", "p-$_pick", "--pick", "edge", "--verbose"}
	if !slices.Equal(cmds[0].Args, want) || cmds[0].Dir != dir {
		t.Errorf("args %q in %s\nwant %q", cmds[0].Args, cmds[0].Dir, want)
	}
}

// TestGlubeanParser reads a result file as the CLI writes it: a passing
// test with a step, a failing one with its failed assertion; no file is an
// error of the batch with the CLI's output.
func TestGlubeanParser(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "r.json")
	data := `{"summary":{"total":2},"tests":[
{"testId":"flow","testName":"flow","success":true,"durationMs":1500,"events":[
  {"type":"step_start","index":0,"total":1,"name":"login"},
  {"type":"step_end","index":0,"name":"login","status":"passed","durationMs":20,"assertions":1,"failedAssertions":0}]},
{"testId":"item-2","testName":"item-2","success":false,"durationMs":10,"events":[
  {"type":"assertion","passed":false,"message":"expected 200, got 500"},
  {"type":"status","status":"completed"}]}]}`
	if err := os.WriteFile(res, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	emit := func(e lang.RunEvent) { got = append(got, string(e.Action)+" "+e.Scope+" "+e.Name+" "+e.Message) }
	cmd := &lang.Command{Args: []string{"glubean", "run", "tests/a.test.ts", "--result-json", res}}
	p := glubeanRunner{}.NewParser(nil, cmd, emit)
	if err := p.Close(1); err != nil {
		t.Fatal(err)
	}
	want := []string{"run tests/a.test.ts flow ", "pass tests/a.test.ts flow > login ", "pass tests/a.test.ts flow ",
		"run tests/a.test.ts item-2 ", "fail tests/a.test.ts item-2 expected 200, got 500"}
	if !slices.Equal(got, want) {
		t.Errorf("events %q\nwant %q", got, want)
	}
	got = nil
	cmd.Args[4] = filepath.Join(dir, "missing.json")
	p = glubeanRunner{}.NewParser(nil, cmd, emit)
	_, _ = p.Write([]byte("No tests match filter: \"nope\"\n"))
	_ = p.Close(1)
	if len(got) != 1 || !strings.HasPrefix(got[0], "error tests/a.test.ts ") || !strings.Contains(got[0], "No tests match filter") {
		t.Errorf("without a result file: %q", got)
	}
}
