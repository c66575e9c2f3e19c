package golang

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// lister asks go itself: `go test -list . -json ./...` in the module
// compiles each test binary and prints the top-level names it would run
// (tests, benchmarks, fuzz targets, examples with output). Subtests are not
// knowable without running the tests, so the runtime method confirms only
// top-level records. The -json stream carries each name's package, so
// nothing is parsed from free text.
type lister struct{}

func (lister) ListCommand(p *lang.Project, _ []string) (*lang.Command, error) {
	return &lang.Command{Args: []string{"go", "test", "-list", ".", "-json", "./..."}, Dir: p.Dir}, nil
}

type listEvent struct {
	Action     string
	Package    string
	ImportPath string
	Output     string
}

func (lister) ParseList(_ *lang.Project, stdout, _ []byte, _ int) ([]lang.Listed, error) {
	var out []lang.Listed
	var buildErrs []string
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		var ev listEvent
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		if ev.Action == "build-output" && !strings.HasPrefix(ev.Output, "#") {
			buildErrs = append(buildErrs, strings.TrimSpace(ev.Output))
		}
		if ev.Action != "output" || ev.Package == "" {
			continue
		}
		name := strings.TrimSuffix(ev.Output, "\n")
		if kind, ok := listedKind(name); ok {
			out = append(out, lang.Listed{Scope: ev.Package, Name: name, Kind: kind})
		}
	}
	if len(out) == 0 && len(buildErrs) > 0 {
		if len(buildErrs) > 3 {
			buildErrs = append(buildErrs[:3], "...")
		}
		return nil, fmt.Errorf("the test build failed: %s", strings.Join(buildErrs, "; "))
	}
	return out, sc.Err()
}

// listedKind recognises a name line of go test -list among the other
// output lines (ok, FAIL, build errors).
func listedKind(line string) (testdex.Kind, bool) {
	if line == "" || strings.ContainsAny(line, " \t/:") {
		return "", false
	}
	for prefix, kind := range map[string]testdex.Kind{"Test": testdex.KindTest, "Benchmark": testdex.KindBenchmark, "Fuzz": testdex.KindFuzz, "Example": testdex.KindExample} {
		if strings.HasPrefix(line, prefix) {
			return kind, true
		}
	}
	return "", false
}

// Reports says which records go test -list can confirm: top-level ones.
// Subtests exist only once their parent runs.
func (lister) Reports(t *testdex.Test) bool { return t.Parent == "" }
