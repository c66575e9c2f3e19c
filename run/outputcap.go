package run

import (
	"fmt"
	"unicode/utf8"

	"github.com/testdex/testdex"
)

// TruncatedFormat is the marker a batch's output carries where the output
// cap dropped bytes: the count of bytes dropped.
const TruncatedFormat = "\n[TRUNCATED: %d bytes of output dropped]\n"

// outputCap keeps a batch's reported output within its limit while
// keeping both ends: the first half of the limit is reported as it comes;
// past it, the output is held back, only the last bytes (up to the other
// half) kept, and reported after a marker saying how many bytes were
// dropped when a test fails (before the failure, so the failure's own
// last lines, where runners print the reason, sit before its result),
// when the batch errors and when it ends. What a flush reports is charged
// to the tail's half, so the batch never reports more than the limit
// (plus the markers). Parsers still read everything; only what is
// reported is capped.
type outputCap struct {
	head, tail int // bytes left to report as they come; after a flush
	held       []heldOutput
	heldLen    int
	dropped    int        // bytes dropped since the last flush
	last       heldOutput // the last event dropped whole
}

// heldOutput is an output event held back and where it goes.
type heldOutput struct {
	e   testdex.Event
	add func(testdex.Event)
}

func newOutputCap(limit int) *outputCap {
	return &outputCap{head: limit / 2, tail: limit - limit/2}
}

// take says whether the output event e is reported now; when not, it is
// held (its last bytes within the tail's room) and add is where it goes.
func (c *outputCap) take(e testdex.Event, add func(testdex.Event)) bool {
	if len(c.held) == 0 && c.dropped == 0 && len(e.Output) <= c.head {
		c.head -= len(e.Output)
		return true
	}
	c.head = 0 // past the head, everything goes through the tail
	c.held = append(c.held, heldOutput{e, add})
	c.heldLen += len(e.Output)
	for c.heldLen > c.tail {
		over, first := c.heldLen-c.tail, &c.held[0]
		if n := len(first.e.Output); n <= over {
			c.dropped, c.heldLen, c.last, c.held = c.dropped+n, c.heldLen-n, c.held[0], c.held[1:]
			continue
		}
		cut := over
		for cut < len(first.e.Output) && !utf8.RuneStart(first.e.Output[cut]) {
			cut++ // cut on a rune boundary
		}
		first.e.Output = first.e.Output[cut:]
		c.dropped, c.heldLen = c.dropped+cut, c.heldLen-cut
	}
	return false
}

// flush returns the held events, after a marker of the bytes dropped
// before them when there were any, and empties the hold. The marker goes
// with the first held event's test, or with the last dropped one's when
// nothing is held.
func (c *outputCap) flush() []heldOutput {
	if len(c.held) == 0 && c.dropped == 0 {
		return nil
	}
	var out []heldOutput
	if c.dropped > 0 {
		src := c.last
		if len(c.held) > 0 {
			src = c.held[0]
		}
		m := testdex.Event{Time: src.e.Time, Action: testdex.ActionOutput, ID: src.e.ID, Scope: src.e.Scope, Name: src.e.Name,
			Kind: src.e.Kind, Parent: src.e.Parent, Output: fmt.Sprintf(TruncatedFormat, c.dropped)}
		out = append(out, heldOutput{m, src.add})
	}
	out = append(out, c.held...)
	c.tail -= c.heldLen
	c.held, c.heldLen, c.dropped = nil, 0, 0
	return out
}

// flushes says whether the event e makes the cap report what it holds:
// a test's failure, a batch error, the batch's end.
func flushes(e testdex.Event) bool {
	switch e.Action {
	case testdex.ActionFail, testdex.ActionError:
		return true
	case testdex.ActionPass:
		return e.ID == ""
	}
	return false
}
