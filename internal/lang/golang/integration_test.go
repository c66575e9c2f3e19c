package golang

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/testenv"
)

// event is the part of a `go test -json` event these tests read.
type event struct {
	Action, Package, ImportPath, Test, Output string
}

// goTestJSON runs go test -json with args in dir and returns its events.
// The exit status is ignored: the fixture has packages that do not build.
func goTestJSON(t *testing.T, dir string, args ...string) []event {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		testenv.Missing(t, "go is not on PATH")
	}
	cmd := exec.Command("go", append([]string{"test", "-json", "-vet=off"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, _ := cmd.Output()
	var evs []event
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var ev event
		if json.Unmarshal(sc.Bytes(), &ev) == nil {
			evs = append(evs, ev)
		}
	}
	if len(evs) == 0 {
		t.Fatalf("go test %s printed no events", strings.Join(args, " "))
	}
	return evs
}

// fixturePkg is what the extractor and the comments say about one package
// of the fixture module.
type fixturePkg struct {
	recs             []lang.Test
	notrun, gotonly  []string
	problems         []string
	reported, output []string
}

// loadFixture extracts every fixture file, grouped by import path.
func loadFixture(t *testing.T) map[string]*fixturePkg {
	pkgs := map[string]*fixturePkg{}
	datas, results := extractLinked(t, Default)
	for _, rel := range fixtureFiles(t) {
		ip := path.Join("example.com/fixture", path.Dir(rel))
		p := pkgs[ip]
		if p == nil {
			p = &fixturePkg{}
			pkgs[ip] = p
		}
		data, res := datas[rel], results[rel]
		want := readExpect(t, data, false)
		p.recs = append(p.recs, res.Tests...)
		p.notrun = append(p.notrun, want.notrun...)
		p.gotonly = append(p.gotonly, want.gotonly...)
		for _, pr := range res.Problems {
			p.problems = append(p.problems, pr.Message)
		}
	}
	return pkgs
}

func TestFixtureAgainstGoTest(t *testing.T) {
	pkgs := loadFixture(t)
	for _, ev := range goTestJSON(t, fixtureDir, "-run", ".", "-bench", ".", "-benchtime", "1x", "./...") {
		ip := strings.TrimSuffix(ev.Package+ev.ImportPath, ".test")
		p := pkgs[ip]
		switch {
		case p == nil:
		case ev.Action == "run":
			p.reported = append(p.reported, ev.Test)
		case ev.Action == "build-output":
			p.output = append(p.output, ev.Output)
		}
	}
	var static, dynamic, viaDynamic int
	for ip, p := range pkgs {
		if len(p.problems) > 0 {
			checkBuildFailure(t, ip, p)
			continue
		}
		s, d, v := checkReported(t, ip, p)
		static, dynamic, viaDynamic = static+s, dynamic+d, viaDynamic+v
	}
	t.Logf("fixture: %d static names predicted and reported by go test, %d dynamic records covering %d names go test reported", static, dynamic, viaDynamic)
}

// checkBuildFailure checks that go test refused the package with one of
// the problems the extractor reports.
func checkBuildFailure(t *testing.T, ip string, p *fixturePkg) {
	out := strings.Join(p.output, "")
	if len(p.reported) > 0 || !slices.ContainsFunc(p.problems, func(m string) bool { return strings.Contains(out, m) }) {
		t.Errorf("%s: go test ran %q and said %q; we predicted a build failure with %q", ip, p.reported, out, p.problems)
	}
}

// checkReported compares the names go test reported with the records: every
// static record is reported, and every reported name is a record or lies
// under the parent of a Dynamic record.
func checkReported(t *testing.T, ip string, p *fixturePkg) (static, dynamic, viaDynamic int) {
	byName := map[string]lang.Test{}
	var dynParents []string
	for _, r := range p.recs {
		byName[r.Name] = r
		if r.Dynamic {
			dynamic++
			dynParents = append(dynParents, r.Parent+"/")
		}
	}
	for _, r := range p.recs {
		inheritedSkip := r.Skip && byName[r.Parent].Skip
		if r.Dynamic || inheritedSkip || slices.Contains(p.notrun, r.Name) {
			continue
		}
		if !slices.Contains(p.reported, r.Name) {
			t.Errorf("%s: predicted %q, go test did not report it", ip, r.Name)
		}
	}
	for _, name := range p.reported {
		switch {
		case byName[name].Name == name:
			static++
		case slices.ContainsFunc(dynParents, func(pre string) bool { return strings.HasPrefix(name, pre) }):
			viaDynamic++
		case !slices.ContainsFunc(p.gotonly, func(g string) bool { return name == g || strings.HasPrefix(name, g+"/") }):
			t.Errorf("%s: go test reported %q, which no record predicts or covers", ip, name)
		}
	}
	return static, dynamic, viaDynamic
}

// TestFixtureRunPatterns runs every other leaf record by its Run pattern,
// all at once joined by "|", and checks that go test runs exactly those
// leaves, their ancestors and whatever lies beneath them.
func TestFixtureRunPatterns(t *testing.T) {
	p := loadFixture(t)["example.com/fixture"]
	hasChild := map[string]bool{}
	for _, r := range p.recs {
		hasChild[r.Parent] = true
	}
	var chosen, pats []string
	for i, r := range p.recs {
		if r.Dynamic || hasChild[r.Name] || r.Skip || slices.Contains(p.notrun, r.Name) ||
			strings.HasPrefix(r.Name, "Benchmark") || i%2 == 1 {
			continue
		}
		chosen = append(chosen, r.Name)
		pats = append(pats, r.Run)
	}
	var ran []string
	for _, ev := range goTestJSON(t, fixtureDir, "-run", strings.Join(pats, "|"), ".") {
		if ev.Action == "run" {
			ran = append(ran, ev.Test)
		}
	}
	for _, c := range chosen {
		if !slices.Contains(ran, c) {
			t.Errorf("Run pattern of %q did not run it", c)
		}
	}
	for _, name := range ran {
		related := func(c string) bool {
			return c == name || strings.HasPrefix(c, name+"/") || strings.HasPrefix(name, c+"/")
		}
		if !slices.ContainsFunc(chosen, related) {
			t.Errorf("the Run patterns also ran %q", name)
		}
	}
	t.Logf("%d leaves selected by their Run patterns, %d tests ran", len(chosen), len(ran))
}

// TestGOROOTTopLevel compares the top-level names of a few standard
// packages with `go test -list '.*'`.
func TestGOROOTTopLevel(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries of standard packages")
	}
	pkgs := []string{"strings", "sort", "encoding/json", "path/filepath", "net/url", "go/scanner"}
	live := map[string][]string{}
	for _, ev := range goTestJSON(t, ".", append([]string{"-list", ".*"}, pkgs...)...) {
		if name := strings.TrimSuffix(ev.Output, "\n"); ev.Action == "output" && ev.Test == "" && isIdent(name) {
			live[ev.Package] = append(live[ev.Package], name)
		}
	}
	goroot := strings.TrimSpace(run(t, "go", "env", "GOROOT"))
	for _, pkg := range pkgs {
		files, _ := filepath.Glob(filepath.Join(goroot, "src", pkg, "*_test.go"))
		var ours []string
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range Default.Extract(&lang.File{Rel: filepath.Base(f), Data: data}).Tests {
				if r.Parent == "" {
					ours = append(ours, r.Name)
				}
			}
		}
		sameSet(t, pkg, ours, live[pkg])
		t.Logf("%s: %d names", pkg, len(ours))
	}
}

func isIdent(s string) bool {
	return s != "" && !strings.ContainsAny(s, " \t") && !strings.HasPrefix(s, "ok") && !strings.HasPrefix(s, "?")
}

func run(t *testing.T, name string, args ...string) string {
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return string(out)
}
