package golang

import (
	"bufio"
	"bytes"
	"encoding/json"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lines"
)

// runner runs Go tests with go test -json -count=1, one go test per set of
// packages that share a selection (a -run pattern applies to every package
// of its command), and parses the test2json stream.
type runner struct{}

// RunCommands builds the go test commands. A folder runs as the package
// pattern ./dir/... ("." as ./..., as `go test ./...` does), a file as its
// package with a -run pattern over the file's top-level tests (go test
// selects packages, not files), and tests named by ID as before: their -run
// patterns, one go test per set of packages sharing them. Benchmarks and
// sub-benchmarks run when named by ID (-bench, with -run '^$' when only
// benchmarks are named),
// or under paths when o.Bench is set (-bench .); `go test ./...` runs none.
// Extra arguments go before the packages.
func (runner) RunCommands(p *lang.Project, sel *lang.Selection, o lang.RunOptions) ([]*lang.Command, error) {
	if o.Coverage {
		why, linkFlag, shared := boundaryToolchain(o)
		if !shared || why != "" {
			cmds, err := coverCommands(p, sel, o)
			if err != nil {
				return nil, err
			}
			if why != "" {
				cmds[0].Note = "coverage runs a process per test: " + why
			}
			return cmds, nil
		}
		return boundaryCommands(p, sel, o, linkFlag)
	}
	return plainCommands(p, sel, o, nil), nil
}

// plainCommands builds the go test commands of a run without coverage;
// expand, when not nil, turns a folder's pattern (./... or ./dir/...)
// into the packages to run.
func plainCommands(p *lang.Project, sel *lang.Selection, o lang.RunOptions, expand func(string) []string) []*lang.Command {
	groups := map[string][]string{} // run \x00 bench (each "|"-joined) -> packages
	add := func(run, bench []string, pkg string) {
		k := joinPatterns(run) + "\x00" + joinPatterns(bench)
		if !slices.Contains(groups[k], pkg) {
			groups[k] = append(groups[k], pkg)
		}
	}
	tree := func(pattern string, bench []string) {
		if expand == nil {
			add(nil, bench, pattern)
			return
		}
		for _, pkg := range expand(pattern) {
			add(nil, bench, pkg)
		}
	}
	var benchAll []string
	if o.Bench {
		benchAll = []string{"."}
	}
	byPkg := map[string]*goPats{}
	named := func(pkg string) *goPats {
		if byPkg[pkg] == nil {
			byPkg[pkg] = &goPats{}
		}
		return byPkg[pkg]
	}
	for _, ps := range sel.Paths {
		switch {
		case ps.Path == ".":
			tree("./...", benchAll)
		case ps.Dir:
			tree("./"+ps.Path+"/...", benchAll)
		default:
			fileSelection(ps, o.Bench, named)
			if len(ps.Tests) == 0 { // nothing listed: the whole package
				add(nil, benchAll, "./"+path.Dir(ps.Path))
			}
		}
	}
	for _, t := range sel.Tests {
		pat := t.Run
		if pat == "" { // a test known only at run time
			pat = runPattern(t.Name)
		}
		n := named(t.Scope)
		if t.Kind == testdex.KindBenchmark || isBenchmark(t.Name) { // a sub-benchmark runs by -bench too
			n.bench = append(n.bench, pat)
		} else {
			n.run = append(n.run, pat)
		}
	}
	for pkg, n := range byPkg {
		run := n.run
		if len(run) == 0 && len(n.bench) > 0 {
			run = []string{"^$"}
		}
		add(run, n.bench, pkg)
	}
	return goCommands(p, groups, o)
}

// GuardsLinks implements lang.LinkGuard: go test's package patterns
// (./...) never enter a linked folder, but a linked file in a package is
// compiled with it.
func (runner) GuardsLinks(links []lang.Link) bool {
	for _, l := range links {
		if !l.Dir {
			return false
		}
	}
	return true
}

// goPats are the -run and -bench patterns of one package.
type goPats struct{ run, bench []string }

// fileSelection names a file's top-level tests (and its benchmarks when
// bench is set) in its package.
func fileSelection(ps lang.PathSelection, bench bool, named func(string) *goPats) {
	for _, t := range ps.Tests {
		switch {
		case t.Run == "" || t.Dynamic:
		case t.Kind != testdex.KindBenchmark:
			named(t.Scope).run = append(named(t.Scope).run, t.Run)
		case bench:
			named(t.Scope).bench = append(named(t.Scope).bench, t.Run)
		}
	}
}

