package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/cli"
	"github.com/testdex/testdex/internal/golden"
	"github.com/testdex/testdex/internal/shapes"
)

// TestShapes lists every all-shapes fixture (testdata/shapes/ECO) through
// the CLI, exactly as a user would, and compares the records with the
// expectations beside it (testdata/shapes/ECO.expected.txt), the same file
// the language packages' library tests and runtime tests read. One line a
// record: ID, kind, name, scope, flags (dynamic, skip, or -).
func TestShapes(t *testing.T) {
	wants, _ := filepath.Glob("../../testdata/shapes/*.expected.txt")
	if len(wants) == 0 {
		t.Fatal("no fixtures under testdata/shapes")
	}
	for _, want := range wants {
		eco := strings.TrimSuffix(filepath.Base(want), ".expected.txt")
		t.Run(eco, func(t *testing.T) {
			dir, err := filepath.Abs(filepath.Join("../../testdata/shapes", eco))
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			code := cli.Main(context.Background(), []string{"list", "--json", "--no-cache", "--root", dir}, cli.Env{
				Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, Dir: dir,
			})
			if code != cli.ExitOK {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			expected, err := os.ReadFile(want)
			if err != nil {
				t.Fatal(err)
			}
			if got := expectLines(t, stdout.Bytes()); got != string(expected) {
				t.Errorf("testdex list --json %s differs from %s:\n%s", dir, want, golden.Diff(string(expected), got))
			}
		})
	}
}

// expectLines renders JSON Lines records in the .expected.txt format.
func expectLines(t *testing.T, jsonl []byte) string {
	var rs []testdex.Test
	sc := bufio.NewScanner(bytes.NewReader(jsonl))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r testdex.Test
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	return shapes.Lines(rs)
}
