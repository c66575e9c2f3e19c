package js

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
)

// maxEvalDepth bounds the nesting of literals evaluated, so a hostile file
// cannot exhaust the stack.
const maxEvalDepth = 64

// eval returns the literal value of an expression node: strings, template
// literals, numbers, booleans, null, undefined, arrays, objects, + and
// the other arithmetic, logical and ternary operators, member access, the
// few pure calls of callValue, const bindings (and let or var ones nothing
// mutates), the loop variables and parameters in w.env, and, once linked,
// the values of local imports. Anything else is unknown, with its source
// kept.
func (w *evaluator) eval(n *sitter.Node, depth int) value {
	if n == nil {
		return value{kind: kUndefined}
	}
	unknown := value{str: w.text(n)}
	if depth > maxEvalDepth {
		return unknown
	}
	switch n.Type() {
	case "string":
		return value{kind: kString, str: unescape(w.text(n), 1)}
	case "template_string":
		return w.template(n, depth)
	case "number":
		t := w.text(n)
		if strings.HasSuffix(t, "n") {
			return value{kind: kBigInt, str: strings.ReplaceAll(t[:len(t)-1], "_", "")}
		}
		if f, ok := parseNumber(t); ok {
			return value{kind: kNumber, num: f}
		}
		return unknown
	case "true", "false":
		return value{kind: kBool, b: n.Type() == "true"}
	case "null":
		return value{kind: kNull}
	case "undefined":
		return value{kind: kUndefined}
	case "identifier":
		if v, ok := w.hostValue(n); ok {
			return v
		}
		return w.ident(n, depth)
	case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression":
		if n.NamedChildCount() > 0 {
			return w.eval(n.NamedChild(0), depth+1)
		}
	case "unary_expression":
		return w.unary(n, depth)
	case "binary_expression":
		return w.binary(n, depth)
	case "ternary_expression":
		c, ok := truthy(w.eval(n.ChildByFieldName("condition"), depth+1))
		switch {
		case !ok:
		case c:
			return w.eval(n.ChildByFieldName("consequence"), depth+1)
		default:
			return w.eval(n.ChildByFieldName("alternative"), depth+1)
		}
	case "array":
		return w.array(n, depth)
	case "object":
		return w.object(n, depth)
	case "member_expression":
		if v, ok := w.hostValue(n); ok {
			return v
		}
		return w.member(n, depth)
	case "subscript_expression":
		return w.subscript(n, depth)
	case "call_expression":
		if v, ok := w.hostValue(n); ok {
			return v
		}
		return w.callValue(n, depth)
	case "regex":
		return w.regex(n)
	case "arrow_function", "function_expression", "function", "generator_function":
		return value{str: w.text(n), fn: true, shown: w.tsPrinted(n), fname: w.ownName(n)}
	case "new_expression":
		return w.newValue(n, depth)
	}
	return unknown
}

func (w *evaluator) ident(n *sitter.Node, depth int) value {
	name := w.text(n)
	switch name {
	case "undefined":
		return value{kind: kUndefined}
	case "NaN":
		return value{kind: kNumber, num: math.NaN()}
	case "Infinity":
		return value{kind: kNumber, num: math.Inf(1)}
	}
	if v, ok := w.pinned[name]; ok {
		return v
	}
	def, ok := w.consts[name]
	if v, isVar := w.vars[name]; !ok && isVar {
		def, ok = v, true
	}
	if ok && w.redeclared[name] {
		def, ok = nil, false
	}
	local, at := w.localConst(n, name)
	if b := w.env.lookup(name); b != nil && (local == nil || at < b.scope) {
		// A loop variable or parameter, unless a declaration inside it
		// shadows it, as the changes before n left it.
		if v, ok := w.replayEnv(n, name, b, depth); ok {
			return v
		}
		return value{str: name}
	}
	var scope *env // what the definition sees: nothing for a module-level one
	if local != nil {
		def, ok, scope = local, true, w.env.before(at)
	}
	if !ok {
		if v, ok := w.imported(name); ok {
			return w.moduleRead(n, name, v, depth)
		}
	}
	if !ok {
		if v, ok := w.globalFunction(n, name); ok {
			return v
		}
	}
	if !ok || w.evaluating[name] {
		return value{str: name}
	}
	key := memoKey{def.StartByte(), scope}
	v, hit := w.memo[key]
	if !hit {
		w.evaluating[name] = true
		saved := w.env
		w.env = scope
		v = w.eval(def, depth+1)
		w.env = saved
		delete(w.evaluating, name)
		w.memo[key] = v
	}
	if local == nil {
		return w.moduleRead(n, name, v, depth)
	}
	return v
}

// moduleRead is a module-level binding's value v read at n, as the
// changes before n left it (push, x = ...); unknown when they cannot be
// replayed.
func (w *evaluator) moduleRead(n *sitter.Node, name string, v value, depth int) value {
	if !w.mutated(name) {
		return v
	}
	if w.mutations["\x00all"] {
		return value{str: name}
	}
	if r, ok := w.replay(n, name, v, nil, depth); ok {
		return r
	}
	return value{str: name}
}

