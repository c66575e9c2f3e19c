package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testdex/testdex/internal/cli"
)

// A dupCase is a project whose runner reports one ID for several tests:
// tests sharing a full title in one file, or in files one file loads.
// files(k) writes the project's files with copy k failing and the others
// passing; every copy's body is one line holding "copy N".
type dupCase struct {
	name, fixture string
	copies        int
	path          string // what `run` is given
	id            string // the ID every copy is reported under
	files         func(k, copies int) map[string]string
}

// copyBody is the body of copy i of a test, failing when i == k.
func copyBody(i, k int) string {
	if i == k {
		return fmt.Sprintf("throw new Error('copy %d fails');", i)
	}
	return fmt.Sprintf("void 'copy %d passes';", i)
}

// sameFile is a file of copies tests titled "same" under describe('dup'),
// with head before them and test as the function declaring a test.
func sameFile(head, test string, k, copies int) string {
	var b strings.Builder
	b.WriteString(head + "describe('dup', () => {\n")
	for i := range copies {
		fmt.Fprintf(&b, "  %s('same', () => {\n    %s\n  });\n", test, copyBody(i, k))
	}
	b.WriteString("});\n")
	return b.String()
}

var dupCases = []dupCase{
	{name: "mocha same file", fixture: "mocha", copies: 3, path: "test/dup.spec.js", id: "test/dup.spec.js::dup > same",
		files: func(k, n int) map[string]string {
			return map[string]string{"test/dup.spec.js": sameFile("", "it", k, n)}
		}},
	{name: "mocha loaded files", fixture: "mocha", copies: 3, path: "test/dupload.spec.js", id: "test/dupload.spec.js::loaded > same",
		files: func(k, n int) map[string]string {
			fs := map[string]string{"test/dupload.spec.js": "const path = require('node:path');\n" +
				"describe('loaded', function () {\n" +
				"  for (const f of ['a.js', 'b.js', 'c.js']) require(path.join(__dirname, '..', 'loaded', f));\n});\n"}
			for i, f := range []string{"a.js", "b.js", "c.js"} {
				fs["loaded/"+f] = fmt.Sprintf("// copy %d of a test shared by three files\nit('same', function () {\n  %s\n});\n", i, copyBody(i, k))
			}
			return fs
		}},
	{name: "jest", fixture: "jest", copies: 2, path: "__tests__/dup.test.js", id: "__tests__/dup.test.js::dup > same",
		files: func(k, n int) map[string]string {
			return map[string]string{"__tests__/dup.test.js": sameFile("", "test", k, n)}
		}},
	{name: "vitest", fixture: "vitest", copies: 2, path: "test/dup.test.js", id: "test/dup.test.js::dup > same",
		files: func(k, n int) map[string]string {
			return map[string]string{"test/dup.test.js": sameFile("import { describe, test } from 'vitest';\n", "test", k, n)}
		}},
	{name: "node:test", fixture: "node-test", copies: 2, path: "test/dup.test.js", id: "test/dup.test.js::same",
		files: func(k, n int) map[string]string {
			var b strings.Builder
			b.WriteString("const { test } = require('node:test');\n")
			for i := range n {
				fmt.Fprintf(&b, "test('same', () => {\n  %s\n});\n", copyBody(i, k))
			}
			return map[string]string{"test/dup.test.js": b.String()}
		}},
}

