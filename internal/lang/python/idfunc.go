package python

import (
	"regexp"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// idFunc reads an ids= callable pytest calls on each value: the builtins
// str and repr, or a lambda of one parameter whose body is a literal string, None,
// the parameter, str(parameter), an f-string whose only fields are
// {parameter}, or a + of those. Anything else (a named function, an
// attribute, a lambda doing more) gives nil: the table is dynamic.
func (w *evaluator) idFunc(n *sitter.Node) idFunc {
	if n.Type() == "identifier" && w.text(n) == "str" && w.facts.Imports["str"] == "" && !w.defined["str"] {
		return func(v pyVal) (pyVal, bool, bool) {
			out, ok := w.strOf(v)
			return out, false, ok
		}
	}
	if n.Type() == "identifier" && w.text(n) == "repr" && w.facts.Imports["repr"] == "" && !w.defined["repr"] {
		return func(v pyVal) (pyVal, bool, bool) {
			r := reprOf(v)
			return w.strVal(r, false), false, r != ""
		}
	}
	if n.Type() != "lambda" {
		return nil
	}
	ps := n.ChildByFieldName("parameters")
	body := n.ChildByFieldName("body")
	if ps == nil || body == nil || ps.NamedChildCount() != 1 || ps.NamedChild(0).Type() != "identifier" {
		return nil
	}
	param := w.text(ps.NamedChild(0))
	if !w.lambdaBodyOK(body, param, 0) {
		return nil
	}
	return func(v pyVal) (pyVal, bool, bool) {
		return w.evalLambda(body, param, v, 0)
	}
}

// lambdaBodyOK reports whether evalLambda knows every part of a body.
func (w *evaluator) lambdaBodyOK(n *sitter.Node, param string, depth int) bool {
	n = unparen(n)
	if depth > 10 {
		return false
	}
	switch n.Type() {
	case "none", "string", "concatenated_string":
		return true
	case "identifier":
		return w.text(n) == param
	case "call":
		return w.strCallArg(n, param)
	case "binary_operator":
		return w.text(n.ChildByFieldName("operator")) == "+" &&
			w.lambdaBodyOK(n.ChildByFieldName("left"), param, depth+1) &&
			w.lambdaBodyOK(n.ChildByFieldName("right"), param, depth+1)
	}
	return false
}

// strCallArg reports a call str(param).
func (w *evaluator) strCallArg(n *sitter.Node, param string) bool {
	args := children(n.ChildByFieldName("arguments"))
	return w.text(n.ChildByFieldName("function")) == "str" && w.facts.Imports["str"] == "" &&
		len(args) == 1 && args[0].Type() == "identifier" && w.text(args[0]) == param
}

// evalLambda evaluates a lambda body for one value v of its parameter.
func (w *evaluator) evalLambda(n *sitter.Node, param string, v pyVal, depth int) (out pyVal, fallback, ok bool) {
	n = unparen(n)
	switch n.Type() {
	case "none":
		return pyVal{}, true, true
	case "identifier":
		if v.kind == vObject {
			return pyVal{}, true, true // no ID from the value: argname+index
		}
		return v, false, v.kind == vText
	case "call":
		out, ok := w.strOf(v)
		return out, false, ok
	case "string", "concatenated_string":
		if isFString(w.text(n)) {
			return w.fString(n, param, v)
		}
		out := w.stringValue(n)
		return out, false, out.kind == vText
	case "binary_operator":
		l, lf, lok := w.evalLambda(n.ChildByFieldName("left"), param, v, depth+1)
		r, rf, rok := w.evalLambda(n.ChildByFieldName("right"), param, v, depth+1)
		if !lok || !rok || lf || rf || !l.isStr() || !r.isStr() {
			return pyVal{}, false, false
		}
		return w.strVal(l.raw+r.raw, false), false, true
	}
	return pyVal{}, false, false
}

// isFString reports an f-string literal (its prefix holds f).
func isFString(src string) bool {
	i := strings.IndexAny(src, `'"`)
	return i > 0 && strings.ContainsAny(src[:i], "fF")
}

// fieldName is a replacement field that names a variable: {name}, with
// no conversion, format spec or expression.
var fieldName = regexp.MustCompile(`\{([A-Za-z_][A-Za-z_0-9]*)\}`)

// fString evaluates an f-string whose replacement fields are all plain
// names: param (whose value is v) or module-level names with known str,
// int, float, bool or None values.
func (w *evaluator) fString(n *sitter.Node, param string, v pyVal) (pyVal, bool, bool) {
	src := w.text(n)
	if n.Type() != "string" || strings.Contains(src, "{{") || strings.Contains(src, "}}") || strings.ContainsRune(src, 0) {
		return pyVal{}, false, false
	}
	i := strings.IndexAny(src, `'"`)
	prefix := strings.NewReplacer("f", "", "F", "").Replace(src[:i])
	var vals []string
	ok := true
	body := fieldName.ReplaceAllStringFunc(src[i:], func(f string) string {
		name := f[1 : len(f)-1]
		fv := v
		if name != param || param == "" {
			fv = w.identValue(name, 1)
		}
		s, known := w.strOf(fv)
		ok = ok && known
		vals = append(vals, s.raw)
		return "\x00"
	})
	if !ok || strings.ContainsAny(body, "{}") {
		return pyVal{}, false, false
	}
	lit, isBytes, decoded := decodeString(prefix + body)
	if !decoded || isBytes || strings.Count(lit, "\x00") != len(vals) {
		return pyVal{}, false, false
	}
	var b strings.Builder
	for j, part := range strings.Split(lit, "\x00") {
		if j > 0 {
			b.WriteString(vals[j-1])
		}
		b.WriteString(part)
	}
	return w.strVal(b.String(), false), false, true
}

// strOf is str(v): a str itself, the text of a number, bool or None,
// the repr() of a list or tuple of those. Others (bytes, classes,
// functions, objects) print a repr not known here.
func (w *evaluator) strOf(v pyVal) (pyVal, bool) {
	switch {
	case v.isStr():
		return v, true
	case v.kind == vText && v.scalar:
		return w.strVal(v.id, false), true
	case v.kind == vObject && v.repr != "":
		return w.strVal(v.repr, false), true // str() of a list is its repr()
	}
	return pyVal{}, false
}