// goCommands renders the groups as go test commands, in a stable order.
// Commands without benchmarks run side by side (lanes, up to -j), as one
// go test runs its packages; a command with benchmarks runs alone, so
// that nothing else skews its figures.
func goCommands(p *lang.Project, groups map[string][]string, o lang.RunOptions) []*lang.Command {
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var cmds []*lang.Command
	for _, k := range keys {
		run, bench, _ := strings.Cut(k, "\x00")
		args := []string{"go", "test", "-json", "-count=1"}
		if run != "" {
			args = append(args, "-run", run)
		}
		if bench != "" {
			args = append(args, "-bench", bench)
		}
		if o.TestTimeout > 0 {
			args = append(args, "-timeout", o.TestTimeout.String())
		}
		args = append(args, o.Extra...)
		pkgs := groups[k]
		sort.Strings(pkgs)
		args = append(args, pkgs...)
		c := &lang.Command{Args: args, Dir: p.Dir}
		if len(keys) > 1 && bench == "" {
			c.Lane = "go test " + strconv.Itoa(len(cmds)) // packages with different patterns at once, as go test runs packages
		}
		cmds = append(cmds, c)
	}
	return cmds
}

// NewParser returns a streaming parser of go test -json output.
func (runner) NewParser(p *lang.Project, cmd *lang.Command, emit func(lang.RunEvent)) lang.Parser {
	j := &jsonParser{module: p.Name, emit: emit, out: map[string]*testOutput{}, bench: map[string]*benchState{}, openBench: map[string][]string{}}
	j.lines.Line = j.line
	return coverParserFor(p, cmd, j)
}

// jsonParser turns test2json events into RunEvents. It is an io.Writer
// fed arbitrary chunks, cut into lines by its lines.Splitter.
type jsonParser struct {
	module string
	emit   func(lang.RunEvent)
	lines  lines.Splitter
	out    map[string]*testOutput // per test, for the failure message
	// bench is the running benchmark of each package and the figures it
	// printed: test2json reports a benchmark's run and failure but not its
	// pass, which is its figures line followed by the next benchmark or
	// the package's end.
	bench map[string]*benchState
	// openBench are, per package, the benchmarks that started and ended
	// without figures or a result: parents of sub-benchmarks, for which
	// test2json reports no pass; they pass with their package.
	openBench map[string][]string
	builds    map[string]*bytes.Buffer // build output per import path
	// buildOnly marks go test -c's stream (a coverage run's build): a
	// build-fail is the package's error, as a failed build's package
	// result is under go test.
	buildOnly bool
}

type benchState struct {
	name    string
	figures string
}

type goEvent struct {
	Action      string
	Package     string
	ImportPath  string
	Test        string
	Elapsed     float64
	Output      string
	FailedBuild string
}

func (j *jsonParser) Write(b []byte) (int, error) { return j.lines.Write(b) }

func (j *jsonParser) Close(int) error {
	j.lines.Flush()
	return nil
}

func (j *jsonParser) line(l []byte) {
	var e goEvent
	if len(bytes.TrimSpace(l)) == 0 {
		return
	}
	if json.Unmarshal(l, &e) != nil {
		j.emit(lang.RunEvent{Action: testdex.ActionOutput, Output: string(l) + "\n"})
		return
	}
	switch e.Action {
	case "build-output":
		j.emit(lang.RunEvent{Action: testdex.ActionOutput, Output: e.Output})
		if b := j.buildOut(e.ImportPath); b.Len() < 16<<10 {
			b.WriteString(e.Output)
		}
		return
	case "build-fail", "start":
		if e.Action == "build-fail" && j.buildOnly {
			j.emit(lang.RunEvent{Action: testdex.ActionError, Scope: e.ImportPath, Message: "build failed: " + e.ImportPath + "\n" + strings.TrimSpace(j.buildOut(e.ImportPath).String())})
		}
		return
	}
	ev := lang.RunEvent{Action: testdex.Action(e.Action), Scope: e.Package, Name: e.Test, Elapsed: e.Elapsed, Output: e.Output}
	if isBenchmark(e.Test) {
		ev.Kind = testdex.KindBenchmark
	}
	j.followBench(e)
	key := e.Package + "\x00" + e.Test
	switch {
	case e.Action == "output" && e.Test != "":
		b := j.out[key]
		if b == nil {
			b = &testOutput{}
			j.out[key] = b
		}
		b.write(e.Output)
	case e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
		// The package's own result: the core judges the batch itself.
		if e.FailedBuild != "" { // one error for the package, in go's own words
			msg := "build failed: " + e.FailedBuild
			if out := strings.TrimSpace(j.buildOut(e.FailedBuild).String()); out != "" {
				msg += "\n" + out
			}
			j.emit(lang.RunEvent{Action: testdex.ActionError, Scope: e.Package, Message: msg})
		}
		return
	case e.Action == "fail" && e.Test != "":
		ev.Message, ev.File, ev.Line = failure(j.out[key], j.pkgDir(e.Package))
	}
	if e.Action == "pass" || e.Action == "fail" || e.Action == "skip" {
		delete(j.out, key)
	}
	j.emit(ev)
}

// buildOut is the build output go printed for an import path
// ("pkg [pkg.test]"), kept for the package's error.
func (j *jsonParser) buildOut(importPath string) *bytes.Buffer {
	if j.builds == nil {
		j.builds = map[string]*bytes.Buffer{}
	}
	b := j.builds[importPath]
	if b == nil {
		b = &bytes.Buffer{}
		j.builds[importPath] = b
	}
	return b
}

