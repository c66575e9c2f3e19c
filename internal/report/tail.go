package report

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// What the text view shows of a failed test's output: its last
// shownLines lines, each cut at shownLineBytes. The JSON stream keeps all
// of it (up to the runner's capture cap).
const (
	shownLines     = 50
	shownLineBytes = 500
)

// outputTail keeps the last lines of a test's output as it arrives in
// chunks that need not end at a line break (go test -json splits a long
// line into several events). It holds at most shownLines lines of at most
// shownLineBytes bytes (plus a rune), so a test printing megabytes costs
// little.
type outputTail struct {
	lines   []string // the last complete lines, each already cut
	dropped int      // complete lines before them
	cur     []byte   // the start of the line being written
	curLen  int      // its full length so far
	curCR   bool     // its last byte so far is \r
}

// write adds a chunk of output.
func (t *outputTail) write(s string) {
	for s != "" {
		chunk, rest, ended := strings.Cut(s, "\n")
		if room := shownLineBytes + utf8.UTFMax - len(t.cur); room > 0 {
			t.cur = append(t.cur, chunk[:min(room, len(chunk))]...)
		}
		t.curLen += len(chunk)
		if chunk != "" {
			t.curCR = chunk[len(chunk)-1] == '\r'
		}
		if !ended {
			return
		}
		t.endLine()
		s = rest
	}
}

// endLine ends the line being written.
func (t *outputTail) endLine() {
	if t.curCR { // a \r\n line end
		t.curLen--
		t.cur = t.cur[:min(len(t.cur), t.curLen)]
	}
	line := cutLine(string(t.cur), t.curLen)
	t.cur, t.curLen, t.curCR = t.cur[:0], 0, false
	t.lines = append(t.lines, line)
	if len(t.lines) > shownLines {
		t.lines = t.lines[1:]
		t.dropped++
	}
}

// cutLine cuts the start of a line whose full length is total at
// shownLineBytes, on a rune boundary, noting how much was cut.
func cutLine(start string, total int) string {
	if total <= shownLineBytes {
		return start
	}
	n := shownLineBytes
	for n > shownLineBytes-utf8.UTFMax && !utf8.RuneStart(start[n]) {
		n--
	}
	return start[:n] + fmt.Sprintf(" [... %d more bytes]", total-n)
}

// shown returns the lines to show, after a line saying how many earlier
// ones were left out; nil when the test printed nothing.
func (t *outputTail) shown() []string {
	if t == nil {
		return nil
	}
	if t.curLen > 0 {
		t.endLine()
	}
	if t.dropped == 0 {
		return t.lines
	}
	note := fmt.Sprintf("[... %d earlier lines not shown; testdex run --json has the whole output]", t.dropped)
	return append([]string{note}, t.lines...)
}
