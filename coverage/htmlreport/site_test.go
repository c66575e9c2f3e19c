package htmlreport

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeebo/xxh3"

	"github.com/testdex/testdex/coverage"
)

// sampleSrc has Pos (lines 3-8, run by TestA and TestB) and Unused
// (lines 11-13, run by none).
const sampleSrc = "package a\n\nfunc Pos(x int) int {\n\tif x < 0 {\n\t\treturn -x\n\t}\n\treturn x\n}\n\n// Unused is never called.\nfunc Unused() string {\n\treturn \"<never>\"\n}\n"

var sampleFuncs = []coverage.Func{{Name: "Pos", Start: 3, End: 8, Hash: 1}, {Name: "Unused", Start: 11, End: 13, Hash: 2}}

// writeSample records two tests in a coverage index through its own API,
// reads the report back and writes the site into dir.
func writeSample(t *testing.T, dir string) *coverage.Report {
	t.Helper()
	ix, err := coverage.Open(filepath.Join(t.TempDir(), "c.db"), coverage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	when := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	h := xxh3.HashString(sampleSrc)
	err = ix.Replace([]coverage.Record{
		{ID: "a_test.go::TestA", Recorded: when, Outcome: "pass", Granularity: "test", Files: []coverage.File{{Path: "a.go", Hash: h, Lines: []coverage.Span{{Start: 3, End: 5}}, Funcs: sampleFuncs}}},
		{ID: "a_test.go::TestB", Recorded: when, Outcome: "fail", Granularity: "test", Files: []coverage.File{{Path: "a.go", Hash: h, Lines: []coverage.Span{{Start: 3, End: 5}, {Start: 7, End: 7}}, Funcs: sampleFuncs}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	current := func(p string) ([]byte, []coverage.Func, bool) { return []byte(sampleSrc), sampleFuncs, p == "a.go" }
	rep, err := ix.Report(coverage.ReportOptions{Current: current})
	if err != nil {
		t.Fatal(err)
	}
	read := func(string) ([]byte, error) { return []byte(sampleSrc), nil }
	if _, err := Write(dir, rep, Options{Read: read}); err != nil {
		t.Fatal(err)
	}
	return rep
}

func readPage(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestSitePages(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "site")
	writeSample(t, dir)
	index := readPage(t, filepath.Join(dir, "index.html"))
	for _, want := range []string{
		`1/2 functions executed by a recorded test (50 %), 1 files, 2 tests.`,
		`<td><a href="files/0001-a.go.html">a.go</a></td><td>1/2</td>`,
		`<li><a href="files/0001-a.go.html#line-11">a.go:11</a> Unused</li>`,
		`<a href="tests/0002-a_test.go__TestB.html">a_test.go::TestB</a></td><td class="fail">fail</td>`,
	} {
		if !strings.Contains(index, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
	file := readPage(t, filepath.Join(dir, "files", "0001-a.go.html"))
	for _, want := range []string{
		`<tr id="line-5" class="hit"><td class="n"><a href="#line-5">5</a></td><td class="m" title="executed by 2 tests"><a href="#line-5">2</a></td>`,
		`<tr id="line-7" class="hit">`, `<tr id="line-6"><td`, `<tr id="line-8"><td`, // closing braces are left unmarked
		`<tr id="line-12" class="miss">`, `<td class="c">	return &#34;&lt;never&gt;&#34;</td>`, // escaped, tabs kept
		`<tr id="line-10"><td`, // a comment between functions
		`"id":"a_test.go::TestB","href":"../tests/0002-a_test.go__TestB.html","lines":[[3,5],[7,7]]`,
	} {
		if !strings.Contains(file, want) {
			t.Errorf("a.go's page lacks %s", want)
		}
	}
	test := readPage(t, filepath.Join(dir, "tests", "0002-a_test.go__TestB.html"))
	if want := `<td><a href="../files/0001-a.go.html">a.go</a></td><td>Pos</td><td><a href="../files/0001-a.go.html#line-3">3-5</a>, <a href="../files/0001-a.go.html#line-7">7</a></td>`; !strings.Contains(test, want) {
		t.Errorf("TestB's page lacks %s", want)
	}
	for _, page := range []string{index, file, test} {
		if strings.Contains(page, "http://") || strings.Contains(page, "https://") {
			t.Errorf("a page refers to the network:\n%s", page)
		}
	}
}

func TestWriteRefusesAFolderOfSomeoneElse(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)
	if _, err := Write(dir, &coverage.Report{}, Options{}); !errors.Is(err, ErrNotSite) {
		t.Fatalf("non-empty folder: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "notes.txt")); err != nil {
		t.Fatal("the folder's file was touched")
	}
	// A site written before is replaced: its old pages go.
	site := filepath.Join(t.TempDir(), "site")
	writeSample(t, site)
	if _, err := Write(site, &coverage.Report{}, Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(site, "files", "0001-a.go.html")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an old page survived: %v", err)
	}
}

// TestWriteReplacesOnlyItsPages: writing over a site removes the pages it
// wrote before and nothing else: files someone put beside them, in its
// folders too, stay.
func TestWriteReplacesOnlyItsPages(t *testing.T) {
	site := filepath.Join(t.TempDir(), "site")
	writeSample(t, site)
	mine := []string{"notes.txt", "files/keep.html", "tests/keep.css"}
	for _, f := range mine {
		os.WriteFile(filepath.Join(site, filepath.FromSlash(f)), []byte("mine"), 0o644)
	}
	writeSample(t, site)
	if _, err := Write(site, &coverage.Report{}, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, f := range mine {
		if data, err := os.ReadFile(filepath.Join(site, filepath.FromSlash(f))); err != nil || string(data) != "mine" {
			t.Errorf("%s was touched: %q, %v", f, data, err)
		}
	}
	if _, err := os.Stat(filepath.Join(site, "index.html")); err != nil {
		t.Errorf("the new index is missing: %v", err)
	}
}
