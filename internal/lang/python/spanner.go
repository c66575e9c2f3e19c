package python

import (
	"bytes"
	"fmt"
	"slices"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/zeebo/xxh3"

	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

// Spanner is Python's lang.Spanner: every function of a file (module
// functions, methods, functions nested in functions, async ones; not
// lambdas, whose lines belong to the function around them), named by
// Python's __qualname__ ("C.m", "f.<locals>.g"), spanning its decorators,
// and hashed canonically: its tokens (see canonicalHash) without comments,
// blank lines, line continuations and the spacing inside a line, so that
// reformatting a function or editing its comments keeps its hash, while
// any change of a token, a string's text or the block structure changes
// it. The functions come from the tree-sitter parse the Extractor uses,
// found with one query; the hash is a byte scanner over each function's
// text (a per-language normaliser + xxh3: measured at 87 MB/s, where
// walking the leaves through cgo ran at 2.3 MB/s). Safe for concurrent use.
var Spanner lang.Spanner = spanner{}

type spanner struct{}

// functionQuery is compiled once and shared.
var functionQuery = tsgrammars.QueryOnce(tsgrammars.Python, "(function_definition) @f")

// Spans returns the file's functions in source order. A file that does
// not parse whole returns the functions read and an error naming the
// first bad line (their spans may be wrong near it); a binary file, none.
func (spanner) Spans(file string, src []byte) ([]lang.FuncSpan, error) {
	if i := bytes.IndexByte(src, 0); i >= 0 {
		return nil, fmt.Errorf("%s:%d: binary file (NUL byte): not Python source", file, tsgrammars.Line(src, i))
	}
	q, err := functionQuery()
	if err != nil {
		return nil, fmt.Errorf("python function query: %w", err)
	}
	var out []lang.FuncSpan
	var syntax error
	err = tsgrammars.Captures(tsgrammars.Python, q, src, func(n *sitter.Node) {
		out = append(out, funcSpan(n, src))
	}, func(root *sitter.Node) {
		line, what := firstError(root, 0)
		syntax = fmt.Errorf("%s:%d: syntax error (%s): functions near it may be cut wrong", file, line, what)
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	slices.SortStableFunc(out, func(a, b lang.FuncSpan) int { return a.Start - b.Start })
	return out, syntax
}

// funcSpan is one function_definition node's span: from its first
// decorator (a decorated_definition parent) to its end.
func funcSpan(fn *sitter.Node, src []byte) lang.FuncSpan {
	start := fn
	if p := fn.Parent(); p != nil && p.Type() == "decorated_definition" {
		start = p
	}
	end := int(fn.EndPoint().Row) + 1
	if fn.EndPoint().Column == 0 && end > int(start.StartPoint().Row)+1 {
		end-- // a node ending at a line's start ends on the line before
	}
	return lang.FuncSpan{
		Name:  qualname(fn, src),
		Start: int(start.StartPoint().Row) + 1,
		End:   end,
		Hash:  canonicalHash(src[start.StartByte():fn.EndByte()], int(start.StartPoint().Column)),
	}
}

// qualname is the function's __qualname__: the enclosing classes' and
// functions' names, a function's followed by "<locals>".
func qualname(fn *sitter.Node, src []byte) string {
	name := nodeName(fn, src)
	for p := fn.Parent(); p != nil; p = p.Parent() {
		switch p.Type() {
		case "function_definition":
			name = nodeName(p, src) + ".<locals>." + name
		case "class_definition":
			name = nodeName(p, src) + "." + name
		}
	}
	return name
}

func nodeName(n *sitter.Node, src []byte) string {
	if id := n.ChildByFieldName("name"); id != nil {
		return id.Content(src)
	}
	return "<unknown>"
}

// The canonical token stream's kinds: each token is its kind, its length
// and its bytes, so no two different streams write the same bytes.
const (
	tokName byte = iota + 1
	tokNumber
	tokString
	tokOp
	tokNewline
	tokIndent
	tokDedent
)

// canonicalHash hashes Python source by its tokens: names, numbers,
// strings (their text verbatim, prefix and quotes included: a docstring
// is code to doctest), operators one character each, and the block
// structure as NEWLINE, INDENT and DEDENT, as Python's own tokenizer has
// them; comments, blank lines, backslash continuations, line breaks inside
// brackets and the spacing between tokens are dropped. col is the column
// src starts at (its first line's indentation). It never fails: text it
// does not understand is hashed byte by byte.
func canonicalHash(src []byte, col int) uint64 {
	t := &canon{src: src, h: xxh3.New(), indents: []int{col}}
	t.run()
	return t.h.Sum64()
}

type canon struct {
	src     []byte
	h       *xxh3.Hasher
	indents []int
	depth   int  // open brackets
	newline bool // the last token written was a NEWLINE
}

func (t *canon) write(kind byte, b []byte) {
	var hdr [1 + 4]byte
	hdr[0] = kind
	n := len(b)
	hdr[1], hdr[2], hdr[3], hdr[4] = byte(n>>24), byte(n>>16), byte(n>>8), byte(n)
	t.h.Write(hdr[:])
	t.h.Write(b)
	t.newline = kind == tokNewline
}

func (t *canon) run() {
	s := t.src
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			i++
		case c == '\\' && i+1 < len(s) && (s[i+1] == '\n' || s[i+1] == '\r'):
			i += 2
			if i < len(s) && s[i-1] == '\r' && s[i] == '\n' {
				i++
			}
		case c == '\n' || c == '\r':
			i++
			if t.depth == 0 {
				if !t.newline {
					t.write(tokNewline, nil)
				}
				i = t.lineStart(i)
			}
		case c == '#':
			for i < len(s) && s[i] != '\n' && s[i] != '\r' {
				i++
			}
		case c == '"' || c == '\'':
			j := scanString(s, i, i)
			t.write(tokString, s[i:j])
			i = j
		case isIdentByte(c) || c >= 0x80:
			j := i
			for j < len(s) && (isIdentByte(s[j]) || s[j] >= 0x80) {
				j++
			}
			switch {
			case j < len(s) && (s[j] == '"' || s[j] == '\'') && stringPrefix(s[i:j]):
				k := scanString(s, i, j)
				t.write(tokString, s[i:k])
				j = k
			case c >= '0' && c <= '9':
				j = scanNumber(s, i)
				t.write(tokNumber, s[i:j])
			default:
				t.write(tokName, s[i:j])
			}
			i = j
		case c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			j := scanNumber(s, i)
			t.write(tokNumber, s[i:j])
			i = j
		default:
			switch c {
			case '(', '[', '{':
				t.depth++
			case ')', ']', '}':
				t.depth = max(t.depth-1, 0)
			}
			t.write(tokOp, s[i:i+1])
			i++
		}
	}
	if !t.newline {
		t.write(tokNewline, nil)
	}
	for len(t.indents) > 1 {
		t.indents = t.indents[:len(t.indents)-1]
		t.write(tokDedent, nil)
	}
}

// lineStart reads the indentation of the next line holding a token
// (blank and comment-only lines have none) and writes its INDENT or
// DEDENTs; it returns where the line's first token starts.
func (t *canon) lineStart(i int) int {
	s := t.src
	for i < len(s) {
		col, j := 0, i
		for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\f') {
			switch s[j] {
			case '\t':
				col = (col/8 + 1) * 8
			case ' ':
				col++
			}
			j++
		}
		if j < len(s) && (s[j] == '\n' || s[j] == '\r' || s[j] == '#') {
			for j < len(s) && s[j] != '\n' && s[j] != '\r' { // a comment
				j++
			}
			for j < len(s) && (s[j] == '\n' || s[j] == '\r') {
				j++
			}
			i = j
			continue
		}
		if j == len(s) {
			return j
		}
		if top := t.indents[len(t.indents)-1]; col > top {
			t.indents = append(t.indents, col)
			t.write(tokIndent, nil)
		}
		for len(t.indents) > 1 && col < t.indents[len(t.indents)-1] {
			t.indents = t.indents[:len(t.indents)-1]
			t.write(tokDedent, nil)
		}
		return j
	}
	return i
}

