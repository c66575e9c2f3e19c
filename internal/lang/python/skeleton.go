package python

import (
	"bytes"
	"regexp"
	"slices"
)

// skeleton returns a copy of a Python file in which the bodies the
// walker never reads are blanked: every method's (a def whose nearest
// enclosing def or class is a class, with no def around it) but a
// metaclass's (class M(type):), and every
// module-level function's but those it reads (functions). A blanked
// body becomes pass on its def's line (after the ':') and its line ends
// alone, so the tree tree-sitter builds of the copy has the file's lines
// and, on every line not blanked, its columns and text up to the def's
// ':'; the walker reads nodes' text from the copy. tree-sitter's time
// follows the tokens and the whitespace it reads, and the bodies of tests
// are most of a test file.
//
// A Go tokenizer (skeleton_tokens.go) finds the bodies; it knows Python's
// strings (prefixes, triple quotes, f-strings with nested fields),
// numbers, brackets, comments, line continuations and indentation. ok is
// false when the file holds anything it does not follow to the letter:
// an unterminated string, unbalanced brackets, a stray backslash, an
// indentation Python would refuse (an unexpected indent, a missing
// block, a dedent to no outer level), tabs or form feeds in indentation,
// and the grammar errors the order of its tokens shows (an operand after
// an operand, a binary operator without its left operand as in x = = 1,
// a closing bracket or a line end after an operator, Python 2's except
// E, e). The caller then parses the file as written, so those errors are
// reported as before. What the blanking hides is any other error of the
// grammar inside a blanked body (f(, a), def without parentheses): Python
// refuses such a file, and the listing does not say so.
func skeleton(src []byte) ([]byte, bool) {
	s := &skelScan{src: src}
	if !s.run() {
		return nil, false
	}
	return s.compact(), true
}

// metaclassHeader finds a class header whose one base is type, a
// metaclass (metaclassFact reads only those), whose methods' bodies the
// skeleton keeps.
var metaclassHeader = regexp.MustCompile(`\(\s*type\s*\)\s*:`)

// skelScope is one open class or def block: its indentation and kind.
type skelScope struct {
	indent int
	class  bool
	meta   bool // a class whose one base is type: its methods are read (metaclassFact)
}

// skelScan is skeleton's state.
type skelScan struct {
	src     []byte
	bodies  [][2]int        // the bodies to blank, [start, end) in src
	funcs   []skelFunc      // module-level functions (functions)
	called  map[string]bool // names called outside the bodies to blank (calls)
	prop    bool            // the decorators read since the last def or statement include @property
	fn      string          // the name of the module-level function whose body is being read; "" for a method
	says    bool            // that body's code names what the walker looks for (heed)
	pos     int
	depth   []byte // open brackets
	indents []int  // Python's indentation stack (without the 0 at its bottom)
	scopes  []skelScope
	last    skelTok // the last token of the logical line so far
	first   bool    // no token of the logical line read yet
	blankAt int     // indentation of the def whose body is being blanked; -1 when none
	bodyLo  int     // where that body starts; -1 before its first line
	headEnd int     // where the header of the def whose body is blanked ends (after its ':')
	colonAt int     // the offset after the last ':' read
	bodyHi  int     // where its last logical line so far ends
}

// run reads the file one logical line at a time, keeping Python's
// indentation stack and the open classes and defs, and records the bodies
// to blank; it is false where skeleton refuses the file.
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
		} else if s.blankAt < 0 {
			s.calls(s.src[start:s.pos])
		}
		open = s.last.colon
		if open {
			s.opens(word, indent, start)
			s.prop = false
		} else if s.src[start] == '@' {
			s.prop = s.prop || isPropertyLine(s.src[start:s.pos])
		} else {
			s.prop = false
			if word == "def" && s.blankAt < 0 && len(s.scopes) == 0 {
				s.funcs = append(s.funcs, skelFunc{name: s.defName(start), lo: start, hi: s.pos, line: true})
			}
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
		meta := metaclassHeader.Match(s.src[start:max(start, s.colonAt)])
		s.scopes = append(s.scopes, skelScope{indent: indent, class: true, meta: meta})
	case "def":
		if s.inClassOnly() && !s.prop { // a property's body is read (objects.go)
			s.blankAt, s.bodyLo, s.headEnd, s.fn = indent, -1, s.colonAt, ""
			return
		}
		if len(s.scopes) == 0 {
			s.blankAt, s.bodyLo, s.headEnd, s.fn, s.says = indent, -1, s.colonAt, s.defName(start), false
			return
		}
		s.scopes = append(s.scopes, skelScope{indent: indent})
	}
}

