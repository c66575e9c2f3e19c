package golang

import (
	"bufio"
	"bytes"
	"encoding/json"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// runner runs Go tests with go test -json -count=1, one go test per set of
// packages that share a selection (a -run pattern applies to every package
// of its command), and parses the test2json stream.
type runner struct{}

// RunCommands builds the go test commands. Tests, fuzz seeds and examples
// are selected with -run; benchmarks with -bench (and -run '^$' when only
// benchmarks are selected). Extra arguments go before the packages.
func (runner) RunCommands(p *lang.Project, tests []*testdex.Test, o lang.RunOptions) ([]*lang.Command, error) {
	type sel struct{ run, bench []string }
	byPkg := map[string]*sel{}
	for _, t := range tests {
		s := byPkg[t.Scope]
		if s == nil {
			s = &sel{}
			byPkg[t.Scope] = s
		}
		pat := t.Run
		if pat == "" { // a subtest known only at run time
			pat = runPattern(t.Name)
		}
		if t.Kind == testdex.KindBenchmark {
			s.bench = append(s.bench, pat)
		} else {
			s.run = append(s.run, pat)
		}
	}
	groups := map[string][]string{} // selection -> packages
	for pkg, s := range byPkg {
		key := strings.Join(s.run, "|") + "\x00" + strings.Join(s.bench, "|")
		groups[key] = append(groups[key], pkg)
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var cmds []*lang.Command
	for _, k := range keys {
		run, bench, _ := strings.Cut(k, "\x00")
		args := []string{"go", "test", "-json", "-count=1"}
		switch {
		case run != "":
			args = append(args, "-run", run)
		case bench != "":
			args = append(args, "-run", "^$")
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
		cmds = append(cmds, &lang.Command{Args: args, Dir: p.Dir})
	}
	return cmds, nil
}

// NewParser returns a streaming parser of go test -json output.
func (runner) NewParser(p *lang.Project, _ *lang.Command, emit func(lang.RunEvent)) lang.Parser {
	return &jsonParser{module: p.Name, emit: emit, out: map[string]*bytes.Buffer{}}
}

// jsonParser turns test2json events into RunEvents. It is an io.Writer
// fed arbitrary chunks: it splits lines itself.
type jsonParser struct {
	module  string
	emit    func(lang.RunEvent)
	partial []byte
	out     map[string]*bytes.Buffer // per test, for the failure message
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

func (j *jsonParser) Write(b []byte) (int, error) {
	j.partial = append(j.partial, b...)
	for {
		i := bytes.IndexByte(j.partial, '\n')
		if i < 0 {
			break
		}
		j.line(j.partial[:i])
		j.partial = j.partial[i+1:]
	}
	return len(b), nil
}

func (j *jsonParser) Close(int) error {
	if len(j.partial) > 0 {
		j.line(j.partial)
		j.partial = nil
	}
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
		return
	case "build-fail", "start":
		return
	}
	ev := lang.RunEvent{Action: testdex.Action(e.Action), Scope: e.Package, Name: e.Test, Elapsed: e.Elapsed, Output: e.Output}
	key := e.Package + "\x00" + e.Test
	switch {
	case e.Action == "output" && e.Test != "":
		b := j.out[key]
		if b == nil {
			b = &bytes.Buffer{}
			j.out[key] = b
		}
		if b.Len() < 64<<10 {
			b.WriteString(e.Output)
		}
	case e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
		// The package's own result: the core judges the batch itself.
		if e.FailedBuild != "" {
			j.emit(lang.RunEvent{Action: testdex.ActionOutput, Output: "build failed: " + e.FailedBuild + "\n"})
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
func failure(out *bytes.Buffer, dir string) (msg, file string, line int) {
	if out == nil {
		return "", "", 0
	}
	sc := bufio.NewScanner(bytes.NewReader(out.Bytes()))
	for sc.Scan() {
		if m := failLine.FindStringSubmatch(sc.Text()); m != nil {
			n, _ := strconv.Atoi(m[2])
			msg, file, line = m[3], path.Join(dir, m[1]), n
		}
	}
	return msg, file, line
}
