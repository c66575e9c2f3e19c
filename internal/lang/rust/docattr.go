package rust

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/testdex/testdex/internal/lang"
)

// docAttr reads a doc attribute as rustdoc sees it: #[doc = "..."],
// #![doc = "..."] (one doc fragment, a "raw" one for unindenting), or
// cfg_attr(pred, doc = "...", ...), whose fragments hold only when pred
// does (cond is then "cfg(pred)", for the Linker to decide under the
// package's features). ok is false when the attribute is no doc
// attribute with a string literal (doc = include_str!(...), doc(hidden)).
func docAttr(text string, line int) (lines []docLine, ok bool) {
	text = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(text, "#"), "!"))
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, "[") || !strings.HasSuffix(text, "]") {
		return nil, false
	}
	text = strings.TrimSpace(text[1 : len(text)-1])
	return docMeta(text, line, "")
}

// docMeta reads one meta item (doc = "..." or cfg_attr(...)).
func docMeta(text string, line int, cond string) ([]docLine, bool) {
	i := strings.IndexAny(text, "(=")
	if i < 0 {
		return nil, false
	}
	path := strings.Join(strings.Fields(text[:i]), "")
	rest := strings.TrimSpace(text[i:])
	switch {
	case path == "doc" && rest[0] == '=':
		v := strings.TrimSpace(rest[1:])
		if inc, ok := includeOf(v); ok {
			return []docLine{{line: line, raw: true, cond: cond, include: inc}}, true
		}
		s, ok := rustString(v)
		if !ok {
			return nil, false
		}
		return docFragment(s, line, cond), true
	case path == "cfg_attr" && rest[0] == '(' && strings.HasSuffix(rest, ")"):
		parts := splitTop(rest[1:len(rest)-1], ",")
		if len(parts) < 2 || cond != "" {
			return nil, false
		}
		pred := "cfg(" + strings.Join(strings.Fields(parts[0]), " ") + ")"
		var out []docLine
		found := false
		for _, p := range parts[1:] {
			if p = strings.TrimSpace(p); p == "" {
				continue
			}
			ls, ok := docMeta(p, line, pred)
			if ok {
				found = true
				out = append(out, ls...)
			}
		}
		return out, found
	}
	return nil, false
}

// includeOf reads include_str!("path") (relative to the file's folder)
// and include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/path")) (given
// as "$CARGO_MANIFEST_DIR/path"); ok is false for other expressions.
func includeOf(v string) (string, bool) {
	v = strings.Join(strings.Fields(v), "")
	arg, ok := strings.CutPrefix(v, "include_str!(")
	if !ok || !strings.HasSuffix(arg, ")") {
		return "", false
	}
	arg = strings.TrimSuffix(arg, ")")
	if s, ok := rustString(arg); ok && s != "" {
		return s, true
	}
	if rest, ok := strings.CutPrefix(arg, `concat!(env!("CARGO_MANIFEST_DIR"),`); ok {
		if s, ok := rustString(strings.TrimSuffix(rest, ")")); ok && strings.HasPrefix(s, "/") {
			return "$CARGO_MANIFEST_DIR" + s, true
		}
	}
	return "", false
}

// docFragment splits a doc attribute's string into lines as rustdoc does:
// beautify_doc_string first (a string with a newline loses a first and a
// last line that are empty or all stars, and a "*" column every line
// starts with), then add_doc_fragment (str::lines: no line after a final
// newline; an empty string is one empty line).
func docFragment(s string, line int, cond string) []docLine {
	ls := strings.Split(s, "\n")
	if len(ls) > 1 && ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	for i := range ls {
		ls[i] = strings.TrimSuffix(ls[i], "\r")
	}
	first := 0 // lines dropped at the start, for the line numbers
	if strings.Contains(s, "\n") {
		i, j := 0, len(ls)
		if len(ls) > 0 && allStars(ls[0]) {
			i++
		}
		if len(ls) > 0 && allStars(ls[len(ls)-1]) {
			j--
		}
		if i > j {
			j = i
		}
		ls, first = ls[i:j], i
		if cut := starColumn(ls); cut >= 0 {
			for k := range ls {
				ls[k] = ls[k][cut+1:]
			}
		}
	}
	if len(ls) == 0 {
		ls = []string{""}
	}
	out := make([]docLine, len(ls))
	for i, l := range ls {
		out[i] = docLine{text: l, line: line + first + i, raw: true, cond: cond}
	}
	return out
}

