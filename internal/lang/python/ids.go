package python

import (
	"strconv"

	sitter "github.com/smacker/go-tree-sitter"
)

// idSource is parametrize's (or a fixture's) ids= as pytest's
// _resolve_parameter_set_ids sees it: absent, a sequence of entries, or
// a callable applied to each value.
type idSource struct {
	list []*sitter.Node // the entries, nil when absent, empty or a callable
	fn   idFunc         // the callable, nil when absent or a sequence
}

// idFunc is a callable given as ids= that can be evaluated statically.
// It returns the value the callable gives for one parameter value;
// fallback reports None (pytest then makes the ID as without ids=); ok
// is false when the result cannot be known.
type idFunc func(v pyVal) (out pyVal, fallback, ok bool)

// idSource reads ids= for a table of n rows. ok is false when the ids
// cannot be known, or when their number differs from the rows' (pytest
// then refuses to collect the whole module: "N parameter sets specified,
// with different number of ids: M"), which problem then says.
func (w *walker) idSource(ids *sitter.Node, n int) (src idSource, problem string, ok bool) {
	if ids == nil {
		return src, "", true
	}
	ids = unparen(ids)
	if ids.Type() == "identifier" {
		if v, found := w.literal(w.text(ids)); found {
			ids = unparen(v)
		}
	}
	switch ids.Type() {
	case "none":
		return src, "", true
	case "list", "tuple":
		src.list = children(ids)
		for _, c := range src.list {
			if c.Type() == "list_splat" || c.Type() == "parenthesized_list_splat" {
				return idSource{}, "", false
			}
		}
	case "call":
		// iter([...]), list([...]) and tuple([...]) of a literal sequence;
		// an iterator has no len(): pytest takes as many entries as there
		// are rows, and makes the IDs of the rows beyond its end.
		fn := w.text(ids.ChildByFieldName("function"))
		args := children(ids.ChildByFieldName("arguments"))
		if w.facts.Imports[fn] != "" || (fn != "iter" && fn != "list" && fn != "tuple") || len(args) != 1 ||
			(args[0].Type() != "list" && args[0].Type() != "tuple") {
			return src, "", false
		}
		src.list = children(args[0])
		if fn == "iter" {
			src.list = src.list[:min(len(src.list), n)]
			return src, "", true
		}
	default:
		src.fn = w.idFunc(ids)
		return src, "", src.fn != nil
	}
	if len(src.list) != 0 && len(src.list) != n {
		return src, strconv.Itoa(n) + " parameter sets specified, with different number of ids: " +
			strconv.Itoa(len(src.list)) + "; pytest refuses to collect this module", false
	}
	return src, "", true
}