// memoKey is a definition evaluated with some bindings: a table is read
// once per file (or per iteration when it depends on the loop), not once
// per test title that names it.
type memoKey struct {
	start uint32
	env   *env
}

func (w *evaluator) unary(n *sitter.Node, depth int) value {
	arg := w.eval(n.ChildByFieldName("argument"), depth+1)
	op := n.ChildByFieldName("operator")
	if op == nil || arg.kind == kUnknown {
		return value{str: w.text(n)}
	}
	switch w.text(op) {
	case "!":
		if t, ok := truthy(arg); ok {
			return value{kind: kBool, b: !t}
		}
	case "typeof":
		return str(typeOf(arg))
	case "-":
		if arg.kind == kBigInt {
			return value{kind: kBigInt, str: "-" + arg.str}
		}
		if f, ok := arg.toNumber(); ok && arg.kind != kArray && arg.kind != kObject {
			return value{kind: kNumber, num: -f}
		}
	case "+":
		if f, ok := arg.toNumber(); ok && arg.kind != kArray && arg.kind != kObject {
			return value{kind: kNumber, num: f}
		}
	}
	return value{str: w.text(n)}
}

// binary folds + over strings and numbers, the logical operators, and
// strict equality of primitives; nothing else.
// looseEqual is == where it is === (operands of one primitive type) or
// null and undefined; ok is false for the coercions it leaves alone.
func looseEqual(l, r value) (eq, ok bool) {
	nullish := func(v value) bool { return v.kind == kNull || v.kind == kUndefined }
	switch {
	case nullish(l) && nullish(r):
		return true, true
	case (nullish(l) && r.isObject()) || (l.isObject() && nullish(r)):
		return false, true
	case l.kind == kUnknown || r.kind == kUnknown || l.isObject() || r.isObject():
		return false, false
	case nullish(l) || nullish(r):
		return false, true // null == only null and undefined
	case l.kind != r.kind:
		return false, false
	}
	return strictEqual(l, r)
}

func (w *evaluator) binary(n *sitter.Node, depth int) value {
	op := n.ChildByFieldName("operator")
	if op == nil {
		return value{str: w.text(n)}
	}
	switch w.text(op) {
	case "||", "&&", "??":
		return w.logical(n, w.text(op), depth)
	case "===", "!==":
		l := w.eval(n.ChildByFieldName("left"), depth+1)
		r := w.eval(n.ChildByFieldName("right"), depth+1)
		if eq, ok := strictEqual(l, r); ok {
			return value{kind: kBool, b: eq == (w.text(op) == "===")}
		}
		return value{str: w.text(n)}
	case "==", "!=":
		l := w.eval(n.ChildByFieldName("left"), depth+1)
		r := w.eval(n.ChildByFieldName("right"), depth+1)
		if eq, ok := looseEqual(l, r); ok {
			return value{kind: kBool, b: eq == (w.text(op) == "==")}
		}
		return value{str: w.text(n)}
	case "<", ">", "<=", ">=":
		l := w.eval(n.ChildByFieldName("left"), depth+1)
		r := w.eval(n.ChildByFieldName("right"), depth+1)
		if b, ok := compare(w.text(op), l, r); ok {
			return value{kind: kBool, b: b}
		}
		return value{str: w.text(n)}
	case "-", "*", "/", "%", "**":
		l := w.eval(n.ChildByFieldName("left"), depth+1)
		r := w.eval(n.ChildByFieldName("right"), depth+1)
		if v, ok := arithmetic(w.text(op), l, r); ok {
			return v
		}
		return value{str: w.text(n)}
	case "+":
	default:
		return value{str: w.text(n)}
	}
	l := w.eval(n.ChildByFieldName("left"), depth+1)
	r := w.eval(n.ChildByFieldName("right"), depth+1)
	prim := func(v value) bool { return v.kind != kUnknown && v.kind != kArray && v.kind != kObject }
	switch {
	case l.kind == kUnknown || r.kind == kUnknown:
	case l.isObject() || r.isObject():
		// An array or object becomes its string: "a" + [1, 2] is "a1,2".
		a, okA := toStr(l)
		b, okB := toStr(r)
		if okA && okB {
			return str(a + b)
		}
	case !prim(l) || !prim(r):
	case l.kind == kString || r.kind == kString:
		return value{kind: kString, str: l.jsString() + r.jsString()}
	case l.kind != kBigInt && r.kind != kBigInt:
		a, _ := l.toNumber()
		b, _ := r.toNumber()
		return value{kind: kNumber, num: a + b}
	}
	return value{str: w.text(n)}
}