// isBenchmark reports whether a test2json name is a benchmark's (top level
// or a sub-benchmark).
func isBenchmark(name string) bool { return strings.HasPrefix(name, "Benchmark") }

// benchFigures matches a benchmark's result line, "BenchmarkX-2  \t 100\t
// 3.3 ns/op ...", possibly split after the name.
var benchFigures = regexp.MustCompile(`^\s*\d+\s+[\d.]+ ns/op`)

// followBench passes a benchmark that printed its figures when the next
// test starts or its package ends; one that ended otherwise (a failure)
// reports itself.
func (j *jsonParser) followBench(e goEvent) {
	cur := j.bench[e.Package]
	switch {
	case cur != nil && e.Test == cur.name && e.Action == "output":
		line := strings.TrimSpace(e.Output)
		if rest, ok := strings.CutPrefix(line, cur.name); ok { // "BenchmarkX-2 \t 100 \t ..."
			if i := strings.IndexAny(rest, " \t"); i >= 0 && strings.TrimLeft(rest[:i], "-0123456789") == "" {
				line = strings.TrimSpace(rest[i:])
			}
		}
		if benchFigures.MatchString(line) {
			cur.figures = strings.Join(strings.Fields(line), " ")
		}
		return
	case cur != nil && e.Test == cur.name && (e.Action == "fail" || e.Action == "pass" || e.Action == "skip"):
		delete(j.bench, e.Package)
		return
	case cur != nil && (e.Action == "run" && e.Test != cur.name || e.Test == "" && (e.Action == "pass" || e.Action == "fail")):
		delete(j.bench, e.Package)
		if cur.figures != "" {
			j.emit(lang.RunEvent{Action: testdex.ActionPass, Scope: e.Package, Name: cur.name, Kind: testdex.KindBenchmark, Message: cur.figures})
		} else {
			j.openBench[e.Package] = append(j.openBench[e.Package], cur.name)
		}
	}
	if e.Test == "" && (e.Action == "pass" || e.Action == "fail") {
		if e.Action == "pass" { // a parent benchmark passed with its sub-benchmarks
			for _, name := range j.openBench[e.Package] {
				j.emit(lang.RunEvent{Action: testdex.ActionPass, Scope: e.Package, Name: name, Kind: testdex.KindBenchmark})
			}
		}
		delete(j.openBench, e.Package)
	}
	if e.Action == "run" && isBenchmark(e.Test) {
		j.bench[e.Package] = &benchState{name: e.Test}
	}
}

// pkgDir is a package's folder relative to the module.
func (j *jsonParser) pkgDir(pkg string) string {
	if j.module == "std" {
		return pkg
	}
	if rest, ok := strings.CutPrefix(pkg, j.module+"/"); ok {
		return rest
	}
	return "."
}

// failLine is the testing package's "    file_test.go:12: message" line.
var failLine = regexp.MustCompile(`^\s+([\w.\-/]+\.go):(\d+): (.*)$`)

// failure finds the last t.Error/t.Fatal-shaped line of a test's output:
// t.Log lines look the same, and they usually come before the failure.
func failure(out *testOutput, dir string) (msg, file string, line int) {
	if out == nil {
		return "", "", 0
	}
	sc := bufio.NewScanner(bytes.NewReader(out.bytes()))
	sc.Buffer(nil, 4*outputKeep)
	for sc.Scan() {
		if m := failLine.FindStringSubmatch(sc.Text()); m != nil {
			n, _ := strconv.Atoi(m[2])
			msg, file, line = m[3], path.Join(dir, m[1]), n
		}
	}
	return msg, file, line
}

// outputKeep is how much of each end of a test's output testOutput keeps.
const outputKeep = 32 << 10

// testOutput keeps a test's output for its failure message: its first and
// its last outputKeep bytes, so the reason a test prints after megabytes
// of logging (t.Fatal last) is still read.
type testOutput struct {
	head, tail []byte
	dropped    bool // bytes between head and tail were dropped
}

func (o *testOutput) write(s string) {
	if room := outputKeep - len(o.head); room > 0 {
		n := min(room, len(s))
		o.head, s = append(o.head, s[:n]...), s[n:]
	}
	o.tail = append(o.tail, s...)
	if len(o.tail) > 2*outputKeep {
		o.tail, o.dropped = append(o.tail[:0], o.tail[len(o.tail)-outputKeep:]...), true
	}
}

// bytes returns the output kept, a line break where bytes were dropped.
func (o *testOutput) bytes() []byte {
	tail := o.tail
	if len(tail) > outputKeep {
		tail, o.dropped = tail[len(tail)-outputKeep:], true
	}
	out := append([]byte{}, o.head...)
	if o.dropped {
		out = append(out, '\n')
	}
	return append(out, tail...)
}
