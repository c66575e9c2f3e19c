package python

import (
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// classNamespace reads a class body's namespace as Python builds it
// (its __dict__, in order), for a class decorator of another module the
// Linker may run over it (decorun.go): each name with its value where
// the body fixes it (strs, ints, bools, None, tuples, lists and dicts of
// them, plain functions), "?" where it does not. nil when the body binds
// names in ways not followed here (loops, branches, with, imports).
func (w *walker) classNamespace(body *sitter.Node) []nsEntry {
	ns := []nsEntry{{Name: "__module__", V: &nsVal{K: "?"}}, {Name: "__qualname__", V: &nsVal{K: "?"}}}
	set := func(name string, v *nsVal) {
		for i := range ns {
			if ns[i].Name == name {
				ns[i].V = v
				return
			}
		}
		ns = append(ns, nsEntry{Name: name, V: v})
	}
	lookup := func(name string) *nsVal {
		for _, e := range ns {
			if e.Name == name {
				return e.V
			}
		}
		return nil
	}
	for i, s := range children(body) {
		switch s.Type() {
		case "comment", "pass_statement":
		case "function_definition":
			set(w.text(s.ChildByFieldName("name")), &nsVal{K: "f"})
		case "decorated_definition", "class_definition":
			if d := definition(s); d != nil {
				set(w.text(d.ChildByFieldName("name")), &nsVal{K: "?"})
			}
		case "expression_statement":
			e := s.NamedChild(0)
			switch {
			case e == nil:
			case i == 0 && e.Type() == "string":
				set("__doc__", &nsVal{K: "?"})
			case e.Type() == "assignment" && e.ChildByFieldName("left").Type() == "identifier" && e.ChildByFieldName("right") != nil &&
				e.ChildByFieldName("right").Type() != "assignment":
				set(w.text(e.ChildByFieldName("left")), w.nsValue(e.ChildByFieldName("right"), lookup, 0))
			default:
				// X[k] = v, X.append(v), a, b = ...: what they touch is
				// not known.
				names := map[string]bool{}
				w.boundNames(s, names)
				forWords([]byte(w.text(s)), func(word string) {
					if lookup(word) != nil {
						names[word] = true
					}
				})
				for name := range names {
					set(name, &nsVal{K: "?"})
				}
			}
		default:
			return nil
		}
	}
	return ns
}

// nsValue reads a value of a class body for classNamespace.
func (w *walker) nsValue(n *sitter.Node, lookup func(string) *nsVal, depth int) *nsVal {
	n = unparen(n)
	unknown := &nsVal{K: "?"}
	if n == nil || depth > 20 {
		return unknown
	}
	switch n.Type() {
	case "string", "concatenated_string":
		if v := w.value(n, 0); v.isStr() {
			return &nsVal{K: "s", S: v.raw}
		}
	case "integer":
		if i, err := strconv.ParseInt(strings.ReplaceAll(w.text(n), "_", ""), 0, 64); err == nil {
			return &nsVal{K: "i", S: strconv.FormatInt(i, 10)}
		}
	case "true":
		return boolVal(true)
	case "false":
		return boolVal(false)
	case "none":
		return &nsVal{K: "n"}
	case "lambda":
		return &nsVal{K: "f"}
	case "tuple", "list":
		out := &nsVal{K: map[string]string{"tuple": "t", "list": "l"}[n.Type()]}
		for _, c := range children(n) {
			if c.Type() == "list_splat" || c.Type() == "comment" {
				return unknown
			}
			out.L = append(out.L, w.nsValue(c, lookup, depth+1))
		}
		return out
	case "dictionary":
		out := &nsVal{K: "d"}
		for _, c := range children(n) {
			if c.Type() == "comment" {
				continue
			}
			if c.Type() != "pair" {
				return unknown
			}
			k := w.value(c.ChildByFieldName("key"), 0)
			if !k.isStr() {
				return unknown
			}
			v := w.nsValue(c.ChildByFieldName("value"), lookup, depth+1)
			found := false
			for i, key := range out.Keys {
				if key == k.raw {
					out.L[i], found = v, true
				}
			}
			if !found {
				out.Keys, out.L = append(out.Keys, k.raw), append(out.L, v)
			}
		}
		return out
	case "identifier":
		if v := lookup(w.text(n)); v != nil {
			return v
		}
	}
	return unknown
}
