package js

import (
	"math"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

// template evaluates a template literal: the raw text between the
// substitutions, unescaped, and each substitution as String() prints it.
// One substitution the source does not fix makes the whole unknown.
func (w *evaluator) template(n *sitter.Node, depth int) value {
	var b strings.Builder
	at := n.StartByte() + 1 // after the opening backtick
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		if c.Type() != "template_substitution" {
			continue
		}
		b.WriteString(unescape(string(w.src[at:c.StartByte()]), 0))
		if c.NamedChildCount() != 1 {
			return value{str: w.text(n)}
		}
		s, ok := toStr(w.eval(c.NamedChild(0), depth+1))
		if !ok {
			return value{str: w.text(n)}
		}
		b.WriteString(s)
		at = c.EndByte()
	}
	if end := n.EndByte() - 1; end >= at {
		b.WriteString(unescape(string(w.src[at:end]), 0))
	}
	return str(b.String())
}

// rawTemplate evaluates String.raw`...`: the raw text between the
// substitutions, escapes kept as written, and each substitution as
// String() prints it.
func (w *evaluator) rawTemplate(n *sitter.Node, depth int) value {
	var b strings.Builder
	at := n.StartByte() + 1
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		if c.Type() != "template_substitution" {
			continue
		}
		b.WriteString(rawText(w.src[at:c.StartByte()]))
		if c.NamedChildCount() != 1 {
			return value{str: w.text(n)}
		}
		s, ok := toStr(w.eval(c.NamedChild(0), depth+1))
		if !ok {
			return value{str: w.text(n)}
		}
		b.WriteString(s)
		at = c.EndByte()
	}
	if end := n.EndByte() - 1; end >= at {
		b.WriteString(rawText(w.src[at:end]))
	}
	return str(b.String())
}

// rawText is a template's raw text as String.raw sees it: line
// terminators normalized to \n, escapes kept.
func rawText(b []byte) string {
	return strings.ReplaceAll(strings.ReplaceAll(string(b), "\r\n", "\n"), "\r", "\n")
}

// member evaluates obj.name and obj?.name.
func (w *evaluator) member(n *sitter.Node, depth int) value {
	obj, prop := n.ChildByFieldName("object"), n.ChildByFieldName("property")
	if obj == nil || prop == nil || prop.Type() != "property_identifier" {
		return value{str: w.text(n)}
	}
	if obj.Type() == "identifier" && w.text(obj) == "Math" && !optional(n) && !w.shadowed(obj, "Math") {
		if c, ok := mathConstants[w.text(prop)]; ok {
			return value{kind: kNumber, num: c}
		}
		return value{str: w.text(n)}
	}
	o := w.eval(obj, depth+1)
	if (o.kind == kNull || o.kind == kUndefined) && optional(n) {
		return value{kind: kUndefined}
	}
	if v := member(o, w.text(prop)); v.kind != kUnknown {
		return v
	}
	return value{str: w.text(n)}
}

// subscript evaluates obj[key] with a key the source fixes.
func (w *evaluator) subscript(n *sitter.Node, depth int) value {
	obj, idx := n.ChildByFieldName("object"), n.ChildByFieldName("index")
	if obj == nil || idx == nil {
		return value{str: w.text(n)}
	}
	o := w.eval(obj, depth+1)
	if (o.kind == kNull || o.kind == kUndefined) && optional(n) {
		return value{kind: kUndefined}
	}
	k := w.eval(idx, depth+1)
	if k.isObject() || k.kind == kUnknown {
		return value{str: w.text(n)}
	}
	if v := member(o, k.jsString()); v.kind != kUnknown {
		return v
	}
	return value{str: w.text(n)}
}

// optional reports whether a member or subscript expression is a?.b.
func optional(n *sitter.Node) bool {
	for i := 0; i < int(n.ChildCount()); i++ {
		if n.Child(i).Type() == "optional_chain" {
			return true
		}
	}
	return false
}

