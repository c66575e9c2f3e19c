package python

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	sitter "github.com/smacker/go-tree-sitter"
)

// builtinAliases are builtins whose __name__ is another name's.
var builtinAliases = map[string]string{"IOError": "OSError", "EnvironmentError": "OSError"}

func init() {
	for _, n := range strings.Fields(`abs all any ascii bin callable chr divmod enumerate filter format hash hex id
		isinstance issubclass iter map max min next oct ord pow range reversed round sum zip memoryview slice
		ArithmeticError BaseException BlockingIOError BrokenPipeError BufferError BytesWarning ChildProcessError
		ConnectionAbortedError ConnectionError ConnectionRefusedError ConnectionResetError DeprecationWarning
		EOFError FileExistsError FileNotFoundError FloatingPointError FutureWarning GeneratorExit ImportWarning
		IndentationError InterruptedError IsADirectoryError KeyboardInterrupt LookupError MemoryError
		ModuleNotFoundError NameError NotADirectoryError OverflowError PendingDeprecationWarning PermissionError
		ProcessLookupError RecursionError ReferenceError ResourceWarning RuntimeWarning StopAsyncIteration
		SyntaxError SyntaxWarning SystemError SystemExit TabError TimeoutError UnboundLocalError
		UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError UnicodeWarning UserWarning
		Warning`) {
		builtinNames[n] = true
	}
}

// mathConstants are the float constants of math, by dotted name.
var mathConstants = map[string]float64{"math.inf": math.Inf(1), "math.nan": math.NaN(), "math.pi": math.Pi,
	"math.e": math.E, "math.tau": 2 * math.Pi}

// stdClasses are standard-library classes whose instances have no
// __name__: pytest names them argname+index.
var stdClasses = map[string]bool{"datetime.date": true, "datetime.datetime": true, "datetime.time": true,
	"datetime.timedelta": true, "datetime.timezone": true, "decimal.Decimal": true, "fractions.Fraction": true,
	"pathlib.Path": true, "pathlib.PurePath": true, "pathlib.PurePosixPath": true, "pathlib.PureWindowsPath": true,
	"pathlib.PosixPath": true, "pathlib.WindowsPath": true, "uuid.UUID": true, "collections.OrderedDict": true,
	"collections.deque": true, "collections.Counter": true, "collections.defaultdict": true,
	"datetime.datetime.now": true, "datetime.datetime.today": true, "datetime.datetime.utcnow": true,
	"datetime.date.today": true, "datetime.datetime.fromisoformat": true, "datetime.date.fromisoformat": true,
	"datetime.datetime.fromtimestamp": true}

// floatText is what float() accepts from a str literal, kept simple.
var floatText = regexp.MustCompile(`(?i)^\s*[+-]?(\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?|inf|infinity|nan)\s*$`)

