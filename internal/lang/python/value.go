package python

import (
	"fmt"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// builtinNames are objects whose __name__ pytest uses as the ID.
var builtinNames = map[string]bool{"int": true, "str": true, "float": true, "bytes": true, "bool": true,
	"list": true, "dict": true, "set": true, "tuple": true, "frozenset": true, "object": true, "type": true,
	"complex": true, "bytearray": true, "len": true, "repr": true, "print": true, "sorted": true,
	"Exception": true, "ValueError": true, "TypeError": true, "KeyError": true, "IndexError": true,
	"RuntimeError": true, "AttributeError": true, "OSError": true, "ZeroDivisionError": true,
	"NotImplementedError": true, "StopIteration": true, "AssertionError": true, "ImportError": true}

// maxValueDepth bounds the nesting value follows: operators and names
// bound to other names (each name is evaluated once, then remembered).
const maxValueDepth = 100

// value evaluates a parameter value as pytest's _idval_from_value sees it.
func (w *evaluator) value(n *sitter.Node, depth int) pyVal {
	if depth > maxValueDepth || w.spent() {
		return pyVal{kind: vUnknown}
	}
	n = unparen(n)
	switch n.Type() {
	case "integer", "float":
		return numberValue(w.text(n))
	case "true":
		return pyVal{kind: vText, id: "True", scalar: true}
	case "false":
		return pyVal{kind: vText, id: "False", scalar: true}
	case "none":
		return pyVal{kind: vText, id: "None", scalar: true}
	case "string", "concatenated_string":
		if n.Type() == "string" && isFString(w.text(n)) && strings.Contains(w.text(n), "{") {
			v, _, ok := w.fString(n, "", pyVal{})
			if !ok {
				return pyVal{kind: vUnknown}
			}
			return v
		}
		return w.stringValue(n)
	case "unary_operator":
		arg := w.value(n.ChildByFieldName("argument"), depth+1)
		op := w.text(n.ChildByFieldName("operator"))
		switch {
		case op == "+" && arg.num != numNone:
			return arg
		case op == "-" && arg.num == numFloat:
			return floatVal(-arg.f) // -nan is nan
		case op == "-" && arg.num == numInt:
			arg.id = negate(arg.id)
			return arg
		}
	case "identifier":
		if _, local := w.locals[w.text(n)]; !local {
			if hs, in, unknown := w.classBinding(n); in {
				if unknown {
					return pyVal{kind: vUnknown}
				}
				if v, ok := w.identOver(hs, n, depth); ok {
					return v
				}
				return pyVal{kind: vUnknown}
			}
		}
		if _, local := w.locals[w.text(n)]; !local && w.bindings[w.text(n)] > 1 {
			if v, ok := w.identAt(n, depth); ok {
				return v
			}
		}
		return w.identValue(w.text(n), depth)
	case "conditional_expression":
		// body if condition else alternative
		if parts := children(n); len(parts) == 3 {
			if t, ok := w.truth(parts[1], depth+1); ok {
				if t {
					return w.value(parts[0], depth+1)
				}
				return w.value(parts[2], depth+1)
			}
		}
	case "lambda":
		return pyVal{kind: vText, id: "<lambda>"}
	case "subscript":
		return w.indexValue(n, depth)
	case "attribute":
		if a := n.ChildByFieldName("attribute"); a != nil && a.EndByte()-a.StartByte() == 8 && w.text(a) == "__name__" {
			// A class's, function's or module's __name__: the ID its value has.
			if v := w.value(n.ChildByFieldName("object"), depth+1); hasName(v) {
				return w.strVal(v.id, false)
			}
			return pyVal{kind: vUnknown}
		}
		if e, ok := w.instanceAttr(n, depth+1); ok {
			return w.elemValue(e, depth+1)
		}
		return w.attrValue(n)
	case "binary_operator":
		v := w.binaryValue(n, depth)
		if v.kind == vUnknown {
			if _, k := w.quantity(n, depth+1); k == qDelta {
				return pyVal{kind: vObject} // a timedelta: no __name__
			}
		}
		return v
	case "list", "tuple", "expression_list":
		return pyVal{kind: vObject, repr: w.seqRepr(n, depth)}
	case "dictionary", "set", "list_comprehension", "dictionary_comprehension",
		"set_comprehension", "generator_expression", "ellipsis":
		return pyVal{kind: vObject}
	case "call":
		if v, ok := w.callValue(n, depth); ok {
			return v
		}
		if v, ok := w.helperValue(n, depth); ok {
			return v
		}
		if v, ok := w.formatValue(n, depth); ok {
			return v
		}
		if v, ok := w.strftimeValue(n, depth); ok {
			return v
		}
		if w.temporalReplace(n, depth) {
			return pyVal{kind: vObject}
		}
		fn := w.text(n.ChildByFieldName("function"))
		last := fn[strings.LastIndex(fn, ".")+1:]
		if fn == "object" || fn == "dict" || fn == "list" || fn == "set" || fn == "frozenset" || fn == "tuple" || last == "partial" ||
			(isClassName(last) && !builtinNames[last]) {
			return pyVal{kind: vObject} // an instance: no __name__
		}
	}
	return pyVal{kind: vUnknown}
}

// maxEvals bounds the values and sequences one table's evaluation reads:
// a helper's variables are read where they are used, so v = (v, v) in a
// loop would double the work at each turn.
const maxEvals = 1 << 19

// spent counts one evaluation and reports the budget spent.
func (w *evaluator) spent() bool {
	w.evals++
	return w.evals > maxEvals
}

// stringValue evaluates a (concatenated) str or bytes literal into its
// escaped ID.
func (w *evaluator) stringValue(n *sitter.Node) pyVal {
	parts := []*sitter.Node{n}
	if n.Type() == "concatenated_string" {
		parts = children(n)
	}
	var b strings.Builder
	allBytes := false
	for i, p := range parts {
		s, isBytes, ok := decodeString(w.text(p))
		if !ok || (i > 0 && isBytes != allBytes) {
			return pyVal{kind: vUnknown}
		}
		allBytes = isBytes
		b.WriteString(s)
	}
	return w.strVal(b.String(), allBytes)
}

func negate(s string) string {
	if strings.HasPrefix(s, "-") {
		return s[1:]
	}
	if s == "0" {
		return s
	}
	return "-" + s
}

// isConstantName reports an ALL_CAPS name, by convention a constant whose
// value (not a __name__) would make the ID.
func isConstantName(s string) bool {
	return strings.ToUpper(s) == s
}

// isClassName reports a CamelCase name (after leading underscores), by convention a class: calling it
// makes an instance, whose ID is argname+index.
func isClassName(s string) bool {
	s = strings.TrimLeft(s, "_") // _Private classes too
	return s != "" && s[0] >= 'A' && s[0] <= 'Z' && !isConstantName(s)
}

// hasName reports a value whose ID is its __name__: a class, a function
// or a module (not a str, a number, an enum member, a pattern, an
// imported constant or an object).
func hasName(v pyVal) bool {
	return v.kind == vText && !v.str && !v.scalar && !v.deferred && !v.pattern && v.repr == ""
}

// indexValue evaluates seq[i] of a list, tuple or str the evaluator
// knows, i an integer literal (negative from the end).
func (w *evaluator) indexValue(n *sitter.Node, depth int) pyVal {
	e, ok := w.indexElem(n, depth)
	if !ok {
		return pyVal{kind: vUnknown}
	}
	return w.elemValue(e, depth+1)
}

// indexElem is the element seq[i] names (indexValue).
func (w *evaluator) indexElem(n *sitter.Node, depth int) (elem, bool) {
	obj, idx := n.ChildByFieldName("value"), n.ChildByFieldName("subscript")
	if obj == nil || idx == nil || n.NamedChildCount() != 2 || idx.Type() == "slice" || w.isIterator(obj, 0) {
		return elem{}, false
	}
	iv := w.value(idx, depth+1)
	i, err := strconv.Atoi(iv.id)
	if iv.num != numInt || err != nil {
		return elem{}, false
	}
	items, kind, ok := w.sequence(obj, depth+1)
	if !ok || kind == seqOther && unparen(obj).Type() != "string" {
		return elem{}, false
	}
	if i < 0 {
		i += len(items)
	}
	if i < 0 || i >= len(items) {
		return elem{}, false
	}
	return items[i], true
}

// strftimeValue evaluates datetime.date(...).strftime(fmt) and
// datetime.datetime(...).strftime(fmt) of integer literals, the format a
// str literal of %Y (years 1000 to 9999), %y, %m, %d, %H, %M, %S and
// %%, which every C library writes alike.
func (w *evaluator) strftimeValue(n *sitter.Node, depth int) (pyVal, bool) {
	fn := n.ChildByFieldName("function")
	args := children(n.ChildByFieldName("arguments"))
	if fn.Type() != "attribute" || w.text(fn.ChildByFieldName("attribute")) != "strftime" || len(args) != 1 {
		return pyVal{}, false
	}
	call := unparen(fn.ChildByFieldName("object"))
	if call.Type() != "call" {
		return pyVal{}, false
	}
	cls := w.resolve(w.text(call.ChildByFieldName("function")))
	if cls != "datetime.date" && cls != "datetime.datetime" || inLocals(w.locals, w.text(call.ChildByFieldName("function"))) {
		return pyVal{}, false
	}
	var f [6]int // year, month, day, hour, minute, second
	parts := children(call.ChildByFieldName("arguments"))
	if len(parts) < 3 || len(parts) > 6 || cls == "datetime.date" && len(parts) != 3 {
		return pyVal{kind: vUnknown}, true
	}
	for i, a := range parts {
		v, err := strconv.Atoi(w.text(a))
		if a.Type() != "integer" || err != nil {
			return pyVal{kind: vUnknown}, true
		}
		f[i] = v
	}
	if !validDate(f) {
		return pyVal{kind: vUnknown}, true // Python raises
	}
	format := w.value(args[0], depth+1)
	if !format.isStr() {
		return pyVal{kind: vUnknown}, true
	}
	out, ok := strftime(format.raw, f)
	if !ok {
		return pyVal{kind: vUnknown}, true
	}
	return w.strVal(out, false), true
}

// validDate reports a date and time Python's constructors accept, with a
// four-digit year.
func validDate(f [6]int) bool {
	days := [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
	y, m := f[0], f[1]
	if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		days[2] = 29
	}
	return y >= 1000 && y <= 9999 && m >= 1 && m <= 12 && f[2] >= 1 && f[2] <= days[m] &&
		f[3] >= 0 && f[3] < 24 && f[4] >= 0 && f[4] < 60 && f[5] >= 0 && f[5] < 60
}

// strftime formats the fields with the directives strftimeValue knows.
func strftime(format string, f [6]int) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			b.WriteByte(format[i])
			continue
		}
		if i++; i == len(format) {
			return "", false
		}
		switch format[i] {
		case 'Y':
			b.WriteString(strconv.Itoa(f[0]))
		case 'y':
			fmt.Fprintf(&b, "%02d", f[0]%100)
		case 'm', 'd', 'H', 'M', 'S':
			fmt.Fprintf(&b, "%02d", f[strings.IndexByte("mdHMS", format[i])+1])
		case '%':
			b.WriteByte('%')
		default:
			return "", false
		}
	}
	return b.String(), true
}