// callValue evaluates the few pure calls titles are built with:
// String(x), JSON.stringify(x), Object.keys/values/entries(o), and the
// string and array methods toUpperCase, toLowerCase, trim, join and
// toString on literals. Any other call is unknown: it would run code.
func (w *evaluator) callValue(n *sitter.Node, depth int) value {
	unknown := value{str: w.text(n)}
	fn, args := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
	if fn != nil && args != nil && args.Type() == "template_string" {
		if w.text(fn) == "String.raw" && !w.shadowed(fn, "String") {
			return w.rawTemplate(args, depth)
		}
		return unknown
	}
	if fn == nil || args == nil || args.Type() != "arguments" {
		return unknown
	}
	if v, ok := w.inlineRequire(fn, args); ok {
		return v
	}
	if v, ok := w.mapCall(fn, args, depth); ok {
		return v
	}
	var argv []value
	for i := 0; i < int(args.NamedChildCount()); i++ {
		a := args.NamedChild(i)
		switch a.Type() {
		case "comment":
			continue
		case "spread_element":
			return unknown
		}
		argv = append(argv, w.eval(a, depth+1))
	}
	var v value
	switch fn.Type() {
	case "identifier":
		if w.text(fn) == "Symbol" && !w.shadowed(fn, "Symbol") {
			return symbolValue(unknown.str, argv)
		}
		if v = w.globalCall(fn, argv); v.kind == kUnknown {
			v = w.localCall(fn, argv, depth)
		}
	case "member_expression":
		obj, prop := fn.ChildByFieldName("object"), fn.ChildByFieldName("property")
		if obj == nil || prop == nil || optional(fn) {
			return unknown
		}
		if o := w.text(obj); o == "JSON" || o == "Object" || o == "Array" || o == "Math" {
			if w.shadowed(obj, o) {
				return unknown
			}
			if r, ok := w.replacedArg(o+"."+w.text(prop), args, argv, depth); ok {
				argv = []value{r}
			}
			v = staticCall(o+"."+w.text(prop), argv)
			break
		}
		if r, ok := w.importedCall(obj, prop, argv, depth); ok {
			return r
		}
		o, method := w.eval(obj, depth+1), w.text(prop)
		if method == "replace" || method == "replaceAll" {
			if r, ok := w.replaceCall(o, method == "replaceAll", argNodes(args), argv, depth); ok {
				return r
			}
		}
		v = methodCall(o, method, argv)
	}
	if v.kind == kUnknown && v.set == nil {
		return unknown
	}
	return v
}

// inlineRequire evaluates require('./m') written where its value is
// read (hmac-drbg's require('./fixtures/nist.json').forEach(...)): the
// module's exports as the linker reads them, under a name no binding can
// take; before, it notes that the file needs them. ok is false when the
// call is not that or the value is not known yet.
func (w *evaluator) inlineRequire(fn, args *sitter.Node) (value, bool) {
	if fn.Type() != "identifier" || w.text(fn) != "require" || args.NamedChildCount() != 1 || w.shadowed(fn, "require") || w.fnDecls["require"] != nil {
		return value{}, false
	}
	a := args.NamedChild(0)
	spec := unescape(w.text(a), 1)
	if a.Type() != "string" || !relative(spec) {
		return value{}, false
	}
	local := "require(" + spec + ")"
	if w.imports == nil {
		w.imports = map[string]importRef{}
	}
	if _, ok := w.imports[local]; !ok {
		w.imports[local] = importRef{Local: local, Spec: spec, Name: "*"}
	}
	return w.imported(local)
}

// argNodes are the argument nodes of a call's arguments, but comments.
func argNodes(args *sitter.Node) []*sitter.Node {
	var out []*sitter.Node
	for i := 0; i < int(args.NamedChildCount()); i++ {
		if a := args.NamedChild(i); a.Type() != "comment" {
			out = append(out, a)
		}
	}
	return out
}

// globalCall evaluates String(x), Number(x) of a primitive and
// parseInt(x) (radix 10 or none) when they are the globals.
func (w *evaluator) globalCall(fn *sitter.Node, argv []value) value {
	name := w.text(fn)
	if (name != "String" && name != "Number" && name != "parseInt") || w.fnDecls[name] != nil || w.shadowed(fn, name) {
		return value{}
	}
	switch {
	case name == "String" && len(argv) == 0:
		return str("")
	case name == "Number" && len(argv) == 0:
		return num(0)
	case name == "String":
		if s, ok := toStr(argv[0]); ok {
			return str(s)
		}
		return value{}
	case argv[0].kind == kUnknown || argv[0].isObject() || argv[0].kind == kBigInt:
		return value{}
	case name == "Number":
		f, _ := argv[0].toNumber()
		return num(f)
	case name == "parseInt":
		s := strings.TrimLeft(strings.TrimSpace(argv[0].jsString()), "+-")
		hex := strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X")
		if len(argv) > 1 && argv[1].kind != kUndefined && (argv[1].kind != kNumber || argv[1].num != 10 || hex) {
			return value{} // another radix, or 0x read as 0 in radix 10
		}
		return num(parseIntPrefix(argv[0].jsString()))
	}
	return value{}
}

