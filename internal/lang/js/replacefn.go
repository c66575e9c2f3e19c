package js

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
)

// s.replace(pattern, replacement) and replaceAll beyond the literal
// patterns builtins.go reads: a regular expression of the subset
// regexTest knows (its match, not only whether there is one, is the same
// in Go's engine: leftmost-first, as a backtracking search finds it), and
// a replacement function written in the call, called as JavaScript calls
// it, with the match, the groups (undefined where a group took no part),
// the offset in UTF-16 code units and the subject (pathe's
// input.replace(/^[A-Za-z]:\//, (r) => r.toUpperCase())). A global
// pattern that can match the empty string is refused: after an empty
// match the engines step on differently.

// replaceCall evaluates o.replace(...) or o.replaceAll(...) of a string o
// with argument nodes nodes and their values argv; ok is false where it
// is not decided.
func (w *evaluator) replaceCall(o value, all bool, nodes []*sitter.Node, argv []value, depth int) (value, bool) {
	if o.kind != kString || len(nodes) != 2 || len(argv) != 2 {
		return value{}, false
	}
	var repl func(m string, groups []value, offset int) (string, bool)
	switch fn := nodes[1]; {
	case isFunction(fn.Type()) && fn.Type() != "generator_function":
		repl = func(m string, groups []value, offset int) (string, bool) {
			args := append(append([]value{str(m)}, groups...), value{kind: kNumber, num: float64(offset)}, o)
			return toStr(w.callFunction(fn, args, depth+1))
		}
	case argv[1].kind == kString && !strings.Contains(argv[1].str, "$"):
		repl = func(string, []value, int) (string, bool) { return argv[1].str, true }
	default:
		return value{}, false
	}
	var s string
	var ok bool
	switch p := argv[0]; {
	case p.re != nil:
		s, ok = regexReplace(p.re, o.str, all, repl)
	case p.kind == kString && isFunction(nodes[1].Type()):
		s, ok = stringReplace(p.str, o.str, all, repl)
	}
	if !ok {
		return value{}, false
	}
	return str(s), true
}

// stringReplace replaces the first occurrence of a string pattern in s,
// or each one (all), left to right, with what repl gives.
func stringReplace(pattern, s string, all bool, repl func(string, []value, int) (string, bool)) (string, bool) {
	if pattern == "" || !bmpOnly(s) {
		return "", false // an empty pattern matches between code units
	}
	var b strings.Builder
	at := 0
	for {
		i := strings.Index(s[at:], pattern)
		if i < 0 {
			break
		}
		r, ok := repl(pattern, nil, utf16Len(s[:at+i]))
		if !ok {
			return "", false
		}
		b.WriteString(s[at : at+i])
		b.WriteString(r)
		at += i + len(pattern)
		if !all {
			break
		}
	}
	b.WriteString(s[at:])
	return b.String(), true
}

// regexReplace replaces re's first match in s, or each (the global flag),
// with what repl gives.
func regexReplace(re *regexLit, s string, all bool, repl func(string, []value, int) (string, bool)) (string, bool) {
	flags := re.flags
	global := strings.Contains(flags, "g")
	flags = strings.Replace(flags, "g", "", 1)
	if all && !global {
		return "", false // replaceAll with a pattern that is not global throws
	}
	c, ok := compileJS(&regexLit{pattern: re.pattern, flags: flags}, s)
	if !ok || global && nullable(c) || repeatedCapture(c.parsed, false) {
		return "", false // a group in a loop: JavaScript clears it at each pass, Go keeps the last
	}
	var locs [][]int
	if global {
		locs = c.re.FindAllStringSubmatchIndex(s, -1)
	} else if loc := c.re.FindStringSubmatchIndex(s); loc != nil {
		locs = [][]int{loc}
	}
	var b strings.Builder
	at := 0
	for _, loc := range locs {
		var groups []value
		for g := 1; 2*g < len(loc); g++ {
			if loc[2*g] < 0 {
				groups = append(groups, value{kind: kUndefined})
			} else {
				groups = append(groups, str(s[loc[2*g]:loc[2*g+1]]))
			}
		}
		r, ok := repl(s[loc[0]:loc[1]], groups, utf16Len(s[:loc[0]]))
		if !ok {
			return "", false
		}
		b.WriteString(s[at:loc[0]])
		b.WriteString(r)
		at = loc[1]
	}
	b.WriteString(s[at:])
	return b.String(), true
}

// compiledJS is a JavaScript regular expression as Go's engine runs it,
// with its parsed form.
type compiledJS struct {
	re     *regexp.Regexp
	parsed *syntax.Regexp
}

// compileJS compiles re for the subject s where regexTest would decide
// a match; ok is false elsewhere.
func compileJS(re *regexLit, s string) (compiledJS, bool) {
	if !bmpOnly(s) {
		return compiledJS{}, false
	}
	prefix := ""
	switch re.flags {
	case "":
	case "i":
		if !isASCII(s) || !isASCII(re.pattern) {
			return compiledJS{}, false
		}
		prefix = "(?i)"
	default:
		return compiledJS{}, false
	}
	p, ok := goPattern(re.pattern, isASCII(s))
	if !ok {
		return compiledJS{}, false
	}
	c, err := regexp.Compile(prefix + p)
	if err != nil {
		return compiledJS{}, false
	}
	parsed, err := syntax.Parse(prefix+p, syntax.Perl)
	if err != nil {
		return compiledJS{}, false
	}
	return compiledJS{re: c, parsed: parsed}, true
}

// bmpOnly reports whether s has only characters of the Basic
// Multilingual Plane and none of the line ends the engines count
// differently (see regexTest).
func bmpOnly(s string) bool {
	for _, r := range s {
		if r > 0xffff || r == '\r' || r == '\u2028' || r == '\u2029' || r == utf8.RuneError {
			return false
		}
	}
	return true
}

// utf16Len is the length of s in UTF-16 code units, for a string of the
// Basic Multilingual Plane: its characters.
func utf16Len(s string) int { return utf8.RuneCountInString(s) }

// nullable reports whether c may match the empty string somewhere.
func nullable(c compiledJS) bool { return mayBeEmpty(c.parsed) }

func mayBeEmpty(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune) == 0
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL, syntax.OpNoMatch:
		return false
	case syntax.OpCapture:
		return mayBeEmpty(re.Sub[0])
	case syntax.OpPlus:
		return mayBeEmpty(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min == 0 || mayBeEmpty(re.Sub[0])
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if !mayBeEmpty(s) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			if mayBeEmpty(s) {
				return true
			}
		}
		return false
	}
	return true // empty match, assertions, star, quest
}

// repeatedCapture reports whether re has a group inside a quantifier.
func repeatedCapture(re *syntax.Regexp, inLoop bool) bool {
	switch re.Op {
	case syntax.OpCapture:
		if inLoop {
			return true
		}
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		inLoop = true
	}
	for _, s := range re.Sub {
		if repeatedCapture(s, inLoop) {
			return true
		}
	}
	return false
}
