package rust

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lines"
)

// NewParser returns a streaming parser of one cargo test command's
// standard output. Every result it reports is one "test NAME ... RESULT"
// line of libtest's, nothing more: a module or a row's function gets no
// result of its own.
//
// cargo prints which test binary runs ("Running tests/it.rs (...)",
// "Doc-tests NAME") on standard error, which the parser does not read;
// on standard output each binary's part starts with libtest's
// "running N tests" line. The parser gives the binaries' parts the
// targets the command runs, in the order cargo runs them (by target kind,
// lib, bins, tests, benches, examples, then by name: see binaries), the
// doc tests last; a part whose tests have doc-test names is the doc tests'
// whatever its place (rustdoc runs merged and standalone doc tests as two
// parts). Each result's Scope is its target's root file, as in the static
// records.
//
// A coverage script's command (see cover.go) gets the same parser, told
// where each binary's part starts, which also reads the tests' coverage.
func (r Runner) NewParser(p *lang.Project, cmd *lang.Command, emit func(lang.RunEvent)) lang.Parser {
	if cmd != nil && len(cmd.Args) > 5 && cmd.Args[0] == "sh" && cmd.Args[3] == coverScriptName {
		lp := r.newLibtestParser(&lang.Command{Args: cmd.Args[5:]}, emit)
		c := &coverParser{lp: lp, prefix: cmd.Args[4], root: p.Dir}
		c.lines.Line = c.line
		return c
	}
	return r.newLibtestParser(cmd, emit)
}

// newLibtestParser returns the parser of one cargo test command.
func (r Runner) newLibtestParser(cmd *lang.Command, emit func(lang.RunEvent)) *libtestParser {
	lp := &libtestParser{emit: emit, block: -1, failed: map[string]*failure{}}
	lp.lines.Line = func(l []byte) { lp.line(strings.TrimSuffix(string(l), "\r")) }
	if r.Crate != nil && r.Crate.DocPrefix != "" {
		lp.pathPrefix = r.Crate.DocPrefix + "/"
	}
	if lib := r.lib(); lib != nil {
		lp.libRoot = lib.Root
	}
	var cargoArgs []string
	if cmd != nil && len(cmd.Args) > 2 {
		cargoArgs = cmd.Args[2:]
		if i := slices.Index(cargoArgs, "--"); i >= 0 {
			cargoArgs = cargoArgs[:i]
		}
	}
	bins, doc := r.binaries(r.readRunTargets(), cargoArgs)
	for _, t := range bins {
		lp.roots = append(lp.roots, t.Root)
	}
	lp.docLast = doc
	return lp
}