// symbolValue is Symbol(description): unknown (each call makes a new
// one, and a template literal throws on it) but shown by %s as
// String(symbol) does, when the description is a literal.
func symbolValue(src string, argv []value) value {
	v := value{str: src}
	switch {
	case len(argv) == 0 || argv[0].kind == kUndefined:
		v.shown = "Symbol()"
	default:
		if s, ok := toStr(argv[0]); ok {
			v.shown = "Symbol(" + s + ")"
		}
	}
	return v
}

// shadowed reports whether a global's name is bound in the file.
func (w *evaluator) shadowed(n *sitter.Node, name string) bool {
	if w.env.lookup(name) != nil || w.consts[name] != nil || w.vars[name] != nil {
		return true
	}
	local, _ := w.localConst(n, name)
	return local != nil
}

// staticCall evaluates JSON.stringify and Object.keys, values, entries.
func staticCall(name string, argv []value) value {
	if len(argv) == 0 {
		return value{}
	}
	a := argv[0]
	switch name {
	case "Array.isArray":
		if a.kind == kUnknown && a.set == nil && a.re == nil && !a.fn {
			return value{}
		}
		return value{kind: kBool, b: a.kind == kArray}
	case "Object.freeze", "Object.seal", "Object.preventExtensions":
		if a.isObject() {
			return a // the same object, printed the same
		}
		return value{}
	case "JSON.stringify":
		if len(argv) != 1 || !a.known() {
			return value{}
		}
		s, ok := titles(1, func(int) string { return jsonString(a) })
		if !ok || (a.kind == kUndefined) {
			return value{kind: kUndefined}
		}
		return str(s[0])
	case "Math.sqrt", "Math.abs", "Math.floor", "Math.ceil", "Math.trunc":
		if a.kind != kNumber || len(argv) != 1 {
			return value{}
		}
		return value{kind: kNumber, num: mathFunctions[name](a.num)}
	case "Object.keys", "Object.values", "Object.entries":
		if !a.isObject() {
			return value{}
		}
		keys, vals := ownKeys(a)
		out := value{kind: kArray}
		for i, k := range keys {
			switch name {
			case "Object.keys":
				out.arr = append(out.arr, str(k))
			case "Object.values":
				out.arr = append(out.arr, vals[i])
			default:
				out.arr = append(out.arr, value{kind: kArray, arr: []value{str(k), vals[i]}})
			}
		}
		return out
	}
	return value{}
}

// methodCall evaluates a pure string or array method on a literal.
func methodCall(o value, method string, argv []value) value {
	if v, ok := builtinMethod(o, method, argv); ok {
		return v
	}
	switch {
	case o.kind == kString && len(argv) == 0:
		switch method {
		case "toUpperCase", "toLowerCase":
			if !isASCII(o.str) {
				return value{} // Unicode special casing differs between Go and JavaScript
			}
			if method == "toUpperCase" {
				return str(strings.ToUpper(o.str))
			}
			return str(strings.ToLower(o.str))
		case "trim":
			return str(strings.Trim(o.str, jsSpace))
		case "toString":
			return o
		}
	case o.kind == kString && method == "repeat" && len(argv) == 1:
		n, ok := argv[0].toNumber()
		if !ok || argv[0].isObject() || n < 0 || n != math.Trunc(n) || float64(len(o.str))*n > 1<<16 {
			return value{} // RangeError, or too long for a title
		}
		return str(strings.Repeat(o.str, int(n)))
	case o.kind == kArray && method == "join" && len(argv) <= 1:
		sep := ","
		if len(argv) == 1 && argv[0].kind != kUndefined {
			s, ok := toStr(argv[0])
			if !ok {
				return value{}
			}
			sep = s
		}
		parts := make([]string, len(o.arr))
		for i, e := range o.arr {
			if e.kind == kNull || e.kind == kUndefined {
				continue
			}
			s, ok := toStr(e)
			if !ok {
				return value{}
			}
			parts[i] = s
		}
		return str(strings.Join(parts, sep))
	case method == "toString" && len(argv) == 0 && o.kind != kNull && o.kind != kUndefined:
		if s, ok := toStr(o); ok {
			return str(s)
		}
	}
	return value{}
}

