package report

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape returns s with everything a terminal would act on instead of
// print made visible, for the text view of IDs, names, messages and
// output: \n and \r as themselves, ESC and the other C0 controls and DEL as
// \xNN (ESC is \x1b), C1 controls and bidirectional formatting characters
// (which reorder what follows them) as \uNNNN, and each byte of invalid
// UTF-8 as \xNN. A tab is kept. Backslashes are not doubled, so the view
// is for reading: the JSON stream (--json) holds the exact bytes.
func Escape(s string) string {
	if plain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteByte('\t')
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r < 0xa0, unicode.Is(unicode.Bidi_Control, r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// plain reports whether s is printable ASCII (tabs allowed), the common
// case Escape returns as is.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' || c >= 0x7f {
			return false
		}
	}
	return true
}

// lines splits text into its lines for display: a final newline ends the
// last line rather than starting an empty one, and a line ending in \r\n
// loses the \r (a Windows line end, not a carriage return to show).
func lines(text string) []string {
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return nil
	}
	ls := strings.Split(text, "\n")
	for i, l := range ls {
		ls[i] = strings.TrimSuffix(l, "\r")
	}
	return ls
}

// escapeBlock escapes a block of lines, keeping its line breaks (for
// JUnit XML, whose text cannot hold most control characters at all).
func escapeBlock(text string) string {
	if plain(strings.ReplaceAll(text, "\n", "")) {
		return text
	}
	ls := lines(text)
	for i, l := range ls {
		ls[i] = Escape(l)
	}
	out := strings.Join(ls, "\n")
	if strings.HasSuffix(text, "\n") {
		out += "\n"
	}
	return out
}
