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
// the command and its output copying ended. Results outside the selection
// are dropped (their failures become batch output), and every suite of
// the selection that had no result of its own gets its children's: fail
// if one failed, else pass if one passed, else skip.
type parser struct {
	dir        string              // the project folder, to which files are relative
	sel        map[string][]string // file -> selected names ("" for all); nil keeps all
	emit       func(lang.RunEvent)
	eventsFile string
	offset     int64 // bytes of the events file already read
	stdout     lines
	events     lines
	results    map[string]testdex.Action // scope \x00 name -> final action
	order      []string                  // result keys in the order they came
}

func newParser(dir string, sel map[string][]string, emit func(lang.RunEvent)) *parser {
	ps := &parser{dir: dir, sel: sel, emit: emit, results: map[string]testdex.Action{}}
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

// Close flushes standard output, reads the events file and settles the
// suites.
func (ps *parser) Close(int) error {
	ps.stdout.flush()
	if err := ps.readEvents(); err != nil {
		return err
	}
	ps.events.flush()
	ps.settleSuites()
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
	case "error":
		ps.emit(lang.RunEvent{Action: testdex.ActionOutput, Output: outsideTest(scope, "", e)})
		return
	}
	if !ps.selected(scope, name) {
		if e.A == "fail" {
			ps.emit(lang.RunEvent{Action: testdex.ActionOutput, Output: outsideTest(scope, name, e)})
		}
		return
	}
	ev := lang.RunEvent{Action: testdex.Action(e.A), Scope: scope, Name: name, Elapsed: e.Ms / 1000}
	switch ev.Action {
	case testdex.ActionPass, testdex.ActionFail, testdex.ActionSkip:
		k := scope + "\x00" + name
		if _, ok := ps.results[k]; !ok {
			ps.order = append(ps.order, k)
		}
		ps.results[k] = ev.Action
		ev.Message = cleanMessage(e.Msg)
	case testdex.ActionRun:
	default:
		return
	}
	if ev.Action == testdex.ActionFail {
		ev.Line = stackLine(e.Stack, e.File, scope)
		if ev.Line > 0 {
			ev.File = scope
		}
	}
	ps.emit(ev)
}

// selected reports whether name in file is a selected record or one of
// its descendants.
func (ps *parser) selected(file, name string) bool {
	if ps.sel == nil {
		return true
	}
	for _, s := range ps.sel[file] {
		if s == "" || name == s || strings.HasPrefix(name, s+" > ") {
			return true
		}
	}
	return false
}

// outsideTest renders a failure that belongs to no selected test.
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
