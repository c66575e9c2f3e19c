package js

import (
	"math"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// The builtins below are evaluated as JavaScript evaluates them on data
// values; anything they would do with a value that is not data (an
// object's identity, a function, a regular expression with more than
// literal characters) leaves the result unknown.

// regexLit is a regular expression literal: its pattern and flags as
// written.
type regexLit struct {
	pattern, flags string
}

// regex evaluates a regular expression literal: unknown, with the
// literal kept for String.prototype.replace.
func (w *evaluator) regex(n *sitter.Node) value {
	v := value{str: w.text(n), re: &regexLit{}}
	if p := n.ChildByFieldName("pattern"); p != nil {
		v.re.pattern = w.text(p)
	}
	if f := n.ChildByFieldName("flags"); f != nil {
		v.re.flags = w.text(f)
	}
	return v
}

// newValue evaluates new Set(iterable) of primitives, when Set is the
// global: unknown, with its elements kept for has, add and size.
func (w *evaluator) newValue(n *sitter.Node, depth int) value {
	unknown := value{str: w.text(n)}
	c := n.ChildByFieldName("constructor")
	if c == nil || c.Type() != "identifier" || w.text(c) != "Set" || w.shadowed(c, "Set") {
		return unknown
	}
	argv, ok := w.args(n.ChildByFieldName("arguments"), depth)
	if !ok || len(argv) > 1 {
		return unknown
	}
	set := value{str: unknown.str, set: []value{}}
	if len(argv) == 0 || argv[0].kind == kUndefined || argv[0].kind == kNull {
		return set
	}
	var items []value
	switch a := argv[0]; a.kind {
	case kArray:
		items = a.arr
	case kString:
		for _, r := range a.str {
			items = append(items, str(string(r)))
		}
	default:
		return unknown
	}
	for _, it := range items {
		var ok bool
		if set, ok = mutate(set, "add", []value{it}); !ok {
			return unknown
		}
	}
	return set
}

// setKey reports whether a Set can hold v by value: a known primitive.
func setKey(v value) bool {
	return v.kind != kUnknown && !v.isObject()
}

// setHas reports whether the Set o holds v (SameValueZero); ok is false
// when v is not a known primitive.
func setHas(o value, v value) (ok, has bool) {
	if !setKey(v) {
		return false, false
	}
	for _, e := range o.set {
		if sameValueZero(e, v) {
			return true, true
		}
	}
	return true, false
}

// sameValueZero compares two known primitives as Set and includes do.
func sameValueZero(a, b value) bool {
	if a.kind == kNumber && b.kind == kNumber && math.IsNaN(a.num) && math.IsNaN(b.num) {
		return true
	}
	eq, ok := strictEqual(a, b)
	return ok && eq
}

// builtinMethod evaluates the array, Set and string methods beyond
// methodCall's: a Set's has; an array's pop and shift (the element they
// take), slice, splice (the elements it removes), flat, concat and
// includes; a string's replace and replaceAll. ok is false when it does
// not know the call.
func builtinMethod(o value, method string, argv []value) (value, bool) {
	for _, a := range argv {
		if !a.known() && a.re == nil {
			return value{}, false
		}
	}
	switch {
	case o.set != nil && method == "has" && len(argv) >= 1:
		if ok, has := setHas(o, argv[0]); ok {
			return value{kind: kBool, b: has}, true
		}
	case method == "hasOwnProperty" && len(argv) == 1 && argv[0].kind == kString:
		return hasOwn(o, argv[0].str)
	case o.kind == kArray:
		return arrayMethod(o.arr, method, argv)
	case o.kind == kString && (method == "replace" || method == "replaceAll") && len(argv) == 2:
		return replace(o.str, argv[0], argv[1], method == "replaceAll")
	case o.re != nil && method == "test" && len(argv) >= 1 && argv[0].re == nil:
		if s, ok := toStr(argv[0]); ok {
			if m, ok := regexTest(o.re, s); ok {
				return value{kind: kBool, b: m}, true
			}
		}
	case method == "toString" && len(argv) == 0 && (o.kind == kNumber || o.kind == kBool):
		return str(o.jsString()), true
	case o.kind == kString:
		return stringMethod(o.str, method, argv)
	}
	return value{}, false
}

// stringMethod is s.startsWith(x), endsWith(x) and includes(x) of a
// string x and no position, and s.split(sep) of a string separator and no
// limit.
func stringMethod(s, method string, argv []value) (value, bool) {
	if len(argv) != 1 || argv[0].kind != kString {
		return value{}, false
	}
	x := argv[0].str
	switch method {
	case "startsWith":
		return value{kind: kBool, b: strings.HasPrefix(s, x)}, true
	case "endsWith":
		return value{kind: kBool, b: strings.HasSuffix(s, x)}, true
	case "includes":
		return value{kind: kBool, b: strings.Contains(s, x)}, true
	case "split":
		if x == "" && !isASCII(s) {
			return value{}, false // code units, not characters
		}
		out := value{kind: kArray}
		for _, part := range strings.Split(s, x) {
			out.arr = append(out.arr, str(part))
		}
		return out, true
	}
	return value{}, false
}

func arrayMethod(arr []value, method string, argv []value) (value, bool) {
	switch method {
	case "pop":
		if len(arr) == 0 {
			return value{kind: kUndefined}, true
		}
		return arr[len(arr)-1], true
	case "shift":
		if len(arr) == 0 {
			return value{kind: kUndefined}, true
		}
		return arr[0], true
	case "slice", "splice":
		var start, end int
		var ok bool
		if method == "slice" {
			start, end, ok = sliceRange(len(arr), argv)
		} else {
			start, end, ok = spliceRange(len(arr), argv)
		}
		if !ok {
			return value{}, false
		}
		return value{kind: kArray, arr: append([]value{}, arr[start:end]...)}, true
	case "flat":
		depth := 1.0
		if len(argv) > 0 && argv[0].kind != kUndefined {
			if argv[0].kind != kNumber {
				return value{}, false
			}
			depth = argv[0].num
		}
		return value{kind: kArray, arr: flatten(arr, depth)}, true
	case "concat":
		out := append([]value{}, arr...)
		for _, a := range argv {
			if a.kind == kArray {
				out = append(out, a.arr...)
			} else {
				out = append(out, a)
			}
		}
		return value{kind: kArray, arr: out}, true
	case "includes":
		if len(argv) != 1 || !setKey(argv[0]) {
			return value{}, false
		}
		for _, e := range arr {
			if e.kind == kUnknown {
				return value{}, false
			}
			if e.isObject() {
				continue // never SameValueZero to a primitive
			}
			if sameValueZero(e, argv[0]) {
				return value{kind: kBool, b: true}, true
			}
		}
		return value{kind: kBool, b: false}, true
	}
	return value{}, false
}

// flatten is Array.prototype.flat(depth).
func flatten(arr []value, depth float64) []value {
	out := []value{}
	for _, e := range arr {
		if e.kind == kArray && depth >= 1 {
			out = append(out, flatten(e.arr, depth-1)...)
			continue
		}
		out = append(out, e)
	}
	return out
}

// relIndex is an array method's relative index argument: negative counts
// from the end, clamped to [0, n]; undefined is def. ok is false for an
// argument that is not a number.
func relIndex(n int, v value, def int) (int, bool) {
	switch v.kind {
	case kUndefined:
		return def, true
	case kNumber:
	default:
		return 0, false
	}
	f := math.Trunc(v.num)
	if math.IsNaN(f) {
		f = 0
	}
	if f < 0 {
		f = math.Max(float64(n)+f, 0)
	}
	return int(math.Min(f, float64(n))), true
}

// sliceRange is the [start, end) of arr.slice(start, end).
func sliceRange(n int, argv []value) (int, int, bool) {
	a := [2]value{{kind: kUndefined}, {kind: kUndefined}}
	copy(a[:], argv)
	start, ok1 := relIndex(n, a[0], 0)
	end, ok2 := relIndex(n, a[1], n)
	return start, max(start, end), ok1 && ok2
}

// spliceRange is the [start, end) arr.splice(start, deleteCount, ...)
// removes.
func spliceRange(n int, argv []value) (int, int, bool) {
	if len(argv) == 0 {
		return 0, 0, true
	}
	start, ok := relIndex(n, argv[0], 0)
	if !ok {
		return 0, 0, false
	}
	if len(argv) == 1 {
		return start, n, true
	}
	if argv[1].kind != kNumber && argv[1].kind != kUndefined {
		return 0, 0, false
	}
	count := 0.0
	if argv[1].kind == kNumber && !math.IsNaN(argv[1].num) {
		count = math.Trunc(argv[1].num)
	}
	count = math.Max(0, math.Min(count, float64(n-start)))
	return start, start + int(count), true
}

// replace is s.replace(pattern, replacement) and s.replaceAll: a string
// pattern, or a regular expression of literal characters with no flag
// but g; a replacement string with no $ patterns.
func replace(s string, pattern, repl value, all bool) (value, bool) {
	if repl.kind != kString || strings.Contains(repl.str, "$") {
		return value{}, false
	}
	var lit string
	switch {
	case pattern.kind == kString:
		lit = pattern.str
	case pattern.re != nil:
		var ok bool
		if lit, ok = literalPattern(pattern.re.pattern); !ok {
			return value{}, false
		}
		switch pattern.re.flags {
		case "g":
			all = true
		case "":
			if all {
				return value{}, false // replaceAll with a non-global regex throws
			}
		default:
			return value{}, false
		}
	default:
		return value{}, false
	}
	if lit == "" {
		return value{}, false
	}
	if all {
		return str(strings.ReplaceAll(s, lit, repl.str)), true
	}
	return str(strings.Replace(s, lit, repl.str, 1)), true
}

// literalPattern reads a regular expression that matches one fixed
// string: characters that are not syntax, and syntax characters escaped
// with a backslash. ok is false for anything else.
// controlEscapes are the regular expression escapes of one control
// character (mlly's input.replace(/\n/g, ...)).
var controlEscapes = map[byte]byte{'n': '\n', 't': '\t', 'r': '\r', 'f': '\f', 'v': '\v'}

func literalPattern(p string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p) && controlEscapes[p[i+1]] != 0:
			i++
			b.WriteByte(controlEscapes[p[i]])
		case c == '\\':
			if i+1 >= len(p) || !strings.ContainsRune(`\^$.*+?()[]{}|/-"'`, rune(p[i+1])) {
				return "", false // \d, \u0041, back references: not read
			}
			i++
			b.WriteByte(p[i])
		case strings.IndexByte(`^$.*+?()[]{}|`, c) >= 0:
			return "", false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// hasOwn is o.hasOwnProperty(k) for a literal o: an object's keys (unless
// one of them is hasOwnProperty itself), an array's or a string's indexes
// and length, nothing of a number or a boolean.
func hasOwn(o value, k string) (value, bool) {
	index := func(n int) bool {
		i, err := strconv.Atoi(k)
		return k == "length" || (err == nil && i >= 0 && i < n && strconv.Itoa(i) == k)
	}
	switch o.kind {
	case kObject:
		keys, _ := ownKeys(o)
		has := false
		for _, key := range keys {
			if key == "hasOwnProperty" {
				return value{}, false
			}
			has = has || key == k
		}
		return value{kind: kBool, b: has}, true
	case kArray:
		return value{kind: kBool, b: index(len(o.arr))}, true
	case kString:
		return value{kind: kBool, b: index(len16(o.str))}, true
	case kNumber, kBool:
		return value{kind: kBool, b: false}, true
	}
	return value{}, false
}
