package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/cli"
)

// fakeGlubean is a stand-in for the Glubean CLI (not installable here: it
// is published on JSR and under a scope npm does not serve): it records
// its arguments and writes the result file `glubean run --result-json`
// writes, for the test its --filter names, with two steps, the second
// failing.
const fakeGlubean = `#!/bin/sh
echo "$@" >> "$GLUBEAN_ARGS_LOG"
out=""; filter=""
while [ $# -gt 0 ]; do
  case "$1" in
    --result-json) out="$2"; shift ;;
    --filter) filter="$2"; shift ;;
  esac
  shift
done
cat > "$out" <<JSON
{"tests":[{"testId":"$filter","testName":"$filter","success":false,"durationMs":12,"events":[
 {"type":"step_end","index":0,"name":"add to cart","status":"passed","durationMs":3,"assertions":1,"failedAssertions":0},
 {"type":"step_end","index":1,"name":"pay","status":"failed","durationMs":4,"assertions":1,"failedAssertions":1,"error":"402 Payment Required"},
 {"type":"status","status":"failed","error":"step pay failed"}]}]}
JSON
exit 1
`

// TestRunGlubeanByID: an ID testdex lists for a Glubean test goes back to
// `testdex run` and reaches the CLI as --filter with the test's id (not the
// export's name); the results come back under the test's and its steps'
// IDs. Without the CLI the run stops with one message naming it.
func TestRunGlubeanByID(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "deno")
	if err := os.CopyFS(dir, os.DirFS("../../testdata/shapes/glubean/deno")); err != nil {
		t.Fatal(err)
	}
	bin, logf := t.TempDir(), filepath.Join(t.TempDir(), "args.log")
	td := runnerIn(t, dir)
	const id = "tests/shapes.test.ts::checkout"

	code, out, errs := td([]string{"PATH=" + bin}, "run", "--json", id)
	if code == cli.ExitOK || !strings.Contains(out+errs, "Glubean CLI") || !strings.Contains(out+errs, "npm install -D @glubean/cli") {
		t.Errorf("without the CLI: exit %d\n%s%s", code, out, errs)
	}

	if err := os.WriteFile(filepath.Join(bin, "glubean"), []byte(fakeGlubean), 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, errs = td([]string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "GLUBEAN_ARGS_LOG=" + logf}, "run", "--json", id)
	if code != cli.ExitFailed {
		t.Fatalf("run %s: exit %d\n%s%s", id, code, out, errs)
	}
	checkFinals(t, finals(t, out), map[string]testdex.Action{
		id: testdex.ActionFail, id + " > add to cart": testdex.ActionPass, id + " > pay": testdex.ActionFail,
	})
	args, err := os.ReadFile(logf)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(args)); !strings.HasPrefix(got, "run tests/shapes.test.ts --result-json ") || !strings.HasSuffix(got, " --filter checkout") {
		t.Errorf("the CLI got %q, want run tests/shapes.test.ts --result-json FILE --filter checkout", got)
	}
}
