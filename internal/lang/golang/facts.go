package golang

import (
	"bytes"
	"go/ast"
	"go/token"
	"slices"
	"strings"

	"github.com/zeebo/xxh3"

	"github.com/testdex/testdex/internal/lang"
)

// facts are what one file tells the Linker about helpers across files
// (pkgctx.go). They travel in lang.Result.Facts, varint-encoded.
type facts struct {
	// Calls are the names the file's tests call with a *testing.T that
	// are not functions of the file: helpers of other files, or of the
	// package under test; ".name" for a method the file does not declare.
	Calls []string
	// Runners are the file's helpers that start subtests (runnerNames),
	// and ".name" for its methods holding a Run call.
	Runners []string
	// Relays are the file's other functions that take a T and pass it
	// to names not declared in the file: helpers if one of those is.
	Relays []relay
	// Hash is the file's xxh3 hash when it declares Runners or Relays:
	// part of the cache key of a file whose listing follows them.
	Hash uint64
	// Decls are then its package-level constants, variables and types,
	// sorted: where a helper's walk finds the names its file lacks.
	Decls []string
}

// relay is a function that passes its T to Via, names of other files.
type relay struct {
	Name string
	Via  []string
}

// facts collects the file's facts, nil when there are none.
func (x *fileCtx) facts() []byte {
	var f facts
	for n := range x.tcalls {
		f.Calls = append(f.Calls, n)
	}
	runners := x.runnerNames(x.main)
	for n := range runners {
		f.Runners = append(f.Runners, n)
	}
	if len(x.main.methods) > 0 && bytes.Contains(x.main.src, []byte(".Run(")) {
		for n := range x.main.methods {
			if x.methodHoldsRun(x.main, n) {
				f.Runners = append(f.Runners, "."+n) // methods: ".name"
			}
		}
	}
	for _, d := range x.main.file.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Name == nil || x.main.funcs[fn.Name.Name] != fn || runners[fn.Name.Name] || isTestName(fn.Name.Name) {
			continue
		}
		if via := x.unresolvedTCallees(fn); len(via) > 0 {
			f.Relays = append(f.Relays, relay{Name: fn.Name.Name, Via: via})
		}
	}
	if len(f.Calls)+len(f.Runners)+len(f.Relays) == 0 {
		return nil
	}
	slices.Sort(f.Calls)
	slices.Sort(f.Runners)
	if len(f.Runners)+len(f.Relays) > 0 {
		f.Hash = xxh3.Hash(x.main.src)
		f.Decls = packageNames(x.main.file)
	}
	return encodeFacts(f)
}

