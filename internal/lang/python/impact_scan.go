package python

import (
	"bytes"
	"strings"
)

// scanImports reads a module's import statements with a lexical scan:
// Python's tokens as far as imports need them (comments, strings with
// their prefixes, triple quotes, escapes and f-string replacement fields
// nested as Python 3.12 allows, brackets, line continuations). It costs
// a small fraction of a tree-sitter parse, which is most of the time of
// `testdex affected` on a cold tree.
//
// It reads the calls of import_module, __import__ and importorskip too
// (a literal first argument is an import, anything else a dynamic one),
// and gives up (ok false) on anything it does not fully understand, the
// caller then parsing the file with tree-sitter: a string or a bracket
// left open, the word import outside an import statement, an import
// statement it cannot read, the other dynamic callees (exec, runpy, ...),
// a relative literal, an importer called inside an f-string. A syntax
// error elsewhere does not hide imports from it, so a file it reads needs
// no lang.AnyNode edge. TestScanImportsMatchesTree holds it to the
// tree-sitter reading.
func scanImports(data []byte) (f *modImports, ok bool) {
	s := &scanner{src: bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), line: 1, atStart: true}
	defer func() {
		if recover() != nil { // an index past the end: a truncated token
			f, ok = nil, false
		}
	}()
	if !s.tokens() || s.depth != 0 || len(s.calls) > 0 || !s.endStatement() {
		return nil, false
	}
	return &modImports{imports: append(s.out, s.lits...), dynamic: s.dyn, names: map[string]bool{}}, true
}

// scanner is the lexical scan's state.
type scanner struct {
	src   []byte
	i     int
	line  int
	depth int // open brackets
	// atStart is true when the next token starts a simple statement.
	atStart bool
	// stmt holds the tokens of the import statement being read; nil
	// outside one.
	stmt     []string
	stmtLine int
	out      []importUse
	// calls are the open calls of importers by name (import_module,
	// __import__, importorskip), innermost last; lits the imports of
	// those with a literal name, dyn the others' reasons.
	calls []nameCall
	lits  []importUse
	dyn   []string
}

// nameCall is an open call of an importer by name.
type nameCall struct {
	start, depth, line int
	state              callState
	lit                string
}

// callState is how far a nameCall was read.
type callState int

const (
	callParen   callState = iota // the name was read, its '(' not yet
	callFirst                    // awaiting the first argument
	callLit                      // the first argument is a string literal, awaiting ',' or ')'
	callLitOK                    // the first argument is a literal
	callDynamic                  // the first argument is anything else
)

// tokens scans the whole source; false means give up.
func (s *scanner) tokens() bool {
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == '#':
			for s.i < len(s.src) && s.src[s.i] != '\n' {
				s.i++
			}
		case c == '\\' && s.i+1 < len(s.src) && (s.src[s.i+1] == '\n' || s.src[s.i+1] == '\r'):
			s.i += 2
			if s.src[s.i-1] == '\r' && s.i < len(s.src) && s.src[s.i] == '\n' {
				s.i++
			}
			s.line++
		case c == '\n':
			s.line++
			s.i++
			if s.depth == 0 {
				if !s.endStatement() {
					return false
				}
				s.atStart = true
			}
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			s.i++
		case c == '"' || c == '\'':
			start := s.i
			if !s.token("") || !s.str("") {
				return false
			}
			s.argString(start)
		case isIdentByte(c):
			start := s.i
			for s.i < len(s.src) && isIdentByte(s.src[s.i]) {
				s.i++
			}
			w := s.src[start:s.i]
			if s.i < len(s.src) && (s.src[s.i] == '"' || s.src[s.i] == '\'') && isStringPrefix(w) {
				if !s.token("") || !s.str(string(w)) {
					return false
				}
				s.argString(start)
				continue
			}
			s.argOther()
			if !s.word(w) || dynamicCallee[string(w)] && !s.callee(start, string(w)) {
				return false
			}
		default:
			s.i++
			if !s.punct(c) {
				return false
			}
		}
	}
	return true
}

// punct handles one punctuation byte.
func (s *scanner) punct(c byte) bool {
	if n := len(s.calls); n > 0 {
		call := &s.calls[n-1]
		switch {
		case call.state == callParen && c == '(' && s.depth == call.depth:
			call.state = callFirst
		case call.state == callLit && (c == ',' || c == ')') && s.depth == call.depth+1:
			call.state = callLitOK
		default:
			s.argOther()
		}
	}
	switch c {
	case '(', '[', '{':
		s.depth++
	case ')', ']', '}':
		s.depth--
		if s.depth < 0 {
			return false
		}
		if n := len(s.calls); n > 0 && c == ')' && s.depth == s.calls[n-1].depth && s.calls[n-1].state != callParen {
			if !s.endCall() {
				return false
			}
		}
	case ';', ':':
		if s.depth == 0 {
			if s.stmt != nil && c == ':' {
				return false
			}
			if !s.endStatement() {
				return false
			}
			s.atStart = true
			return true
		}
	}
	if !s.atStart && s.stmt == nil {
		return true
	}
	return s.token(string(c))
}

