package rust

import (
	"regexp"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// attr is one #[...] attribute: its path without spaces (tokio::test) and
// the rest of its text, whitespace collapsed ((feature = "x"), = "p.rs").
type attr struct {
	path, args string
	line       int
}

func parseAttr(n *sitter.Node, src []byte) attr {
	return parseAttrText(n.Content(src), line(n))
}

// parseAttrText reads the text of one attribute, #[...] or #![...].
func parseAttrText(text string, line int) attr {
	text = strings.TrimPrefix(text, "#!")
	text = strings.TrimPrefix(text, "#")
	text = strings.TrimSpace(text)
	text = strings.TrimSuffix(strings.TrimPrefix(text, "["), "]")
	i := strings.IndexAny(text, "(=[{")
	if i < 0 {
		i = len(text)
	}
	path := strings.Join(strings.Fields(text[:i]), "")
	return attr{path: path, args: strings.Join(strings.Fields(text[i:]), " "), line: line}
}

// value is the string of a name = "value" attribute, "" when not one.
func (a attr) value() string {
	v := strings.TrimSpace(strings.TrimPrefix(a.args, "="))
	if s, err := strconv.Unquote(v); err == nil {
		return s
	}
	return ""
}

func hasAttr(attrs []attr, path string) bool {
	for _, a := range attrs {
		if a.path == path {
			return true
		}
	}
	return false
}

// testAttr classifies the attributes that make a function a test:
// "test" (#[test], tokio::test and every other path ending in ::test,
// quickcheck, wasm_bindgen_test), "bench", "test_case", "rstest"; "" for
// none.
func testAttr(attrs []attr) string {
	kind := ""
	for _, a := range attrs {
		last := a.path
		if i := strings.LastIndex(last, "::"); i >= 0 {
			last = last[i+2:]
		}
		switch {
		case a.path == "test_case" || a.path == "test_case::test_case":
			return "test_case"
		case last == "rstest" || last == "test_matrix":
			return last
		case last == "test", last == "quickcheck", last == "wasm_bindgen_test":
			kind = "test"
		case a.path == "bench" && kind == "":
			kind = "bench"
		}
	}
	return kind
}

// function records a test function (or its generated cases).
func (w *walker) function(n *sitter.Node, name string, sc scope, attrs []attr) {
	if name == "" {
		return
	}
	if hasAttr(attrs, "template") || hasAttr(attrs, "rstest_reuse::template") {
		w.facts.Templates = append(w.facts.Templates, templateOf(name, line(n), attrs, fieldText(n, "parameters", w.src)))
		return
	}
	t := lang.Test{Kind: kindTest, Name: sc.join(name), Line: line(n), Tags: testTags(sc, attrs)}
	t.Skip = hasAttr(attrs, "ignore")
	if p := applyOf(attrs); p != "" {
		w.applies = append(w.applies, appliedOf(t, p, attrs, fieldText(n, "parameters", w.src)))
		return
	}
	kind := testAttr(attrs)
	if kind == "" {
		return
	}
	switch kind {
	case "bench":
		t.Kind = testdex.KindBenchmark
	case "test_case", "rstest", "test_matrix":
		w.cases(n, t, kind, attrs)
		return
	}
	w.add(t)
}

// testTags are a test's tags: its cfg(...) gates, "ignored",
// "should_panic", and wasm_bindgen_test.
func testTags(sc scope, attrs []attr) []string {
	tags := append([]string{}, sc.tags...)
	for _, a := range attrs {
		switch {
		case a.path == "ignore":
			tags = append(tags, "ignored")
		case a.path == "should_panic":
			tags = append(tags, "should_panic")
		case strings.HasSuffix(a.path, "wasm_bindgen_test"):
			tags = append(tags, "wasm_bindgen_test")
		}
	}
	return tags
}

// cases records a test_case or rstest function: a suite named after the
// function (the module the macro generates) and one subtest per case,
// named as the macro names it; cases whose name depends on more than the
// source text (rstest #[values], test_matrix, keyword expectations) give
// one dynamic subtest.
func (w *walker) cases(n *sitter.Node, parent lang.Test, kind string, attrs []attr) {
	if kind == "rstest" {
		for _, t := range rstestTests(parent, attrs, fieldText(n, "parameters", w.src)) {
			w.add(t)
		}
		return
	}
	var names []string
	dynamic := kind == "test_matrix"
	if kind == "test_case" {
		for _, a := range attrs {
			if a.path == "test_case" || a.path == "test_case::test_case" {
				nm, ok := testCaseName(a.args)
				dynamic = dynamic || !ok
				names = append(names, nm)
			}
		}
	}
	parent.Kind = testdex.KindSuite
	w.add(parent)
	if dynamic {
		w.add(lang.Test{Kind: testdex.KindSubtest, Name: parent.Name + "::{" + kind + "}", Parent: parent.Name,
			Line: parent.Line, Dynamic: true, Tags: parent.Tags, Skip: parent.Skip})
		return
	}
	var lines []int
	for _, a := range attrs {
		if strings.HasSuffix(a.path, "test_case") {
			lines = append(lines, a.line)
		}
	}
	for i, nm := range names {
		w.add(lang.Test{Kind: testdex.KindSubtest, Name: parent.Name + "::" + nm, Parent: parent.Name,
			Line: lines[i], Tags: parent.Tags, Skip: parent.Skip})
	}
}

func isCase(path string) bool { return path == "case" || strings.HasPrefix(path, "case::") }

// testCaseName names a #[test_case(...)] row as test-case 3 does: the
// description after ";" when present, else each argument followed by "_",
// then "expects" and the expected expression, all through
// escapeTestName. ok is false when the expectation is a keyword form
// (matches, panics, it, ...) whose rendering we do not reproduce.
func testCaseName(args string) (string, bool) {
	args = strings.TrimSpace(args)
	args = strings.TrimSuffix(strings.TrimPrefix(args, "("), ")")
	parts := splitTop(args, ";")
	if len(parts) > 1 {
		desc := strings.TrimSpace(parts[len(parts)-1])
		if s, err := strconv.Unquote(desc); err == nil {
			return escapeTestName(s), true
		}
		return "{test_case}", false
	}
	var expect string
	if i := indexTop(args, "=>"); i >= 0 {
		args, expect = args[:i], strings.TrimSpace(args[i+2:])
	}
	var b strings.Builder
	for _, a := range splitTop(args, ",") {
		if a = strings.TrimSpace(a); a != "" {
			b.WriteString(a)
			b.WriteByte('_')
		}
	}
	b.WriteString("expects")
	if expect != "" {
		first := strings.FieldsFunc(expect, func(r rune) bool { return r == ' ' || r == '(' })
		if len(first) > 0 && keywordExpect[first[0]] {
			return "{test_case}", false
		}
		b.WriteString(" " + expect)
	}
	return escapeTestName(b.String()), true
}

var keywordExpect = map[string]bool{"matches": true, "panics": true, "it": true, "is": true,
	"with": true, "using": true, "ignore": true, "inconclusive": true, "matching": true}

// escapeTestName is test-case's escape_test_name: lower case, each run of
// non-alphanumerics one "_", a leading "_" unless it starts with a letter.
func escapeTestName(s string) string {
	if s == "" {
		return "_empty"
	}
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(s) {
		if isAlnum(r) {
			b.WriteRune(r)
			under = false
		} else if !under {
			b.WriteByte('_')
			under = true
		}
	}
	out := b.String()
	if c := out[0]; c != '_' && !(c >= 'a' && c <= 'z') {
		out = "_" + out
	}
	return out
}

// splitTop splits s at sep outside brackets and string literals.
func splitTop(s, sep string) []string {
	var out []string
	for {
		i := indexTop(s, sep)
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i])
		s = s[i+len(sep):]
	}
}

