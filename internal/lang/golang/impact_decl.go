package golang

import (
	"go/scanner"
	"go/token"
	"strconv"
	"strings"

	"github.com/zeebo/xxh3"
)

// fileDecls is one Go file cut into its top-level declarations by
// go/scanner tokens (no parse: 5× faster, and enough for names, hashes
// and references).
type fileDecls struct {
	pkg     string            // the package clause's name
	imports map[string]string // explicit local name -> import path
	unnamed []string          // the paths imported without a name (see localNames)
	dots    []string          // dot-imported paths
	// header hashes the comments before the package clause (build
	// constraints), the package name and the imports.
	header uint64
	cgo    bool
	decls  []*decl
}

// decl is one top-level declaration: a function, a method, a type or var
// spec, a whole const group (iota makes its specs one), all the init
// functions of the file, or its blank vars.
type decl struct {
	key   string   // "F", "T.M", "T", "v", the const group's first name, "init(file.go)", "_(file.go)"
	names []string // the package-level names it declares
	recv  string   // a method's receiver base type
	hash  uint64   // its tokens, positions and comments dropped, directives kept
	init  bool     // it runs at package initialisation (init, vars)
	fn    bool     // a function or method
	// refs are the identifiers it mentions that may name package-level
	// declarations of its own package (locals and fields too: more
	// edges, never fewer); qrefs are name.Sel pairs whose name may be an
	// import.
	refs      []string
	qrefs     [][2]string
	sels      []string // the names after a period (x.M, f().M, T.M): what it may select
	linknames []string // //go:linkname directives above or in it
}

// scanDecls cuts src into declarations with go/scanner: the exact
// tokens, for the hashes of a changed file's two versions.
func scanDecls(name string, src []byte) *fileDecls {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile(name, -1, len(src)), src, nil, scanner.ScanComments)
	return cutDecls(name, &tokens{scan: func() (token.Token, string) {
		_, tok, lit := s.Scan()
		return tok, lit
	}})
}

// quickDecls cuts src into declarations with lexer, 4× faster than
// go/scanner: the names and references of the graph's many files (its
// hashes are not the canonical ones).
func quickDecls(name string, src []byte) *fileDecls {
	l := &lexer{src: src, intern: map[string]string{}}
	return cutDecls(name, &tokens{scan: l.scan, nohash: true})
}

// cutDecls reads a file's declarations from its tokens.
func cutDecls(name string, t *tokens) *fileDecls {
	fd := &fileDecls{imports: map[string]string{}}
	header := xxh3.New()
	var pending []string // directives since the last declaration
	inHeader, beforePackage := true, true
	for {
		tok, lit := t.next()
		switch tok {
		case token.EOF:
			if inHeader {
				fd.header = header.Sum64()
			}
			return fd
		case token.COMMENT:
			if beforePackage { // build constraints; a cgo preamble makes the file cgo
				header.WriteString(lit)
			}
			if isDirective(lit) {
				pending = append(pending, lit)
			}
			continue
		case token.PACKAGE:
			beforePackage = false
			_, fd.pkg = t.next()
			header.WriteString("package " + fd.pkg + ";")
			continue
		case token.IMPORT:
			fd.importDecl(t, header)
			continue
		case token.FUNC, token.VAR, token.CONST, token.TYPE:
			if inHeader {
				inHeader = false
				fd.header = header.Sum64()
			}
			fd.decls = append(fd.decls, readDecl(t, tok, name, pending)...)
			pending = nil
		}
	}
}

// isDirective reports whether a comment is a compiler or cgo directive,
// which the hashes keep.
func isDirective(c string) bool {
	return strings.HasPrefix(c, "//go:") || strings.HasPrefix(c, "//export ") || strings.HasPrefix(c, "//line ")
}

