package python

import (
	"bytes"
	"slices"
	"strings"
)

// skeleton returns a copy of a Python file in which the body of every
// method (a def whose nearest enclosing def or class is a class, with no
// def around it) is blanked: its first statement becomes pass and every
// other byte of it but line ends a space, so the tree tree-sitter builds
// of the copy keeps the file's byte offsets and lines but holds none of
// the methods' statements. The walker never reads a method's body (only
// its name, decorators and parameters), and tree-sitter's time follows
// the tokens it reads: the bodies of test methods are most of a test
// file.
//
// A Go tokenizer finds the bodies; it knows Python's strings (prefixes,
// triple quotes, f-strings with nested fields), brackets, comments, line
// continuations and indentation. ok is false when the file holds anything
// it does not follow to the letter: an unterminated string, unbalanced
// brackets, a stray backslash, an indentation Python would refuse (an
// unexpected indent, a missing block, a dedent to no outer level), tabs or
// form feeds in indentation. The caller then parses the file itself, so
// the errors Python's tokenizer reports are reported as before. What the
// blanking cannot show is an error of the grammar inside a method's body
// whose tokens are sound (x = = 1): Python refuses such a file, and the
// listing does not say so.
func skeleton(src []byte) ([]byte, bool) {
	s := &skelScan{src: src}
	if !s.run() {
		return nil, false
	}
	return s.compact(), true
}

// skelScope is one open class or def block: its indentation and kind.
type skelScope struct {
	indent int
	class  bool
}

// skelScan is skeleton's state.
type skelScan struct {
	src     []byte
	bodies  [][2]int   // the bodies to blank, [start, end) in src
	funcs   []skelFunc // module-level functions (functions)
	fn      string     // the name of the module-level function whose body is being read; "" for a method
	pos     int
	depth   []byte // open brackets
	indents []int  // Python's indentation stack (without the 0 at its bottom)
	scopes  []skelScope
	last    skelTok // the last token of the logical line so far
	blankAt int     // indentation of the def whose body is being blanked; -1 when none
	bodyLo  int     // where that body starts; -1 before its first line
	bodyHi  int     // where its last logical line so far ends
}

func (s *skelScan) run() bool {
	s.blankAt, s.bodyLo = -1, -1
	open := false // the previous logical line ended with ':' and opens a block
	for s.pos < len(s.src) {
		indent, ok := s.indentation()
		if !ok {
			return false
		}
		if s.pos >= len(s.src) {
			break
		}
		if c := s.src[s.pos]; c == '#' || c == '\n' || c == '\r' {
			s.skipLine() // blank or comment-only: no indentation
			continue
		}
		if !s.dedent(indent, open) {
			return false
		}
		start := s.pos
		s.scope(indent, start)
		word := s.firstWord()
		if !s.logicalLine() {
			return false
		}
		if s.blankAt >= 0 && s.bodyLo >= 0 {
			s.bodyHi = s.pos
		}
		open = s.last.colon
		if open {
			s.opens(word, indent, start)
		} else if word == "def" && s.blankAt < 0 && len(s.scopes) == 0 {
			s.funcs = append(s.funcs, skelFunc{name: s.defName(start), lo: start, hi: s.pos, line: true})
		}
		s.newline()
	}
	if len(s.depth) > 0 || open {
		return false
	}
	s.endBody()
	return true
}

// indentation reads the leading spaces of a line; tabs and form feeds
// are refused (Python's tab rules are not reproduced).
func (s *skelScan) indentation() (int, bool) {
	n := 0
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case ' ':
			n++
			s.pos++
		case '\t', '\f':
			return 0, false
		default:
			return n, true
		}
	}
	return n, true
}

