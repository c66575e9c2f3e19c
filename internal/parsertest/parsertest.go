// Package parsertest is the test harness of the runners' output parsers
// (lang.Parser): a language checks a parser on a recorded stream with one
// call of Run.
//
//	recorded stream ──► a fresh parser per feeding: whole, every chunk size
//	  │                 from 1 to 64 bytes and some larger, random chunks
//	  │                 ──► the same events each time, or the test fails
//	  ├──► cut after and inside each line, Close(-1) as after a kill
//	  │                 ──► no panic
//	  └──► the events, one JSON object a line ──► golden.Check(Golden)
//
// Golden files are rewritten with the test binary's -update flag (package
// golden's); the failure message names the command.
package parsertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/golden"
	"github.com/testdex/testdex/internal/lang"
)

// Killed is the exit code a parser's Close gets for a process that was
// killed (proc.Run's for a signal).
const Killed = -1

// A Case is one recorded stream and the parser that reads it.
type Case struct {
	// Stream is the file holding the recorded output, relative to the
	// test's package folder.
	Stream string
	// Data is the recorded output itself, when Stream is "".
	Data []byte
	// New returns a fresh parser that emits to emit.
	New func(emit func(lang.RunEvent)) lang.Parser
	// Exit is the exit code Close gets: the recorded command's, or Killed.
	Exit int
	// Cut, when above 0, ends the stream after Cut bytes, as a kill in
	// the middle of the run does (Exit is then usually Killed).
	Cut int
	// Golden, when set, is the file the events are compared with, one
	// JSON object a line (see Encode).
	Golden string
	// Normalize, when set, is applied to each event before it is kept:
	// it clears what two parses of one stream may differ in (a clock).
	Normalize func(*lang.RunEvent)
}

// Run feeds c's stream to fresh parsers, whole and in chunks of many
// sizes, and fails the test unless every feeding gives the same events;
// cuts the stream after and inside each line (at most 256 places) and
// closes with Killed, failing the test if the parser panics; compares the
// events with c.Golden when set. It returns the events of the whole
// stream, for the test's own assertions.
func Run(t testing.TB, c Case) []lang.RunEvent {
	t.Helper()
	data := c.Data
	if c.Stream != "" {
		var err error
		if data, err = os.ReadFile(c.Stream); err != nil {
			t.Fatal(err)
		}
	}
	if c.Cut > 0 {
		data = data[:min(c.Cut, len(data))]
	}
	want, err := c.parse(data, [][]byte{data}, c.Exit)
	if err != nil {
		t.Fatalf("%s whole: %v", c.name(), err)
	}
	for _, f := range feedings(data) {
		got, err := c.parse(data, f.chunks, c.Exit)
		if err != nil {
			t.Fatalf("%s %s: %v", c.name(), f.name, err)
		}
		if i, ok := firstDifference(got, want); !ok {
			t.Fatalf("%s %s: event %d is %s, want %s (read whole)", c.name(), f.name, i, at(got, i), at(want, i))
		}
	}
	for _, cut := range cuts(data) {
		if _, err := c.parse(data[:cut], [][]byte{data[:cut]}, Killed); err != nil {
			t.Errorf("%s cut after %d bytes and killed: %v", c.name(), cut, err)
		}
	}
	if c.Golden != "" {
		golden.Check(t, c.Golden, Encode(want))
	}
	return want
}

func (c Case) name() string {
	if c.Stream != "" {
		return c.Stream
	}
	return fmt.Sprintf("stream %.40q", c.Data)
}

// parse feeds chunks (which make up data) to a fresh parser and closes it
// with exit; a panic is an error.
func (c Case) parse(data []byte, chunks [][]byte, exit int) (evs []lang.RunEvent, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the parser panicked: %v", r)
		}
	}()
	p := c.New(func(e lang.RunEvent) {
		if c.Normalize != nil {
			c.Normalize(&e)
		}
		evs = append(evs, e)
	})
	for _, ch := range chunks {
		if n, err := p.Write(ch); n != len(ch) || err != nil {
			return nil, fmt.Errorf("Write took %d of %d bytes: %v", n, len(ch), err)
		}
	}
	p.Close(exit)
	return evs, nil
}

