// Package lines is the one line splitter of testdex: every parser of a
// child process's output, every events file read as it grows and the MCP
// server's request reader cut their streams into lines here.
//
//	chunks of any size ──► Splitter.Write ──► Line(line) for each whole line
//	                        Splitter.Flush ──► Line(rest) for an unended last line
//	bufio.Reader ─────────► ReadLine ───────► one line, cut short and marked long
//
// Both forms are bounded, so that a process printing without newlines
// cannot make testdex hold its whole output, and both are UTF-8-safe: where
// a line must be cut, the cut falls between runes, never inside a valid
// one (invalid bytes are cut anywhere, as they encode no rune).
//
// A Splitter keeps every byte: a line longer than its bound is handed on in
// pieces, each of at most Max bytes. ReadLine, which reads requests that
// must be whole to mean anything, keeps the first limit bytes of a long
// line, marks it long and drops the rest of it.
package lines

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"unicode/utf8"
)

// DefaultMax is the bound of a Splitter whose Max is 0: far above any line
// a runner writes (a coverage event naming every line one test ran in a
// large project is a few megabytes), small enough that output without
// newlines costs a bounded amount of memory.
const DefaultMax = 64 << 20

// keepCap is the most buffer a Splitter keeps for reuse between lines.
const keepCap = 64 << 10

// Splitter is an io.Writer that cuts what is written to it, in chunks of
// any size, into lines and hands each to Line, in order. The zero value
// with Line set is ready to use. A Splitter is not safe for concurrent use,
// and Line must not write to the Splitter calling it.
//
// A line of at most Max bytes (without its newline) is handed on whole. A
// longer one is handed on in pieces: each of at most Max bytes, cut between
// runes, and the last one ending the line; every piece is a call of Line of
// its own, so a parser sees the pieces as lines it does not recognise (as
// output), and no byte is lost. The cuts do not depend on how the stream
// was chunked.
type Splitter struct {
	// Line receives each line. The slice is valid only during the call.
	Line func(line []byte)
	// Max is the longest line handed on whole, in bytes; 0 means
	// DefaultMax, and a bound below utf8.UTFMax counts as utf8.UTFMax.
	Max int
	// Newline leaves on each line the "\n" that ended it in the stream (a
	// piece of a long line and an unended last line have none), so that
	// the lines joined are the stream. Without it, lines come without
	// their "\n"; a "\r" before it is the caller's to trim either way.
	Newline bool

	buf     []byte // the line being read, not yet handed on
	scanned int    // the bytes at the start of buf known to hold no '\n'
}

// Write hands each line p completes to Line, and keeps the rest for the
// next Write or Flush. It never fails.
func (s *Splitter) Write(p []byte) (int, error) {
	s.buf = append(s.buf, p...)
	rest, from := s.buf, s.scanned
	for {
		i := bytes.IndexByte(rest[from:], '\n')
		if i < 0 {
			break
		}
		s.deliver(rest[:from+i], true)
		rest, from = rest[from+i+1:], 0
	}
	// A long line is handed on in pieces as soon as the cut is sure: the
	// bytes after the bound that a rune across it could take are there.
	max := s.max()
	for len(rest) >= max+utf8.UTFMax {
		cut := cutAt(rest, max)
		s.Line(rest[:cut])
		rest = rest[cut:]
	}
	if len(rest) == 0 && cap(rest) > keepCap {
		rest = nil // let a long line's array go once nothing is pending
	}
	s.buf, s.scanned = rest, len(rest)
	return len(p), nil
}

// Flush hands a last line that no newline ended to Line (in pieces if it
// is long), and forgets it.
func (s *Splitter) Flush() {
	if len(s.buf) > 0 {
		s.deliver(s.buf, false)
	}
	s.buf, s.scanned = nil, 0
}

// Close flushes; it makes a Splitter an io.WriteCloser. It never fails.
func (s *Splitter) Close() error {
	s.Flush()
	return nil
}

// deliver hands on one line without its newline, in pieces when it is
// longer than the bound; ended says a newline ended it.
func (s *Splitter) deliver(line []byte, ended bool) {
	max := s.max()
	for len(line) > max {
		cut := cutAt(line, max)
		s.Line(line[:cut])
		line = line[cut:]
	}
	if ended && s.Newline {
		// The newline is in the buffer, right after the line.
		line = line[:len(line)+1]
	}
	s.Line(line)
}

func (s *Splitter) max() int {
	switch {
	case s.Max == 0:
		return DefaultMax
	case s.Max < utf8.UTFMax:
		return utf8.UTFMax
	}
	return s.Max
}

// cutAt returns where to cut b, longer than max, so that the first part
// has at most max bytes and no valid rune is split: max, or the start of
// the rune that crosses it. It reads b only up to max+utf8.UTFMax-1.
func cutAt(b []byte, max int) int {
	for j := max - 1; j >= 0 && j > max-utf8.UTFMax; j-- {
		if !utf8.RuneStart(b[j]) {
			continue
		}
		r, size := utf8.DecodeRune(b[j:min(len(b), j+utf8.UTFMax)])
		if (r != utf8.RuneError || size > 1) && j+size > max && j > 0 {
			return j
		}
		return max
	}
	return max
}

// ReadLine reads the next line from r and returns it without its "\n". A
// line longer than limit bytes is read to its end, but only its first
// limit bytes at most are returned, cut between runes, with long set. A
// last line without a newline is a line; err is io.EOF after it (or the
// reader's error).
func ReadLine(r *bufio.Reader, limit int) (line []byte, long bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if err == nil {
			chunk = bytes.TrimSuffix(chunk, []byte("\n"))
		}
		if !long {
			line = append(line, chunk...)
			if len(line) > limit {
				line, long = line[:cutAt(line, max(limit, 0))], true
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == nil, errors.Is(err, io.EOF) && (len(line) > 0 || long):
			return line, long, nil
		default:
			return nil, false, err
		}
	}
}