// dedent applies Python's indentation rules to a logical line starting
// at column indent, open when the line before ended with ':'.
func (s *skelScan) dedent(indent int, open bool) bool {
	top := 0
	if len(s.indents) > 0 {
		top = s.indents[len(s.indents)-1]
	}
	switch {
	case indent > top:
		if !open {
			return false // unexpected indent
		}
		s.indents = append(s.indents, indent)
		return true
	case open:
		return false // expected an indented block
	}
	for len(s.indents) > 0 && s.indents[len(s.indents)-1] > indent {
		s.indents = s.indents[:len(s.indents)-1]
	}
	top = 0
	if len(s.indents) > 0 {
		top = s.indents[len(s.indents)-1]
	}
	return top == indent
}

// scope closes the blocks a line at indent ends, and the body being
// blanked when the line is not in it; or starts that body.
func (s *skelScan) scope(indent, start int) {
	if s.blankAt >= 0 {
		if indent > s.blankAt {
			if s.bodyLo < 0 {
				s.bodyLo = start
			}
			return
		}
		s.endBody()
	}
	for len(s.scopes) > 0 && s.scopes[len(s.scopes)-1].indent >= indent {
		s.scopes = s.scopes[:len(s.scopes)-1]
	}
}

// opens handles a logical line that ends with ':': a class or def pushes
// a scope, and a method starts a body to blank.
func (s *skelScan) opens(word string, indent, start int) {
	if s.blankAt >= 0 {
		return
	}
	switch word {
	case "class":
		s.scopes = append(s.scopes, skelScope{indent: indent, class: true})
	case "def":
		if s.inClassOnly() {
			s.blankAt, s.bodyLo, s.fn = indent, -1, ""
			return
		}
		if len(s.scopes) == 0 {
			s.blankAt, s.bodyLo, s.fn = indent, -1, s.defName(start)
			return
		}
		s.scopes = append(s.scopes, skelScope{indent: indent})
	}
}

// defName returns the name a def line starting at i defines.
func (s *skelScan) defName(i int) string {
	for _, kw := range []string{"async", "def"} {
		if s.wordAt(i) == kw {
			i += len(kw)
			for i < len(s.src) && (s.src[i] == ' ' || s.src[i] == '\t') {
				i++
			}
		}
	}
	j := i
	for j < len(s.src) && isWordByte(s.src[j]) {
		j++
	}
	return string(s.src[i:j])
}

// inClassOnly reports whether the innermost scope is a class and no def
// encloses it.
func (s *skelScan) inClassOnly() bool {
	if len(s.scopes) == 0 || !s.scopes[len(s.scopes)-1].class {
		return false
	}
	for _, sc := range s.scopes {
		if !sc.class {
			return false
		}
	}
	return true
}

// endBody records the body being blanked, if any.
func (s *skelScan) endBody() {
	lo, hi := s.bodyLo, s.bodyHi
	s.blankAt, s.bodyLo = -1, -1
	if lo < 0 {
		return
	}
	if hi-lo < 4 {
		if s.fn != "" {
			s.funcs = append(s.funcs, skelFunc{name: s.fn, lo: lo, hi: hi, line: true})
		}
		return
	}
	for _, c := range s.src[lo : lo+4] {
		if c == '\n' || c == '\r' {
			if s.fn != "" {
				s.funcs = append(s.funcs, skelFunc{name: s.fn, lo: lo, hi: hi, line: true})
			}
			return // a first statement shorter than pass: kept
		}
	}
	if s.fn != "" {
		s.funcs = append(s.funcs, skelFunc{name: s.fn, lo: lo, hi: hi})
		return
	}
	s.bodies = append(s.bodies, [2]int{lo, hi})
}

// compact returns the copy: each body's first statement replaced by
// pass and the rest of it by its line ends alone.
func (s *skelScan) compact() []byte {
	s.functions()
	if len(s.bodies) == 0 {
		return s.src
	}
	out := make([]byte, 0, len(s.src)/2)
	at := 0
	for _, b := range s.bodies {
		out = append(out, s.src[at:b[0]]...)
		out = append(out, "pass"...)
		for _, c := range s.src[b[0]+4 : b[1]] {
			if c == '\n' || c == '\r' {
				out = append(out, c)
			}
		}
		at = b[1]
	}
	return append(out, s.src[at:]...)
}

