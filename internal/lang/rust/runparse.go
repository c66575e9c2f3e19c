package rust

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// NewParser returns a streaming parser of one cargo test command's
// standard output. Every test it reports gets the Scope of the command's
// target (see Runner), read from cmd's target flags.
func (r Runner) NewParser(p *lang.Project, cmd *lang.Command, emit func(lang.RunEvent)) lang.Parser {
	lp := &libtestParser{emit: emit, scope: r.scopeOf(cmd), failed: map[string]*failure{}}
	if r.Crate != nil && r.Crate.DocPrefix != "" {
		lp.pathPrefix = r.Crate.DocPrefix + "/"
	}
	lp.suites = suitesOf(cmd)
	return lp
}

// scopeOf returns the target root a command runs: the library's for --lib
// and --doc, the named target's for --bin, --test and the like.
func (r Runner) scopeOf(cmd *lang.Command) string {
	if cmd == nil || r.Crate == nil {
		return ""
	}
	for i, a := range cmd.Args {
		if a == "--" {
			break
		}
		kind, named := strings.CutPrefix(a, "--")
		for _, t := range r.Crate.Targets {
			switch {
			case (a == "--lib" || a == "--doc") && t.Kind == "lib":
				return t.Root
			case named && t.Kind == kind && i+1 < len(cmd.Args) && t.Name == cmd.Args[i+1]:
				return t.Root
			}
		}
	}
	return ""
}

// suitesOf returns the module paths a command without --exact selects
// (its "a::b::" filters), to report each as a whole.
func suitesOf(cmd *lang.Command) []string {
	if cmd == nil {
		return nil
	}
	i := slices.Index(cmd.Args, "--")
	if i < 0 || slices.Contains(cmd.Args[i:], "--exact") {
		return nil
	}
	var out []string
	for _, a := range cmd.Args[i+1:] {
		if s, ok := strings.CutSuffix(a, "::"); ok && !strings.HasPrefix(a, "-") {
			out = append(out, s)
		}
	}
	return out
}

// libtestParser reads libtest's text output. Stable libtest has no
// machine-readable format (--format json needs nightly), but its text is
// regular enough: every test ends with one line "test NAME ... RESULT",
// printed whole once the test ends (even with parallel threads), where
// NAME never contains " ... " (a Rust path, or a doc test's "FILE - ITEM
// (line N)") and RESULT is ok, FAILED, ignored[, REASON] or bench: ...;
// each failure's captured output follows later in a "---- NAME stdout
// ----" section holding the panic's "panicked at FILE:LINE:COL:" and
// message. A test's own output cannot forge these lines while it is
// captured (the default); with --nocapture it may.
//
// A FAILED result is held until its section ends (the next section, the
// "failures:" list, or Close) so that the fail event carries the message
// and location.
type libtestParser struct {
	emit       func(lang.RunEvent)
	scope      string
	pathPrefix string   // workspace-relative crate folder, stripped from panic paths
	suites     []string // module paths selected as a whole
	partial    []byte
	failed     map[string]*failure // FAILED, section not ended
	order      []string            // failed names in result order
	section    *failure            // the section being read
	outcomes   map[string]testdex.Action
}

// failure is what a failure section says about one test.
type failure struct {
	name    string
	msg     []string
	file    string
	line    int
	inMsg   bool
	emitted bool
}

func (lp *libtestParser) Write(b []byte) (int, error) {
	lp.partial = append(lp.partial, b...)
	for {
		i := bytes.IndexByte(lp.partial, '\n')
		if i < 0 {
			return len(b), nil
		}
		lp.line(strings.TrimSuffix(string(lp.partial[:i]), "\r"))
		lp.partial = lp.partial[i+1:]
	}
}

// Close flushes a last partial line, the held failures, and the results
// of the suites selected as a whole.
func (lp *libtestParser) Close(int) error {
	if len(lp.partial) > 0 {
		lp.line(string(lp.partial))
		lp.partial = nil
	}
	lp.endSection()
	for _, name := range lp.order {
		lp.flushFailure(lp.failed[name])
	}
	lp.reportSuites()
	return nil
}

var (
	resultRE   = regexp.MustCompile(`^test (.+?) \.\.\. (.*)$`)
	runningRE2 = regexp.MustCompile(`^test (.+) has been running for over \d+ seconds$`)
	sectionRE  = regexp.MustCompile(`^---- (.+) std(out|err) ----$`)
	panicRE    = regexp.MustCompile(`^thread '.*'(?: \(\d+\))? panicked at (.+?):(\d+):\d+:$`)
)

