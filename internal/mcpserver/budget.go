package mcpserver

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultBudget is the size, in bytes, every tool result stays under
// when the server is given none: about 2,000 tokens at 4 bytes a token.
// Clients forward the structured content to the model beside the text,
// so the budget counts the whole result, both marshalled.
const DefaultBudget = 8000

// minBudget is the smallest budget accepted: below it even the counts
// and the pointers to the resources would not fit.
const minBudget = 1000

// render gives a tool's answer at a cut step: step 0 is the whole
// answer, each further step cuts more (fewer records, shorter messages),
// and last is true at the step that cuts all it can.
type render[T any] func(step int) (text string, out T, last bool)

// fit returns the first step of r whose result, text and structured
// content marshalled together, is at most budget bytes, and whether it
// had to cut. When even the last step is over (names longer than the
// budget), its text is cut to what is left; the structured content of a
// last step holds counts and pointers alone, by each tool's design.
func fit[T any](budget int, r render[T]) (res *mcp.CallToolResult, out T, cut bool) {
	for step := 0; ; step++ {
		text, out, last := r(step)
		n := size(text, out)
		if n <= budget || last {
			if n > budget {
				room := budget - (n - jsonLen(text)) - len(cutMark)
				text = cutJSON(text, room) + cutMark
			}
			return textResult(text), out, step > 0
		}
	}
}

// cutMark ends a text fit had to cut at its last step.
const cutMark = "\n[cut to the answer budget]"

// size is the bytes of a tool result of text and structured content out,
// as the SDK sends it.
func size(text string, out any) int {
	data, err := json.Marshal(&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: out})
	if err != nil {
		return 0 // the SDK fails on it the same way; nothing to fit
	}
	return len(data)
}

// jsonLen is the length of s inside a JSON string: escapes count.
func jsonLen(s string) int {
	data, _ := json.Marshal(s)
	return len(data) - 2
}

// cutJSON returns the longest prefix of s, ending on a rune boundary,
// whose JSON-escaped length is at most n.
func cutJSON(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if jsonLen(s) <= n {
		return s
	}
	used := 0
	for i, r := range s {
		w := jsonLen(string(r))
		if used+w > n {
			return s[:i]
		}
		used += w
	}
	return s
}

// cutMessage bounds a failure message: its first line and at most
// frames more (a stack's frames, an assertion's diff), and at most
// bytes bytes in all (cut on a rune boundary). It says what it cut.
func cutMessage(msg string, frames, bytes int) string {
	lines := strings.Split(strings.TrimRight(msg, "\n"), "\n")
	cut := ""
	if len(lines) > frames+1 {
		cut = fmt.Sprintf(" [+%d lines]", len(lines)-frames-1)
		lines = lines[:frames+1]
	}
	s := strings.Join(lines, "\n")
	if len(s) > bytes {
		i := bytes
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		s, cut = s[:i], " [cut]"
	}
	return s + cut
}

// limits are the cuts of one step of an answer with a list of records:
// how many records, and how long each message, it keeps (-1: all).
type limits struct {
	records       int
	frames, bytes int
}

// listSteps are the shared steps after the whole answer: messages cut to
// five frames, then to a line; then the records halved down to none.
var listSteps = []limits{
	{-1, 5, 1000}, {-1, 5, 300}, {-1, 0, 160},
	{64, 0, 160}, {32, 0, 160}, {16, 0, 160}, {8, 0, 160}, {4, 0, 160}, {2, 0, 160}, {1, 0, 160}, {0, 0, 160},
}

// stepLimits returns the cuts of step (1 is listSteps[0]) and whether it
// is the last.
func stepLimits(step int) (limits, bool) {
	i := min(step-1, len(listSteps)-1)
	return listSteps[i], i == len(listSteps)-1
}

// keep is how many of n records limits l keeps.
func (l limits) keep(n int) int {
	if l.records < 0 {
		return n
	}
	return min(n, l.records)
}

// halving is how many records step keeps of a plain list: all at step
// 0, then 256, 128 and so on down to none; last is true at none.
func halving(step int) (n int, last bool) {
	if step == 0 {
		return -1, false
	}
	if step > 9 {
		return 0, true
	}
	return 256 >> (step - 1), false
}

// head is the first n of xs (all when n < 0).
func head[T any](xs []T, n int) []T {
	if n < 0 || n >= len(xs) {
		return xs
	}
	return xs[:n]
}

// fitAnswer fits a tool's answer to c's budget. r renders step (0 is
// the whole answer) and is given the URI the whole answer is kept under
// when a step cuts; the whole answer is kept then.
func fitAnswer[T any](c Config, full T, r func(step int, whole string) (string, T, bool)) (*mcp.CallToolResult, T) {
	id := c.answers.reserve()
	uri := fmt.Sprintf(answerURI, id)
	res, out, cut := fit(c.budget(), func(step int) (string, T, bool) { return r(step, uri) })
	if cut {
		data, _ := json.Marshal(full)
		c.answers.add(&kept{id: id, full: data})
	}
	return res, out
}
