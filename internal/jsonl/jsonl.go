// Package jsonl writes test records as JSON Lines without reflection.
//
// AppendTest writes exactly the bytes encoding/json's Encoder (HTML
// escaping off) writes for a testdex.Test, field for field, so the wire
// format of `testdex list --json` stays the one the struct tags define;
// the tests compare the two on every record of real listings and on
// strings that need escaping. Strings holding only printable ASCII
// without quote or backslash, nearly all of them, are copied as they are;
// any other string, and the rare nested fields (Spec, Meta), go through
// encoding/json itself.
package jsonl

import (
	"bytes"
	"encoding/json"
	"io"
	"runtime"
	"strconv"

	"github.com/testdex/testdex"
)

// AppendTest appends t's JSON record and a newline to b.
func AppendTest(b []byte, t *testdex.Test) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, t.ID)
	b = append(b, `,"framework":`...)
	b = appendString(b, string(t.Framework))
	b = append(b, `,"kind":`...)
	b = appendString(b, string(t.Kind))
	b = append(b, `,"scope":`...)
	b = appendString(b, t.Scope)
	b = append(b, `,"name":`...)
	b = appendString(b, t.Name)
	b = append(b, `,"parent":`...)
	b = appendString(b, t.Parent)
	b = append(b, `,"dynamic":`...)
	b = strconv.AppendBool(b, t.Dynamic)
	b = append(b, `,"file":`...)
	b = appendString(b, t.File)
	b = append(b, `,"line":`...)
	b = strconv.AppendInt(b, int64(t.Line), 10)
	b = append(b, `,"tags":`...)
	b = appendStrings(b, t.Tags)
	b = append(b, `,"skip":`...)
	b = strconv.AppendBool(b, t.Skip)
	if t.Only {
		b = append(b, `,"only":true`...)
	}
	if t.Variant != "" {
		b = append(b, `,"variant":`...)
		b = appendString(b, t.Variant)
	}
	b = append(b, `,"project":`...)
	b = appendString(b, t.Project)
	if t.Run != "" {
		b = append(b, `,"run":`...)
		b = appendString(b, t.Run)
	}
	if len(t.Seen) > 0 {
		b = append(b, `,"seen":`...)
		b = appendStrings(b, t.Seen)
	}
	if t.Spec != nil {
		b = append(b, `,"spec":`...)
		b = appendValue(b, t.Spec)
	}
	if len(t.Meta) > 0 {
		b = append(b, `,"meta":`...)
		b = appendValue(b, t.Meta)
	}
	return append(b, "}\n"...)
}

// appendStrings appends a string slice as encoding/json does: null when
// nil, an array otherwise.
func appendStrings(b []byte, ss []string) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// appendString appends s quoted. A string of printable ASCII without '"'
// or '\\' is copied; any other goes through encoding/json, whose escapes
// (control characters, invalid UTF-8, U+2028 and U+2029) are the contract.
func appendString(b []byte, s string) []byte {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if !plainWord(w) {
			break
		}
	}
	for ; i < len(s); i++ {
		if !plain[s[i]] {
			return appendValue(b, s)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// plainWord reports whether the 8 bytes of w are all plain: none below
// 0x20, none from 0x7f, none a '"' or a '\\' (the tests of "Bit Twiddling
// Hacks" for a zero byte and a byte less than n, which are exact).
func plainWord(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	hasZero := func(v uint64) uint64 { return (v - ones) & ^v & highs }
	bad := (w - 0x20*ones) & ^w & highs // a byte below 0x20
	bad |= w & highs                    // a byte from 0x80
	bad |= hasZero(w ^ 0x7f*ones)       // 0x7f
	bad |= hasZero(w ^ '"'*ones)
	bad |= hasZero(w ^ '\\'*ones)
	return bad == 0
}

// plain marks the bytes a string may hold and still be copied as it is:
// printable ASCII but '"' and '\\'.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendValue appends v as encoding/json's Encoder writes it with HTML
// escaping off, without the Encoder's newline.
func appendValue(b []byte, v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Strings, string maps and SpecMeta always encode; keep the
		// record valid JSON should that ever change.
		return append(b, "null"...)
	}
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}

// chunk is how many records one goroutine of WriteTests encodes at a time.
const chunk = 2048

// WriteTests writes the records as JSON Lines to w, in order. Chunks of
// records are encoded on all cores while the ones before them are being
// written; at most 2×GOMAXPROCS encoded chunks wait for the writer, and
// their buffers are reused once written, so the encoding touches a few
// chunks' worth of fresh memory rather than the whole listing's.
func WriteTests(w io.Writer, tests []testdex.Test) error {
	n := (len(tests) + chunk - 1) / chunk
	if n <= 1 {
		_, err := w.Write(appendAll(make([]byte, 0, 512*len(tests)), tests))
		return err
	}
	workers := runtime.GOMAXPROCS(0)
	out := make([]chan []byte, n)
	for i := range out {
		out[i] = make(chan []byte, 1)
	}
	next := make(chan int)
	stop := make(chan struct{})
	defer close(stop)
	// The feeder takes a slot for each chunk, in order, before handing it
	// out: the chunk the writer waits for always has one.
	slots := make(chan struct{}, 2*workers)
	free := make(chan []byte, 2*workers+workers)
	go func() {
		defer close(next)
		for i := range n {
			select {
			case slots <- struct{}{}:
			case <-stop:
				return
			}
			select {
			case next <- i:
			case <-stop:
				return
			}
		}
	}()
	for range workers {
		go func() {
			for i := range next {
				lo, hi := i*chunk, min((i+1)*chunk, len(tests))
				var buf []byte
				select {
				case buf = <-free:
				default:
					buf = make([]byte, 0, 512*chunk)
				}
				out[i] <- appendAll(buf, tests[lo:hi])
			}
		}()
	}
	for i := range n {
		b := <-out[i]
		<-slots
		if _, err := w.Write(b); err != nil {
			return err
		}
		select {
		case free <- b[:0]:
		default:
		}
	}
	return nil
}

func appendAll(b []byte, tests []testdex.Test) []byte {
	for i := range tests {
		b = AppendTest(b, &tests[i])
	}
	return b
}