// token records one token: a name, a punctuation byte, or "" for a
// string or anything else an import statement cannot hold.
func (s *scanner) token(t string) bool {
	if s.atStart {
		s.atStart = false
		if t == "import" || t == "from" {
			s.stmt, s.stmtLine = []string{t}, s.line
			return true
		}
	}
	if s.stmt != nil {
		s.stmt = append(s.stmt, t)
		return true
	}
	return t != "import" // the keyword outside an import statement: not understood
}

// callee starts reading a call of an importer by name (the name starts
// at start): only import_module, __import__ and importorskip are read
// here, whose first argument is the module; the scan gives up on the
// other dynamic callees and on calls of a name whose object it cannot
// delimit.
func (s *scanner) callee(start int, name string) bool {
	if name != "import_module" && name != "__import__" && name != "importorskip" {
		return false
	}
	j := s.i
	for j < len(s.src) && (s.src[j] == ' ' || s.src[j] == '\t') {
		j++
	}
	if j >= len(s.src) || s.src[j] != '(' {
		return true // not called here
	}
	for {
		k := start - 1
		for k >= 0 && (s.src[k] == ' ' || s.src[k] == '\t') {
			k--
		}
		if k < 0 || s.src[k] != '.' {
			break
		}
		k--
		for k >= 0 && (s.src[k] == ' ' || s.src[k] == '\t') {
			k--
		}
		end := k
		for k >= 0 && isIdentByte(s.src[k]) {
			k--
		}
		if k == end {
			return false // a call or a subscript before the dot
		}
		start = k + 1
	}
	k := start - 1
	for k >= 0 && (s.src[k] == ' ' || s.src[k] == '\t') {
		k--
	}
	if k >= 2 && string(s.src[k-2:k+1]) == "def" && (k == 2 || !isIdentByte(s.src[k-3])) {
		return true // a definition, not a call
	}
	s.calls = append(s.calls, nameCall{start: start, depth: s.depth, line: s.line})
	return true
}

// argString notes a string token (from start) for the innermost call.
func (s *scanner) argString(start int) {
	n := len(s.calls)
	if n == 0 {
		return
	}
	call := &s.calls[n-1]
	if call.state != callFirst {
		s.argOther()
		return
	}
	lit, isBytes, ok := decodeString(string(s.src[start:s.i]))
	call.state, call.lit = callLit, lit
	if !ok || isBytes {
		call.state = callDynamic
	}
}

// argOther notes any other token for the innermost call.
func (s *scanner) argOther() {
	if n := len(s.calls); n > 0 {
		if st := &s.calls[n-1].state; *st == callFirst || *st == callLit {
			*st = callDynamic
		}
	}
}

// endCall reads the innermost call at its ')': a literal name is an
// import, anything else a dynamic import. A relative literal is left to
// tree-sitter (its package argument decides).
func (s *scanner) endCall() bool {
	n := len(s.calls)
	call := s.calls[n-1]
	s.calls = s.calls[:n-1]
	why := short(string(s.src[call.start:s.i]))
	if (call.state == callLit || call.state == callLitOK) && call.lit != "" {
		if strings.HasPrefix(call.lit, ".") {
			return false
		}
		s.lits = append(s.lits, importUse{line: call.line, module: call.lit, why: why})
		return true
	}
	s.dyn = append(s.dyn, why)
	return true
}

// word records a name token, allocating only for an import statement's.
func (s *scanner) word(w []byte) bool {
	if s.atStart || s.stmt != nil {
		return s.token(string(w))
	}
	return string(w) != "import" // the compiler does not allocate for this
}

// endStatement reads the import statement just ended, if any.
func (s *scanner) endStatement() bool {
	if s.stmt == nil {
		return true
	}
	use, ok := parseImportTokens(s.stmt)
	s.stmt = nil
	if !ok {
		return false
	}
	for i := range use {
		use[i].line = s.stmtLine
	}
	s.out = append(s.out, use...)
	return true
}

// isStringPrefix reports whether w may prefix a string literal.
func isStringPrefix(w []byte) bool {
	if len(w) > 2 {
		return false
	}
	for _, c := range w {
		switch c | 0x20 {
		case 'r', 'u', 'b', 'f', 't':
		default:
			return false
		}
	}
	return true
}

