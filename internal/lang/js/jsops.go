package js

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"

	sitter "github.com/smacker/go-tree-sitter"
)

// toStr is String(v) where the source fixes it: an array joins its
// elements (null and undefined as ""), a plain object is
// "[object Object]". An object literal with its own toString, valueOf or
// toJSON may print anything, so it is unknown, as is anything unknown
// inside an array.
func toStr(v value) (string, bool) {
	switch v.kind {
	case kUnknown:
		return "", false
	case kObject:
		for _, k := range v.keys {
			if k == "toString" || k == "valueOf" {
				return "", false
			}
		}
		return "[object Object]", true
	case kArray:
		parts := make([]string, len(v.arr))
		for i, e := range v.arr {
			if e.kind == kNull || e.kind == kUndefined {
				continue
			}
			s, ok := toStr(e)
			if !ok {
				return "", false
			}
			parts[i] = s
		}
		return strings.Join(parts, ","), true
	}
	return v.jsString(), true
}

// str wraps a Go string as a JavaScript string value.
func str(s string) value { return value{kind: kString, str: s} }

// num wraps a float as a JavaScript number value.
func num(f float64) value { return value{kind: kNumber, num: f} }

// ownKeys is Object.keys of a literal: integer-like keys first in
// ascending order, then the others in insertion order, each once.
func ownKeys(v value) ([]string, []value) {
	if v.kind == kArray {
		keys := make([]string, len(v.arr))
		for i := range v.arr {
			keys[i] = strconv.Itoa(i)
		}
		return keys, v.arr
	}
	keys, vals := dedupe(v)
	idx := make([]int, len(keys))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ia, okA := arrayIndex(keys[idx[a]])
		ib, okB := arrayIndex(keys[idx[b]])
		switch {
		case okA && okB:
			return ia < ib
		default:
			return okA && !okB
		}
	})
	k2, v2 := make([]string, len(keys)), make([]value, len(keys))
	for i, j := range idx {
		k2[i], v2[i] = keys[j], vals[j]
	}
	return k2, v2
}

// arrayIndex reports whether key is a canonical array index ("0", "17",
// not "01"), which objects order before their other keys.
func arrayIndex(key string) (uint64, bool) {
	n, err := strconv.ParseUint(key, 10, 32)
	if err != nil || strconv.FormatUint(n, 10) != key || n == 1<<32-1 {
		return 0, false
	}
	return n, true
}

// protoNames are properties every object inherits: reading one from a
// literal gives a function, not undefined.
var protoNames = map[string]bool{"constructor": true, "toString": true, "valueOf": true, "hasOwnProperty": true,
	"isPrototypeOf": true, "propertyIsEnumerable": true, "toLocaleString": true, "__proto__": true,
	"__defineGetter__": true, "__defineSetter__": true, "__lookupGetter__": true, "__lookupSetter__": true}

// member is v[name] for a literal v: own properties, an array's or a
// string's length and indexes, and undefined for a property an object
// literal does not have. Anything else (methods, null's TypeError) is
// unknown.
func member(v value, name string) value {
	if v.set != nil && name == "size" {
		return num(float64(len(v.set)))
	}
	switch v.kind {
	case kArray:
		if name == "length" {
			return num(float64(len(v.arr)))
		}
		if i, ok := arrayIndex(name); ok {
			if int(i) < len(v.arr) {
				return v.arr[i]
			}
			return value{kind: kUndefined}
		}
	case kString:
		u := utf16.Encode([]rune(v.str))
		if name == "length" {
			return num(float64(len(u)))
		}
		if i, ok := arrayIndex(name); ok {
			if int(i) < len(u) {
				return str(string(utf16.Decode(u[i : i+1])))
			}
			return value{kind: kUndefined}
		}
	case kObject:
		if f, ok := v.field(name); ok {
			return f
		}
		if !protoNames[name] {
			return value{kind: kUndefined}
		}
	case kUnknown:
		if v.props != nil {
			if f, ok := v.props.field(name); ok {
				return f
			}
		}
	}
	return value{str: name}
}

// isASCII reports whether s has only ASCII characters, whose case
// mapping is the same in Go and JavaScript.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// truthy is Boolean(v); ok is false when the source does not fix it.
func truthy(v value) (bool, bool) {
	switch v.kind {
	case kUnknown:
		return false, false
	case kString:
		return v.str != "", true
	case kNumber:
		return v.num != 0 && !math.IsNaN(v.num), true
	case kBigInt:
		return strings.TrimLeft(strings.TrimPrefix(v.str, "-"), "0") != "", true
	case kBool:
		return v.b, true
	case kNull, kUndefined:
		return false, true
	}
	return true, true // arrays and objects
}

