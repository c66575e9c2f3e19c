package js

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// parser turns a JavaScript run into RunEvents: standard output becomes
// batch output line by line; the reporter's events file (see runner) gives
// the tests' results, read as it grows (on every write to standard output)
// and to its end at Close. Write and Close never overlap: Close comes after
// the command and its output copying ended. Every result the reporter
// wrote is reported as it came; nothing is filtered or made up.
type parser struct {
	dir        string // the project folder, to which files are relative
	emit       func(lang.RunEvent)
	eventsFile string
	offset     int64 // bytes of the events file already read
	stdout     lines
	events     lines
	cov        coverage
	// fw and covering say, for a coverage run, whose recorder ran, and
	// covNotes what it said of its gaps (see coverageNotes).
	fw       testdex.Framework
	covering bool
	covNotes covNotes
}

func newParser(dir string, emit func(lang.RunEvent)) *parser {
	ps := &parser{dir: dir, emit: emit, cov: coverage{dir: dir, real: realDir(dir)}}
	ps.stdout.line = func(l []byte) {
		ps.emit(lang.RunEvent{Action: testdex.ActionOutput, Output: string(l) + "\n"})
	}
	ps.events.line = ps.event
	return ps
}

// Write takes the command's standard output, and reads the results the
// reporter appended meanwhile.
func (ps *parser) Write(b []byte) (int, error) {
	n, err := ps.stdout.Write(b)
	ps.readEvents()
	return n, err
}

// readEvents feeds the events file's new bytes to the line splitter.
func (ps *parser) readEvents() error {
	if ps.eventsFile == "" {
		return nil
	}
	f, err := os.Open(ps.eventsFile)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return err
	}
	defer f.Close()
	if _, err := f.Seek(ps.offset, io.SeekStart); err != nil {
		return err
	}
	data, err := io.ReadAll(f)
	ps.offset += int64(len(data))
	ps.events.Write(data)
	return err
}

// Close flushes standard output, reads the rest of the events file, then
// the coverage file (see runner_coverage.go).
func (ps *parser) Close(int) error {
	ps.stdout.flush()
	if err := ps.readEvents(); err != nil {
		return err
	}
	ps.events.flush()
	if ps.eventsFile != "" {
		data, err := os.ReadFile(covFileOf(ps.eventsFile))
		if err != nil && !os.IsNotExist(err) {
			return err
		}
		cov := lines{line: ps.event}
		cov.Write(data)
		cov.flush()
	}
	ps.cov.flush(ps.emit)
	if ps.covering {
		for _, msg := range ps.covNotes.messages(ps.fw, len(ps.cov.tests) > 0) {
			ps.emit(lang.RunEvent{Action: lang.ActionCovered, Message: msg})
		}
	}
	return nil
}

// lines splits a stream into lines, keeping a partial one for later.
type lines struct {
	line    func([]byte)
	partial []byte
}

func (w *lines) Write(b []byte) (int, error) {
	w.partial = append(w.partial, b...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			return len(b), nil
		}
		w.line(w.partial[:i])
		w.partial = w.partial[i+1:]
	}
}

func (w *lines) flush() {
	if len(w.partial) > 0 {
		w.line(w.partial)
		w.partial = nil
	}
}

// jsEvent is one line of the events file.
type jsEvent struct {
	A      string   `json:"a"`
	File   string   `json:"file"`
	Titles []string `json:"titles"`
	Ms     float64  `json:"ms"`
	Msg    string   `json:"msg"`
	Stack  string   `json:"stack"`
	Out    string   `json:"out"`
	Suite  bool     `json:"suite"`
	// Cov is what ran, on a "cov" event: file -> line spans (see
	// runner_coverage.cjs).
	Cov map[string][][2]int `json:"cov"`
	// Nomap is, on a "covnote" event, a file that ran transformed without
	// a source map; Msg is the note otherwise. Unmapped marks a "cov"
	// event whose window ran such a file.
	Nomap    string `json:"nomap"`
	Unmapped bool   `json:"unmapped"`
}