// str skips a string literal whose prefix was read; s.i is at its quote.
func (s *scanner) str(prefix string) bool {
	p := strings.ToLower(prefix)
	format, raw := strings.ContainsAny(p, "ft"), strings.Contains(p, "r")
	q := s.src[s.i]
	triple := s.i+2 < len(s.src) && s.src[s.i+1] == q && s.src[s.i+2] == q
	if triple {
		s.i += 3
	} else {
		s.i++
	}
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == '\\':
			next := s.src[s.i+1]
			switch {
			case format && (next == '{' || next == '}'):
				s.i++ // a backslash does not escape a brace of an f-string
			case format && next == 'N' && !raw && s.src[s.i+2] == '{':
				end := bytes.IndexByte(s.src[s.i:], '}') // \N{NAME}
				if end < 0 {
					return false
				}
				s.i += end + 1
			default:
				if next == '\n' {
					s.line++
				}
				s.i += 2
			}
		case c == q && (!triple || s.i+2 < len(s.src) && s.src[s.i+1] == q && s.src[s.i+2] == q):
			if triple {
				s.i += 3
			} else {
				s.i++
			}
			return true
		case c == '\n':
			if !triple {
				return false // an unterminated string
			}
			s.line++
			s.i++
		case format && c == '{':
			if s.i+1 < len(s.src) && s.src[s.i+1] == '{' {
				s.i += 2
				continue
			}
			s.i++
			if !s.field() {
				return false
			}
		default:
			s.i++
		}
	}
	return false
}

// field skips an f-string replacement field after its '{': an
// expression (strings and brackets nested), an optional !conversion and
// :format spec (which may hold fields itself), up to its '}'.
func (s *scanner) field() bool {
	depth := 0
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == '\n':
			s.line++
			s.i++
		case c == '"' || c == '\'':
			if !s.str("") {
				return false
			}
		case isIdentByte(c):
			start := s.i
			for s.i < len(s.src) && isIdentByte(s.src[s.i]) {
				s.i++
			}
			if dynamicCallee[string(s.src[start:s.i])] {
				return false // an importer called in a replacement field: the tree reads it
			}
			if s.i < len(s.src) && (s.src[s.i] == '"' || s.src[s.i] == '\'') && isStringPrefix(s.src[start:s.i]) {
				if !s.str(string(s.src[start:s.i])) {
					return false
				}
			}
		case c == '(' || c == '[' || c == '{':
			depth++
			s.i++
		case c == ')' || c == ']':
			depth--
			s.i++
		case c == '}':
			s.i++
			if depth == 0 {
				return true
			}
			depth--
		case c == ':' && depth == 0:
			s.i++
			return s.spec()
		default:
			s.i++
		}
	}
	return false
}

// spec skips a format spec up to the '}' closing its field.
func (s *scanner) spec() bool {
	for s.i < len(s.src) {
		c := s.src[s.i]
		s.i++
		switch c {
		case '\n':
			s.line++
		case '{':
			if !s.field() {
				return false
			}
		case '}':
			return true
		}
	}
	return false
}

// parseImportTokens reads one import statement's tokens:
//
//	import dotted [as name] (, dotted [as name])*
//	from .*dotted import ( * | names | "(" names [,] ")" )
func parseImportTokens(t []string) ([]importUse, bool) {
	if t[0] == "import" {
		var out []importUse
		i := 1
		for {
			mod, n := dottedAt(t, i, false)
			if n == 0 {
				return nil, false
			}
			i += n
			if i+1 < len(t) && t[i] == "as" && isName(t[i+1]) {
				i += 2
			}
			out = append(out, importUse{module: mod, why: "import " + mod})
			if i == len(t) {
				return out, true
			}
			if t[i] != "," {
				return nil, false
			}
			i++
		}
	}
	mod, n := dottedAt(t, 1, true)
	if n == 0 || 1+n >= len(t) || t[1+n] != "import" {
		return nil, false
	}
	rest := t[2+n:]
	if len(rest) > 0 && rest[0] == "(" {
		if rest[len(rest)-1] != ")" {
			return nil, false
		}
		rest = rest[1 : len(rest)-1]
		if len(rest) > 0 && rest[len(rest)-1] == "," {
			rest = rest[:len(rest)-1]
		}
	}
	var names []string
	switch {
	case len(rest) == 1 && rest[0] == "*":
		names = []string{"*"}
	default:
		for i := 0; i < len(rest); {
			if !isName(rest[i]) {
				return nil, false
			}
			names = append(names, rest[i])
			i++
			if i+1 < len(rest) && rest[i] == "as" && isName(rest[i+1]) {
				i += 2
			}
			if i < len(rest) {
				if rest[i] != "," || i+1 == len(rest) {
					return nil, false
				}
				i++
			}
		}
	}
	if len(names) == 0 {
		return nil, false
	}
	if mod == "__future__" {
		return nil, true
	}
	return []importUse{{module: mod, names: names, why: fromWhy(mod, names)}}, true
}

// dottedAt reads a dotted name at t[i] (leading dots allowed when
// relative) and returns it and how many tokens it took (0 for none).
func dottedAt(t []string, i int, relative bool) (string, int) {
	var b strings.Builder
	j := i
	if relative {
		for j < len(t) && t[j] == "." {
			b.WriteByte('.')
			j++
		}
	}
	for j < len(t) && isName(t[j]) && t[j] != "import" {
		b.WriteString(t[j])
		j++
		if j+1 < len(t) && t[j] == "." && isName(t[j+1]) && t[j+1] != "import" {
			b.WriteByte('.')
			j++
			continue
		}
		break
	}
	if b.Len() == 0 {
		return "", 0
	}
	return b.String(), j - i
}