// isPropertyLine reports a decorator line that is @property alone.
func isPropertyLine(b []byte) bool {
	b = bytes.TrimSpace(b)
	if i := bytes.IndexByte(b, '#'); i >= 0 {
		b = bytes.TrimSpace(b[:i])
	}
	return string(b) == "@property"
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

// inClassOnly reports whether the innermost scope is a class, not a
// metaclass (whose methods' bodies metaclassFact reads), and no def
// encloses it.
func (s *skelScan) inClassOnly() bool {
	if len(s.scopes) == 0 || !s.scopes[len(s.scopes)-1].class || s.scopes[len(s.scopes)-1].meta {
		return false
	}
	for _, sc := range s.scopes {
		if !sc.class {
			return false
		}
	}
	return true
}

// endBody records the body being blanked, if any: from the end of its
// def's header to the end of its last line.
func (s *skelScan) endBody() {
	lo, hi := s.headEnd, s.bodyHi
	found := s.bodyLo >= 0
	s.blankAt, s.bodyLo = -1, -1
	switch {
	case !found:
	case s.fn != "":
		s.funcs = append(s.funcs, skelFunc{name: s.fn, lo: lo, hi: hi, says: s.says})
	default:
		s.bodies = append(s.bodies, [2]int{lo, hi})
	}
}

// compact returns the copy: each body replaced by pass on its def's
// line, then its line ends alone.
func (s *skelScan) compact() []byte {
	s.functions()
	if len(s.bodies) == 0 {
		return s.src
	}
	out := make([]byte, 0, len(s.src)/2)
	at := 0
	for _, b := range s.bodies {
		out = append(out, s.src[at:b[0]]...)
		out = append(out, " pass"...)
		out = appendLineEnds(out, s.src[b[0]:b[1]])
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

func isWordByte(c byte) bool { return wordBytes[c] }

// wordBytes are the bytes of names and numbers: ASCII letters, digits,
// '_' and every byte of a multi-byte UTF-8 character.
var wordBytes = func() (t [256]bool) {
	for c := range t {
		t[c] = c == '_' || c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
	}
	return t
}()

// appendLineEnds appends the line ends of b (\n, \r\n, \r) alone.
func appendLineEnds(out, b []byte) []byte {
	if bytes.IndexByte(b, '\r') < 0 {
		for n := bytes.Count(b, []byte{'\n'}); n > 0; n-- {
			out = append(out, '\n')
		}
		return out
	}
	for _, c := range b {
		if c == '\n' || c == '\r' {
			out = append(out, c)
		}
	}
	return out
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

// skelFunc is a module-level function: its name and body (the def line
// itself for a body on that line, which is never blanked).
type skelFunc struct {
	name   string
	lo, hi int
	line   bool
	says   bool // its code names class, type, setattr or sets a test* attribute (heed)
}

// functions adds to the bodies to blank those of the module-level
// functions the walker would find nothing in. The walker reads such a
// body for what makes classes at run time (dynScan.function: class
// statements, type() and new_class calls, setattr and test attributes
// set on the first parameter, calls of the module's functions that do
// these) and for parametrize (a function that sets tables as a
// decorator); load_tests is read whole. A body is kept when its code
// names class, type or setattr or an attribute test* (heed; strings and
// comments aside, but for f-strings' fields), when its text holds
// parametrize anywhere or both SkipTest and os.path. (a dirSkipper,
// fsskip.go), or when it names a function kept for these; a
// function called at the module level or in a class body (a table's
// helper, funcs.go) is kept with the functions its body names, in turn;
// a file that says new_class anywhere (an alias of it may be called)
// keeps them all.
func (s *skelScan) functions() {
	if len(s.funcs) == 0 || bytes.Contains(s.src, []byte("new_class")) {
		return
	}
	kept := map[string]bool{}
	for _, f := range s.funcs {
		b := s.src[f.lo:f.hi]
		if f.says || bytes.Contains(b, []byte("parametrize")) || f.line && bodyMaySay(b) ||
			bytes.Contains(b, []byte("SkipTest")) && bytes.Contains(b, []byte("os.path.")) {
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
	s.keepCallees(kept)
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

// keepCallees adds to kept the module-level functions called outside the
// bodies to blank (calls) and those their bodies name, in turn: a table
// may be built by a helper that calls others (funcs.go).
func (s *skelScan) keepCallees(kept map[string]bool) {
	if len(s.called) == 0 {
		return
	}
	byName := map[string][]skelFunc{}
	for _, f := range s.funcs {
		byName[f.name] = append(byName[f.name], f)
	}
	var todo []string
	seen := map[string]bool{}
	for name := range s.called {
		if len(byName[name]) > 0 {
			todo, seen[name] = append(todo, name), true
		}
	}
	for len(todo) > 0 {
		name := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		kept[name] = true
		for _, f := range byName[name] {
			forWords(s.src[f.lo:f.hi], func(w string) {
				if !seen[w] && len(byName[w]) > 0 {
					todo, seen[w] = append(todo, w), true
				}
			})
		}
	}
}

// forWords calls fn with each word (name or number) of b.
func forWords(b []byte, fn func(string)) {
	scanWords(b, func(i, j int) bool { fn(string(b[i:j])); return true })
}

// scanWords calls fn with the bounds of each word (name or number) of b,
// in order, until fn returns false; it reports whether fn never did.
func scanWords(b []byte, fn func(i, j int) bool) bool {
	for i := 0; i < len(b); {
		if !isWordByte(b[i]) {
			i++
			continue
		}
		j := i
		for j < len(b) && isWordByte(b[j]) {
			j++
		}
		if !fn(i, j) {
			return false
		}
		i = j
	}
	return true
}

// bodyMaySay reports whether the text of a one-line function (not read
// by heed) holds a word the walker looks for in module-level functions
// (class, type, setattr) or an attribute named test* (x.test_a = f).
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

// calls records the names a line outside the bodies to blank calls
// (name followed by '('; not those def and class define): a module-level
// function called at the module level or in a class body may build a
// table (funcs.go), so its body is kept.
func (s *skelScan) calls(b []byte) {
	prev := ""
	if len(b) > 0 && b[0] == '@' {
		prev = "(" // a decorator's name: a collector (funcs.go) is read
	}
	scanWords(b, func(i, j int) bool {
		word := string(b[i:j])
		k := j
		for k < len(b) && (b[k] == ' ' || b[k] == '\t') {
			k++
		}
		if (prev == "(" || k < len(b) && b[k] == '(') && prev != "def" && prev != "class" && (b[i] < '0' || b[i] > '9') {
			if s.called == nil {
				s.called = map[string]bool{}
			}
			s.called[word] = true
		}
		prev = word
		return true
	})
}

// namesAny reports whether b holds a word that is a key of names.
func namesAny(b []byte, names map[string]bool) bool {
	return !scanWords(b, func(i, j int) bool { return !names[string(b[i:j])] })
}