// stringPrefix reports whether p may prefix a string literal (r, b, u, f,
// t and their combinations, any case).
func stringPrefix(p []byte) bool {
	if len(p) > 2 {
		return false
	}
	for _, c := range bytes.ToLower(p) {
		if !bytes.ContainsRune([]byte("rbuft"), rune(c)) {
			return false
		}
	}
	return true
}

// scanString returns the end of the string literal whose prefix starts at
// start and quote at q. A backslash always takes the next byte with it
// (raw strings too: r"\"" is one string). In an f- or t-string a
// replacement field is scanned with its brackets and nested strings, so a
// quote inside it does not end the string. An unterminated string ends at
// its line's end (single quotes) or the text's end.
func scanString(s []byte, start, q int) int {
	fmtd := bytes.ContainsAny(bytes.ToLower(s[start:q]), "ft")
	quote := s[q]
	triple := q+2 < len(s) && s[q+1] == quote && s[q+2] == quote
	i := q + 1
	if triple {
		i = q + 3
	}
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\\':
			i += 2
		case c == quote && (!triple || (i+2 < len(s) && s[i+1] == quote && s[i+2] == quote)):
			if triple {
				return i + 3
			}
			return i + 1
		case !triple && (c == '\n' || c == '\r'):
			return i
		case fmtd && c == '{' && i+1 < len(s) && s[i+1] == '{':
			i += 2
		case fmtd && c == '{':
			i = scanField(s, i+1)
		default:
			i++
		}
	}
	return min(i, len(s))
}

// scanField returns the end of an f-string's replacement field whose
// text starts at i (after its "{").
func scanField(s []byte, i int) int {
	depth := 1
	for i < len(s) && depth > 0 {
		c := s[i]
		switch {
		case c == '"' || c == '\'':
			i = scanString(s, i, i)
			continue
		case c == '{' || c == '(' || c == '[':
			depth++
		case c == '}' || c == ')' || c == ']':
			depth--
		}
		i++
	}
	return i
}

// scanNumber returns the end of the number starting at i: digits, letters
// (hex, exponents, j), underscores, dots, and a sign right after an
// exponent's e.
func scanNumber(s []byte, i int) int {
	hex := i+1 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X')
	for i < len(s) {
		c := s[i]
		switch {
		case isIdentByte(c) || c == '.':
			i++
		case (c == '+' || c == '-') && !hex && (s[i-1] == 'e' || s[i-1] == 'E'):
			i++
		default:
			return i
		}
	}
	return i
}