// libtestParser reads libtest's text output. Stable libtest has no
// machine-readable format (--format json needs nightly), but its text is
// regular enough: every test ends with one line "test NAME ... RESULT",
// printed whole once the test ends (even with parallel threads), where
// NAME never contains " ... " (a Rust path, or a doc test's "FILE - ITEM
// (line N)"), followed by " - should panic", " - compile fail" or
// " - compile" for such tests, and RESULT is ok, FAILED, ignored[, REASON]
// or bench: ...; each failure's captured output follows later in a
// "---- NAME stdout ----" section holding the panic's "panicked at
// FILE:LINE:COL:" and message. Colour codes (`-- --color always`) are
// ignored. A test's own output cannot forge these lines while it is
// captured (the default); with --nocapture it may.
//
// A FAILED result is held until its section ends (the next section, the
// "failures:" list, the next binary or Close) so that the fail event
// carries the message and location.
type libtestParser struct {
	emit       func(lang.RunEvent)
	pathPrefix string   // workspace-relative crate folder, stripped from panic paths
	libRoot    string   // the library's root file, the doc tests' Scope
	roots      []string // the roots of the binaries the command runs, in order
	docLast    bool     // the doc tests run after them
	block      int      // the binary's part being read; -1 before the first
	doc        bool     // the part being read is the doc tests'
	lines      lines.Splitter
	failed     map[string]*failure // FAILED in this part, section not ended
	order      []string            // failed names in result order
	section    *failure            // the section being read
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

func (lp *libtestParser) Write(b []byte) (int, error) { return lp.lines.Write(b) }

// Close flushes a last partial line and the held failures.
func (lp *libtestParser) Close(int) error {
	lp.lines.Flush()
	lp.endPart()
	return nil
}

var (
	resultRE   = regexp.MustCompile(`^test (.+?) \.\.\. (.*)$`)
	runningRE2 = regexp.MustCompile(`^test (.+) has been running for over \d+ seconds$`)
	sectionRE  = regexp.MustCompile(`^---- (.+) std(out|err) ----$`)
	panicRE    = regexp.MustCompile(`^thread '.*'(?: \(\d+\))? panicked at (.+?):(\d+):\d+:$`)
	partRE     = regexp.MustCompile(`^running \d+ tests?$`)
	colourRE   = regexp.MustCompile(`\x1b(?:\[[0-9;?]*[A-Za-z]|\([A-Za-z0-9])`)
)

func (lp *libtestParser) line(raw string) {
	l := colourRE.ReplaceAllString(raw, "")
	if partRE.MatchString(l) {
		lp.endPart()
		lp.block++
		lp.doc = lp.doc || lp.block >= len(lp.roots) && lp.docLast
		lp.emit(lang.RunEvent{Action: testdex.ActionOutput, Output: raw + "\n"})
		return
	}
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
		lp.sectionLine(raw, l)
		return
	}
	if m := resultRE.FindStringSubmatch(l); m != nil {
		lp.result(testName(m[1]), m[2])
		return
	}
	if m := runningRE2.FindStringSubmatch(l); m != nil {
		lp.emit(lp.event(testdex.ActionRun, m[1]))
	}
	lp.emit(lang.RunEvent{Action: testdex.ActionOutput, Output: raw + "\n"})
}

// testName is the name in a result line: without the padding libtest
// adds when benchmarks run, and without the test's mode, which libtest
// prints after the name.
func testName(s string) string {
	s = strings.TrimRight(s, " ")
	for _, mode := range []string{" - should panic", " - compile fail", " - compile"} {
		if n, ok := strings.CutSuffix(s, mode); ok {
			return n
		}
	}
	return s
}

// event is an event of the named test in the current part.
func (lp *libtestParser) event(a testdex.Action, name string) lang.RunEvent {
	if !lp.doc && isDocName(name) && lp.libRoot != "" {
		lp.doc = true // a part of doc tests where a target's was expected
	}
	ev := lang.RunEvent{Action: a, Name: name}
	switch {
	case lp.doc:
		ev.Scope, ev.Kind = lp.libRoot, testdex.KindDoctest
	case lp.block < len(lp.roots) && len(lp.roots) > 0:
		ev.Scope = lp.roots[max(lp.block, 0)]
	case len(lp.roots) > 0:
		ev.Scope = lp.roots[len(lp.roots)-1] // more parts than targets: the last target's
	}
	return ev
}

// result handles one "test NAME ... RESULT" line.
func (lp *libtestParser) result(name, res string) {
	ev := lp.event("", name)
	switch {
	case res == "ok" || strings.HasPrefix(res, "ok <"):
		ev.Action = testdex.ActionPass
	case strings.HasPrefix(res, "FAILED"):
		if lp.failed[name] == nil {
			lp.failed[name] = &failure{name: name}
			lp.order = append(lp.order, name)
		}
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
	lp.emit(ev)
}

// sectionLine reads one line of a failure section: the test's captured
// output, the panic location and the message lines after it.
func (lp *libtestParser) sectionLine(raw, l string) {
	f := lp.section
	out := lp.event(testdex.ActionOutput, f.name)
	out.Output = raw + "\n"
	lp.emit(out)
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

// endPart ends a binary's part: its held failures are emitted.
func (lp *libtestParser) endPart() {
	lp.endSection()
	for _, name := range lp.order {
		lp.flushFailure(lp.failed[name])
	}
	lp.failed, lp.order = map[string]*failure{}, nil
}

func (lp *libtestParser) flushFailure(f *failure) {
	if f == nil || f.emitted {
		return
	}
	f.emitted = true
	ev := lp.event(testdex.ActionFail, f.name)
	ev.Message, ev.File, ev.Line = strings.Join(f.msg, "\n"), f.file, f.line
	lp.emit(ev)
}