func (lp *libtestParser) line(l string) {
	if m := sectionRE.FindStringSubmatch(l); m != nil {
		lp.endSection()
		lp.section = &failure{name: m[1]}
		if f := lp.failed[m[1]]; f != nil {
			lp.section = f
		}
		return
	}
	if l == "failures:" || l == "successes:" || strings.HasPrefix(l, "test result: ") {
		lp.endSection()
	}
	if lp.section != nil {
		lp.sectionLine(l)
		return
	}
	if m := resultRE.FindStringSubmatch(l); m != nil {
		lp.result(strings.TrimSuffix(m[1], " - should panic"), m[2])
		return
	}
	if m := runningRE2.FindStringSubmatch(l); m != nil {
		lp.emit(lang.RunEvent{Action: testdex.ActionRun, Scope: lp.scope, Name: m[1]})
	}
	lp.emit(lang.RunEvent{Action: testdex.ActionOutput, Output: l + "\n"})
}

// result handles one "test NAME ... RESULT" line.
func (lp *libtestParser) result(name, res string) {
	ev := lang.RunEvent{Scope: lp.scope, Name: name}
	switch {
	case res == "ok" || strings.HasPrefix(res, "ok <"):
		ev.Action = testdex.ActionPass
	case strings.HasPrefix(res, "FAILED"):
		if lp.failed[name] == nil {
			lp.failed[name] = &failure{name: name}
			lp.order = append(lp.order, name)
		}
		lp.record(name, testdex.ActionFail)
		return
	case strings.HasPrefix(res, "ignored"):
		ev.Action = testdex.ActionSkip
		ev.Message = strings.TrimPrefix(strings.TrimPrefix(res, "ignored"), ", ")
	case strings.HasPrefix(res, "bench:"):
		ev.Action, ev.Output = testdex.ActionBench, res+"\n"
		lp.emit(ev)
		ev.Action, ev.Output = testdex.ActionPass, ""
	default:
		lp.emit(lang.RunEvent{Action: testdex.ActionOutput, Output: "test " + name + " ... " + res + "\n"})
		return
	}
	lp.record(name, ev.Action)
	lp.emit(ev)
}

// sectionLine reads one line of a failure section: the test's captured
// output, the panic location and the message lines after it.
func (lp *libtestParser) sectionLine(l string) {
	f := lp.section
	lp.emit(lang.RunEvent{Action: testdex.ActionOutput, Scope: lp.scope, Name: f.name, Output: l + "\n"})
	if m := panicRE.FindStringSubmatch(l); m != nil && f.file == "" {
		f.file = strings.TrimPrefix(strings.TrimPrefix(m[1], "./"), lp.pathPrefix)
		f.line, _ = strconv.Atoi(m[2])
		f.inMsg, f.msg = true, nil
		return
	}
	if !f.inMsg {
		return
	}
	if l == "" || l == "stack backtrace:" || strings.HasPrefix(l, "note: ") || len(f.msg) >= 20 {
		f.inMsg = false
		return
	}
	f.msg = append(f.msg, l)
}

// endSection emits the held failure whose section ends.
func (lp *libtestParser) endSection() {
	if lp.section != nil && lp.failed[lp.section.name] != nil {
		lp.flushFailure(lp.section)
	}
	lp.section = nil
}

func (lp *libtestParser) flushFailure(f *failure) {
	if f == nil || f.emitted {
		return
	}
	f.emitted = true
	lp.emit(lang.RunEvent{Action: testdex.ActionFail, Scope: lp.scope, Name: f.name,
		Message: strings.Join(f.msg, "\n"), File: f.file, Line: f.line})
}

func (lp *libtestParser) record(name string, a testdex.Action) {
	if lp.outcomes == nil {
		lp.outcomes = map[string]testdex.Action{}
	}
	lp.outcomes[name] = a
}

// reportSuites gives each module selected as a whole the result of the
// tests under it: failed if one failed, passed if one passed, skipped if
// all were ignored; no event when none ran.
func (lp *libtestParser) reportSuites() {
	for _, s := range lp.suites {
		var action testdex.Action
		for name, a := range lp.outcomes {
			if !strings.HasPrefix(name, s+"::") {
				continue
			}
			switch {
			case a == testdex.ActionFail:
				action = a
			case a == testdex.ActionPass && action != testdex.ActionFail:
				action = a
			case action == "":
				action = a
			}
		}
		if action != "" {
			lp.emit(lang.RunEvent{Action: action, Scope: lp.scope, Name: s})
		}
	}
}
