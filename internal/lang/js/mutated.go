package js

import (
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
)

// mutationQuery finds the names a file assigns, increments, or changes
// in place (x = ..., x.y = ..., x[i] = ..., x++, x.push(...)): a let or
// var binding with such a name may not hold its initial value when tests
// are declared.
const mutationQuery = `
(assignment_expression left: (identifier) @n)
(assignment_expression left: (member_expression object: (identifier) @n))
(assignment_expression left: (subscript_expression object: (identifier) @n))
(augmented_assignment_expression left: (identifier) @n)
(augmented_assignment_expression left: (member_expression object: (identifier) @n))
(augmented_assignment_expression left: (subscript_expression object: (identifier) @n))
(update_expression argument: (identifier) @n)
(call_expression function: (member_expression object: (identifier) @n property: (property_identifier) @m))
`

// mutators are the methods that change an array or object in place.
var mutators = map[string]bool{"push": true, "pop": true, "shift": true, "unshift": true, "splice": true,
	"sort": true, "reverse": true, "fill": true, "copyWithin": true, "set": true, "delete": true, "clear": true, "add": true}

// mutated reports whether anything in the file may change the binding
// name, by its name alone (shadowing is ignored, which only errs on the
// side of unknown). A name declared twice at the top level counts too.
func (w *walker) mutated(name string) bool {
	if w.mutations == nil {
		w.mutations = w.scanMutations()
	}
	return w.mutations[name] || w.mutations["\x00all"]
}

func (w *walker) scanMutations() map[string]bool {
	out := map[string]bool{}
	for n := range w.redeclared {
		out[n] = true
	}
	q, err := cachedQuery(w.lang, mutationQuery)
	if err != nil {
		out["\x00all"] = true
		return out
	}
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	qc.Exec(q, w.root)
	for {
		m, ok := qc.NextMatch()
		if !ok {
			return out
		}
		name, method := "", ""
		for _, c := range m.Captures {
			switch q.CaptureNameForId(c.Index) {
			case "n":
				name = w.text(c.Node)
			case "m":
				method = w.text(c.Node)
			}
		}
		if len(m.Captures) == 1 || mutators[method] {
			out[name] = true
		}
	}
}

// queryCache holds compiled queries by grammar and source.
var queryCache sync.Map // textQueryKey -> *sitter.Query

type textQueryKey struct {
	lang *sitter.Language
	src  string
}

// cachedQuery compiles src for lang once; the queries live as long as
// the process, like the grammars.
func cachedQuery(lang *sitter.Language, src string) (*sitter.Query, error) {
	k := textQueryKey{lang, src}
	if q, ok := queryCache.Load(k); ok {
		return q.(*sitter.Query), nil
	}
	q, err := sitter.NewQuery([]byte(src), lang)
	if err != nil {
		return nil, err
	}
	if prev, loaded := queryCache.LoadOrStore(k, q); loaded {
		q.Close()
		return prev.(*sitter.Query), nil
	}
	return q, nil
}
