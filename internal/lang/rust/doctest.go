package rust

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// docLine is one line of an item's documentation, marker stripped.
type docLine struct {
	text string
	line int
	// raw is a doc attribute's line (#[doc = "..."]), which rustdoc
	// unindents differently from a doc comment's.
	raw bool
	// cond is the cfg(...) under which a cfg_attr doc line exists, "" for
	// an unconditional one.
	cond string
	// include is an include_str! doc attribute's path: the Linker reads
	// the file's lines in its place.
	include string
}

// isOuterDoc reports a /// or /** doc comment (//// and /*** are plain).
func isOuterDoc(c string) bool {
	return (strings.HasPrefix(c, "///") && !strings.HasPrefix(c, "////")) ||
		(strings.HasPrefix(c, "/**") && !strings.HasPrefix(c, "/***") && c != "/**/")
}

// isInnerDoc reports a //! or /*! doc comment.
func isInnerDoc(c string) bool { return strings.HasPrefix(c, "//!") || strings.HasPrefix(c, "/*!") }

// docLines splits one doc comment into lines. A block comment loses its
// first line when blank, its last line when blank, and a " *" prefix
// common to its lines, as rustdoc's beautify_doc_string does.
func docLines(c string, line int) []docLine {
	c = strings.TrimRight(c, "\r\n")
	if strings.HasPrefix(c, "//") {
		return []docLine{{text: c[3:], line: line}}
	}
	body := strings.TrimSuffix(c[3:], "*/")
	lines := strings.Split(body, "\n")
	if len(lines) > 1 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	if len(lines) > 1 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	star := true
	for _, l := range lines {
		if !strings.HasPrefix(strings.TrimLeft(l, " \t"), "*") {
			star = false
		}
	}
	out := make([]docLine, len(lines))
	for i, l := range lines {
		l = strings.TrimRight(l, "\r")
		if star {
			l = strings.TrimPrefix(strings.TrimLeft(l, " \t"), "*")
		}
		out[i] = docLine{text: l, line: line + i}
	}
	return out
}

// doctests adds the doc tests in one item's docs. Docs holding cfg_attr
// doc lines or include_str! go to the Linker (facts), which knows the
// package's features and reads the crate's files.
func (w *walker) doctests(docs []docLine, item string, tags []string) {
	for _, d := range docs {
		if d.cond != "" || d.include != "" {
			w.facts.Docs = append(w.facts.Docs, condDocOf(docs, item, tags))
			return
		}
	}
	for _, t := range docTests(docs, item, tags) {
		w.add(t)
	}
}

// docTests are the doc tests in one item's docs, named "item (line N)"
// where N is the line rustdoc reports: the docs' first line plus the
// block's offset within them (so an attribute between /// lines shifts it,
// as it does for rustdoc, and a doc attribute's line is its own). Its Name
// is the item path; the Linker builds the full `src/lib.rs - item (line
// N)` name.
func docTests(docs []docLine, item string, tags []string) []lang.Test {
	var out []lang.Test
	lines := unindent(docs)
	for _, b := range codeBlocks(lines) {
		if !b.rust {
			continue
		}
		ln := docs[0].line + b.offset
		out = append(out, lang.Test{Kind: testdex.KindDoctest, Name: item, Local: doctestLocal(item, ln), Line: ln,
			Tags: append(append([]string{}, tags...), b.tags...), Skip: b.ignore})
	}
	return out
}

// doctestLocal is a doc test's key before linking: "item (line N)".
func doctestLocal(item string, line int) string {
	if item != "" {
		item += " "
	}
	return item + "(line " + strconv.Itoa(line) + ")"
}

// unindent removes the indentation common to the non-blank lines, as
// rustdoc's unindent_doc_fragments does: when doc comments and doc
// attributes mix, an attribute's line counts one more space than it has
// and loses one less.
func unindent(docs []docLine) []string {
	add := 0
	var sugared, raw bool
	for _, d := range docs {
		sugared = sugared || !d.raw
		raw = raw || d.raw
	}
	if sugared && raw {
		add = 1
	}
	min := -1
	for _, d := range docs {
		if strings.TrimSpace(d.text) == "" {
			continue
		}
		n := len(d.text) - len(strings.TrimLeft(d.text, " \t"))
		if d.raw {
			n += add
		}
		if min < 0 || n < min {
			min = n
		}
	}
	out := make([]string, len(docs))
	for i, d := range docs {
		cut := max(min, 0)
		if d.raw && cut > 0 {
			cut -= add
		}
		if strings.TrimSpace(d.text) == "" {
			out[i] = ""
		} else if len(d.text) >= cut {
			out[i] = d.text[cut:]
		} else {
			out[i] = strings.TrimLeft(d.text, " \t")
		}
	}
	return out
}

// block is one markdown code block of a doc comment.
type block struct {
	offset int // line index of its fence (or first indented line)
	rust   bool
	ignore bool
	tags   []string
}

// codeBlocks finds the fenced (``` or ~~~) and indented code blocks of
// markdown text, the way rustdoc's markdown parser sees the common cases.
func codeBlocks(lines []string) []block {
	var out []block
	fence := ""
	indented := false
	prevBlank := true
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
				prevBlank = true // no paragraph open: an indented block may follow at once
				continue
			}
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			ch := t[:1]
			n := len(t) - len(strings.TrimLeft(t, ch))
			fence = strings.Repeat(ch, n)
			out = append(out, infoBlock(i, strings.TrimSpace(t[n:])))
		case len(l)-len(t) >= 4 && strings.TrimSpace(l) != "":
			if !indented && prevBlank {
				out = append(out, block{offset: i, rust: true})
				indented = true
			}
		default:
			if strings.TrimSpace(l) != "" {
				indented = false
			}
		}
		prevBlank = strings.TrimSpace(l) == "" && !indented
	}
	return out
}

// infoBlock classifies a fence's info string as rustdoc does: a block is
// Rust when the string is empty, says rust, or holds only rustdoc's own
// words (ignore, no_run, should_panic, compile_fail, editionXXXX, ...).
func infoBlock(offset int, info string) block {
	b := block{offset: offset}
	rustWord, other := false, false
	for _, w := range strings.FieldsFunc(info, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
		switch {
		case w == "rust":
			rustWord = true
		case w == "ignore":
			rustWord, b.ignore = true, true
			b.tags = append(b.tags, "ignored")
		case strings.HasPrefix(w, "ignore-"), w == "no_run", w == "should_panic", w == "compile_fail", w == "test_harness":
			rustWord = true
			b.tags = append(b.tags, w)
		case strings.HasPrefix(w, "edition"), w == "standalone_crate", w == "allow_fail":
			rustWord = true
		case strings.HasPrefix(w, "{"), strings.HasPrefix(w, "."):
			other = true
		default:
			other = true
		}
	}
	b.rust = rustWord || !other
	return b
}

func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsNumber(r) }