// firstWord returns def for a line starting with def or async def, class
// for class, "" otherwise; it does not move.
func (s *skelScan) firstWord() string {
	w := s.wordAt(s.pos)
	if w == "async" {
		i := s.pos + len(w)
		for i < len(s.src) && s.src[i] == ' ' {
			i++
		}
		w = s.wordAt(i)
	}
	if w == "def" || w == "class" {
		return w
	}
	return ""
}

// wordAt returns the word at i when it is one of the keywords skeleton
// asks about (def, class, async, except, raise), "" otherwise.
func (s *skelScan) wordAt(i int) string {
	j := i
	for j < len(s.src) && isWordByte(s.src[j]) {
		j++
	}
	for _, k := range [...]string{"def", "class", "async", "except", "raise"} {
		if string(s.src[i:j]) == k {
			return k // the words skeleton asks about, without an allocation
		}
	}
	return ""
}

// opening is the bracket a closing one closes.
func opening(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// skipLine moves past the end of the current line.
func (s *skelScan) skipLine() {
	for s.pos < len(s.src) && s.src[s.pos] != '\n' && s.src[s.pos] != '\r' {
		s.pos++
	}
	s.newline()
}

// newline moves past one line end (\n, \r\n or \r), if there.
func (s *skelScan) newline() {
	if s.pos < len(s.src) && s.src[s.pos] == '\r' {
		s.pos++
	}
	if s.pos < len(s.src) && s.src[s.pos] == '\n' {
		s.pos++
	}
}

// logicalLine reads tokens up to the end of a logical line (a line end
// outside brackets and not after a backslash), setting colon; it stops
// on the line end. It is false on what it does not follow, and on a few
// errors of Python's grammar it can see in the tokens (grammarOK).
func (s *skelScan) logicalLine() bool {
	s.last = skelTok{}
	lead := s.wordAt(s.pos)
	py2 := lead == "except" || lead == "raise" // except E, e: and raise E, v are Python 2's
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch {
		case c == '\n' || c == '\r':
			if len(s.depth) == 0 {
				return !s.last.dangling
			}
			s.pos++
		case c == ' ' || c == '\t' || c == '\f':
			s.pos++
		case c == '#':
			for s.pos < len(s.src) && s.src[s.pos] != '\n' && s.src[s.pos] != '\r' {
				s.pos++
			}
		case c == '\\':
			s.pos++
			if s.pos >= len(s.src) || (s.src[s.pos] != '\n' && s.src[s.pos] != '\r') {
				return false
			}
			s.newline()
		case c == '\'' || c == '"':
			if !s.operand(true) || !s.str(s.pos, false, false) {
				return false
			}
		case c >= '0' && c <= '9' || c == '.' && s.pos+1 < len(s.src) && s.src[s.pos+1] >= '0' && s.src[s.pos+1] <= '9':
			if !s.number() {
				return false
			}
		case isWordByte(c):
			if !s.word() {
				return false
			}
		default:
			if !s.operator(c) || c == ',' && py2 && len(s.depth) == 0 {
				return false
			}
		}
	}
	return !s.last.dangling
}

// skelTok is what the last token of a logical line was, for the grammar
// checks.
type skelTok struct {
	operand  bool // a name, number, string or closing bracket
	str      bool // a string
	dangling bool // an operator or keyword that wants an operand after it
	colon    bool // ':' (not ':=')
	imports  bool // the keyword import
}

// operand moves past an operand's start: false when the token before
// was an operand too (a missing operator or comma, Python 2's print "x"),
// but for strings after strings (implicit concatenation).
func (s *skelScan) operand(str bool) bool {
	if s.last.operand && !(str && s.last.str) {
		return false
	}
	s.last = skelTok{operand: true, str: str}
	return true
}