// callValue evaluates a call pytest's ID can be known from: float() of
// a literal, an instance of a standard-library class, re.compile and a
// str literal's lower() or upper() (ASCII only, where Go and Python agree).
func (w *evaluator) callValue(n *sitter.Node, depth int) (pyVal, bool) {
	fn := n.ChildByFieldName("function")
	args := children(n.ChildByFieldName("arguments"))
	name := w.resolve(w.text(fn))
	switch {
	case name == "re.compile":
		return w.patternValue(n), true
	case name == "re.escape" && len(args) == 1:
		v := w.value(args[0], depth+1)
		if !v.isStr() {
			return pyVal{kind: vUnknown}, true
		}
		return w.strVal(reEscape(v.raw), false), true
	case stdClasses[name]:
		return pyVal{kind: vObject}, true
	case classFactories[name] || name == "type" && w.bindings["type"] == 0 && len(args) == 3:
		// A class made by name: its __name__ is the name given.
		if len(args) == 0 || args[0].Type() == "keyword_argument" {
			return pyVal{kind: vUnknown}, true
		}
		v := w.value(args[0], depth+1)
		if !v.isStr() {
			return pyVal{kind: vUnknown}, true
		}
		return pyVal{kind: vText, id: v.raw}, true
	case name == "chr" && w.bindings["chr"] == 0 && !inLocals(w.locals, "chr") && len(args) == 1:
		// chr(i): the one code point (a lone surrogate too).
		v := w.value(args[0], depth+1)
		i, err := strconv.Atoi(v.id)
		if v.num != numInt || err != nil || i < 0 || i > 0x10ffff {
			return pyVal{kind: vUnknown}, true
		}
		var b strings.Builder
		writeCodePoint(&b, rune(i))
		return w.strVal(b.String(), false), true
	case name == "str" && w.bindings["str"] == 0 && !inLocals(w.locals, "str") && len(args) == 1 && args[0].Type() == "call":
		// str(pathlib.Path("a//b/./c")): the path as this host (POSIX)
		// writes it.
		inner := args[0]
		parts := children(inner.ChildByFieldName("arguments"))
		if !posixPaths[w.resolve(w.text(inner.ChildByFieldName("function")))] || len(parts) != 1 {
			return pyVal{}, false
		}
		v := w.value(parts[0], depth+1)
		if !v.isStr() || strings.ContainsRune(v.raw, 0) {
			return pyVal{kind: vUnknown}, true
		}
		return w.strVal(posixPath(v.raw), false), true
	case name == "textwrap.dedent" && len(args) == 1:
		v := w.value(args[0], depth+1)
		if !v.isStr() {
			return pyVal{kind: vUnknown}, true
		}
		if strings.IndexFunc(v.raw, func(r rune) bool { return r != ' ' && r != '\t' && r != '\n' && unicode.IsSpace(r) }) >= 0 {
			return pyVal{kind: vUnknown}, true // other whitespace: Pythons differ on it
		}
		return w.strVal(dedent(v.raw), false), true
	case cmpUsing[name]:
		// attrs' cmp_using(..., class_name="X"): a class named X
		// ("Comparable" by default).
		id, positional := "Comparable", 0
		for _, a := range args {
			switch a.Type() {
			case "list_splat", "dictionary_splat", "parenthesized_list_splat":
				return pyVal{kind: vUnknown}, true
			case "keyword_argument":
			default:
				if positional++; positional > 6 {
					return pyVal{kind: vUnknown}, true // class_name given by position
				}
			}
			if a.Type() != "keyword_argument" || w.text(a.ChildByFieldName("name")) != "class_name" {
				continue
			}
			v := w.value(a.ChildByFieldName("value"), depth+1)
			if !v.isStr() {
				return pyVal{kind: vUnknown}, true
			}
			id = v.raw
		}
		return pyVal{kind: vText, id: id}, true
	case name == "float" && w.bindings["float"] == 0 && len(args) == 1:
		v := w.value(args[0], depth+1)
		switch {
		case v.isStr() && floatText.MatchString(v.raw):
			f, err := strconv.ParseFloat(strings.TrimSpace(strings.ToLower(v.raw)), 64)
			if err == nil || math.IsInf(f, 0) {
				return floatVal(f), true
			}
		case v.scalar && args[0].Type() == "integer":
			if f, err := strconv.ParseFloat(v.id, 64); err == nil {
				return floatVal(f), true
			}
		}
		return pyVal{kind: vUnknown}, true
	case fn.Type() == "attribute" && len(args) == 0:
		attr := w.text(fn.ChildByFieldName("attribute"))
		if attr != "lower" && attr != "upper" {
			return pyVal{}, false
		}
		v := w.value(fn.ChildByFieldName("object"), depth+1)
		if !v.isStr() || !isASCII(v.raw) {
			return pyVal{kind: vUnknown}, true
		}
		if attr == "lower" {
			return w.strVal(strings.ToLower(v.raw), false), true
		}
		return w.strVal(strings.ToUpper(v.raw), false), true
	}
	return pyVal{}, false
}

// classFactories are library functions that return a new class whose
// __name__ is their first argument.
var classFactories = map[string]bool{"collections.namedtuple": true, "dataclasses.make_dataclass": true,
	"types.new_class": true, "attr.make_class": true, "attrs.make_class": true, "typing.NamedTuple": true,
	"typing.TypedDict": true}

// cmpUsing is attrs' cmp_using, which makes a class named by its
// class_name argument.
var cmpUsing = map[string]bool{"attr.cmp_using": true, "attrs.cmp_using": true, "attr._cmp.cmp_using": true}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// floatVal is a float value: str() is repr().
func floatVal(f float64) pyVal {
	return pyVal{kind: vText, id: floatRepr(f), scalar: true, num: numFloat, f: f}
}

// numKind tells an int from a float value for arithmetic.
type numKind int

const (
	numNone numKind = iota
	numInt
	numFloat
)

// number reads a value as a Python int or float, for arithmetic.
func number(v pyVal) (i *big.Int, f float64, kind numKind) {
	if v.kind != vText || !v.scalar {
		return nil, 0, numNone
	}
	if v.num == numFloat {
		return nil, v.f, numFloat
	}
	if n, ok := new(big.Int).SetString(v.id, 10); ok {
		return n, 0, numInt
	}
	return nil, 0, numNone
}