// packageNames lists a file's package-level constants, variables and
// types, sorted.
func packageNames(file *ast.File) []string {
	var out []string
	for _, d := range file.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, sp := range g.Specs {
			switch sp := sp.(type) {
			case *ast.TypeSpec:
				out = append(out, sp.Name.Name)
			case *ast.ValueSpec:
				for _, n := range sp.Names {
					out = append(out, n.Name)
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// unresolvedTCallees lists, from its text, the names fn passes one of its
// T parameters to that are not functions of its file.
func (x *fileCtx) unresolvedTCallees(fn *ast.FuncDecl) []string {
	ps := testingParams(fn.Type, fn.Type.TypeParams)
	if len(ps) == 0 {
		return nil
	}
	body := x.text(x.main, fn.Body)
	var out []string
	for _, p := range ps {
		for _, n := range tCallees(body, p) {
			if q, m, ok := strings.Cut(n, "."); ok {
				if _, isPkg := x.main.imports[q]; isPkg || q == p || x.methodHoldsRun(x.main, m) {
					continue // another package's function, the T's own method, or a method of the file
				}
				n = "." + m
			} else if x.main.funcs[n] != nil || builtins[n] || token.IsKeyword(n) {
				continue
			}
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	slices.Sort(out)
	return out
}

// varCallT reports whether call is v.m(..., t, ...) on a variable v, not
// a package or the T itself: m may be a method of another file.
func (x *fileCtx) varCallT(sel *ast.SelectorExpr, call *ast.CallExpr) bool {
	id, ok := sel.X.(*ast.Ident)
	if !ok || x.tnames[id.Name] {
		return false
	}
	if _, isPkg := x.main.imports[id.Name]; isPkg {
		return false
	}
	return x.passesT(call)
}

// passesT reports whether one of a call's arguments is a name that holds
// a T in this file (tnames).
func (x *fileCtx) passesT(call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if id, ok := a.(*ast.Ident); ok && x.tnames[id.Name] {
			return true
		}
	}
	return false
}

// tCallees lists, from text, the names of the functions called with the
// identifier p as an argument: name(p, …), name(…, p, …), name(p).
func tCallees(text []byte, p string) []string {
	var out []string
	pat := []byte(p)
	for off := 0; off < len(text); {
		i := bytes.Index(text[off:], pat)
		if i < 0 {
			break
		}
		i += off
		off = i + len(pat)
		if i > 0 && (isIdentByte(text[i-1]) || text[i-1] == '.') {
			continue
		}
		j := off
		for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
			j++
		}
		if j >= len(text) || text[j] != ',' && text[j] != ')' {
			continue
		}
		k := i - 1
		for k >= 0 && (text[k] == ' ' || text[k] == '\t' || text[k] == '\n' || text[k] == '\r') {
			k--
		}
		if k < 0 {
			continue
		}
		open := -1
		switch text[k] {
		case '(':
			open = k
		case ',':
			open = openParen(text, k)
		}
		if name := identBefore(text, open); name != "" {
			out = append(out, name)
		} else if m := qualifiedBefore(text, open); m != "" {
			out = append(out, m)
		}
	}
	return out
}

// qualifiedBefore is "x.name" right before the "(" at open, "" when
// there is none.
func qualifiedBefore(text []byte, open int) string {
	k := open - identLen(text, open)
	if k == open || k < 2 || text[k-1] != '.' {
		return ""
	}
	q := k - 1 - identLen(text, k-1)
	if q == k-1 {
		return ""
	}
	return string(text[q:open])
}

// openParen finds, going back from the comma at k, the "(" that opens the
// argument list it separates; -1 when it lies in a literal or an index,
// or too far back.
func openParen(text []byte, k int) int {
	depth := 0
	for i := k - 1; i >= 0 && k-i < 2048; i-- {
		switch text[i] {
		case ')', ']', '}':
			depth++
		case '[', '{':
			if depth == 0 {
				return -1
			}
			depth--
		case '(':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// identBefore is the name right before the "(" at open, "" when there is
// none or it is qualified (x.f, pkg.F).
func identBefore(text []byte, open int) string {
	if open <= 0 {
		return ""
	}
	i := open
	for i > 0 && isIdentByte(text[i-1]) {
		i--
	}
	if i == open || i > 0 && text[i-1] == '.' || text[i] >= '0' && text[i] <= '9' {
		return ""
	}
	return string(text[i:open])
}

func encodeFacts(f facts) []byte {
	var e lang.Enc
	e.Strs(f.Calls)
	e.Strs(f.Runners)
	e.Uint(uint64(len(f.Relays)))
	for _, r := range f.Relays {
		e.Str(r.Name)
		e.Strs(r.Via)
	}
	e.Uint(f.Hash)
	e.Strs(f.Decls)
	return e.B
}

// decodeFacts reads Facts; bad or empty data gives none.
func decodeFacts(b []byte) facts {
	if len(b) == 0 {
		return facts{}
	}
	d := lang.Dec{B: b}
	var f facts
	f.Calls = d.Strs()
	f.Runners = d.Strs()
	n := d.Len()
	for i := 0; i < n && !d.Bad; i++ {
		f.Relays = append(f.Relays, relay{Name: d.Str(), Via: d.Strs()})
	}
	f.Hash = d.Uint()
	f.Decls = d.Strs()
	if d.Bad {
		return facts{}
	}
	return f
}
