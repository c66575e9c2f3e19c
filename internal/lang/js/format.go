package js

import (
	"encoding/json"
	"math"
	"regexp"
	"sort"
	"strings"
)

// errUnknown is panicked by formatters that meet a value the source does
// not show; titles catches it and reports the title as dynamic.
type errUnknown struct{}

func must(v value) value {
	if !v.known() {
		panic(errUnknown{})
	}
	return v
}

// identRE matches property names util.inspect prints without quotes.
var identRE = regexp.MustCompile(`^[A-Za-z_$][\w$]*$`)

// inspect is util.inspect (and loupe's inspect, the same on literals) with
// the given depth: strings in single quotes, [ 1, 2 ], { a: 1 }.
func inspect(v value, depth int) string {
	v = must(v)
	switch v.kind {
	case kString:
		return "'" + strings.ReplaceAll(strings.ReplaceAll(v.str, `\`, `\\`), "'", `\'`) + "'"
	case kNumber:
		if v.num == 0 && math.Signbit(v.num) {
			return "-0"
		}
		return numString(v.num)
	case kBigInt:
		return v.str + "n"
	case kArray:
		if len(v.arr) == 0 {
			return "[]"
		}
		if depth < 0 {
			return "[Array]"
		}
		parts := make([]string, len(v.arr))
		for i, e := range v.arr {
			parts[i] = inspect(e, depth-1)
		}
		return "[ " + strings.Join(parts, ", ") + " ]"
	case kObject:
		if len(v.keys) == 0 {
			return "{}"
		}
		if depth < 0 {
			return "[Object]"
		}
		keys, vals := ownKeys(v)
		parts := make([]string, len(keys))
		for i, k := range keys {
			if !identRE.MatchString(k) {
				k = inspect(value{kind: kString, str: k}, 0)
			}
			parts[i] = k + ": " + inspect(vals[i], depth-1)
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	return v.jsString()
}

// dedupe returns an object's keys in insertion order, the last value of a
// repeated key winning, as the object literal builds them.
func dedupe(v value) ([]string, []value) {
	var keys []string
	var vals []value
	for i, k := range v.keys {
		found := false
		for j := range keys {
			if keys[j] == k {
				vals[j], found = v.vals[i], true
			}
		}
		if !found {
			keys, vals = append(keys, k), append(vals, v.vals[i])
		}
	}
	return keys, vals
}

// pretty is Jest's pretty-format with {maxDepth: 1, min: true}.
func pretty(v value, depth int) string {
	v = must(v)
	switch v.kind {
	case kString:
		return `"` + strings.ReplaceAll(strings.ReplaceAll(v.str, `\`, `\\`), `"`, `\"`) + `"`
	case kNumber, kBigInt:
		return inspect(v, 0)
	case kArray:
		if depth+1 > 1 {
			return "[Array]"
		}
		parts := make([]string, len(v.arr))
		for i, e := range v.arr {
			parts[i] = pretty(e, depth+1)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case kObject:
		if depth+1 > 1 {
			return "[Object]"
		}
		keys, vals := dedupe(v)
		idx := make([]int, len(keys))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]] < keys[idx[b]] })
		parts := make([]string, len(keys))
		for i, j := range idx {
			parts[i] = pretty(value{kind: kString, str: keys[j]}, 0) + ": " + pretty(vals[j], depth+1)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return v.jsString()
}

// formatVerb renders one printf verb as node's util.format and Vitest's
// format do: %s %d %i %f %j %o %O.
//
// They differ where vitest is true: Vitest prints an array's %s with
// Array.prototype.toString (1,2) and a negative zero's %d as 0.
func formatVerb(verb byte, v value, vitest bool) string {
	if verb == 's' && !vitest && v.kind == kUnknown && v.shown != "" {
		return v.shown // String(v)
	}
	v = must(v)
	switch verb {
	case 's':
		switch {
		case v.kind == kBigInt:
			return v.str + "n"
		case v.kind == kNumber && v.num == 0 && math.Signbit(v.num):
			return "-0"
		case v.kind == kArray && vitest:
			return v.jsString()
		case v.isObject() && vitest:
			return loupe(v, loupeInf)
		case v.isObject():
			return nodeInspect(v, 0)
		}
		return v.jsString()
	case 'd':
		if v.kind == kBigInt {
			return v.str + "n"
		}
		n, _ := v.toNumber()
		if vitest {
			return numString(n)
		}
		return inspect(value{kind: kNumber, num: n}, 0)
	case 'i':
		if v.kind == kBigInt {
			return v.str + "n"
		}
		return numString(parseIntPrefix(v.jsString()))
	case 'f':
		return numString(parseFloatPrefix(v.jsString()))
	case 'j':
		return jsonString(v)
	case 'o', 'O':
		if vitest {
			return loupe(v, loupeInf)
		}
		if v.isObject() && verb == 'o' {
			panic(errUnknown{}) // showHidden adds [length] and more: not worth guessing
		}
		return nodeInspect(v, 2)
	}
	return "%" + string(verb)
}

// jsonString is JSON.stringify for literals.
func jsonString(v value) string {
	switch v.kind {
	case kString:
		b, _ := json.Marshal(v.str)
		return strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&", `\u2028`, "\u2028", `\u2029`, "\u2029").Replace(string(b))
	case kNumber:
		if math.IsNaN(v.num) || math.IsInf(v.num, 0) {
			return "null"
		}
		return numString(v.num)
	case kBigInt:
		panic(errUnknown{}) // JSON.stringify throws
	case kUndefined:
		return "undefined"
	case kArray:
		parts := make([]string, len(v.arr))
		for i, e := range v.arr {
			if e.kind == kUndefined {
				parts[i] = "null"
			} else {
				parts[i] = jsonString(e)
			}
		}
		return "[" + strings.Join(parts, ",") + "]"
	case kObject:
		keys, vals := ownKeys(v)
		var parts []string
		for i, k := range keys {
			if vals[i].kind != kUndefined {
				parts = append(parts, jsonString(value{kind: kString, str: k})+":"+jsonString(vals[i]))
			}
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	return v.jsString()
}

// rowTitles renders fn for every row on its own: named[i] is false for a
// row whose title needs a value the source does not show.
func rowTitles(rows int, fn func(i int) string) (out []string, named []bool) {
	out, named = make([]string, rows), make([]bool, rows)
	for i := range out {
		if t, ok := titles(1, func(int) string { return fn(i) }); ok {
			out[i], named[i] = t[0], true
		}
	}
	return out, named
}

// titles renders fn for every row; ok is false when a title needs a value
// the source does not show.
func titles(rows int, fn func(i int) string) (out []string, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, is := r.(errUnknown); !is {
				panic(r)
			}
			out, ok = nil, false
		}
	}()
	out = make([]string, rows)
	for i := range out {
		out[i] = fn(i)
	}
	return out, true
}

// nodeInspect is inspect where util.inspect prints v on one line, and
// errUnknown where it would break it into lines (which a title then
// holds): an array of more than 6 items, an object or array nested more
// than 3 deep, or one longer than the break length of 80.
func nodeInspect(v value, depth int) string {
	if !nodeOneLine(v, depth, 0) {
		panic(errUnknown{})
	}
	return inspect(v, depth)
}

// nodeOneLine is util.inspect's reduceToSingleString test (compact 3,
// breakLength 80) for v and everything in it, at indentation indent.
func nodeOneLine(v value, depth, indent int) bool {
	v = must(v)
	if !v.isObject() || depth < 0 || (v.kind == kArray && len(v.arr) == 0) || (v.kind == kObject && len(v.keys) == 0) {
		return true
	}
	if v.kind == kArray && len(v.arr) > 6 {
		return false // grouped into columns
	}
	if levels(v, depth) > 3 {
		return false
	}
	var entries []string
	if v.kind == kArray {
		for _, e := range v.arr {
			if !nodeOneLine(e, depth-1, indent+2) {
				return false
			}
			entries = append(entries, inspect(e, depth-1))
		}
	} else {
		keys, vals := ownKeys(v)
		for i, k := range keys {
			if !nodeOneLine(vals[i], depth-1, indent+2) {
				return false
			}
			if !identRE.MatchString(k) {
				k = inspect(str(k), 0)
			}
			entries = append(entries, k+": "+inspect(vals[i], depth-1))
		}
	}
	total := len(entries) + len(entries) + indent + 1 + 10
	if total+len(entries) > 80 {
		return false
	}
	for _, e := range entries {
		if total += len16(e); total > 80 {
			return false
		}
	}
	return true
}

// levels counts the nested non-empty objects and arrays inspect prints
// in full (not as [Object] past depth), v included.
func levels(v value, depth int) int {
	if !v.isObject() || depth < 0 || (v.kind == kArray && len(v.arr) == 0) || (v.kind == kObject && len(v.keys) == 0) {
		return 0
	}
	m := 0
	children := v.arr
	if v.kind == kObject {
		children = v.vals
	}
	for _, c := range children {
		m = max(m, levels(c, depth-1))
	}
	return m + 1
}