// jsSpace is the white space and line terminators String.prototype.trim removes.
const jsSpace = " \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"

// mapCall evaluates array.map(fn) and array.filter(fn) on a literal array
// when fn returns an expression of its parameters (x => [x.name, x],
// function (x) { return x.a }): test.each(cases.map(c => [c.name, c])).
func (w *evaluator) mapCall(fn, args *sitter.Node, depth int) (value, bool) {
	if fn.Type() != "member_expression" || args.NamedChildCount() != 1 {
		return value{}, false
	}
	prop, obj, cb := fn.ChildByFieldName("property"), fn.ChildByFieldName("object"), args.NamedChild(0)
	if prop == nil || obj == nil || (w.text(prop) != "map" && w.text(prop) != "filter") || !isFunction(cb.Type()) {
		return value{}, false
	}
	filter := w.text(prop) == "filter"
	body := returned(cb)
	if body == nil {
		return value{}, false
	}
	arr := w.eval(obj, depth+1)
	if arr.kind != kArray {
		return value{}, false
	}
	params := w.paramNodes(cb)
	out := value{kind: kArray}
	for i, el := range arr.arr {
		e := w.env
		for k, p := range params {
			v := [3]value{el, num(float64(i)), arr}[min(k, 2)]
			var ok bool
			if e, ok = w.bindPattern(p, v, cb.StartByte(), e); !ok || k > 2 {
				return value{}, false
			}
		}
		saved := w.env
		w.env = e
		v := w.eval(body, depth+1)
		w.env = saved
		if filter {
			keep, ok := truthy(v)
			if !ok {
				return value{}, false
			}
			if keep {
				out.arr = append(out.arr, el)
			}
			continue
		}
		out.arr = append(out.arr, v)
	}
	return out, true
}

// returned is the expression a function returns when its body is that
// expression or a block holding only return expr; nil otherwise.
func returned(fn *sitter.Node) *sitter.Node {
	body := fn.ChildByFieldName("body")
	if body == nil {
		return nil
	}
	if body.Type() != "statement_block" {
		return body
	}
	var ret *sitter.Node
	for i := 0; i < int(body.NamedChildCount()); i++ {
		c := body.NamedChild(i)
		switch {
		case c.Type() == "comment":
		case c.Type() == "return_statement" && ret == nil && c.NamedChildCount() == 1:
			ret = c.NamedChild(0)
		default:
			return nil
		}
	}
	return ret
}

// localCall evaluates a call of a function of the file that only returns
// an expression of its parameters (function _s(x) { return
// JSON.stringify(x) }, const f = (a) => a.name): declared once at the top
// level, never reassigned, not async, not recursive. Its body sees its
// parameters and the module's bindings.
func (w *evaluator) localCall(fn *sitter.Node, argv []value, depth int) value {
	name := w.text(fn)
	if w.env.lookup(name) != nil {
		return value{}
	}
	if local, _ := w.localConst(fn, name); local != nil {
		return value{}
	}
	if _, imp := w.imports[name]; imp && w.importValues == nil {
		w.needImports = true // the linker appends the function if it can be evaluated
	}
	return w.callNamed(name, argv, depth)
}

// importedCall evaluates m.f(...) where m is a whole local module (import
// * as m, const m = require('./m')) whose f the linker appended as m$f
// (see value.pure).
func (w *evaluator) importedCall(obj, prop *sitter.Node, argv []value, depth int) (value, bool) {
	if obj.Type() != "identifier" || prop.Type() != "property_identifier" {
		return value{}, false
	}
	m := w.text(obj)
	name := m + "$" + w.text(prop)
	if r, imp := w.imports[m]; imp && r.Name == "*" && w.importValues == nil && w.env.lookup(m) == nil {
		w.needImports = true // the linker appends m.f if it can be evaluated
	}
	if !w.appended[name] || w.imports[m].Name != "*" || w.env.lookup(m) != nil {
		return value{}, false
	}
	if local, _ := w.localConst(obj, m); local != nil {
		return value{}, false
	}
	v := w.callNamed(name, argv, depth)
	return v, v.kind != kUnknown
}

