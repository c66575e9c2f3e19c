package js

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// fakeScan stands for `glubean scan --dir . --output OUT`: it writes the
// metadata.json of schema version 1 the CLI writes (files keyed by path,
// exports with id, steps) and talks on standard output, as the CLI does.
const fakeScan = `#!/bin/sh
[ "$1" = scan ] && [ "$2" = --dir ] && [ "$4" = --output ] || { echo "bad args: $*" >&2; exit 2; }
echo "Glubean Scan"
cat > "$5" <<'JSON'
{"schemaVersion": "1", "specVersion": "2.0", "generatedBy": "@glubean/cli@0.1.0",
 "files": {
  "tests/b.test.ts": {"hash": "sha256-b", "exports": [{"type": "test", "id": "ping", "exportName": "ping"}]},
  "./tests/a.test.ts": {"hash": "sha256-a", "exports": [
    {"type": "test", "id": "checkout", "exportName": "checkout", "steps": [{"name": "add to cart"}, {"name": "pay"}]},
    {"type": "test", "id": "list-users", "name": "List users", "tags": ["smoke"], "exportName": "default"}]}},
 "testCount": 3, "fileCount": 2, "tags": ["smoke"]}
JSON
echo "metadata.json updated"
`

// TestGlubeanLister: the runtime method runs the CLI's scan into a
// scratch file and reads every export by its id, a builder's steps as
// subtests, files in order; the project's own metadata.json is not
// touched; a failed scan is an error with the CLI's words.
func TestGlubeanLister(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "node_modules", ".bin")
	os.MkdirAll(bin, 0o755)
	if err := os.WriteFile(filepath.Join(bin, "glubean"), []byte(fakeScan), 0o755); err != nil {
		t.Fatal(err)
	}
	p := &lang.Project{Dir: dir}
	cmd, err := glubeanLister{}.ListCommand(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	c := exec.Command(cmd.Args[0], cmd.Args[1:]...)
	c.Dir, c.Stdout, c.Stderr = cmd.Dir, &stdout, &stderr
	if err := c.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	got, err := glubeanLister{}.ParseList(p, stdout.Bytes(), stderr.Bytes(), 0)
	if err != nil {
		t.Fatal(err)
	}
	a, b := "tests/a.test.ts", "tests/b.test.ts"
	want := []lang.Listed{
		{File: a, Scope: a, Name: "checkout", Kind: testdex.KindTest},
		{File: a, Scope: a, Name: "checkout > add to cart", Kind: testdex.KindSubtest},
		{File: a, Scope: a, Name: "checkout > pay", Kind: testdex.KindSubtest},
		{File: a, Scope: a, Name: "list-users", Kind: testdex.KindTest},
		{File: b, Scope: b, Name: "ping", Kind: testdex.KindTest},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("listed %+v\nwant %+v", got, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "metadata.json")); err == nil {
		t.Error("the scan wrote the project's own metadata.json")
	}
	if _, err := (glubeanLister{}).ParseList(p, nil, []byte("Error: No test files found."), 1); err == nil || !bytes.Contains([]byte(err.Error()), []byte("No test files found")) {
		t.Errorf("a failed scan: %v", err)
	}
	if _, err := (glubeanLister{}).ParseList(p, []byte(`{"schemaVersion": "2", "files": {}}`), nil, 0); err == nil {
		t.Error("a metadata schema this testdex does not read was accepted")
	}
}
