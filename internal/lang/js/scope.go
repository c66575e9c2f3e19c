package js

import sitter "github.com/smacker/go-tree-sitter"

// decl is one const binding of a statement block.
type decl struct {
	name  string
	start uint32 // the declaration's first byte
	value *sitter.Node
}

// localConst finds a const binding of name declared before n in a block
// enclosing it (a table declared inside a describe callback). The blocks
// that are ancestors of the call being visited are indexed once each, by
// name, so a lookup does not walk the ancestors; only the few nodes
// between the deepest of them and n are read.
func (w *evaluator) localConst(n *sitter.Node, name string) (*sitter.Node, uint32) {
	// The answer depends on n and name only: a read evaluated again (a
	// function's parameter, once per call) is looked up once.
	k := localKey{n.StartByte(), n.EndByte(), name}
	if r, ok := w.locals[k]; ok {
		return r.node, r.at
	}
	d, at := w.findLocalConst(n, name)
	w.locals[k] = localDecl{d, at}
	return d, at
}

// localKey is a read of name at a node's span; localDecl what it finds.
type localKey struct {
	start, end uint32
	name       string
}

type localDecl struct {
	node *sitter.Node
	at   uint32
}

func (w *evaluator) findLocalConst(n *sitter.Node, name string) (*sitter.Node, uint32) {
	l := w.lin
	i := l.deepest(n)
	if i < 0 {
		return nil, 0
	}
	between := w.between(l.path[i].node, n)
	for k := len(between) - 1; k >= 0; k-- {
		if between[k].Type() != "statement_block" {
			continue
		}
		for _, d := range w.blockConsts(between[k]) {
			if d.name == name && d.start < n.StartByte() {
				return d.value, d.start
			}
		}
	}
	w.scanScopes()
	b := l.scope[name]
	for k := len(b) - 1; k >= 0; k-- {
		if b[k].at <= i && b[k].start < n.StartByte() {
			return b[k].value, b[k].start
		}
	}
	return nil, 0
}

// between returns the nodes strictly between ancestor a and its
// descendant n, outermost first.
func (w *evaluator) between(a, n *sitter.Node) []*sitter.Node {
	if a.ID() == n.ID() {
		return nil
	}
	sub := newLineage(a)
	defer sub.close()
	if !sub.descend(n) || len(sub.path) < 2 {
		return nil
	}
	out := make([]*sitter.Node, 0, len(sub.path)-2)
	for _, s := range sub.path[1 : len(sub.path)-1] {
		out = append(out, s.node)
	}
	return out
}

// scanScopes puts the const bindings of the path's statement blocks not
// yet read in scope: the first declaration of each name per block.
func (w *evaluator) scanScopes() {
	l := w.lin
	for ; l.scanned < len(l.path); l.scanned++ {
		s := &l.path[l.scanned]
		if s.typ != "statement_block" {
			continue
		}
		seen := map[string]bool{}
		for _, d := range w.blockConsts(s.node) {
			if seen[d.name] {
				continue
			}
			seen[d.name] = true
			s.binds = append(s.binds, d.name)
			l.scope[d.name] = append(l.scope[d.name], binding{at: l.scanned, start: d.start, value: d.value})
		}
	}
}

// blockConsts lists the bindings declared directly in block, in order,
// whose name nothing in the file assigns or mutates (a table written with
// let is as fixed as one written with const, and a const array pushed to
// is not).
func (w *evaluator) blockConsts(block *sitter.Node) []decl {
	var out []decl
	cur := sitter.NewTreeCursor(block)
	defer cur.Close()
	for ok := cur.GoToFirstChild(); ok; ok = cur.GoToNextSibling() {
		c := cur.CurrentNode()
		if (c.Type() != "lexical_declaration" && c.Type() != "variable_declaration") || c.ChildCount() == 0 {
			continue
		}
		for j := 0; j < int(c.NamedChildCount()); j++ {
			d := c.NamedChild(j)
			id, v := d.ChildByFieldName("name"), d.ChildByFieldName("value")
			if d.Type() == "variable_declarator" && id != nil && v != nil && id.Type() == "identifier" && !w.mutated(w.text(id)) {
				out = append(out, decl{name: w.text(id), start: c.StartByte(), value: v})
			}
		}
	}
	return out
}