// feeding is one way of writing a stream: its chunks in order.
type feeding struct {
	name   string
	chunks [][]byte
}

// feedings are the stream in chunks of every size from 1 to 64 bytes, of
// a few larger sizes, and in random chunks of 1 to 300 bytes (eight fixed
// seeds, so that a failure repeats).
func feedings(data []byte) []feeding {
	var out []feeding
	for _, size := range append(seq(1, 64), 100, 1000, 4096) {
		if size >= len(data) {
			break
		}
		f := feeding{name: fmt.Sprintf("in chunks of %d bytes", size)}
		for i := 0; i < len(data); i += size {
			f.chunks = append(f.chunks, data[i:min(i+size, len(data))])
		}
		out = append(out, f)
	}
	for seed := uint64(1); seed <= 8; seed++ {
		rng := rand.New(rand.NewPCG(seed, 0x7e57de8))
		f := feeding{name: fmt.Sprintf("in random chunks (seed %d)", seed)}
		for rest := data; len(rest) > 0; {
			n := min(1+rng.IntN(300), len(rest))
			f.chunks = append(f.chunks, rest[:n])
			rest = rest[n:]
		}
		out = append(out, f)
	}
	return out
}

func seq(from, to int) []int {
	var out []int
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}

// cuts are the places a kill is tried at: after each line and in the
// middle of it, at most 256 of them, spread over the stream.
func cuts(data []byte) []int {
	var all []int
	for start := 0; start < len(data); {
		end := bytes.IndexByte(data[start:], '\n')
		if end < 0 {
			end = len(data) - start
		}
		all = append(all, start+end/2, min(start+end+1, len(data)))
		start += end + 1
	}
	if len(all) <= 256 {
		return all
	}
	picked := make([]int, 0, 256)
	for i := range 256 {
		picked = append(picked, all[i*len(all)/256])
	}
	return picked
}

// firstDifference returns the index of the first event got and want differ
// in, and false; or true when they are equal.
func firstDifference(got, want []lang.RunEvent) (int, bool) {
	for i := range min(len(got), len(want)) {
		if !reflect.DeepEqual(got[i], want[i]) {
			return i, false
		}
	}
	if len(got) != len(want) {
		return min(len(got), len(want)), false
	}
	return 0, true
}

func at(evs []lang.RunEvent, i int) string {
	if i >= len(evs) {
		return "missing"
	}
	return string(bytes.TrimSpace(Encode(evs[i : i+1])))
}

// event is RunEvent as a golden file holds it: the fields that are set.
type event struct {
	Action  testdex.Action     `json:"action"`
	Scope   string             `json:"scope,omitempty"`
	Name    string             `json:"name,omitempty"`
	Kind    testdex.Kind       `json:"kind,omitempty"`
	Decl    string             `json:"decl,omitempty"`
	Elapsed float64            `json:"elapsed,omitempty"`
	Output  string             `json:"output,omitempty"`
	Message string             `json:"message,omitempty"`
	File    string             `json:"file,omitempty"`
	Line    int                `json:"line,omitempty"`
	Covered []lang.CoveredFile `json:"covered,omitempty"`
	Process string             `json:"process,omitempty"`
	Seq     int                `json:"seq,omitempty"`
	Verdict *testdex.Verdict   `json:"verdict,omitempty"`
	Inner   *testdex.Inner     `json:"inner,omitempty"`
}

// Encode renders events as a golden file holds them: one JSON object a
// line, with the fields that are set.
func Encode(evs []lang.RunEvent) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, e := range evs {
		enc.Encode(event(e)) // plain data: it cannot fail
	}
	return b.Bytes()
}