func (w *evaluator) array(n *sitter.Node, depth int) value {
	v := value{kind: kArray}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		if c.Type() == "comment" {
			continue
		}
		if c.Type() == "spread_element" { // [...a, ...'ab']
			s := w.eval(c.NamedChild(0), depth+1)
			switch s.kind {
			case kArray:
				v.arr = append(v.arr, s.arr...)
			case kString:
				for _, r := range s.str {
					v.arr = append(v.arr, str(string(r)))
				}
			default:
				return value{str: w.text(n)}
			}
			continue
		}
		v.arr = append(v.arr, w.eval(c, depth+1))
	}
	return v
}

func (w *evaluator) object(n *sitter.Node, depth int) value {
	v := value{kind: kObject}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		switch c.Type() {
		case "comment":
			continue
		case "pair":
			key, ok := w.propertyKey(c.ChildByFieldName("key"))
			if k := c.ChildByFieldName("key"); !ok && k != nil && k.Type() == "computed_property_name" && k.NamedChildCount() == 1 {
				key, ok = computedKey(w.eval(k.NamedChild(0), depth+1))
			}
			if !ok {
				return value{str: w.text(n)}
			}
			v.keys = append(v.keys, key)
			val := c.ChildByFieldName("value")
			v.vals = append(v.vals, keyName(w.eval(val, depth+1), val, key))
		case "shorthand_property_identifier":
			v.keys = append(v.keys, w.text(c))
			v.vals = append(v.vals, w.ident(c, depth+1))
		case "spread_element": // {...base, x: 1}: base's own keys, in order
			s := w.eval(c.NamedChild(0), depth+1)
			switch {
			case s.kind == kNull || s.kind == kUndefined:
			case s.isObject():
				keys, vals := ownKeys(s)
				v.keys, v.vals = append(v.keys, keys...), append(v.vals, vals...)
			default:
				return value{str: w.text(n)}
			}
		case "method_definition": // m(x) {...}: a function, as m: function (x) {...} is
			key, ok := w.propertyKey(c.ChildByFieldName("name"))
			if !ok || accessor(c) {
				return value{str: w.text(n)}
			}
			v.keys = append(v.keys, key)
			f := value{str: w.text(c), fn: true}
			if plainMethod(c) {
				f.fname = key
			}
			v.vals = append(v.vals, f)
		default: // getters, setters, computed keys
			return value{str: w.text(n)}
		}
	}
	return v
}

// accessor reports whether a method definition is a getter or a setter,
// whose reads run code.
func accessor(m *sitter.Node) bool {
	for i := 0; i < int(m.ChildCount()); i++ {
		if t := m.Child(i).Type(); t == "get" || t == "set" {
			return true
		}
	}
	return false
}

// computedKey is the property key a computed key's value gives, as
// ToPropertyKey makes it: a string, or a number, boolean, null or
// undefined as String() prints it; ok is false for anything else (a
// symbol, an object whose toString may run code).
func computedKey(v value) (string, bool) {
	switch v.kind {
	case kString, kNumber, kBool, kNull, kUndefined:
		return toStr(v)
	}
	return "", false
}

// propertyKey reads an object literal key that is not computed.
func (w *evaluator) propertyKey(k *sitter.Node) (string, bool) {
	if k == nil {
		return "", false
	}
	switch k.Type() {
	case "property_identifier":
		return w.text(k), true
	case "string":
		return unescape(w.text(k), 1), true
	case "number":
		if f, ok := parseNumber(w.text(k)); ok {
			return numString(f), true
		}
	}
	return "", false
}

// unescape decodes a JavaScript string or template literal's source,
// dropping trim quote characters at each end.
func unescape(src string, trim int) string {
	if len(src) < 2*trim {
		return ""
	}
	s := src[trim : len(src)-trim]
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '0':
			b.WriteByte(0)
		case '\n':
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case 'x':
			if i+2 < len(s) {
				if r, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
					b.WriteRune(rune(r))
					i += 2
					continue
				}
			}
			b.WriteByte(c)
		case 'u':
			r, skip := unicodeEscape(s[i+1:])
			if skip == 0 {
				b.WriteByte(c)
				continue
			}
			i += skip
			if utf16.IsSurrogate(r) && strings.HasPrefix(s[i+1:], `\u`) { // \uD83D\uDE00 is one character
				if lo, n := unicodeEscape(s[i+3:]); n == 4 && utf16.DecodeRune(r, lo) != utf8.RuneError {
					r = utf16.DecodeRune(r, lo)
					i += 2 + n
				}
			}
			b.WriteRune(r)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// unicodeEscape reads the XXXX or {X...} after \u; skip is 0 when malformed.
func unicodeEscape(s string) (rune, int) {
	if strings.HasPrefix(s, "{") {
		end := strings.IndexByte(s, '}')
		if end < 2 {
			return 0, 0
		}
		r, err := strconv.ParseUint(s[1:end], 16, 32)
		if err != nil || !utf8.ValidRune(rune(r)) {
			return 0, 0
		}
		return rune(r), end + 1
	}
	if len(s) < 4 {
		return 0, 0
	}
	r, err := strconv.ParseUint(s[:4], 16, 16)
	if err != nil {
		return 0, 0
	}
	return rune(r), 4
}
