package js

import (
	"math"
	"strconv"
	"strings"
)

// kind is the type of a statically known JavaScript value.
type kind uint8

const (
	kUnknown kind = iota // not a literal: the source is kept in src
	kString
	kNumber
	kBigInt
	kBool
	kNull
	kUndefined
	kArray
	kObject
)

// value is a JavaScript literal value as far as the source shows it: the
// rows of .each tables and the titles of tests. The zero value is unknown.
type value struct {
	kind kind
	str  string  // kString; kBigInt digits; kUnknown source text
	num  float64 // kNumber
	b    bool    // kBool
	arr  []value // kArray elements
	keys []string
	vals []value // kObject, in source order
	// set is the elements of new Set(...) of known primitives, and re a
	// regular expression literal: both are kUnknown (printed or compared
	// they stay unknown), read only by the methods that know them (has,
	// add, size; replace).
	set []value
	re  *regexLit
	fn  bool // kUnknown: a function expression (typeof "function", never an array)
	// fname is a function's name property where the source decides it
	// (see funcnames.go), "" elsewhere.
	fname string
	// shown is how node's util.format prints a kUnknown that is no
	// object with %s, when the source decides it: Symbol('a') is
	// "Symbol(a)", a function its compiled source (see tsPrinted).
	shown string
	// props are the own properties the source gives a function
	// (module.exports = run; module.exports.methods = [...]), read by
	// member access only: the function itself stays unknown.
	props *value
	// helper is an exported function that declares tests, as the
	// parameters and body of a declaration ("(name, f) {...}"), which an
	// importer's calls inline (see helperSource).
	helper string
	// pure is an exported function that only returns an expression of
	// its parameters (function isSync(m) { return /^sync/.test(m) }), in
	// the same form as helper, which an importer's calls evaluate (see
	// withPure).
	pure string
}

// known reports whether the value and everything inside it is a literal.
func (v value) known() bool {
	switch v.kind {
	case kUnknown:
		return false
	case kArray:
		for _, e := range v.arr {
			if !e.known() {
				return false
			}
		}
	case kObject:
		for _, e := range v.vals {
			if !e.known() {
				return false
			}
		}
	}
	return true
}

// isObject reports whether typeof v is "object" and v is not null.
func (v value) isObject() bool { return v.kind == kArray || v.kind == kObject }

// field returns an object's own property; ok is false when absent.
func (v value) field(name string) (value, bool) {
	if v.kind == kArray {
		if i, err := strconv.Atoi(name); err == nil && i >= 0 && i < len(v.arr) {
			return v.arr[i], true
		}
		return value{}, false
	}
	if v.kind != kObject {
		return value{}, false
	}
	for i := len(v.keys) - 1; i >= 0; i-- { // the last duplicate key wins
		if v.keys[i] == name {
			return v.vals[i], true
		}
	}
	return value{}, false
}

// jsString is String(v) for primitives, as JavaScript prints them.
func (v value) jsString() string {
	switch v.kind {
	case kString, kUnknown:
		return v.str
	case kNumber:
		return numString(v.num)
	case kBigInt:
		return v.str
	case kBool:
		return strconv.FormatBool(v.b)
	case kNull:
		return "null"
	case kUndefined:
		return "undefined"
	case kArray:
		parts := make([]string, len(v.arr))
		for i, e := range v.arr {
			if e.kind != kNull && e.kind != kUndefined {
				parts[i] = e.jsString()
			}
		}
		return strings.Join(parts, ",")
	}
	return "[object Object]"
}

// numString is Number.prototype.toString: shortest round-trip digits,
// exponent form below 1e-6 and from 1e21.
func numString(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	a := math.Abs(f)
	if a >= 1e-6 && a < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // 1e+21, 1.5e-07
	mant, exp, _ := strings.Cut(s, "e")
	sign := exp[0]
	exp = strings.TrimLeft(exp[1:], "0")
	return mant + "e" + string(sign) + exp
}

// toNumber is Number(v); ok is false when it depends on unknown parts.
func (v value) toNumber() (float64, bool) {
	switch v.kind {
	case kNumber:
		return v.num, true
	case kBool:
		if v.b {
			return 1, true
		}
		return 0, true
	case kNull:
		return 0, true
	case kUndefined, kObject:
		return math.NaN(), true
	case kString:
		return stringToNumber(v.str), true
	case kArray:
		if len(v.arr) == 0 {
			return 0, true
		}
		if len(v.arr) == 1 && v.arr[0].kind != kArray && v.arr[0].kind != kObject {
			return stringToNumber(v.arr[0].jsString()), true
		}
		return math.NaN(), true
	}
	return 0, false
}

// stringToNumber is Number(s) for a string.
func stringToNumber(s string) float64 {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0
	}
	if f, ok := parseNumber(s); ok {
		return f
	}
	switch s {
	case "Infinity", "+Infinity":
		return math.Inf(1)
	case "-Infinity":
		return math.Inf(-1)
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "_xXpPnN") {
		return f
	}
	return math.NaN()
}

// parseNumber reads a JavaScript numeric literal (0x, 0o, 0b, separators,
// a legacy leading 0 is read as decimal).
func parseNumber(s string) (float64, bool) {
	s = strings.ReplaceAll(s, "_", "")
	if len(s) > 2 && s[0] == '0' {
		base := 0
		switch s[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
		if base != 0 {
			n, err := strconv.ParseUint(s[2:], base, 64)
			return float64(n), err == nil
		}
	}
	if strings.ContainsAny(s, "xXpP_") || s == "" {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !strings.Contains(err.Error(), "range") {
		return 0, false
	}
	return f, true
}

// parseIntPrefix is Number.parseInt(String(v)): a decimal prefix, or a
// hexadecimal one after 0x.
func parseIntPrefix(s string) float64 {
	s = strings.TrimSpace(s)
	end := 0
	if end < len(s) && (s[end] == '-' || s[end] == '+') {
		end++
	}
	if rest := s[end:]; len(rest) > 2 && (rest[:2] == "0x" || rest[:2] == "0X") {
		digits := 0
		for digits < len(rest)-2 && strings.IndexByte("0123456789abcdefABCDEF", rest[2+digits]) >= 0 {
			digits++
		}
		if digits > 0 {
			f, _ := strconv.ParseUint(rest[2:2+digits], 16, 64)
			if s[0] == '-' {
				return -float64(f)
			}
			return float64(f)
		}
		return math.NaN()
	}
	start := end
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	if end == start {
		return math.NaN()
	}
	f, _ := strconv.ParseFloat(s[:end], 64)
	return f
}

// parseFloatPrefix is Number.parseFloat(String(v)).
func parseFloatPrefix(s string) float64 {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(strings.TrimLeft(s, "+-"), "Infinity") {
		if s[0] == '-' {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	best := math.NaN()
	for end := 1; end <= len(s) && end <= 64; end++ {
		if f, err := strconv.ParseFloat(s[:end], 64); err == nil && !strings.ContainsAny(s[:end], "_xXpPnNiI") {
			best = f
		}
	}
	return best
}