// callNamed is localCall of the function the file declares at its top
// level as name.
func (w *evaluator) callNamed(name string, argv []value, depth int) value {
	def := w.fnDecls[name]
	if c := w.consts[name]; def == nil && c != nil && isFunction(c.Type()) && c.Type() != "generator_function" {
		def = c
	}
	key := "()" + name
	if def == nil || w.redeclared[name] || w.mutated(name) || w.evaluating[key] || depth > maxEvalDepth {
		return value{}
	}
	if !w.onlyCalled(name) {
		return value{} // a parameter or a nested function may take its name here
	}
	for i := 0; i < int(def.ChildCount()); i++ {
		if def.Child(i).Type() == "async" {
			return value{}
		}
	}
	gs, ok := w.straight(def)
	if !ok {
		return value{}
	}
	memo, canMemo := "", true
	for _, a := range argv {
		canMemo = canMemo && a.known()
		memo += fingerprint(a) + "\x00"
	}
	mk := callKey{def.StartByte(), memo}
	if v, hit := w.callMemo[mk]; hit && canMemo {
		return v
	}
	e, ok := w.bindParams(def, argv)
	if !ok {
		return value{}
	}
	w.evaluating[key] = true
	saved := w.env
	w.env = e
	v := w.runGuards(gs, depth)
	w.env = saved
	delete(w.evaluating, key)
	if canMemo {
		w.callMemo[mk] = v // the body sees only its parameters and the module
	}
	return v
}

// callKey is a local function called with some data arguments.
type callKey struct {
	start uint32
	args  string
}

// fingerprint encodes a known value, kind and content, for callKey.
func fingerprint(v value) string {
	switch v.kind {
	case kArray:
		s := "["
		for _, e := range v.arr {
			s += fingerprint(e) + ","
		}
		return s + "]"
	case kObject:
		s := "{"
		for i, k := range v.keys {
			s += strconv.Quote(k) + ":" + fingerprint(v.vals[i]) + ","
		}
		return s + "}"
	case kNumber:
		return "n" + strconv.FormatUint(math.Float64bits(v.num), 16)
	case kBool:
		return "b" + strconv.FormatBool(v.b)
	}
	return string(rune('0'+v.kind)) + strconv.Quote(v.str)
}

// onlyCalled reports whether every mention of name in the file, but its
// one declaration, is a direct call name(...) or an argument of a call
// (pathe's runTest("x", normalizeWindowsPath, {...}), which passes the
// function on and binds nothing): no parameter, nested function or
// binding elsewhere takes the name. What a callee does with the function
// it is passed does not change what the function's calls return: its
// body reads only its parameters and the module's consts.
func (w *evaluator) onlyCalled(name string) bool {
	if w.mentioned == nil {
		w.mentioned = map[string]int{}
		q, err := cachedQuery(w.lang, mentionQuery)
		if err != nil {
			return false
		}
		for c := range tsgrammars.CaptureNodes(q, w.root) {
			n := w.text(c)
			if p := c.Parent(); w.appended[n] && p != nil && (p.Type() == "import_specifier" || p.Type() == "import_clause") {
				continue // the import an appended function stands for
			}
			w.mentioned[n]++
			if p := c.Parent(); p != nil && p.Type() == "call_expression" {
				if f := p.ChildByFieldName("function"); f != nil && same(f, c) {
					w.mentioned["()"+n]++
				}
			} else if p != nil && p.Type() == "arguments" && c.Type() == "identifier" {
				w.mentioned["()"+n]++
			}
		}
	}
	return w.mentioned[name] == w.mentioned["()"+name]+1
}

// bindParams binds the parameters of the function node def to argv (a
// missing argument is undefined); ok is false where a pattern cannot be
// bound.
func (w *evaluator) bindParams(def *sitter.Node, argv []value) (*env, bool) {
	var e *env
	for i, p := range w.paramNodes(def) {
		v := value{kind: kUndefined}
		if i < len(argv) {
			v = argv[i]
		}
		var ok bool
		if e, ok = w.bindPattern(p, v, def.StartByte(), e); !ok {
			return nil, false
		}
	}
	return e, true
}
