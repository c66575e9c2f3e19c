package js

import (
	"math"
	"strconv"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

// A function of the file is evaluated at its calls when its body runs
// straight to a value: declarations (var, let, const of a name, read
// through localConst), if (cond) return x; guards with no else, and a
// last return x (complex.js's describeTest and the replacer its titles
// pass to JSON.stringify). Anything else in the body (a loop, an
// assignment statement, a try) leaves the call unknown.

// guard is one exit of such a body: cond nil for the last return.
type guard struct{ cond, ret *sitter.Node }

// straight reads fn's body as guards, in order; ok is false for any other
// body. No expression in it reads a name the body declares at or after
// it: a var is hoisted, and read early it is undefined, not the module's
// binding of the name.
func (w *evaluator) straight(fn *sitter.Node) (gs []guard, ok bool) {
	body := fn.ChildByFieldName("body")
	if body == nil {
		return nil, false
	}
	if body.Type() != "statement_block" {
		return []guard{{ret: body}}, true
	}
	var decls []*sitter.Node
	var reads []read
	n := int(body.NamedChildCount())
	for i := 0; i < n; i++ {
		c := body.NamedChild(i)
		switch c.Type() {
		case "comment":
		case "lexical_declaration", "variable_declaration":
			for j := 0; j < int(c.NamedChildCount()); j++ {
				d := c.NamedChild(j)
				if id := d.ChildByFieldName("name"); d.Type() != "variable_declarator" || id == nil || id.Type() != "identifier" || d.ChildByFieldName("value") == nil {
					return nil, false
				}
				decls = append(decls, d)
				reads = append(reads, read{d.ChildByFieldName("value"), len(decls) - 1})
			}
		case "if_statement":
			cond, then := c.ChildByFieldName("condition"), c.ChildByFieldName("consequence")
			if cond == nil || then == nil || c.ChildByFieldName("alternative") != nil {
				return nil, false
			}
			ret := onlyReturn(then)
			if ret == nil {
				return nil, false
			}
			gs = append(gs, guard{cond: cond, ret: ret})
			reads = append(reads, read{cond, len(decls)}, read{ret, len(decls)})
		case "return_statement":
			if c.NamedChildCount() != 1 || !restComments(body, i+1) {
				return nil, false
			}
			return append(gs, guard{ret: c.NamedChild(0)}), w.inOrder(decls, reads)
		default:
			return nil, false
		}
	}
	return nil, false
}

// read is an expression of a straight body and the index of the first
// declaration after it.
type read struct {
	n    *sitter.Node
	next int
}

// inOrder reports whether no expression reads a name the body declares
// at or after it (for a declaration's value: its own name too).
func (w *evaluator) inOrder(decls []*sitter.Node, reads []read) bool {
	if len(decls) == 0 {
		return true
	}
	q, err := cachedQuery(w.lang, `(identifier) @i (shorthand_property_identifier) @i`)
	if err != nil {
		return false
	}
	for _, r := range reads {
		later := map[string]bool{}
		for _, e := range decls[r.next:] {
			later[w.text(e.ChildByFieldName("name"))] = true
		}
		if len(later) == 0 {
			continue
		}
		for c := range tsgrammars.CaptureNodes(q, r.n) {
			if later[w.text(c)] {
				return false
			}
		}
	}
	return true
}

// onlyReturn is x of a statement that is return x; or { return x; }.
func onlyReturn(s *sitter.Node) *sitter.Node {
	if s.Type() == "statement_block" {
		var ret *sitter.Node
		for i := 0; i < int(s.NamedChildCount()); i++ {
			switch c := s.NamedChild(i); {
			case c.Type() == "comment":
			case ret == nil && c.Type() == "return_statement":
				ret = c
			default:
				return nil
			}
		}
		if ret == nil {
			return nil
		}
		s = ret
	}
	if s.Type() != "return_statement" || s.NamedChildCount() != 1 {
		return nil
	}
	return s.NamedChild(0)
}

// restComments reports whether block's named children from i on are
// comments.
func restComments(block *sitter.Node, i int) bool {
	for ; i < int(block.NamedChildCount()); i++ {
		if block.NamedChild(i).Type() != "comment" {
			return false
		}
	}
	return true
}

// runGuards evaluates guards in the bindings the caller set: the first
// guard whose condition holds gives the value; a condition the source
// does not decide leaves it unknown.
func (w *evaluator) runGuards(gs []guard, depth int) value {
	for _, g := range gs {
		if g.cond != nil {
			t, ok := truthy(w.eval(g.cond, depth+1))
			if !ok {
				return value{}
			}
			if !t {
				continue
			}
		}
		return w.eval(g.ret, depth+1)
	}
	return value{}
}

// callFunction evaluates a call of the function node def with argv: its
// parameters bound, its body run straight (see straight); unknown for a
// body that does not, an async function or too deep a call.
func (w *evaluator) callFunction(def *sitter.Node, argv []value, depth int) value {
	if depth > maxEvalDepth || !plainFunctionNode(def) {
		return value{}
	}
	gs, ok := w.straight(def)
	if !ok {
		return value{}
	}
	e, ok := w.bindParams(def, argv)
	if !ok {
		return value{}
	}
	saved := w.env
	w.env = e
	v := w.runGuards(gs, depth)
	w.env = saved
	return v
}

// plainFunctionNode reports whether a function node is not async.
func plainFunctionNode(def *sitter.Node) bool {
	for i := 0; i < int(def.ChildCount()); i++ {
		if def.Child(i).Type() == "async" {
			return false
		}
	}
	return true
}

// jsonReplaced is JSON.stringify(v, replacer)'s value before it is
// written: replacer(key, value) called for the whole value (key "") and
// then for each property and element of what it returns, as
// SerializeJSONProperty does. ok is false where a call is not decided, or
// the replacer reads this (its holder).
func (w *evaluator) jsonReplaced(replacer *sitter.Node, key string, v value, depth int) (value, bool) {
	if depth > maxEvalDepth {
		return value{}, false
	}
	r := w.callFunction(replacer, []value{str(key), v}, depth+1)
	switch r.kind {
	case kUnknown:
		return value{}, false
	case kArray:
		out := value{kind: kArray, arr: make([]value, len(r.arr))}
		for i, e := range r.arr {
			var ok bool
			if out.arr[i], ok = w.jsonReplaced(replacer, strconv.Itoa(i), e, depth+1); !ok {
				return value{}, false
			}
		}
		return out, true
	case kObject:
		keys, vals := ownKeys(r)
		out := value{kind: kObject}
		for i, k := range keys {
			if k == "toJSON" {
				return value{}, false
			}
			e, ok := w.jsonReplaced(replacer, k, vals[i], depth+1)
			if !ok {
				return value{}, false
			}
			out.keys, out.vals = append(out.keys, k), append(out.vals, e)
		}
		return out, true
	}
	return r, true
}

// replacedArg is the value JSON.stringify(x, fn) writes, when fn is a
// function expression written in the call: x as fn replaces its parts.
func (w *evaluator) replacedArg(name string, args *sitter.Node, argv []value, depth int) (value, bool) {
	if name != "JSON.stringify" || len(argv) != 2 || !argv[1].fn || !argv[0].known() {
		return value{}, false
	}
	var nodes []*sitter.Node
	for i := 0; i < int(args.NamedChildCount()); i++ {
		if a := args.NamedChild(i); a.Type() != "comment" {
			nodes = append(nodes, a)
		}
	}
	if len(nodes) != 2 || !isFunction(nodes[1].Type()) || nodes[1].Type() == "generator_function" {
		return value{}, false
	}
	return w.jsonReplaced(nodes[1], "", argv[0], depth)
}

// mathConstants are Math's constants: the same doubles in Go and V8.
var mathConstants = map[string]float64{"PI": math.Pi, "E": math.E, "LN2": math.Ln2, "LN10": math.Ln10,
	"LOG2E": math.Log2E, "LOG10E": math.Log10E, "SQRT2": math.Sqrt2, "SQRT1_2": math.Sqrt2 / 2}

// mathFunctions are the Math functions whose results IEEE 754 fixes
// (correctly rounded or exact), so Go's agree with V8's to the last bit;
// log, sin, cos and the like may differ there and stay unknown.
var mathFunctions = map[string]func(float64) float64{"Math.sqrt": math.Sqrt, "Math.abs": math.Abs,
	"Math.floor": math.Floor, "Math.ceil": math.Ceil, "Math.trunc": math.Trunc}