// TestRunDuplicateTitles plants a failure in each copy of a test whose
// full title its runner reports more than once, in turn: the runner says 1
// failing, so testdex must too, everywhere: the exit code, the summary, the
// failures it keeps, the JUnit report and the MCP tools, each naming the
// failing copy at its own file and line (not the file that loaded it).
// Every copy is a result of its own in the counts.
func TestRunDuplicateTitles(t *testing.T) {
	for _, c := range dupCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), c.fixture)
			copyNodeFixture(t, c.fixture, dir)
			cache := t.TempDir()
			td := runnerIn(t, dir, "TESTDEX_CACHE_DIR="+cache)
			for k := range c.copies {
				files := c.files(k, c.copies)
				for name, text := range files {
					os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
					if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				where := failingLine(t, files, k)
				junit := filepath.Join(t.TempDir(), "junit.xml")
				code, out, errs := td(nil, "run", "--json", "--junit", junit, c.path)
				if code != cli.ExitFailed {
					t.Fatalf("copy %d fails: exit %d, want 1\n%s%s", k, code, tail(out), errs)
				}
				if got := summaryOf(t, out); got != (nodeCounts{Passed: c.copies - 1, Failed: 1}) {
					t.Errorf("copy %d fails: counted %+v, want %d passed and 1 failed", k, got, c.copies-1)
				}
				want := c.id + " " + where
				_, fout, _ := td(nil, "failures", "--json")
				if got := failureLines(t, fout); len(got) != 1 || !strings.HasPrefix(got[0], want+" ") {
					t.Errorf("copy %d fails: failures %q, want one at %s", k, got, want)
				}
				checkJUnitDup(t, junit, c.copies)
				checkMCPDup(t, dir, cache, c, want)
			}
		})
	}
}

// failingLine is "FILE:LINE" of the line of files holding "copy k fails".
func failingLine(t *testing.T, files map[string]string, k int) string {
	t.Helper()
	mark := fmt.Sprintf("copy %d fails", k)
	for name, text := range files {
		for i, l := range strings.Split(text, "\n") {
			if strings.Contains(l, mark) {
				return fmt.Sprintf("%s:%d", name, i+1)
			}
		}
	}
	t.Fatalf("no %q in the files", mark)
	return ""
}

// checkJUnitDup checks a JUnit report holds every copy as a testcase and
// exactly one failure.
func checkJUnitDup(t *testing.T, path string, copies int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("junit: %v", err)
	}
	cases, failures := 0, 0
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			cases++
			if c.Failure != nil {
				failures++
			}
		}
	}
	if cases != copies || failures != 1 {
		t.Errorf("junit: %d testcases with %d failures, want %d and 1\n%s", cases, failures, copies, data)
	}
}

// checkMCPDup runs the case's file through the MCP server's run_tests,
// then asks last_test_failures: both must say one failure, at want.
func checkMCPDup(t *testing.T, dir, cache string, c dupCase, want string) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- cli.Main(context.Background(), []string{"--root", dir, "mcp"}, cli.Env{Stdin: inR, Stdout: outW, Stderr: &stderr,
			Getenv: func(k string) string {
				if k == "TESTDEX_CACHE_DIR" {
					return cache
				}
				return os.Getenv(k)
			}, Environ: os.Environ(), Dir: dir})
		outW.Close()
	}()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); inW.Close(); <-done }()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_tests", Arguments: map[string]any{"paths": []string{c.path}}})
	if err != nil || res.IsError {
		t.Fatalf("run_tests: %v %+v", err, res)
	}
	var ran struct {
		Exit, Passed, Failed int
		Results              []struct {
			ID, Action, File string
			Line             int
		}
	}
	decode(t, res.StructuredContent, &ran)
	var failed []string
	for _, r := range ran.Results {
		if r.Action == "fail" {
			failed = append(failed, fmt.Sprintf("%s %s:%d", r.ID, r.File, r.Line))
		}
	}
	if ran.Exit != 1 || ran.Failed != 1 || ran.Passed != c.copies-1 || len(failed) != 1 || failed[0] != want {
		t.Errorf("run_tests: exit %d, %d passed, %d failed, failures %q; want exit 1, %d passed, 1 failed at %s",
			ran.Exit, ran.Passed, ran.Failed, failed, c.copies-1, want)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "last_test_failures"})
	if err != nil || res.IsError {
		t.Fatalf("last_test_failures: %v %+v", err, res)
	}
	var last struct {
		Failures []struct {
			ID, File string
			Line     int
		}
	}
	decode(t, res.StructuredContent, &last)
	if len(last.Failures) != 1 || fmt.Sprintf("%s %s:%d", last.Failures[0].ID, last.Failures[0].File, last.Failures[0].Line) != want {
		t.Errorf("last_test_failures: %+v, want one at %s", last.Failures, want)
	}
}

// decode turns a tool's structured content into v.
func decode(t *testing.T, content any, v any) {
	t.Helper()
	data, err := json.Marshal(content)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
}
