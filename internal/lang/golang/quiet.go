package golang

import (
	"bytes"
	"go/ast"
)

// quiet reports, from its text, that a test body holds nothing calls
// would find there, so that the walk of its syntax tree can be skipped
// (most test functions start no subtest): no identifier Run, Skip, Skipf
// or SkipNow anywhere in it, every name the file gives a T either selected (t.Errorf)
// or given as is to a function or method of the file, or of an imported
// package, that is not a runner and holds no Run call (so no helper is
// given a T, and the Facts' Calls gain nothing), and no name before a
// "(" that is a runner or holds a Run call. It errs on the side of no,
// and answers no in the Linker's second extraction, where the package's
// helpers count too.
func (x *fileCtx) quiet(body *ast.BlockStmt) bool {
	if x.pkgCtx != nil {
		return false
	}
	text := x.text(x.main, body)
	if text == nil || hasWord(text, "Run") || hasWord(text, "Skip") || hasWord(text, "Skipf") || hasWord(text, "SkipNow") {
		return false
	}
	callers := x.runCallees()
	for n := range x.tnames {
		if !x.tStaysHere(text, n, callers) {
			return false
		}
	}
	if len(callers) == 0 {
		return true
	}
	for off := 0; ; {
		i := bytes.IndexByte(text[off:], '(')
		if i < 0 {
			return true
		}
		i += off
		off = i + 1
		k := i
		for k > 0 && (text[k-1] == ' ' || text[k-1] == '\t') {
			k--
		}
		if k > 0 && text[k-1] == '/' {
			return false // a comment between a name and its arguments
		}
		if n := identLen(text, k); n > 0 && callers[string(text[k-n:k])] {
			return false
		}
	}
}

// hasWord reports whether text holds the identifier w, not as part of a
// longer one: Run in t.Run or x. Run, not in RunParallel or "Running".
func hasWord(text []byte, w string) bool {
	pat := []byte(w)
	for off := 0; ; {
		i := bytes.Index(text[off:], pat)
		if i < 0 {
			return false
		}
		i += off
		off = i + len(pat)
		if (i == 0 || !isIdentByte(text[i-1])) && (off == len(text) || !isIdentByte(text[off])) {
			return true
		}
	}
}

// tStaysHere reports whether every occurrence of the identifier name in
// text (not part of a longer identifier, not after a ".") is selected
// (t.Errorf, not f(t...)) or is an argument as is of a call that calls
// would neither count as a helper's nor add to the Facts' Calls: of a
// function of the file, a method of the file, or a function of an
// imported package, none of them among callers.
func (x *fileCtx) tStaysHere(text []byte, name string, callers map[string]bool) bool {
	pat := []byte(name)
	for off := 0; ; {
		i := bytes.Index(text[off:], pat)
		if i < 0 {
			return true
		}
		i += off
		off = i + len(pat)
		if i > 0 && (isIdentByte(text[i-1]) || text[i-1] == '.') || off < len(text) && isIdentByte(text[off]) {
			continue
		}
		if off+1 < len(text) && text[off] == '.' && text[off+1] != '.' {
			continue // t.Errorf
		}
		if !x.harmlessArg(text, i, off, callers) {
			return false
		}
	}
}

// harmlessArg reports whether text[i:end], an identifier, is an argument
// as is of a call of a function or method of the file, or of an imported
// package, that is not among callers: f(t), f(a, t), pkg.F(t), s.m(t).
func (x *fileCtx) harmlessArg(text []byte, i, end int, callers map[string]bool) bool {
	j := end
	for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
		j++
	}
	if j >= len(text) || text[j] != ',' && text[j] != ')' {
		return false
	}
	k := i - 1
	for k >= 0 && (text[k] == ' ' || text[k] == '\t' || text[k] == '\n' || text[k] == '\r') {
		k--
	}
	open := -1
	switch {
	case k < 0:
	case text[k] == '(':
		open = k
	case text[k] == ',':
		open = openParen(text, k)
	}
	if open <= 0 || bytes.ContainsAny(text[open:i], "\"`'/") {
		return false // no call, or a literal or comment in between
	}
	n := identLen(text, open)
	if n == 0 || text[open-n] >= '0' && text[open-n] <= '9' || callers[string(text[open-n:open])] {
		return false
	}
	fn := string(text[open-n : open])
	if k := open - n; k == 0 || text[k-1] != '.' {
		return x.main.funcs[fn] != nil // a function of the file
	}
	q := open - n - 1 // the "." of recv.fn
	r := identLen(text, q)
	if r == 0 || q-r > 0 && text[q-r-1] == '.' {
		return false // not a name's method: a.b.f(t)
	}
	recv := string(text[q-r : q])
	_, isPkg := x.main.imports[recv]
	return isPkg || x.main.methods[fn] != nil
}

// runCallees are the names whose call calls counts as a helper's: the
// file's runners, and its functions and methods holding a Run call;
// computed once per file.
func (x *fileCtx) runCallees() map[string]bool {
	if x.callers != nil {
		return x.callers
	}
	x.callers = map[string]bool{}
	if !bytes.Contains(x.main.src, []byte(".Run(")) {
		return x.callers // no function holds one, and there is no runner
	}
	for n := range x.runnerNames(x.main) {
		x.callers[n] = true
	}
	for _, d := range x.main.file.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Name != nil && fn.Body != nil && x.holdsRun(x.main, fn) {
			x.callers[fn.Name.Name] = true
		}
	}
	return x.callers
}
