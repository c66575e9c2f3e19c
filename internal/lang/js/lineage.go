package js

import (
	"sort"

	sitter "github.com/smacker/go-tree-sitter"
)

// lineage is the chain of ancestors of the call being visited, root
// first, the call itself last. The walker visits calls in document order,
// so each move pops the entries the next call is not under and descends to
// it with a tree cursor: every node is pushed at most once per walk.
// tree-sitter's Node.Parent re-descends from the root on every call
// (O(depth)), which made a deeply nested describe quadratic.
//
// Each entry also carries what the walker asks of the ancestors: the
// nearest enclosing function or loop (barriersBelow) and, for statement
// blocks, their const bindings, indexed lazily by name (localConst), so
// neither question walks the chain.
type lineage struct {
	cur     *sitter.TreeCursor
	root    *sitter.Node
	path    []step
	scanned int                  // path[:scanned] have their consts in scope
	scope   map[string][]binding // name -> bindings, innermost last
	valid   bool                 // the cursor stands on path's last node
}

// step is one ancestor.
type step struct {
	node       *sitter.Node
	start, end uint32
	typ        string
	barrier    int      // index of the nearest function or loop at or above this step, -1 if none
	binds      []string // names this block put in scope
}

// binding is a const declared in a statement block on the path.
type binding struct {
	at    int    // the block's index in path
	start uint32 // the declaration's first byte
	value *sitter.Node
}

func newLineage(root *sitter.Node) *lineage {
	l := &lineage{cur: sitter.NewTreeCursor(root), root: root, scope: map[string][]binding{}}
	l.reset()
	return l
}

func (l *lineage) close() { l.cur.Close() }

func (l *lineage) reset() {
	for len(l.path) > 0 {
		l.pop()
	}
	l.cur.Reset(l.root)
	l.push(l.root)
	l.valid = true
}

func covers(s step, n *sitter.Node) bool {
	return s.start <= n.StartByte() && n.EndByte() <= s.end
}

func (l *lineage) top() step { return l.path[len(l.path)-1] }

func (l *lineage) push(n *sitter.Node) {
	s := step{node: n, start: n.StartByte(), end: n.EndByte(), typ: n.Type(), barrier: -1}
	if len(l.path) > 0 {
		s.barrier = l.top().barrier
	}
	if barriers[s.typ] {
		s.barrier = len(l.path)
	}
	l.path = append(l.path, s)
}

func (l *lineage) pop() {
	i := len(l.path) - 1
	for _, name := range l.path[i].binds {
		b := l.scope[name]
		if len(b) == 1 {
			delete(l.scope, name)
		} else {
			l.scope[name] = b[:len(b)-1]
		}
	}
	l.path = l.path[:i]
	l.scanned = min(l.scanned, i)
}

// moveTo makes n the last step. n must not come before the last step in
// document order. A node it cannot reach from the root (which a
// well-formed tree never has) gives false.
func (l *lineage) moveTo(n *sitter.Node) bool {
	if !l.valid {
		l.reset()
	}
	for len(l.path) > 1 && !covers(l.top(), n) {
		if covers(l.path[len(l.path)-2], n) {
			// Step along the siblings rather than descend again from
			// the parent: its earlier children would be read every time.
			if !l.toSibling(n) {
				l.reset()
			}
			break
		}
		l.pop()
		l.cur.GoToParent()
	}
	if l.descend(n) {
		return true
	}
	l.reset()
	return l.descend(n)
}

// toSibling replaces the last step by its next sibling holding n.
func (l *lineage) toSibling(n *sitter.Node) bool {
	for l.cur.GoToNextSibling() {
		c := l.cur.CurrentNode()
		if c.StartByte() <= n.StartByte() && n.EndByte() <= c.EndByte() {
			l.pop()
			l.push(c)
			return true
		}
		if c.StartByte() > n.StartByte() {
			break
		}
	}
	l.valid = false
	return false
}

// descend moves the cursor down from the last step to n, pushing each
// node on the way.
func (l *lineage) descend(n *sitter.Node) bool {
	for l.top().node.ID() != n.ID() {
		if l.cur.GoToFirstChildForByte(n.StartByte()) < 0 {
			l.valid = false
			return false
		}
		c := l.cur.CurrentNode()
		// The child found is the first that ends at or after n starts:
		// a sibling ending exactly there comes before the one holding n.
		for c.StartByte() <= n.StartByte() && c.EndByte() < n.EndByte() && l.cur.GoToNextSibling() {
			c = l.cur.CurrentNode()
		}
		if c.StartByte() > n.StartByte() || c.EndByte() < n.EndByte() {
			l.valid = false
			return false
		}
		l.push(c)
	}
	return true
}

// parentOf returns the parent of the last step, nil at the root.
func (l *lineage) parentOf() *sitter.Node {
	if len(l.path) < 2 {
		return nil
	}
	return l.path[len(l.path)-2].node
}

// deepest returns the index of the deepest step whose range holds n: the
// steps' ranges nest, so the ones holding n are a prefix of the path.
func (l *lineage) deepest(n *sitter.Node) int {
	return sort.Search(len(l.path), func(i int) bool { return !covers(l.path[i], n) }) - 1
}

// barriers are the nodes that stop a call from running exactly once where
// it stands: functions (unless they are the parent's callback) and loops.
var barriers = map[string]bool{
	"for_statement": true, "for_in_statement": true, "while_statement": true, "do_statement": true,
	"arrow_function": true, "function_expression": true, "function": true, "function_declaration": true,
	"generator_function": true, "generator_function_declaration": true, "method_definition": true,
}

var loops = map[string]bool{"for_statement": true, "for_in_statement": true, "while_statement": true, "do_statement": true}

// barriersBelow lists, outermost first, the functions and loops between
// the step at index parent and the last step, leaving out the parent's
// own callback: what stands between a call and running exactly once
// under its parent (none: it runs once, where it stands).
func (l *lineage) barriersBelow(parent int) []int {
	var out []int
	b := l.path[len(l.path)-1].barrier
	for b > parent {
		callback := parent >= 0 && b == parent+2 && !loops[l.path[b].typ] && l.path[parent+1].typ == "arguments"
		if !callback {
			out = append(out, b)
		}
		b = l.path[b-1].barrier
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}