// importDecl reads an import declaration into fd.imports.
func (fd *fileDecls) importDecl(t *tokens, header *xxh3.Hasher) {
	spec := func(tok token.Token, lit string) {
		local := ""
		switch tok {
		case token.IDENT:
			local = lit
			tok, lit = t.next()
		case token.PERIOD:
			local = "."
			tok, lit = t.next()
		}
		if tok != token.STRING {
			return
		}
		p, err := strconv.Unquote(lit)
		if err != nil {
			return
		}
		header.WriteString("import " + local + " " + lit + ";")
		switch {
		case p == "C":
			fd.cgo = true
		case local == ".":
			fd.dots = append(fd.dots, p)
		case local == "_":
		case local != "":
			fd.imports[local] = p
		default:
			fd.unnamed = append(fd.unnamed, p)
		}
	}
	tok, lit := t.nextCode()
	if tok != token.LPAREN {
		spec(tok, lit)
		return
	}
	for {
		tok, lit = t.nextCode()
		switch tok {
		case token.RPAREN, token.EOF:
			return
		case token.SEMICOLON:
		default:
			spec(tok, lit)
		}
	}
}

// defaultName guesses the name of an imported package outside the
// graph (whose references do not matter): its path's last element
// without a version suffix.
func defaultName(p string) string {
	elems := strings.Split(p, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = elems[len(elems)-2]
	}
	return last
}

// tokens is a scanner with one token of lookahead.
type tokens struct {
	scan   func() (token.Token, string)
	nohash bool // the graph's files: names and references only
	back   bool
	tok    token.Token
	lit    string
}

func (t *tokens) next() (token.Token, string) {
	if t.back {
		t.back = false
		return t.tok, t.lit
	}
	t.tok, t.lit = t.scan()
	if t.lit == "" || t.tok == token.SEMICOLON { // an automatic semicolon's text is "\n"
		t.lit = t.tok.String()
	}
	return t.tok, t.lit
}

func (t *tokens) unread() { t.back = true }

// nextCode skips comments.
func (t *tokens) nextCode() (token.Token, string) {
	for {
		tok, lit := t.next()
		if tok != token.COMMENT {
			return tok, lit
		}
	}
}

// readDecl reads one declaration after its keyword: a function or method
// whole, a var or type group spec by spec, a const group whole.
func readDecl(t *tokens, kw token.Token, file string, directives []string) []*decl {
	d := &decl{}
	h := xxh3.New()
	h.WriteString(kw.String())
	for _, dir := range directives {
		h.WriteString(dir)
		if strings.HasPrefix(dir, "//go:linkname ") {
			d.linknames = append(d.linknames, dir)
		}
	}
	if kw == token.FUNC {
		readFunc(t, d, h, file)
		return []*decl{d}
	}
	tok, _ := t.nextCode()
	if tok != token.LPAREN || kw == token.CONST {
		t.unread()
		w := &walker{t: t, d: d, h: h}
		if tok == token.LPAREN {
			w.next() // the const group's "("
		}
		w.specNames()
		w.body(tok == token.LPAREN, false)
		return []*decl{finish(d, h, kw, file)}
	}
	var out []*decl
	for {
		tok, _ = t.nextCode()
		if tok == token.RPAREN || tok == token.EOF {
			return out
		}
		if tok == token.SEMICOLON {
			continue
		}
		t.unread()
		sd, sh := &decl{}, xxh3.New()
		sh.WriteString(kw.String())
		w := &walker{t: t, d: sd, h: sh}
		w.specNames()
		w.body(false, true)
		out = append(out, finish(sd, sh, kw, file))
	}
}

// finish keys a var, const or type declaration by its first name.
func finish(d *decl, h *xxh3.Hasher, kw token.Token, file string) *decl {
	d.hash = h.Sum64()
	d.init = kw == token.VAR
	switch {
	case len(d.names) == 0:
		d.key = "?(" + file + ")"
	case d.names[0] == "_" && (len(d.names) == 1 || kw == token.VAR):
		d.key = "_(" + file + ")"
	default:
		d.key = d.names[0]
	}
	return d
}

// readFunc reads a function or method: receiver, name, signature, body.
func readFunc(t *tokens, d *decl, h *xxh3.Hasher, file string) {
	d.fn = true
	w := &walker{t: t, d: d, h: h}
	tok, lit := w.next()
	if tok == token.LPAREN { // a method's receiver
		var idents []string
		depth := 1
		for depth > 0 {
			tok, lit = w.next()
			switch tok {
			case token.LPAREN, token.LBRACK:
				depth++
			case token.RPAREN, token.RBRACK:
				depth--
			case token.IDENT:
				if depth == 1 {
					idents = append(idents, lit)
				}
			case token.EOF:
				return
			}
		}
		if len(idents) > 0 {
			d.recv = idents[len(idents)-1]
		}
		tok, lit = w.next()
	}
	if tok != token.IDENT {
		w.unread()
		w.body(false, false)
		return
	}
	d.names = []string{lit}
	switch {
	case d.recv != "":
		d.key = d.recv + "." + lit
	case lit == "init":
		d.key = "init(" + file + ")"
		d.init = true
	default:
		d.key = lit
	}
	w.body(false, false)
	d.hash = h.Sum64()
}