func (ps *parser) event(l []byte) {
	var e jsEvent
	if len(bytes.TrimSpace(l)) == 0 || json.Unmarshal(l, &e) != nil {
		return
	}
	scope := relTo(ps.dir, e.File)
	name := strings.Join(e.Titles, " > ")
	switch e.A {
	case "output":
		ps.emit(lang.RunEvent{Action: testdex.ActionOutput, Output: e.Out})
		return
	case "cov":
		ps.covNotes.events++
		ps.covered(scope, name, e)
		return
	case "covnote":
		ps.covNotes.add(relTo(ps.dir, e.Nomap), e.Msg)
		return
	case "error":
		if scope == "" { // an error of the whole run (Vitest's unhandled errors)
			ps.emit(lang.RunEvent{Action: testdex.ActionOutput, Output: outsideTest(scope, "", e)})
			return
		}
		// A file that fails outside its tests (it does not load) is a suite
		// that failed with its own message, named by its path as node:test
		// names it.
		e.A, e.Suite, name = "fail", true, scope
		if e.Msg == "" {
			e.Msg = e.Stack
		}
	}
	ev := lang.RunEvent{Action: testdex.Action(e.A), Scope: scope, Name: name, Elapsed: e.Ms / 1000}
	if e.Suite {
		ev.Kind = testdex.KindSuite
	}
	switch ev.Action {
	case testdex.ActionPass, testdex.ActionFail, testdex.ActionSkip:
		ev.Message = cleanMessage(e.Msg)
	case testdex.ActionRun:
	default:
		return
	}
	if ev.Action != testdex.ActionSkip && !e.Suite {
		ps.cov.saw(scope, name) // for the coverage of code run outside tests
	}
	if ev.Action == testdex.ActionFail {
		ev.Line = stackLine(e.Stack, e.File, scope)
		if ev.Line > 0 {
			ev.File = scope
		}
	}
	ps.emit(ev)
}

// covered keeps a test's coverage, or that of the code run outside the
// tests of a file (no titles) or of the process (no file), for Close.
func (ps *parser) covered(scope, name string, e jsEvent) {
	if e.Unmapped {
		if len(e.Titles) == 0 {
			name = ""
		}
		ps.cov.markUnmapped(scope, name)
	}
	files := ps.cov.files(e.Cov)
	if len(files) == 0 {
		return
	}
	if len(e.Titles) > 0 {
		ps.cov.own = append(ps.cov.own, lang.RunEvent{Action: lang.ActionCovered, Scope: scope, Name: name, Covered: files})
		return
	}
	if ps.cov.shared == nil {
		ps.cov.shared = map[string][]lang.CoveredFile{}
	}
	ps.cov.shared[scope] = append(ps.cov.shared[scope], files...)
}

// outsideTest renders a failure that belongs to no test.
func outsideTest(file, name string, e jsEvent) string {
	where := strings.TrimSpace(file + " " + name)
	if where == "" {
		where = "run"
	}
	msg := cleanMessage(e.Msg)
	if msg == "" {
		msg = cleanMessage(e.Stack)
	}
	return where + ": " + msg + "\n"
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// cleanMessage removes terminal colours and surrounding space.
func cleanMessage(s string) string { return strings.TrimSpace(ansi.ReplaceAllString(s, "")) }

// stackLine returns the line of the first stack frame in the test file,
// named by its absolute path (possibly as a file:// URL) or, as Mocha
// shortens it, by its project-relative one; 0 when no frame is.
func stackLine(stack, abs, rel string) int {
	if stack == "" || abs == "" {
		return 0
	}
	re := regexp.MustCompile(`(?:^|[\s(])(?:file://)?(?:` + regexp.QuoteMeta(abs) + `|` + regexp.QuoteMeta(rel) + `):(\d+)`)
	m := re.FindStringSubmatch(ansi.ReplaceAllString(stack, ""))
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}