// indexTop finds sep outside brackets and string literals, -1 if absent.
func indexTop(s, sep string) int {
	depth, inStr := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr:
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case depth == 0 && strings.HasPrefix(s[i:], sep):
			return i
		}
	}
	return -1
}

// testDeclRE finds what makes a macro_rules! worth recording: a test
// attribute, or a quickcheck!/proptest! block.
var testDeclRE = regexp.MustCompile(`#\s*\[\s*(?:\w+\s*::\s*)*(?:test|quickcheck|wasm_bindgen_test|test_case|rstest)\b|\b(?:quickcheck|proptest)\s*!`)

// macroDef records a macro_rules! that declares tests, for the Linker.
func (w *walker) macroDef(n *sitter.Node, name string, sc scope, attrs []attr) {
	src := n.Content(w.src)
	if name == "" || !testDeclRE.MatchString(src) {
		return
	}
	w.facts.Macros = append(w.facts.Macros, macroDef{Name: name, Line: line(n), Vis: sc.vis,
		Export: hasAttr(attrs, "macro_export"), Tags: sc.tags, Src: src})
}

// macroCall reads an item-level macro invocation: the #[test] functions
// of a proptest! block and every function of a quickcheck! block become
// tests in place; any other invocation is recorded for the Linker, which
// expands those of macro_rules! that declare tests.
func (w *walker) macroCall(n *sitter.Node, sc scope) {
	m := strings.Join(strings.Fields(fieldText(n, "macro", w.src)), "")
	switch m {
	case "proptest", "proptest::proptest", "quickcheck", "quickcheck::quickcheck":
		var s scanned
		s.items(tokenize(n.Content(w.src)), nil, sc.tags, false)
		base := line(n)
		for _, t := range s.tests {
			w.add(lang.Test{Kind: t.kind, Name: sc.join(strings.Join(append(t.mods, t.name), "::")), Line: base + t.line,
				Skip: t.skip, Tags: t.tags})
		}
		return
	}
	var args string
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); c.Type() == "token_tree" {
			args = c.Content(w.src)
		}
	}
	if args == "" || m == "" {
		return
	}
	w.facts.Calls = append(w.facts.Calls, macroCall{Name: m, Args: args, Line: line(n), Inline: sc.path, Tags: sc.tags})
}
