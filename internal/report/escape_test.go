package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/testdex/testdex"
)

func TestEscape(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text\tand a tab", "plain text\tand a tab"},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"50%\r100%", `50%\r100%`},
		{"two\nlines", `two\nlines`},
		{"bell\a nul\x00 del\x7f", `bell\x07 nul\x00 del\x7f`},
		{"bytes \xff\xfe end", `bytes \xff\xfe end`},
		{"cut rune \xe2\x82", `cut rune \xe2\x82`},
		{"csi \u009b31m", `csi \u009b31m`},
		{"bidi \u202eevil\u202c", `bidi \u202eevil\u202c`},
		{"unicode: é, 世界, ✓", "unicode: é, 世界, ✓"},
		{`a\path`, `a\path`},
	} {
		if got := Escape(c.in); got != c.want {
			t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestTextEscapes feeds the text view what a JSON stream cannot carry
// (invalid UTF-8) and checks that no control byte but a newline or a tab
// reaches the terminal, while the JSON handler keeps every valid byte.
func TestTextEscapes(t *testing.T) {
	id := "x_test.go::Test\x1b[2J\xff"
	events := []testdex.Event{
		{Action: testdex.ActionOutput, ID: id, Batch: "x\r go", Output: "clear \x1b[2J\x1b[H and \xc3\x28\r\n"},
		{Action: testdex.ActionFail, ID: id, Batch: "x\r go", Message: "got \x1b]8;;http://x\x07link\nwant\x00", File: "x_test.go", Line: 3},
		{Action: testdex.ActionFail, Batch: "x\r go"},
	}
	var text bytes.Buffer
	tx := &Text{W: &text, Color: true}
	for _, e := range events {
		tx.Event(e)
	}
	got := text.String()
	for _, want := range []string{
		`Test\x1b[2J\xff x_test.go:3 (0.00s)`,
		"    got \\x1b]8;;http://x\\x07link\n    want\\x00\n",
		"\x1b[2m|\x1b[0m " + `clear \x1b[2J\x1b[H and \xc3(` + "\n",
		`x\r go (0.0s)`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("text view lacks %q:\n%s", want, got)
		}
	}
	ours := strings.NewReplacer("\x1b[1;31m", "", "\x1b[2m", "", "\x1b[0m", "").Replace(got)
	for _, c := range []byte(ours) {
		if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
			t.Fatalf("control byte %#x reached the view:\n%q", c, got)
		}
	}

	var js bytes.Buffer
	NewJSON(&js).Event(testdex.Event{Action: testdex.ActionOutput, ID: "a::b\x1b", Output: "\x1b[31m\r\n"})
	var back testdex.Event
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.ID != "a::b\x1b" || back.Output != "\x1b[31m\r\n" {
		t.Errorf("JSON is not exact: %q -> %+v (%v)", js.String(), back, err)
	}
}

func TestOutputTail(t *testing.T) {
	var o outputTail
	for i := 0; i < 120; i++ {
		o.write("line\r\n")
	}
	long := strings.Repeat("é", 400) // 800 bytes
	o.write(long[:301])              // a line in chunks, cut inside a rune
	o.write(long[301:] + "\npartial")
	got := o.shown()
	if len(got) != shownLines+1 {
		t.Fatalf("shown %d lines, want %d:\n%s", len(got), shownLines+1, strings.Join(got, "\n"))
	}
	if want := "[... 72 earlier lines not shown; testdex run --json has the whole output]"; got[0] != want {
		t.Errorf("first line %q, want %q", got[0], want)
	}
	if got[1] != "line" {
		t.Errorf("a CRLF line shows as %q", got[1])
	}
	if want := strings.Repeat("é", 250) + " [... 300 more bytes]"; got[len(got)-2] != want {
		t.Errorf("long line shows as %q, want %q", got[len(got)-2], want)
	}
	if got[len(got)-1] != "partial" {
		t.Errorf("an unended last line shows as %q", got[len(got)-1])
	}
}
