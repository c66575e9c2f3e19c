package parsertest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lines"
)

// recorder is a testing.TB that keeps what Run reports; Fatalf stops Run
// (with a panic that check recovers), as it stops a test.
type recorder struct {
	testing.TB
	msgs []string
}

type stopped struct{}

func (r *recorder) Helper()      {}
func (r *recorder) Name() string { return "TestParser" }
func (r *recorder) Errorf(format string, args ...any) {
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	panic(stopped{})
}
func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }

// check runs c through Run with a recorder and returns what it reported.
func check(t *testing.T, c Case) (evs []lang.RunEvent, msgs []string) {
	r := &recorder{TB: t}
	defer func() {
		if p := recover(); p != nil && p != (stopped{}) {
			panic(p)
		}
		msgs = r.msgs
	}()
	return Run(r, c), nil
}

// lineParser makes each line an output event and, at Close, a result
// named after the exit code: a parser that reads its stream right.
type lineParser struct {
	emit func(lang.RunEvent)
	out  lines.Splitter
}

func newLineParser(emit func(lang.RunEvent)) lang.Parser {
	p := &lineParser{emit: emit}
	p.out.Line = func(l []byte) { emit(lang.RunEvent{Action: testdex.ActionOutput, Output: string(l) + "\n"}) }
	return p
}

func (p *lineParser) Write(b []byte) (int, error) { return p.out.Write(b) }
func (p *lineParser) Close(code int) error {
	p.out.Flush()
	p.emit(lang.RunEvent{Action: testdex.ActionPass, Name: fmt.Sprint("exit ", code)})
	return nil
}

var stream = []byte(strings.Repeat("a line of output\n", 30) + "ünïcode\nno newline")

// TestRunGood: a parser that reads the stream right passes, its events
// compared with the golden file, and the events come back.
func TestRunGood(t *testing.T) {
	file := filepath.Join(t.TempDir(), "good.jsonl")
	want := Encode([]lang.RunEvent{{Action: testdex.ActionOutput, Output: "a\n"}, {Action: testdex.ActionPass, Name: "exit 1"}})
	os.WriteFile(file, want, 0o644)
	evs, msgs := check(t, Case{Data: []byte("a"), New: newLineParser, Exit: 1, Golden: file})
	if len(msgs) != 0 || len(evs) != 2 {
		t.Errorf("a good parser: %d events, reported %q", len(evs), msgs)
	}
	evs, msgs = check(t, Case{Data: stream, New: newLineParser, Exit: 1, Golden: file})
	if len(msgs) != 1 || !strings.Contains(msgs[0], "good.jsonl differs") || len(evs) != 33 {
		t.Errorf("events unlike the golden file: %d events, reported %q", len(evs), msgs)
	}
	evs, msgs = check(t, Case{Data: stream, New: newLineParser, Exit: Killed, Cut: 20})
	if len(msgs) != 0 || len(evs) != 3 || evs[1].Output != "a l\n" || evs[2].Name != "exit -1" {
		t.Errorf("cut after 20 bytes: %+v, reported %q", evs, msgs)
	}
}

// chunkParser emits each chunk as it comes: the events depend on how the
// stream was written, which Run must catch.
type chunkParser struct{ emit func(lang.RunEvent) }

func (p chunkParser) Write(b []byte) (int, error) {
	p.emit(lang.RunEvent{Action: testdex.ActionOutput, Output: string(b)})
	return len(b), nil
}
func (p chunkParser) Close(int) error { return nil }

// TestRunChunkDependent: a parser whose events depend on the chunks fails.
func TestRunChunkDependent(t *testing.T) {
	_, msgs := check(t, Case{Data: stream, New: func(emit func(lang.RunEvent)) lang.Parser { return chunkParser{emit} }})
	if len(msgs) != 1 || !strings.Contains(msgs[0], "in chunks of 1 bytes: event 0") {
		t.Errorf("reported %q, want the first chunk size and event that differ", msgs)
	}
}

// fragileParser panics when it is closed in the middle of a line.
type fragileParser struct{ pending int }

func (p *fragileParser) Write(b []byte) (int, error) {
	for _, c := range b {
		p.pending++
		if c == '\n' {
			p.pending = 0
		}
	}
	return len(b), nil
}

func (p *fragileParser) Close(code int) error {
	if p.pending > 0 && code == Killed {
		panic("half a line")
	}
	return nil
}

// TestRunKilled: a parser that panics when killed mid-line is reported,
// with where the stream was cut.
func TestRunKilled(t *testing.T) {
	_, msgs := check(t, Case{Data: []byte("ab\ncd\n"), New: func(func(lang.RunEvent)) lang.Parser { return &fragileParser{} }})
	want := []string{
		"stream \"ab\\ncd\\n\" cut after 1 bytes and killed: the parser panicked: half a line",
		"stream \"ab\\ncd\\n\" cut after 4 bytes and killed: the parser panicked: half a line",
	}
	if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("reported %q, want %q", msgs, want)
	}
}
