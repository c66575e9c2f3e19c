package golang

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/lang"
)

// The fixture module under testdata/fixture carries its expectations in
// comments, one per line, anywhere in a _test.go file:
//
//	// want: [dynamic] [skip] [notrun] NAME   a record the extractor must produce
//	// want(GOOS): NAME                       the same, only when building for GOOS
//	// want(all): NAME                        only with AllPlatforms
//	// want-problem: MESSAGE                  an error Problem of the file
//	// gotonly: NAME                          go test reports it; we knowingly do not
//
// notrun marks a static record go test does not report when run here (a
// t.Run in a branch not taken); gotonly marks a subtest the listing knowingly
// misses. The output of the extractor, linked as the index links it (helpers
// of other files followed), must equal the want lines exactly.

const fixtureDir = "testdata/fixture"

var wantRE = regexp.MustCompile(`// (want|want\((\w+)\)|want-problem|gotonly): (.*)$`)

// expect is what one fixture file's comments ask for.
type expect struct {
	records  []string // "flags name", flags sorted: dynamic skip
	notrun   []string
	problems []string
	gotonly  []string
}

func readExpect(t testing.TB, data []byte, all bool) expect {
	var e expect
	for _, line := range strings.Split(string(data), "\n") {
		m := wantRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		rest := strings.TrimSpace(m[3])
		switch {
		case m[1] == "want-problem":
			e.problems = append(e.problems, rest)
			continue
		case m[1] == "gotonly":
			e.gotonly = append(e.gotonly, rest)
			continue
		case m[2] == "all" && !all, m[2] != "" && m[2] != "all" && !all && m[2] != build.Default.GOOS:
			continue
		}
		var flags []string
		for {
			w, after, _ := strings.Cut(rest, " ")
			if w != "dynamic" && w != "skip" && w != "notrun" {
				break
			}
			if w == "notrun" {
				e.notrun = append(e.notrun, after)
			} else {
				flags = append(flags, w)
			}
			rest = after
		}
		e.records = append(e.records, strings.TrimSpace(strings.Join(append(flags, rest), " ")))
	}
	return e
}

func recordKey(r lang.Test) string {
	var flags []string
	if r.Dynamic {
		flags = append(flags, "dynamic")
	}
	if r.Skip {
		flags = append(flags, "skip")
	}
	return strings.Join(append(flags, r.Name), " ")
}

// fixtureFiles lists the fixture's _test.go files, slash-separated and
// relative to the fixture module.
func fixtureFiles(t testing.TB) []string {
	var files []string
	err := filepath.WalkDir(fixtureDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, "_test.go") {
			rel, _ := filepath.Rel(fixtureDir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func extractFixture(t testing.TB, e *Extractor, rel string) ([]byte, lang.Result) {
	data, err := os.ReadFile(filepath.Join(fixtureDir, rel))
	if err != nil {
		t.Fatal(err)
	}
	return data, e.Extract(&lang.File{Rel: rel, Data: data})
}

// extractLinked extracts every fixture file with ex and links them as
// the index does, so that helpers of other files are followed; it
// returns each file's content and result.
func extractLinked(t testing.TB, ex *Extractor) (map[string][]byte, map[string]*lang.Result) {
	datas, results := map[string][]byte{}, map[string]*lang.Result{}
	var linked []*lang.Linked
	for _, rel := range fixtureFiles(t) {
		data, res := extractFixture(t, ex, rel)
		datas[rel], results[rel] = data, &res
		linked = append(linked, &lang.Linked{Rel: rel, RootRel: rel, Result: &res})
	}
	dir, err := filepath.Abs(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	p := &lang.Project{Dir: dir, Name: "example.com/fixture", Manifest: "go.mod"}
	if probs := (linker{ex: ex}).Link(p, linked); len(probs) > 0 {
		t.Errorf("link problems: %v", probs)
	}
	return datas, results
}

func TestFixtureExpectations(t *testing.T) {
	for _, all := range []bool{false, true} {
		ex := &Extractor{AllPlatforms: all}
		datas, results := extractLinked(t, ex)
		for _, rel := range fixtureFiles(t) {
			data, res := datas[rel], results[rel]
			want := readExpect(t, data, all)
			var got, problems []string
			for _, r := range res.Tests {
				got = append(got, recordKey(r))
			}
			for _, p := range res.Problems {
				problems = append(problems, p.Message)
			}
			if rel == "_ignored_test.go" {
				want.records = nil
			}
			sameSet(t, rel+" records", got, want.records)
			if !all {
				sameSet(t, rel+" problems", problems, want.problems)
			}
			checkRecords(t, rel, res.Tests)
		}
	}
}

// checkRecords checks what holds for every record: unique names, parents
// listed before their children, and the Run patterns.
func checkRecords(t *testing.T, rel string, recs []lang.Test) {
	byName := map[string]lang.Test{}
	for _, r := range recs {
		if _, dup := byName[r.Name]; dup {
			t.Errorf("%s: duplicate record %q", rel, r.Name)
		}
		byName[r.Name] = r
		p, ok := byName[r.Parent]
		switch {
		case r.Parent != "" && !ok:
			t.Errorf("%s: %q: parent %q not listed before it", rel, r.Name, r.Parent)
		case r.Dynamic && r.Run != p.Run:
			t.Errorf("%s: dynamic %q: Run %q, want its parent's %q", rel, r.Name, r.Run, p.Run)
		case !r.Dynamic && r.Run != runPattern(r.Name):
			t.Errorf("%s: %q: Run %q", rel, r.Name, r.Run)
		}
		if r.Line <= 0 {
			t.Errorf("%s: %q: no line", rel, r.Name)
		}
	}
}

func sameSet(t *testing.T, what string, got, want []string) {
	t.Helper()
	g, w := slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))
	if !slices.Equal(g, w) {
		t.Errorf("%s:\n missing %q\n extra   %q", what, minus(w, g), minus(g, w))
	}
}

func minus(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}