// operator reads one punctuation byte: brackets must balance, and bytes
// Python 3 has no use for (` $ ?, <> and ! but in !=) are refused.
func (s *skelScan) operator(c byte) bool {
	s.pos++
	next := byte(0)
	if s.pos < len(s.src) {
		next = s.src[s.pos]
	}
	prev := s.last
	s.last = skelTok{colon: c == ':' && next != '=', dangling: strings.IndexByte("=+-/%&|^<>~!", c) >= 0}
	switch c {
	case '(', '[', '{':
		s.depth = append(s.depth, c)
	case ')', ']', '}':
		if len(s.depth) == 0 || s.depth[len(s.depth)-1] != opening(c) {
			return false
		}
		s.depth = s.depth[:len(s.depth)-1]
		s.last.operand = true
	case '*':
		s.last.dangling = !prev.imports
	case '.':
		s.last.dangling = !(next == '.' || s.pos >= 2 && s.src[s.pos-2] == '.')
	case '`', '$', '?':
		return false
	case '<':
		return next != '>'
	case '!':
		return next == '='
	}
	return true
}

// word reads a name or number, or a string with its prefix.
func (s *skelScan) word() bool {
	i := s.pos
	for i < len(s.src) && isWordByte(s.src[i]) {
		i++
	}
	if i < len(s.src) && (s.src[i] == '\'' || s.src[i] == '"') {
		if raw, f, ok := skelPrefix(s.src[s.pos:i]); ok {
			return s.operand(true) && s.str(i, raw, f)
		}
	}
	w := s.src[s.pos:i]
	s.pos = i
	if k, ok := pyKeywords[string(w)]; ok {
		if k == kwValue {
			return s.operand(false)
		}
		s.last = skelTok{dangling: k == kwWants, imports: string(w) == "import"}
		return true
	}
	return s.operand(false)
}

// number reads a number (an exponent's sign included); Python 2's 0777
// and 10L are refused.
func (s *skelScan) number() bool {
	i := s.pos
	for i < len(s.src) {
		c := s.src[i]
		if c == '+' || c == '-' {
			if p := s.src[i-1] | 0x20; p != 'e' || s.src[s.pos] == '0' && i-s.pos > 1 && s.src[s.pos+1]|0x20 == 'x' {
				break
			}
		} else if c != '.' && !isWordByte(c) {
			break
		}
		i++
	}
	w := s.src[s.pos:i]
	s.pos = i
	return numberOK(w) && s.operand(false)
}

// numberOK refuses Python 2's numbers: 0777 and 10L.
func numberOK(w []byte) bool {
	digits := true
	for _, c := range w[:len(w)-1] {
		digits = digits && c >= '0' && c <= '9'
	}
	if l := w[len(w)-1] | 0x20; l == 'l' && len(w) > 1 && (digits || len(w) > 2 && w[0] == '0' && w[1]|0x20 == 'x') {
		return false
	}
	if len(w) < 2 || w[0] != '0' || !digits || w[len(w)-1] < '0' || w[len(w)-1] > '9' {
		return true
	}
	return strings.Trim(string(w), "0") == ""
}

// Kinds of Python's keywords for the grammar checks: a value (True), one
// that wants an operand after it (and), and the others (return).
const (
	kwValue = iota
	kwWants
	kwOther
)

// pyKeywords are Python 3's keywords and soft keywords.
var pyKeywords = map[string]int{
	"False": kwValue, "None": kwValue, "True": kwValue,
	"and": kwWants, "as": kwWants, "assert": kwWants, "async": kwWants, "await": kwWants, "class": kwWants,
	"def": kwWants, "del": kwWants, "elif": kwWants, "for": kwWants, "from": kwWants, "global": kwWants,
	"if": kwWants, "import": kwWants, "in": kwWants, "is": kwWants, "lambda": kwWants, "nonlocal": kwWants,
	"not": kwWants, "or": kwWants, "while": kwWants, "with": kwWants,
	"break": kwOther, "continue": kwOther, "else": kwOther, "except": kwOther, "finally": kwOther,
	"pass": kwOther, "raise": kwOther, "return": kwOther, "try": kwOther, "yield": kwOther,
	"match": kwOther, "case": kwOther, "type": kwOther,
}

