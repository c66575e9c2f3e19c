package js

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/testenv"
)

// nodeSelectSrc nests node:test records every way: tests in suites,
// subtests (t.test) under a test, a subtest under a subtest, and rows
// named with spaces, brackets, '|' and non-ASCII.
const nodeSelectSrc = `const { describe, it, test } = require('node:test');
describe('suite [a]', () => {
  it('x | 1', () => {});
  it('x2', () => {});
  describe('inner', () => { it('y ✓', () => {}); });
});
test('odd [group] | ✓', async (t) => {
  await t.test('with spaces [1]', async (t) => { await t.test('deep', () => {}); });
  await t.test('pipe a|b', () => {});
  await t.test('ünï ✓ 名前', () => {});
});
test('other', () => {});
`

// TestNodeSelectorsRunTheirRecord hands each static record's selector to
// node --test-name-pattern and expects the record itself among the tests
// node ran (not skipped): a subtest's selector must make node run its
// enclosing tests, whose bodies start it. Tests node skipped for the
// pattern must be ones the record does not need. It needs node.
func TestNodeSelectorsRunTheirRecord(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		testenv.Missing(t, "node is not installed: the selectors are checked against node --test")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "a.test.js")
	if err := os.WriteFile(file, []byte(nodeSelectSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	res := extract(t, testdex.NodeTest, "a.test.js", nodeSelectSrc)
	if len(res.Tests) != 11 {
		t.Fatalf("records = %q, want 11", names(res))
	}
	for _, r := range res.Tests {
		c := exec.Command("node", "--test", "--test-reporter=tap", "--test-name-pattern="+r.Run, file)
		c.Dir = dir
		out, _ := c.CombinedOutput()
		ran := tapRan(string(out))
		title := r.Name[strings.LastIndex(r.Name, " > ")+1:]
		title = strings.TrimPrefix(title, "> ")
		if !ran[title] {
			t.Errorf("%s %q: selector %q did not run it; node ran %v\n%s", r.Kind, r.Name, r.Run, ran, out)
		}
		if r.Name != "other" && ran["other"] {
			t.Errorf("%q: selector %q also ran the unrelated test 'other'", r.Name, r.Run)
		}
	}
}

var tapLine = regexp.MustCompile(`(?m)^\s*(?:not )?ok \d+ - (.*?)(?: # (SKIP.*))?$`)

// tapRan is the titles of the tests a TAP report shows run (not skipped).
func tapRan(out string) map[string]bool {
	ran := map[string]bool{}
	for _, m := range tapLine.FindAllStringSubmatch(out, -1) {
		if m[2] == "" {
			ran[strings.ReplaceAll(m[1], `\#`, "#")] = true
		}
	}
	return ran
}

// TestNodeRuntimeRowRun: a node:test row the listing does not hold (named
// at run time, under a dynamic record) is selected as its listed parent
// test is, since node never starts it otherwise; under a suite, and for
// the other frameworks, the runner builds the pattern from its name.
func TestNodeRuntimeRowRun(t *testing.T) {
	res := extract(t, testdex.NodeTest, "a.test.js", nodeSelectSrc)
	l := &lang.Listing{Framework: testdex.NodeTest}
	for _, r := range res.Tests {
		l.Tests = append(l.Tests, testdex.Test{ID: "a.test.js::" + r.Name, Framework: testdex.NodeTest, Kind: r.Kind, Run: r.Run})
	}
	for _, c := range []struct {
		parent, want string
	}{
		{"a.test.js::odd [group] | ✓", `^odd \[group\] \| ✓$`},
		{"a.test.js::odd [group] | ✓ > with spaces [1]", `^odd \[group\] \| ✓$`},
		{"a.test.js::suite [a]", ""},
	} {
		row := &testdex.Test{ID: c.parent + " > row 7", Parent: c.parent, Kind: testdex.KindSubtest}
		if got := newNaming(l).Run(row); got != c.want {
			t.Errorf("under %q: run %q, want %q", c.parent, got, c.want)
		}
	}
	l.Framework = testdex.Jest
	if got := newNaming(l).Run(&testdex.Test{Parent: "a.test.js::odd [group] | ✓"}); got != "" {
		t.Errorf("jest: run %q, want none", got)
	}
}