// walker reads a declaration's tokens into its hash and references.
type walker struct {
	t   *tokens
	d   *decl
	h   *xxh3.Hasher
	buf []byte
	// pend is a semicolon or comma not hashed yet (dropped before a
	// closing bracket); back: the token given back is hashed already.
	pend, pendBuf []byte
	back          bool
}

// next reads a code token into the hash, keeping directives. The hash
// is formatting-insensitive: a semicolon or comma just before a closing
// bracket is dropped ({ x } and {\n\tx\n} are one; so are f(a, b) and
// f(a,\n\tb,\n)), as is the semicolon that ends the declaration.
func (w *walker) next() (token.Token, string) {
	if w.back {
		w.back = false
		return w.t.next()
	}
	for {
		tok, lit := w.t.next()
		if tok == token.COMMENT {
			if isDirective(lit) {
				w.h.WriteString(lit)
				if strings.HasPrefix(lit, "//go:linkname ") {
					w.d.linknames = append(w.d.linknames, lit)
				}
			}
			continue
		}
		if w.t.nohash {
			return tok, lit
		}
		if w.pend != nil {
			if tok != token.RPAREN && tok != token.RBRACE && tok != token.RBRACK {
				w.h.Write(w.pend)
			}
			w.pend = nil
		}
		w.buf = append(append(append(w.buf[:0], byte(tok)), lit...), 0)
		if tok == token.SEMICOLON || tok == token.COMMA {
			w.pend = append(w.pendBuf[:0], w.buf...)
			w.pendBuf = w.pend
		} else {
			w.h.Write(w.buf)
		}
		return tok, lit
	}
}

// unread gives the last token back; it is hashed once.
func (w *walker) unread() {
	w.back = true
	w.t.unread()
}

// specNames reads the names a spec starts with (a, b, c).
func (w *walker) specNames() {
	for {
		tok, lit := w.next()
		if tok != token.IDENT {
			w.unread()
			return
		}
		w.d.names = append(w.d.names, lit)
		if tok, _ = w.next(); tok != token.COMMA {
			w.unread()
			return
		}
	}
}

// body reads up to the semicolon that ends the declaration (at depth 0,
// or 1 inside a group when spec is set, where ")" also ends it), noting
// the identifiers it mentions. inGroup: a const group's "(" was read.
func (w *walker) body(inGroup, spec bool) {
	depth := 0
	if inGroup {
		depth = 1
	}
	var prevTok token.Token
	var prevLit, prevPrevLit string
	var prevPrevTok token.Token
	for {
		tok, lit := w.next()
		switch tok {
		case token.EOF:
			return
		case token.LPAREN, token.LBRACE, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACE, token.RBRACK:
			if depth == 0 && spec {
				w.unread() // the group's ")"
				return
			}
			depth--
			if inGroup && depth == 0 {
				w.h.WriteString(";")
				_, _ = w.t.nextCode() // the semicolon after the group
				return
			}
		case token.SEMICOLON:
			if depth == 0 {
				return
			}
			if inGroup && depth == 1 { // the next const spec's names
				w.specNames()
				prevTok, prevPrevTok = token.SEMICOLON, token.ILLEGAL
				continue
			}
		case token.IDENT:
			if prevTok == token.PERIOD {
				w.d.sels = append(w.d.sels, lit)
				if prevPrevTok == token.IDENT {
					w.d.qrefs = append(w.d.qrefs, [2]string{prevPrevLit, lit})
				}
			} else {
				w.d.refs = append(w.d.refs, lit)
			}
		}
		prevPrevTok, prevPrevLit = prevTok, prevLit
		prevTok, prevLit = tok, lit
	}
}