// skelPrefix reads a string prefix: r, u, b, f and their pairs br, rb,
// fr, rf in any case.
func skelPrefix(p []byte) (raw, f, ok bool) {
	if len(p) == 0 || len(p) > 2 {
		return false, false, false
	}
	var b, u bool
	for _, c := range p {
		switch c | 0x20 {
		case 'r':
			raw = !raw
			if !raw {
				return false, false, false
			}
		case 'b':
			b = true
		case 'u':
			u = true
		case 'f':
			f = true
		default:
			return false, false, false
		}
	}
	if u && len(p) > 1 || b && f {
		return false, false, false
	}
	return raw, f, true
}

// str reads a string literal whose quote is at i, to its end.
func (s *skelScan) str(i int, raw, f bool) bool {
	q := s.src[i]
	triple := i+2 < len(s.src) && s.src[i+1] == q && s.src[i+2] == q
	if triple {
		i += 3
	} else {
		i++
	}
	last := s.last
	end, ok := s.strBody(i, q, triple, raw, f)
	s.pos, s.last = end, last
	return ok
}

// strBody reads a string's contents from i and returns the offset after
// its closing quote.
func (s *skelScan) strBody(i int, q byte, triple, raw, f bool) (int, bool) {
	for i < len(s.src) {
		c := s.src[i]
		switch {
		case c == '\\':
			i = s.escape(i, raw, f)
		case c == q:
			if !triple {
				return i + 1, true
			}
			if i+2 < len(s.src) && s.src[i+1] == q && s.src[i+2] == q {
				return i + 3, true
			}
			i++
		case (c == '\n' || c == '\r') && !triple:
			return i, false
		case f && c == '{':
			if i+1 < len(s.src) && s.src[i+1] == '{' {
				i += 2
				continue
			}
			next, ok := s.field(i+1, triple)
			if !ok {
				return next, false
			}
			i = next
		case f && c == '}':
			if i+1 < len(s.src) && s.src[i+1] == '}' {
				i += 2
				continue
			}
			return i, false // a single '}'
		default:
			i++
		}
	}
	return i, false
}

// escape steps over a backslash in a string and what it escapes (in a raw
// string too, for the closing quote); in an f-string a brace after it is
// still a brace, but \N{NAME} is one escape when the string is not raw.
func (s *skelScan) escape(i int, raw, f bool) int {
	i++
	if i >= len(s.src) {
		return i
	}
	switch c := s.src[i]; {
	case f && (c == '{' || c == '}'):
		return i
	case f && !raw && c == 'N' && i+1 < len(s.src) && s.src[i+1] == '{':
		for i < len(s.src) && s.src[i] != '}' && s.src[i] != '\n' {
			i++
		}
		return i + 1
	case c == '\r' && i+1 < len(s.src) && s.src[i+1] == '\n':
		return i + 2
	}
	return i + 1
}

// field reads an f-string's replacement field from i (after its '{') and
// returns the offset after its '}': an expression (strings and brackets
// in it as in code), then an optional !conversion and :format spec (text
// with nested fields). Backslashes and comments in the expression, and
// line ends in a field of a single-quoted string, are refused.
func (s *skelScan) field(i int, triple bool) (int, bool) {
	var depth int
	s.last = skelTok{} // the expression's own tokens
	for i < len(s.src) {
		c := s.src[i]
		switch {
		case c == '\n' || c == '\r':
			if !triple {
				return i, false
			}
			i++
		case c == '#' || c == '\\':
			return i, false
		case c == '\'' || c == '"' || isWordByte(c):
			j := i
			for j < len(s.src) && isWordByte(s.src[j]) {
				j++
			}
			raw, f, ok := skelPrefix(s.src[i:j])
			if j == len(s.src) || s.src[j] != '\'' && s.src[j] != '"' {
				i = j // a name or number
				continue
			}
			if j > i && !ok {
				return j, false
			}
			if !s.str(j, raw, f) {
				return s.pos, false
			}
			i = s.pos
		case c == '(' || c == '[' || c == '{':
			depth++
			i++
		case (c == ')' || c == ']') && depth > 0:
			depth--
			i++
		case c == '}':
			if depth == 0 {
				return i + 1, true
			}
			depth--
			i++
		case depth == 0 && (c == ':' || c == '!' && (i+1 >= len(s.src) || s.src[i+1] != '=')):
			return s.spec(i+1, triple)
		default:
			i++
		}
	}
	return i, false
}

