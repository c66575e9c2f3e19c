package golang

import "go/token"

// lexer is a Go tokenizer for the declaration graph: identifiers,
// keywords, the brackets, commas, periods, semicolons (inserted at line
// ends as the spec says), strings and comments exactly; every other
// operator byte is a token.ADD (++ and -- aside) and every number a
// token.INT. It does
// not validate, record positions or allocate a string per token
// (identifiers are interned per file). TestLexer checks it against
// go/scanner on GOROOT.
type lexer struct {
	src        []byte
	i          int
	insertSemi bool
	intern     map[string]string
}

// scan returns the next token and its text.
func (l *lexer) scan() (token.Token, string) {
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case c == '\n':
			l.i++
			if l.insertSemi {
				l.insertSemi = false
				return token.SEMICOLON, "\n"
			}
		case c == ' ' || c == '\t' || c == '\r':
			l.i++
		case c == '/' && l.i+1 < len(l.src) && (l.src[l.i+1] == '/' || l.src[l.i+1] == '*'):
			if l.insertSemi && l.commentEndsLine() {
				l.insertSemi = false
				return token.SEMICOLON, "\n"
			}
			return token.COMMENT, l.comment()
		default:
			return l.token(c)
		}
	}
	if l.insertSemi {
		l.insertSemi = false
		return token.SEMICOLON, "\n"
	}
	return token.EOF, ""
}

// commentEndsLine reports whether the comment at l.i reaches a newline
// (or the end) before any other token, as go/scanner decides where an
// automatic semicolon goes.
func (l *lexer) commentEndsLine() bool {
	if l.src[l.i+1] == '/' {
		return true
	}
	j := l.i + 2
	for j+1 < len(l.src) && !(l.src[j] == '*' && l.src[j+1] == '/') {
		if l.src[j] == '\n' {
			return true
		}
		j++
	}
	for j += 2; j < len(l.src); j++ {
		switch l.src[j] {
		case ' ', '\t', '\r':
		case '\n':
			return true
		case '/':
			return j+1 < len(l.src) && (l.src[j+1] == '/' || l.src[j+1] == '*') && l.commentAt(j)
		default:
			return false
		}
	}
	return true
}

// commentAt reports whether the comment at j ends its line (see
// commentEndsLine).
func (l *lexer) commentAt(j int) bool {
	saved := l.i
	l.i = j
	ok := l.commentEndsLine()
	l.i = saved
	return ok
}

// comment reads a comment; a // comment's text excludes the newline (and
// a trailing \r, as go/scanner drops it).
func (l *lexer) comment() string {
	start := l.i
	if l.src[l.i+1] == '/' {
		for l.i < len(l.src) && l.src[l.i] != '\n' {
			l.i++
		}
		end := l.i
		if end > start && l.src[end-1] == '\r' {
			end--
		}
		return string(l.src[start:end])
	}
	l.i += 2
	for l.i+1 < len(l.src) && !(l.src[l.i] == '*' && l.src[l.i+1] == '/') {
		l.i++
	}
	l.i = min(l.i+2, len(l.src))
	return string(l.src[start:l.i])
}

// token reads the token that starts with c.
func (l *lexer) token(c byte) (token.Token, string) {
	start := l.i
	switch {
	case isIdentByte(c) && !('0' <= c && c <= '9'):
		for l.i < len(l.src) && isIdentByte(l.src[l.i]) {
			l.i++
		}
		word := l.src[start:l.i]
		lit, ok := l.intern[string(word)]
		if !ok {
			lit = string(word)
			l.intern[lit] = lit
		}
		tok := token.Lookup(lit)
		switch tok {
		case token.IDENT, token.BREAK, token.CONTINUE, token.FALLTHROUGH, token.RETURN:
			l.insertSemi = true
		default:
			l.insertSemi = false
		}
		return tok, lit
	case '0' <= c && c <= '9' || c == '.' && l.i+1 < len(l.src) && '0' <= l.src[l.i+1] && l.src[l.i+1] <= '9':
		l.number()
		l.insertSemi = true
		return token.INT, "0"
	case c == '"' || c == '`':
		l.quoted(c)
		l.insertSemi = true
		return token.STRING, string(l.src[start:l.i])
	case c == '\'':
		l.quoted(c)
		l.insertSemi = true
		return token.CHAR, "'"
	}
	l.i++
	l.insertSemi = false
	switch c {
	case '(':
		return token.LPAREN, "("
	case ')':
		l.insertSemi = true
		return token.RPAREN, ")"
	case '[':
		return token.LBRACK, "["
	case ']':
		l.insertSemi = true
		return token.RBRACK, "]"
	case '{':
		return token.LBRACE, "{"
	case '}':
		l.insertSemi = true
		return token.RBRACE, "}"
	case ',':
		return token.COMMA, ","
	case ';':
		return token.SEMICOLON, ";"
	case '.':
		if l.i+1 < len(l.src) && l.src[l.i] == '.' && l.src[l.i+1] == '.' {
			l.i += 2
			return token.ELLIPSIS, "..."
		}
		return token.PERIOD, "."
	case '+', '-':
		if l.i < len(l.src) && l.src[l.i] == c {
			l.i++
			l.insertSemi = true
			return token.INC, "++"
		}
	}
	return token.ADD, "op" // one per byte: a comment right after an operator starts clean
}

// number skips a number literal (digits, letters, underscores, periods,
// and a sign after an exponent).
func (l *lexer) number() {
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case isIdentByte(c) && c < 0x80 || c == '.':
			l.i++
		case (c == '+' || c == '-') && l.i > 0 && isExponent(l.src[l.i-1]):
			l.i++
		default:
			return
		}
	}
}

// isExponent: e/E/p/P (a hex digit e is followed by no sign in valid Go).
func isExponent(c byte) bool { return c == 'e' || c == 'E' || c == 'p' || c == 'P' }

// quoted skips a string, raw string or rune literal starting at l.i.
func (l *lexer) quoted(q byte) {
	l.i++
	for l.i < len(l.src) {
		c := l.src[l.i]
		l.i++
		switch {
		case c == q:
			return
		case c == '\\' && q != '`':
			l.i++
		case c == '\n' && q != '`':
			l.i-- // unterminated: the newline is the next token's
			return
		}
	}
}

// isIdentByte: ASCII letters, digits, underscore, and any byte of a
// multi-byte UTF-8 sequence (Unicode letters; anything else there would
// not compile).
func isIdentByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c >= 0x80
}
