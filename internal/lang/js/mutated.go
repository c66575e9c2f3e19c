package js

import (
	"sort"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

// mutationQuery finds what may change a binding: assignments (x = ...,
// x.y = ..., x[i] = ...), x++ and method calls (x.push(...)), read in
// mutationTarget. It matches single nodes, whose query state does not
// grow with the nesting.
const mutationQuery = `(assignment_expression) @m (augmented_assignment_expression) @m (update_expression) @m (call_expression) @m (unary_expression) @m`

// mutators are the methods that change an array or object in place.
var mutators = map[string]bool{"push": true, "pop": true, "shift": true, "unshift": true, "splice": true,
	"sort": true, "reverse": true, "fill": true, "copyWithin": true, "set": true, "delete": true, "clear": true, "add": true}

// mutated reports whether anything in the file may change the binding
// name, by its name alone (shadowing is ignored, which only errs on the
// side of unknown). A name declared twice at the top level counts too.
func (w *evaluator) mutated(name string) bool {
	if w.mutations == nil {
		w.mutations = w.scanMutations()
	}
	return w.mutations[name] || w.mutations["\x00all"]
}

func (w *evaluator) scanMutations() map[string]bool {
	out := map[string]bool{}
	for n := range w.redeclared {
		out[n] = true
	}
	q, err := cachedQuery(w.lang, mutationQuery)
	if err != nil {
		out["\x00all"] = true
		return out
	}
	w.sites = map[string][]*sitter.Node{}
	for c := range tsgrammars.CaptureNodes(q, w.root) {
		for _, name := range w.mutationTargets(c) {
			out[name] = true
			w.sites[name] = append(w.sites[name], c)
		}
	}
	for _, s := range w.sites { // in the order they finish: a.push(a.pop()) pops first
		sort.SliceStable(s, func(i, j int) bool { return s[i].EndByte() < s[j].EndByte() })
	}
	return out
}

// mutationTargets are the names an assignment (a destructuring one
// changes each name in its pattern), update, delete or mutating call
// (a method, Object.assign and the like) changes; a change of a part,
// x.y.z = 1 or x[0].push(1), changes x.
func (w *evaluator) mutationTargets(n *sitter.Node) []string {
	var target *sitter.Node
	switch n.Type() {
	case "update_expression":
		target = n.ChildByFieldName("argument")
	case "unary_expression":
		if op := n.ChildByFieldName("operator"); op == nil || w.text(op) != "delete" {
			return nil
		}
		target = n.ChildByFieldName("argument")
	case "call_expression":
		f := n.ChildByFieldName("function")
		if f == nil || f.Type() != "member_expression" {
			return nil
		}
		if objectMutators[w.text(f)] {
			if args := n.ChildByFieldName("arguments"); args != nil && args.NamedChildCount() > 0 {
				target = args.NamedChild(0)
			}
			break
		}
		if p := f.ChildByFieldName("property"); p == nil || !mutators[w.text(p)] {
			return nil
		}
		target = f.ChildByFieldName("object")
	default:
		target = n.ChildByFieldName("left")
		if target != nil && (target.Type() == "object_pattern" || target.Type() == "array_pattern") {
			return w.patternNames(target)
		}
	}
	for target != nil && (target.Type() == "member_expression" || target.Type() == "subscript_expression" ||
		typeWrappers[target.Type()]) {
		if typeWrappers[target.Type()] {
			target = target.NamedChild(0)
			continue
		}
		target = target.ChildByFieldName("object") // x.y = 1, x[0]++, x.y.z = 1
	}
	if target == nil || target.Type() != "identifier" {
		return nil
	}
	return []string{w.text(target)}
}

// patternQuery matches the names in a destructuring pattern.
const patternQuery = `(identifier) @i (shorthand_property_identifier_pattern) @i`

// objectMutators are the functions that change their first argument.
var objectMutators = map[string]bool{"Object.assign": true, "Object.defineProperty": true,
	"Object.defineProperties": true, "Object.setPrototypeOf": true}

// patternNames are the names a destructuring assignment's pattern changes
// (each identifier in it, or the object of a member target).
func (w *evaluator) patternNames(p *sitter.Node) []string {
	var out []string
	q, err := cachedQuery(w.lang, patternQuery)
	if err != nil {
		return []string{"\x00all"} // every binding may be changed
	}
	for c := range tsgrammars.CaptureNodes(q, p) {
		out = append(out, w.text(c))
	}
	return out
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
