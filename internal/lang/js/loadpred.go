package js

import (
	"path"
	"regexp"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// pred is a condition on the name of a folder entry, read from the
// source of a readdirSync loop (its .filter callbacks, the if statements
// around the require, the early returns before it) so that the linker can
// apply it to the entries it reads. Op is one of and, or, not (over
// Args), ext (path.extname(name) === Arg), suffix, prefix, contains, eq
// and re (a regular expression, (?i) for the i flag).
type pred struct {
	Op   string  `json:"op"`
	Arg  string  `json:"arg,omitempty"`
	Args []*pred `json:"args,omitempty"`
}

// match applies p to a name; a nil pred matches every name.
func (p *pred) match(name string) bool {
	if p == nil {
		return true
	}
	switch p.Op {
	case "and":
		for _, a := range p.Args {
			if !a.match(name) {
				return false
			}
		}
		return true
	case "or":
		for _, a := range p.Args {
			if a.match(name) {
				return true
			}
		}
		return false
	case "not":
		return len(p.Args) == 1 && !p.Args[0].match(name)
	case "ext":
		return extname(name) == p.Arg
	case "suffix":
		return strings.HasSuffix(name, p.Arg)
	case "prefix":
		return strings.HasPrefix(name, p.Arg)
	case "contains":
		return strings.Contains(name, p.Arg)
	case "eq":
		return name == p.Arg
	case "re":
		re, err := regexp.Compile(p.Arg)
		return err == nil && re.MatchString(name)
	}
	return false
}

// extname is node's path.extname: "" for a name whose only dot leads it.
func extname(name string) string {
	ext := path.Ext(name)
	if ext == name {
		return ""
	}
	return ext
}

func and(ps ...*pred) *pred {
	var args []*pred
	for _, p := range ps {
		if p != nil {
			args = append(args, p)
		}
	}
	switch len(args) {
	case 0:
		return nil
	case 1:
		return args[0]
	}
	return &pred{Op: "and", Args: args}
}

func not(p *pred) *pred { return &pred{Op: "not", Args: []*pred{p}} }

// predOf reads a condition on the variable name: && || ! and parentheses
// over path.extname(name) === '.js' (==, !==, !=, either side),
// name === 'x', name.endsWith, startsWith and includes of a literal, and
// /re/.test(name) or name.match(/re/). ok is false for anything else.
func (w *walker) predOf(n *sitter.Node, name string) (*pred, bool) {
	if n == nil {
		return nil, false
	}
	switch n.Type() {
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return w.predOf(n.NamedChild(0), name)
		}
	case "true":
		return nil, true
	case "unary_expression":
		op := n.ChildByFieldName("operator")
		if op != nil && w.text(op) == "!" {
			p, ok := w.predOf(n.ChildByFieldName("argument"), name)
			if ok && p == nil {
				return nil, false // !true
			}
			return not(p), ok
		}
	case "binary_expression":
		return w.binaryPred(n, name)
	case "call_expression":
		return w.callPred(n, name)
	}
	return nil, false
}

func (w *walker) binaryPred(n *sitter.Node, name string) (*pred, bool) {
	op, l, r := n.ChildByFieldName("operator"), n.ChildByFieldName("left"), n.ChildByFieldName("right")
	if op == nil || l == nil || r == nil {
		return nil, false
	}
	switch o := w.text(op); o {
	case "&&", "||":
		a, okA := w.predOf(l, name)
		b, okB := w.predOf(r, name)
		if !okA || !okB || a == nil || b == nil {
			return nil, false
		}
		if o == "&&" {
			return and(a, b), true
		}
		return &pred{Op: "or", Args: []*pred{a, b}}, true
	case "===", "==", "!==", "!=":
		if r.Type() != "string" {
			l, r = r, l
		}
		if r.Type() != "string" {
			return nil, false
		}
		lit := unescape(w.text(r), 1)
		var p *pred
		switch {
		case l.Type() == "identifier" && w.text(l) == name:
			p = &pred{Op: "eq", Arg: lit}
		case l.Type() == "call_expression" && w.extnameOf(l, name):
			p = &pred{Op: "ext", Arg: lit}
		default:
			return nil, false
		}
		if o == "!==" || o == "!=" {
			p = not(p)
		}
		return p, true
	}
	return nil, false
}

// extnameOf reports whether a call is path.extname(name).
func (w *walker) extnameOf(call *sitter.Node, name string) bool {
	fn, args := call.ChildByFieldName("function"), call.ChildByFieldName("arguments")
	if fn == nil || args == nil || args.NamedChildCount() != 1 {
		return false
	}
	mod, f := w.builtinCall(fn)
	a := args.NamedChild(0)
	return mod == "path" && f == "extname" && a.Type() == "identifier" && w.text(a) == name
}

func (w *walker) callPred(n *sitter.Node, name string) (*pred, bool) {
	fn, args := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
	if fn == nil || args == nil || fn.Type() != "member_expression" || args.NamedChildCount() != 1 {
		return nil, false
	}
	obj, prop, arg := fn.ChildByFieldName("object"), fn.ChildByFieldName("property"), args.NamedChild(0)
	if obj == nil || prop == nil {
		return nil, false
	}
	isName := func(x *sitter.Node) bool { return x.Type() == "identifier" && w.text(x) == name }
	switch m := w.text(prop); {
	case m == "test" && obj.Type() == "regex" && isName(arg):
		return w.regexPred(obj)
	case m == "match" && arg.Type() == "regex" && isName(obj):
		return w.regexPred(arg)
	case isName(obj) && arg.Type() == "string":
		op := map[string]string{"endsWith": "suffix", "startsWith": "prefix", "includes": "contains"}[m]
		if op == "" {
			return nil, false
		}
		return &pred{Op: op, Arg: unescape(w.text(arg), 1)}, true
	}
	return nil, false
}

// regexPred reads a regular expression literal that Go's regexp reads
// the same way: no flags but i, no escapes RE2 lacks.
func (w *walker) regexPred(re *sitter.Node) (*pred, bool) {
	pat, flags := re.ChildByFieldName("pattern"), re.ChildByFieldName("flags")
	if pat == nil {
		return nil, false
	}
	src := w.text(pat)
	if flags != nil {
		switch w.text(flags) {
		case "":
		case "i":
			src = "(?i)" + src
		default:
			return nil, false
		}
	}
	if strings.Contains(src, `\/`) {
		src = strings.ReplaceAll(src, `\/`, "/")
	}
	if _, err := regexp.Compile(src); err != nil || strings.Contains(src, "(?<") || strings.Contains(src, "(?=") || strings.Contains(src, "(?!") {
		return nil, false
	}
	return &pred{Op: "re", Arg: src}, true
}
