package golang

import (
	"bytes"
	"go/ast"
)

// quiet reports, from its text, that a test body holds nothing calls
// would find there, so that the walk of its syntax tree can be skipped
// (most test functions start no subtest): no "Run" and no "Skip"
// anywhere in it, every name the file gives a T followed by "." wherever
// it stands alone (so no call is given a T: no Facts' Calls, no helper
// given one), and no name before a "(" that is a runner or a function or
// method of the file holding a Run call. It errs on the side of no, and
// answers no in the Linker's second extraction, where the package's
// helpers count too.
func (x *fileCtx) quiet(body *ast.BlockStmt) bool {
	if x.pkgCtx != nil {
		return false
	}
	text := x.text(x.main, body)
	if text == nil || bytes.Contains(text, []byte("Run")) || bytes.Contains(text, []byte("Skip")) {
		return false
	}
	for n := range x.tnames {
		if !onlySelected(text, n) {
			return false
		}
	}
	callers := x.runCallees()
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

// onlySelected reports whether every occurrence of the identifier name in
// text (not part of a longer identifier, not after a ".") is followed
// right away by a selector's ".": t.Errorf, never f(t), t := … or
// f(t...).
func onlySelected(text []byte, name string) bool {
	pat := []byte(name)
	for off := 0; ; {
		i := bytes.Index(text[off:], pat)
		if i < 0 {
			return true
		}
		i += off
		off = i + len(pat)
		if i > 0 && (isIdentByte(text[i-1]) || text[i-1] == '.') {
			continue
		}
		if off < len(text) && isIdentByte(text[off]) {
			continue
		}
		if off >= len(text) || text[off] != '.' || off+1 < len(text) && text[off+1] == '.' {
			return false // f(t), t := …, f(t...)
		}
	}
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