func allStars(l string) bool { return strings.Trim(l, "*") == "" }

// starColumn is the column of the "*" every line starts with after
// spaces and tabs (rustdoc's horizontal trim), -1 when not all do.
func starColumn(ls []string) int {
	col := -1
	for _, l := range ls {
		j := strings.IndexFunc(l, func(r rune) bool { return r != ' ' && r != '\t' })
		if j < 0 || l[j] != '*' || (col >= 0 && j != col) {
			return -1
		}
		col = j
	}
	return col
}

// rustString decodes a Rust string literal ("...", r"...", r#"..."#);
// ok is false for anything else (a macro call, a byte string).
func rustString(lit string) (string, bool) {
	if strings.HasPrefix(lit, "r") {
		body := lit[1:]
		hashes := len(body) - len(strings.TrimLeft(body, "#"))
		body = body[hashes:]
		end := `"` + strings.Repeat("#", hashes)
		if !strings.HasPrefix(body, `"`) || !strings.HasSuffix(body, end) || len(body) < 1+len(end) {
			return "", false
		}
		return body[1 : len(body)-len(end)], true
	}
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return "", false
	}
	body := lit[1 : len(lit)-1]
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(body) {
			return "", false
		}
		i++
		switch body[i] {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case '0':
			b.WriteByte(0)
		case '\\', '"', '\'':
			b.WriteByte(body[i])
		case 'x':
			if i+2 >= len(body) {
				return "", false
			}
			v, err := strconv.ParseUint(body[i+1:i+3], 16, 8)
			if err != nil {
				return "", false
			}
			b.WriteByte(byte(v))
			i += 2
		case 'u':
			j := strings.IndexByte(body[i:], '}')
			if j < 0 || i+1 >= len(body) || body[i+1] != '{' {
				return "", false
			}
			v, err := strconv.ParseUint(strings.ReplaceAll(body[i+2:i+j], "_", ""), 16, 32)
			if err != nil || !utf8.ValidRune(rune(v)) {
				return "", false
			}
			b.WriteRune(rune(v))
			i += j
		case '\n', '\r': // line continuation: skip the newline and the whitespace after it
			for i+1 < len(body) && strings.IndexByte(" \t\r\n", body[i+1]) >= 0 {
				i++
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// condDoc is an item's docs holding cfg_attr doc fragments: which lines
// rustdoc sees (so which doc tests there are, and on which lines) depends
// on the package's features, known only to the Linker.
type condDoc struct {
	Item  string     `json:"item"`
	Tags  []string   `json:"tags,omitempty"`
	Lines []condLine `json:"lines"`
}

type condLine struct {
	Text    string `json:"text"`
	Line    int    `json:"line"`
	Raw     bool   `json:"raw,omitempty"`
	Cond    string `json:"cond,omitempty"`
	Include string `json:"include,omitempty"`
}

func condDocOf(docs []docLine, item string, tags []string) condDoc {
	d := condDoc{Item: item, Tags: tags}
	for _, l := range docs {
		d.Lines = append(d.Lines, condLine{Text: l.text, Line: l.line, Raw: l.raw, Cond: l.cond, Include: l.include})
	}
	return d
}

// tests are the doc tests of d under e: the fragments whose cfg is
// false are dropped (unknown ones kept), as rustdoc never sees them, and
// include_str! fragments are read through read (dropped when it fails).
func (d condDoc) tests(e *CfgEnv, read func(include string) (string, bool)) []lang.Test {
	var docs []docLine
	for _, l := range d.Lines {
		if l.Cond != "" && e.Eval([]string{l.Cond}, true) == cfgFalse {
			continue
		}
		if l.Include != "" {
			if s, ok := read(l.Include); ok {
				docs = append(docs, docFragment(s, l.Line, "")...)
			}
			continue
		}
		docs = append(docs, docLine{text: l.Text, line: l.Line, raw: l.Raw})
	}
	if len(docs) == 0 {
		return nil
	}
	return docTests(docs, d.Item, d.Tags)
}