// maxIntBits bounds the integers arithmetic builds (10**1000 is fine).
const maxIntBits = 4096

// arith evaluates + - * / // % ** on int and float values as Python does,
// when the result is certain: floats in IEEE double like CPython, ints
// exact; division by zero and huge powers are left unknown.
func arith(op string, l, r pyVal) pyVal {
	li, lf, lk := number(l)
	ri, rf, rk := number(r)
	if lk == numNone || rk == numNone {
		return pyVal{kind: vUnknown}
	}
	if lk == numInt && rk == numInt && op != "/" {
		return intArith(op, li, ri)
	}
	if lk == numInt {
		if li.BitLen() > 53 {
			return pyVal{kind: vUnknown}
		}
		lf, _ = new(big.Float).SetInt(li).Float64()
	}
	if rk == numInt {
		if ri.BitLen() > 53 {
			return pyVal{kind: vUnknown}
		}
		rf, _ = new(big.Float).SetInt(ri).Float64()
	}
	switch op {
	case "+":
		return floatVal(lf + rf)
	case "-":
		return floatVal(lf - rf)
	case "*":
		return floatVal(lf * rf)
	case "/":
		if rf != 0 {
			return floatVal(lf / rf)
		}
	}
	return pyVal{kind: vUnknown}
}

func intArith(op string, l, r *big.Int) pyVal {
	out := new(big.Int)
	switch op {
	case "+":
		out.Add(l, r)
	case "-":
		out.Sub(l, r)
	case "*":
		out.Mul(l, r)
	case "//", "%":
		if r.Sign() == 0 {
			return pyVal{kind: vUnknown}
		}
		// Python floors; big.Int's DivMod is Euclidean (they differ for
		// a negative divisor).
		q, m := new(big.Int).DivMod(l, r, new(big.Int))
		if m.Sign() != 0 && r.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
			m.Add(m, r)
		}
		if op == "//" {
			out = q
		} else {
			out = m
		}
	case "**":
		if r.Sign() < 0 || !r.IsInt64() || r.Int64() > maxIntBits || int64(l.BitLen())*r.Int64() > maxIntBits {
			return pyVal{kind: vUnknown}
		}
		out.Exp(l, r, nil)
	default:
		return pyVal{kind: vUnknown}
	}
	if out.BitLen() > maxIntBits {
		return pyVal{kind: vUnknown}
	}
	return pyVal{kind: vText, id: out.String(), scalar: true, num: numInt}
}

// reEscape is re.escape of a str (Python 3.7 and later): a backslash
// before each of ()[]{}?*+-|^$\.&~# and the whitespace \t\n\r\v\f.
func reEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 128 && strings.ContainsRune("()[]{}?*+-|^$\\.&~# \t\n\r\v\f", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// dedent is textwrap.dedent: lines of spaces and tabs only become
// empty, then the longest leading run of spaces and tabs common to the
// other lines (compared character by character) is removed from each.
func dedent(text string) string {
	lines := strings.SplitAfter(text, "\n")
	margin, set := "", false
	for i, l := range lines {
		body := strings.TrimRight(l, "\n")
		if strings.Trim(body, " \t") == "" {
			lines[i] = l[len(body):] // whitespace only: emptied
			continue
		}
		indent := body[:len(body)-len(strings.TrimLeft(body, " \t"))]
		switch {
		case !set:
			margin, set = indent, true
		case strings.HasPrefix(indent, margin):
		case strings.HasPrefix(margin, indent):
			margin = indent
		default:
			n := 0
			for n < len(margin) && n < len(indent) && margin[n] == indent[n] {
				n++
			}
			margin = margin[:n]
		}
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(strings.TrimPrefix(l, margin))
	}
	return b.String()
}

// posixPaths are the pathlib classes whose str() is a POSIX path on
// this host.
var posixPaths = map[string]bool{"pathlib.Path": true, "pathlib.PurePath": true, "pathlib.PosixPath": true,
	"pathlib.PurePosixPath": true}

// posixPath is str() of PurePosixPath(p): empty and "." parts dropped,
// "//" kept as the root when exactly two slashes start it, "." for
// nothing.
func posixPath(p string) string {
	root := ""
	switch {
	case strings.HasPrefix(p, "//") && !strings.HasPrefix(p, "///"):
		root = "//"
	case strings.HasPrefix(p, "/"):
		root = "/"
	}
	var kept []string
	for _, part := range strings.Split(p, "/") {
		if part != "" && part != "." {
			kept = append(kept, part)
		}
	}
	if out := root + strings.Join(kept, "/"); out != "" {
		return out
	}
	return "."
}
