package python

import (
	"bytes"
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lines"
)

// eventParser reads the drivers' standard output: one JSON event a line,
// and nothing else, since the drivers keep the real stdout for themselves
// and point fd 1 at stderr before any test runs. That makes the stream
// reliable where pytest's terminal report is not: a test's print, a child
// process or a plugin cannot end up in it or mimic a result line. A line
// that is not an event (a driver that never started) is the batch's
// output. It is an io.Writer fed chunks of any size, cut into lines by its
// lines.Splitter.
type eventParser struct {
	emit    func(lang.RunEvent)
	project string // the project folder
	dir     string // the command's folder, which event files are relative to
	lines   lines.Splitter
	// shared are the lines of the process that go to each of its tests
	// (the covered event with an empty nodeid: see runner_coverage.py).
	shared map[string][]lang.Span
}

func newEventParser(p *lang.Project, cmd *lang.Command, emit func(lang.RunEvent)) *eventParser {
	dir := p.Dir
	if cmd != nil && cmd.Dir != "" {
		dir = cmd.Dir
	}
	e := &eventParser{emit: emit, project: p.Dir, dir: dir}
	e.lines.Line = e.line
	return e
}

// driverEvent is one line of the drivers' stream. File and Line are where
// a failure shows, Decl the file declaring the test (unittest's), both
// relative to the command's folder.
type driverEvent struct {
	Action  string  `json:"action"`
	NodeID  string  `json:"nodeid"`
	Elapsed float64 `json:"elapsed"`
	Message string  `json:"message"`
	File    string  `json:"file"`
	Line    int     `json:"line"`
	Decl    string  `json:"decl"`
	Output  string  `json:"output"`
	// Files are a covered event's lines: absolute file -> its lines,
	// 1-based, sorted and comma-separated ("1,2,5": see lineSpans).
	Files map[string]string `json:"files"`
}

func (e *eventParser) Write(b []byte) (int, error) { return e.lines.Write(b) }

// Close flushes a last line cut short; results missing at exit are the
// core's to settle.
func (e *eventParser) Close(int) error {
	e.lines.Flush()
	return nil
}

func (e *eventParser) line(l []byte) {
	if len(bytes.TrimSpace(l)) == 0 {
		return
	}
	var d driverEvent
	if json.Unmarshal(l, &d) != nil || d.Action == "" {
		e.emit(lang.RunEvent{Action: testdex.ActionOutput, Output: string(l) + "\n"})
		return
	}
	if d.Action == string(lang.ActionCovered) {
		e.covered(&d)
		return
	}
	ev := lang.RunEvent{Action: testdex.Action(d.Action), Name: d.NodeID, Elapsed: d.Elapsed,
		Output: d.Output, Message: d.Message, Line: d.Line}
	if d.File != "" {
		ev.File = e.projectRel(d.File)
		if ev.File == "" {
			ev.Line = 0
		}
	}
	if d.Decl != "" {
		ev.Decl = e.projectRel(d.Decl)
	}
	e.emit(ev)
}

// projectRel turns a file relative to the command's folder into one
// relative to the project; "" when it lies outside.
func (e *eventParser) projectRel(file string) string {
	rel := relTo(e.project, filepath.Join(e.dir, filepath.FromSlash(file)))
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return ""
	}
	return rel
}

// covered handles a covered event: the process's shared lines (an empty
// nodeid, sent first) are kept and added to each test's, which is emitted
// as one lang.ActionCovered event named as the test's other events; one
// with an empty nodeid and a message is a note (lang.ActionCovered).
func (e *eventParser) covered(d *driverEvent) {
	if d.NodeID == "" && d.Message != "" { // a note: why coverage is missing
		e.emit(lang.RunEvent{Action: lang.ActionCovered, Message: d.Message})
		return
	}
	if d.NodeID == "" {
		e.shared = map[string][]lang.Span{}
		for file, lines := range d.Files {
			e.shared[file] = lineSpans(lines)
		}
		return
	}
	// Each file's spans are sorted and merged, the driver's as toSpans
	// leaves them and the shared ones: a linear merge joins them, and a
	// file of the shared lines alone is handed on as it is (the core
	// copies what it keeps).
	files := make(map[string][]lang.Span, len(e.shared)+len(d.Files))
	for file, spans := range e.shared {
		files[file] = spans
	}
	for file, lines := range d.Files {
		files[file] = lang.MergeSorted(lineSpans(lines), files[file])
	}
	ev := lang.RunEvent{Action: lang.ActionCovered, Name: d.NodeID}
	if d.Decl != "" {
		ev.Decl = e.projectRel(d.Decl)
	}
	ev.Covered = make([]lang.CoveredFile, 0, len(files))
	for _, file := range slices.Sorted(maps.Keys(files)) {
		if len(files[file]) == 0 {
			continue
		}
		ev.Covered = append(ev.Covered, lang.CoveredFile{File: filepath.Clean(file), Lines: files[file]})
	}
	e.emit(ev)
}

// lineSpans reads a file's lines as the driver sends them ("1,2,5",
// sorted: a string rather than a JSON array of spans, which took the
// driver a Python step a line to cut and the parser a reflective decode),
// as merged spans; what is not a line (below 1, not a number) is
// dropped, and lines out of order are sorted.
func lineSpans(s string) []lang.Span {
	var out []lang.Span
	sorted := true
	for s != "" {
		field := s
		if i := strings.IndexByte(s, ','); i >= 0 {
			field, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		n, err := strconv.Atoi(field)
		if err != nil || n < 1 {
			continue
		}
		if k := len(out); k > 0 {
			switch last := &out[k-1]; {
			case n == last.End+1:
				last.End = n
				continue
			case n <= last.End:
				sorted = false
			}
		}
		out = append(out, lang.Span{Start: n, End: n})
	}
	if !sorted {
		return lang.MergeSpans(out)
	}
	return out
}
