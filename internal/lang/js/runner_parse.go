package js

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lines"
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
	stdout     lines.Splitter
	events     lines.Splitter
	cov        coverage
	// fw and covering say, for a coverage run, whose recorder ran, and
	// covNotes what it said of its gaps (see coverageNotes).
	fw       testdex.Framework
	covering bool
	covNotes covNotes
}

func newParser(dir string, emit func(lang.RunEvent)) *parser {
	ps := &parser{dir: dir, emit: emit, cov: coverage{dir: dir, real: realDir(dir)}}
	ps.stdout.Line = func(l []byte) {
		ps.emit(lang.RunEvent{Action: testdex.ActionOutput, Output: string(l) + "\n"})
	}
	ps.events.Line = ps.event
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
	ps.stdout.Flush()
	if err := ps.readEvents(); err != nil {
		return err
	}
	ps.events.Flush()
	if ps.eventsFile != "" {
		data, err := os.ReadFile(covFileOf(ps.eventsFile))
		if err != nil && !os.IsNotExist(err) {
			return err
		}
		cov := lines.Splitter{Line: ps.event}
		cov.Write(data)
		cov.Flush()
	}
	ps.cov.flush(ps.emit)
	if ps.covering {
		for _, msg := range ps.covNotes.messages(ps.fw, len(ps.cov.tests) > 0) {
			ps.emit(lang.RunEvent{Action: lang.ActionCovered, Message: msg})
		}
	}
	return nil
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
	// runner_coverage.cjs); Fns says it as the functions entered, by
	// their files' tables (table id -> function indices), which "covtab"
	// events give (ID, Table).
	Cov   map[string][][2]int `json:"cov"`
	Fns   map[string][]int    `json:"fns"`
	ID    string              `json:"id"`
	Table json.RawMessage     `json:"t"`
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
		ps.cov.resolve(&e, func(file string) { ps.covNotes.add(relTo(ps.dir, file), "") })
		ps.covered(scope, name, e)
		return
	case "covtab":
		ps.cov.table(e.ID, e.Table)
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
		} else if file, line := ps.testFrame(e.Stack); line > 0 {
			ev.File, ev.Line = file, line // declared in a file the reported one loaded
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

// frameRe matches a V8 stack frame's location: "at fn (PATH:LINE:COL)" or
// "at PATH:LINE:COL", PATH possibly a file:// URL.
var frameRe = regexp.MustCompile(`^\s*at (?:.*? \()?(?:file://)?([^()\s]+?):(\d+):\d+\)?\s*$`)

// testFrame finds where a failure shows in the tests when the stack has
// no frame in the file the framework reported (Mocha names a test by the
// file it loaded, and a describe that requires other files makes their
// tests its own): the outermost frame of the first run of the project's
// own frames, the one the framework called, which is the test's body.
// Frames in node_modules and Node's internals end such a run. It returns
// a project-relative file and its line; 0 when the stack has no project
// frame.
func (ps *parser) testFrame(stack string) (string, int) {
	file, line := "", 0
	for _, l := range strings.Split(ansi.ReplaceAllString(stack, ""), "\n") {
		m := frameRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		rel, ok := ps.projectFile(m[1])
		if !ok {
			if line > 0 {
				break // past the project's frames: the framework called the last one
			}
			continue
		}
		file = rel
		line, _ = strconv.Atoi(m[2])
	}
	return file, line
}

// projectFile returns path relative to the project folder when it is a
// file of the project's own (not under node_modules, not Node's).
func (ps *parser) projectFile(path string) (string, bool) {
	if strings.HasPrefix(path, "node:") || strings.Contains(path, "/node_modules/") || strings.HasPrefix(path, "node_modules/") {
		return "", false
	}
	if !filepath.IsAbs(path) {
		if strings.HasPrefix(path, "../") || !strings.Contains(path, ".") {
			return "", false
		}
		return filepath.ToSlash(filepath.Clean(path)), true // Mocha shortens paths to the working folder's
	}
	for _, dir := range []string{ps.dir, ps.cov.real} {
		if rel, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel), true
		}
	}
	return "", false
}