// spec reads a field's conversion and format spec from i to the field's
// closing '}' and returns the offset after it.
func (s *skelScan) spec(i int, triple bool) (int, bool) {
	for i < len(s.src) {
		switch c := s.src[i]; {
		case c == '}':
			return i + 1, true
		case c == '{':
			next, ok := s.field(i+1, triple)
			if !ok {
				return next, false
			}
			i = next
		case c == '\'' || c == '"' || c == '\\':
			return i, false // the string's own quote may end here
		case (c == '\n' || c == '\r') && !triple:
			return i, false
		default:
			i++
		}
	}
	return i, false
}

// skelFunc is a module-level function: its name and body (the def line
// itself for a body on that line, which is never blanked).
type skelFunc struct {
	name   string
	lo, hi int
	line   bool
}

// functions adds to the bodies to blank those of the module-level
// functions the walker would find nothing in. The walker reads such a
// body for what makes classes at run time (dynScan.function: class
// statements, type() and new_class calls, setattr and test attributes
// set on the first parameter, calls of the module's functions that do
// these) and for parametrize (a function that sets tables as a
// decorator); load_tests is read whole. A body is kept when its text
// holds any of those words, or names a function kept for them; a file
// that says new_class anywhere (an alias of it may be called) keeps them
// all.
func (s *skelScan) functions() {
	if len(s.funcs) == 0 || bytes.Contains(s.src, []byte("new_class")) {
		return
	}
	kept := map[string]bool{}
	for _, f := range s.funcs {
		if bodyMaySay(s.src[f.lo:f.hi]) {
			kept[f.name] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, f := range s.funcs {
			if !kept[f.name] && namesAny(s.src[f.lo:f.hi], kept) {
				kept[f.name], changed = true, true
			}
		}
	}
	n := len(s.bodies)
	for _, f := range s.funcs {
		if !f.line && !kept[f.name] && f.name != "load_tests" {
			s.bodies = append(s.bodies, [2]int{f.lo, f.hi})
		}
	}
	if len(s.bodies) > n {
		slices.SortFunc(s.bodies, func(a, b [2]int) int { return a[0] - b[0] })
	}
}

// bodyMaySay reports whether a function's text holds a word the walker
// looks for in module-level functions (class, type, setattr), the text
// parametrize, or an attribute named test* (x.test_a = f).
func bodyMaySay(b []byte) bool {
	if bytes.Contains(b, []byte("parametrize")) {
		return true
	}
	for i := 0; i < len(b); {
		c := b[i]
		if c == '.' {
			j := i + 1
			for j < len(b) && (b[j] == ' ' || b[j] == '\t' || b[j] == '\\' || b[j] == '\n' || b[j] == '\r') {
				j++
			}
			if bytes.HasPrefix(b[j:], []byte("test")) {
				return true
			}
			i = j
			continue
		}
		if !isWordByte(c) {
			i++
			continue
		}
		j := i
		for j < len(b) && isWordByte(b[j]) {
			j++
		}
		switch string(b[i:j]) {
		case "class", "type", "setattr":
			return true
		}
		i = j
	}
	return false
}

// namesAny reports whether b holds a word that is a key of names.
func namesAny(b []byte, names map[string]bool) bool {
	for i := 0; i < len(b); {
		if !isWordByte(b[i]) {
			i++
			continue
		}
		j := i
		for j < len(b) && isWordByte(b[j]) {
			j++
		}
		if names[string(b[i:j])] {
			return true
		}
		i = j
	}
	return false
}
