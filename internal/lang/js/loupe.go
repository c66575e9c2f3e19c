package js

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
)

// loupe is the inspect of loupe 3 (what Vitest's %o, %O, %s of an object
// and $variables print) for a literal, with options.truncate t: strings
// in single quotes, 0 as +0, lists cut with …(n) once they would pass t.
// Each nested call gets its own copy of the options, as loupe's inspect
// does; a property's key is charged to the list's own copy.
func loupe(v value, t int) string {
	if v.kind == kUnknown && v.fn && v.fname != "" { // loupe's inspectFunction
		return "[Function " + truncateJS(v.fname, t-11) + "]"
	}
	if !v.printable() {
		panic(errUnknown{})
	}
	switch v.kind {
	case kString:
		return "'" + truncateJS(loupeEscape(v.str), t-2) + "'"
	case kNumber:
		switch {
		case v.num == 0 && math.Signbit(v.num):
			return "-0"
		case v.num == 0:
			return "+0"
		case math.IsNaN(v.num) || math.IsInf(v.num, 0):
			return numString(v.num)
		}
		return truncateJS(numString(v.num), t)
	case kBigInt:
		s := truncateJS(v.str, t-1)
		if s != truncator {
			s += "n"
		}
		return s
	case kArray:
		if len(v.arr) == 0 {
			return "[]"
		}
		return "[ " + loupeList(len(v.arr), t-4, func(i int, opts *int) string { return loupe(v.arr[i], *opts) }) + " ]"
	case kObject:
		keys, vals := ownKeys(v)
		if len(keys) == 0 {
			return "{}"
		}
		return "{ " + loupeList(len(keys), t-4, func(i int, opts *int) string {
			*opts -= 2
			k := quoteComplexKey(keys[i])
			*opts -= len16(k)
			return k + ": " + loupe(vals[i], *opts)
		}) + " }"
	}
	return v.jsString() // booleans, null, undefined
}

// loupeInf stands for loupe's default truncate, Infinity.
const loupeInf = 1 << 40

const truncator = "…"

// loupeList is loupe's inspectList: items joined by ", " until the next
// would pass the length, then …(the number left). item renders the i-th
// with the list's options.truncate, which it may lower (a property's key
// is charged there before the peek at the next item, as in loupe).
func loupeList(n, original int, item func(i int, opts *int) string) string {
	var output, peek, truncated string
	opts := original
	render := func(i int) string { return item(i, &opts) }
	for i := 0; i < n; i++ {
		last, secondToLast := i+1 == n, i+2 == n
		truncated = truncator + "(" + strconv.Itoa(n-i) + ")"
		sep := 2
		if last {
			sep = 0
		}
		opts = original - len16(output) - sep
		s := peek
		if s == "" {
			s = render(i) + ", "[:sep]
		}
		next := len16(output) + len16(s)
		truncatedLength := next + len16(truncated)
		if last && next > original && len16(output)+len16(truncated) <= original {
			break
		}
		if !last && !secondToLast && truncatedLength > original {
			break
		}
		peek = ""
		if !last {
			peek = render(i + 1)
			if !secondToLast {
				peek += ", "
			}
		}
		if !last && secondToLast && truncatedLength > original && next+len16(peek) > original {
			break
		}
		output += s
		if !last && !secondToLast && next+len16(peek) >= original {
			truncated = truncator + "(" + strconv.Itoa(n-i-1) + ")"
			break
		}
		truncated = ""
	}
	return output + truncated
}

// len16 is a string's JavaScript length, in UTF-16 code units.
func len16(s string) int { return len(utf16.Encode([]rune(s))) }

// truncateJS is loupe's truncate: s cut to length code units, the last
// being …, not splitting a surrogate pair.
func truncateJS(s string, length int) string {
	u := utf16.Encode([]rune(s))
	if 1 > length && len(u) > 1 {
		return truncator
	}
	if len(u) > length && len(u) > 1 {
		end := length - 1
		if end > 0 && u[end-1] >= 0xd800 && u[end-1] <= 0xdbff {
			end--
		}
		return string(utf16.Decode(u[:end])) + truncator
	}
	return s
}

// loupeEscapeRE is loupe's stringEscapeChars: the quote and control and
// invisible characters, not the backslash.
var loupeEscapeRE = regexp.MustCompile("['\u0000-\u001f\u007f-\u009f\u00ad\u0600-\u0604\u070f\u17b4\u17b5\u200c-\u200f\u2028-\u202f\u2060-\u206f\ufeff\ufff0-\uffff]")

func loupeEscape(s string) string {
	return loupeEscapeRE.ReplaceAllStringFunc(s, func(c string) string {
		switch c {
		case "\b":
			return `\b`
		case "\t":
			return `\t`
		case "\n":
			return `\n`
		case "\f":
			return `\f`
		case "\r":
			return `\r`
		case "'":
			return `\'`
		}
		r := []rune(c)[0]
		return `\u` + strings.Repeat("0", 4-len(strconv.FormatInt(int64(r), 16))) + strconv.FormatInt(int64(r), 16)
	})
}

// loupeKeyRE is the key loupe prints without quotes.
var loupeKeyRE = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z_0-9]*$`)

// quoteComplexKey is loupe's: other keys as JSON strings in single quotes.
func quoteComplexKey(k string) string {
	if loupeKeyRE.MatchString(k) {
		return k
	}
	j := jsonString(str(k))
	j = strings.ReplaceAll(j, "'", `\'`)
	j = strings.ReplaceAll(j, `\"`, `"`)
	return "'" + j[1:len(j)-1] + "'"
}