// strictEqual is a === b for primitives; objects compare by identity,
// which the source does not show.
func strictEqual(a, b value) (bool, bool) {
	if a.kind == kUnknown || b.kind == kUnknown || (a.isObject() && b.isObject()) {
		return false, false // an object's identity is not data
	}
	if a.isObject() || b.isObject() {
		return false, true // an object is no primitive
	}
	if a.kind != b.kind {
		return false, true
	}
	switch a.kind {
	case kNumber:
		return a.num == b.num, true
	case kString, kBigInt:
		return a.str == b.str, true
	case kBool:
		return a.b == b.b, true
	}
	return true, true // null, undefined
}

// logical is a || b, a && b and a ?? b, reading b only when a leaves it.
func (w *evaluator) logical(n *sitter.Node, op string, depth int) value {
	l := w.eval(n.ChildByFieldName("left"), depth+1)
	var takeLeft, ok bool
	switch op {
	case "??":
		takeLeft, ok = l.kind != kNull && l.kind != kUndefined, l.kind != kUnknown
	case "||":
		takeLeft, ok = truthy(l)
	default:
		var t bool
		t, ok = truthy(l)
		takeLeft = !t
	}
	switch {
	case !ok:
		return value{str: w.text(n)}
	case takeLeft:
		return l
	}
	return w.eval(n.ChildByFieldName("right"), depth+1)
}

// arithmetic is - * / % ** on numbers (and primitives that convert to
// them) with IEEE semantics, as JavaScript computes them. BigInts and
// objects are left unknown.
func arithmetic(op string, l, r value) (value, bool) {
	if l.kind == kUnknown || r.kind == kUnknown || l.kind == kBigInt || r.kind == kBigInt || l.isObject() || r.isObject() {
		return value{}, false
	}
	a, _ := l.toNumber()
	b, _ := r.toNumber()
	switch op {
	case "-":
		return num(a - b), true
	case "*":
		return num(a * b), true
	case "/":
		return num(a / b), true
	case "%":
		if math.IsInf(b, 0) && !math.IsInf(a, 0) {
			return num(a), true
		}
		return num(math.Mod(a, b)), true
	case "**":
		// Go's Pow gives 1 for 1**NaN and (±1)**±Inf; JavaScript gives NaN.
		if math.IsNaN(b) || (math.Abs(a) == 1 && math.IsInf(b, 0)) {
			return num(math.NaN()), true
		}
		return num(math.Pow(a, b)), true
	}
	return value{}, false
}

// typeOf is typeof v for a known value.
func typeOf(v value) string {
	switch v.kind {
	case kString:
		return "string"
	case kNumber:
		return "number"
	case kBigInt:
		return "bigint"
	case kBool:
		return "boolean"
	case kUndefined:
		return "undefined"
	}
	return "object" // null, arrays, objects
}

// compare is l op r for <, >, <= and >= where both operands are strings
// (compared by UTF-16 code units, as JavaScript does) or each a number or
// a string (compared as numbers: '20' >= 18); ok is false for any other
// operands, whose coercions it leaves alone.
func compare(op string, l, r value) (result, ok bool) {
	c := 0
	switch {
	case l.kind == kString && r.kind == kString:
		a, b := utf16.Encode([]rune(l.str)), utf16.Encode([]rune(r.str))
		for i := 0; i < len(a) && i < len(b) && c == 0; i++ {
			c = cmpInt(int(a[i]), int(b[i]))
		}
		if c == 0 {
			c = cmpInt(len(a), len(b))
		}
	case (l.kind == kNumber || l.kind == kString) && (r.kind == kNumber || r.kind == kString):
		a, _ := l.toNumber()
		b, _ := r.toNumber()
		if math.IsNaN(a) || math.IsNaN(b) {
			return false, true
		}
		switch {
		case a < b:
			c = -1
		case a > b:
			c = 1
		}
	default:
		return false, false
	}
	switch op {
	case "<":
		return c < 0, true
	case ">":
		return c > 0, true
	case "<=":
		return c <= 0, true
	case ">=":
		return c >= 0, true
	}
	return false, false
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
