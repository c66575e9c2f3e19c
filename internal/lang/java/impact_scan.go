package java

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// javaRefs is what one Java file can refer to, from a lexical scan: the
// impact graph needs the names, never the meaning, so a lexer suffices
// (and reads a file in microseconds, where tree-sitter takes
// milliseconds).
type javaRefs struct {
	pkg     string
	imports []javaImport
	// types are the top-level types the file declares; declared all
	// the types it declares, nested ones included.
	types    []string
	declared map[string]bool
	// idents are the identifiers of the code after the imports that do
	// not follow a dot (members and qualified names' parts do), once
	// each; chains are its dotted names of two parts or more that start
	// with a lower-case part (com.x.Foo, a fully qualified reference, or
	// obj.field: the index decides); strs are string literals shaped like
	// a qualified name (Class.forName("com.x.Impl")).
	idents map[string]bool
	chains []string
	strs   []string
}

// javaImport is one import declaration: Name without ".*".
type javaImport struct {
	Name     string
	Static   bool
	Wildcard bool
}

func (i javaImport) String() string {
	s := "import "
	if i.Static {
		s += "static "
	}
	s += i.Name
	if i.Wildcard {
		s += ".*"
	}
	return s
}

// token is one lexical token: an identifier, a string literal or one
// punctuation byte.
type token struct {
	kind byte // 'i' identifier, 's' string, 'p' punctuation
	text string
}

// scanJava reads a file's package, imports, top-level types and
// references. It never fails: what it cannot lex it skips.
func scanJava(src []byte) *javaRefs {
	toks := lexJava(src)
	r := &javaRefs{idents: map[string]bool{}, declared: map[string]bool{}}
	i := r.header(toks)
	depth := 0
	seenChain := map[string]bool{}
	for ; i < len(toks); i++ {
		t := toks[i]
		switch t.kind {
		case 'p':
			switch t.text {
			case "{":
				depth++
			case "}":
				depth--
			}
		case 's':
			if isQualified(t.text) {
				r.strs = append(r.strs, t.text)
			}
		case 'i':
			if isTypeKeyword(t.text) && i+1 < len(toks) && toks[i+1].kind == 'i' {
				r.declared[toks[i+1].text] = true
				if depth == 0 {
					r.types = append(r.types, toks[i+1].text)
				}
			}
			if i > 0 && toks[i-1].text == "." {
				continue // a member, or a part of a chain already read
			}
			r.idents[t.text] = true
			name, n := dotted(toks, i)
			if n > 1 && isLower(name) && !seenChain[name] {
				seenChain[name] = true
				r.chains = append(r.chains, name)
			}
		}
	}
	return r
}

// header reads the package and import declarations and returns the index
// of the first token after them.
func (r *javaRefs) header(toks []token) int {
	i := 0
	for i < len(toks) {
		t := toks[i]
		switch {
		case t.text == ";":
			i++
		case t.text == "@" && i+1 < len(toks) && toks[i+1].text != "interface":
			i = skipAnnotation(toks, i)
		case t.kind == 'i' && t.text == "package":
			r.pkg, i = readDotted(toks, i+1)
		case t.kind == 'i' && t.text == "import":
			imp := javaImport{}
			i++
			if i < len(toks) && toks[i].text == "static" {
				imp.Static = true
				i++
			}
			imp.Name, i = readDotted(toks, i)
			if strings.HasSuffix(imp.Name, ".*") {
				imp.Name, imp.Wildcard = strings.TrimSuffix(imp.Name, ".*"), true
			}
			if imp.Name != "" {
				r.imports = append(r.imports, imp)
			}
		default:
			return i
		}
	}
	return i
}

// readDotted reads a.b.C or a.b.* up to the ';' and returns it with the
// index after the ';'.
func readDotted(toks []token, i int) (string, int) {
	var b strings.Builder
	for ; i < len(toks) && toks[i].text != ";"; i++ {
		if t := toks[i]; t.kind == 'i' || t.text == "." || t.text == "*" {
			b.WriteString(t.text)
		} else {
			break
		}
	}
	for i < len(toks) && toks[i].text != ";" {
		i++
	}
	return b.String(), i + 1
}

// skipAnnotation skips @Name(.Name)* and a balanced argument list.
func skipAnnotation(toks []token, i int) int {
	_, n := dotted(toks, i+1)
	if n == 0 {
		return i + 1
	}
	i += 2 * n
	if i < len(toks) && toks[i].text == "(" {
		for depth := 0; i < len(toks); i++ {
			switch toks[i].text {
			case "(":
				depth++
			case ")":
				depth--
			}
			if depth == 0 {
				return i + 1
			}
		}
	}
	return i
}

// dotted reads the chain ident(.ident)* starting at toks[i]: the dotted
// name and its number of parts.
func dotted(toks []token, i int) (string, int) {
	if i >= len(toks) || toks[i].kind != 'i' {
		return "", 0
	}
	name, n := toks[i].text, 1
	for i+2 < len(toks) && toks[i+1].text == "." && toks[i+2].kind == 'i' {
		name += "." + toks[i+2].text
		n++
		i += 2
	}
	return name, n
}

func isTypeKeyword(s string) bool {
	return s == "class" || s == "interface" || s == "enum" || s == "record"
}

// isLower reports whether a name starts with a lower-case letter.
func isLower(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLower(r)
}

// isUpper reports whether a name starts with an upper-case letter.
func isUpper(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

// isQualified reports whether s looks like a qualified class name:
// identifiers joined by dots (a $ for nested classes allowed).
func isQualified(s string) bool {
	if len(s) < 3 || len(s) > 256 || !strings.Contains(s, ".") {
		return false
	}
	for _, part := range strings.Split(s, ".") {
		if part == "" {
			return false
		}
		for j, r := range part {
			if !isIdentRune(r, j == 0) {
				return false
			}
		}
	}
	return true
}

func isIdentRune(r rune, first bool) bool {
	switch {
	case r == '_' || r == '$' || unicode.IsLetter(r):
		return true
	case !first && unicode.IsDigit(r):
		return true
	}
	return false
}

// lexJava splits Java source into identifiers, string literals (text
// blocks included, their content) and punctuation; comments, whitespace,
// numbers and character literals are dropped.
func lexJava(src []byte) []token {
	var toks []token
	javaTokens(src, func(kind byte, b []byte, str string) {
		switch kind {
		case tokWord:
			toks = append(toks, token{'i', string(b)})
		case tokString:
			toks = append(toks, token{'s', str})
		case tokPunct:
			toks = append(toks, token{'p', string(b)})
		}
	})
	return toks
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// lexString reads a string literal or text block at src[i] == '"' and
// returns its content (escapes kept as written) and the index after it.
func lexString(src []byte, i int) (string, int) {
	if i+2 < len(src) && src[i+1] == '"' && src[i+2] == '"' {
		start := i + 3
		for j := start; j+2 < len(src); j++ {
			if src[j] == '\\' {
				j++
				continue
			}
			if src[j] == '"' && src[j+1] == '"' && src[j+2] == '"' {
				return string(src[start:j]), j + 3
			}
		}
		return "", len(src)
	}
	start := i + 1
	for j := start; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			return string(src[start:j]), j + 1
		case '\n':
			return "", j
		}
	}
	return "", len(src)
}
