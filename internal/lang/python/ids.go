package python

import (
	"strconv"

	sitter "github.com/smacker/go-tree-sitter"
)

// idSource is parametrize's (or a fixture's) ids= as pytest's
// _resolve_parameter_set_ids sees it: absent, a sequence of entries, or
// a callable applied to each value.
type idSource struct {
	list []elem // the entries, nil when absent, empty or a callable
	fn   idFunc // the callable, nil when absent or a sequence
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
	case "list", "tuple", "list_comprehension", "generator_expression", "binary_operator", "call":
		if ids.Type() == "call" && w.text(ids.ChildByFieldName("function")) == "iter" && w.bindings["iter"] == 0 {
			// An iterator has no len(): pytest takes as many entries
			// as there are rows, and makes the IDs of the rows beyond
			// its end.
			args := children(ids.ChildByFieldName("arguments"))
			if len(args) != 1 {
				return src, "", false
			}
			list, ok := w.argvalues(args[0], 0)
			src.list = list[:min(len(list), n)]
			return src, "", ok
		}
		list, ok := w.argvalues(ids, 0)
		if !ok {
			return src, "", false
		}
		src.list = list
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
