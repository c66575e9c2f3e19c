package python

import sitter "github.com/smacker/go-tree-sitter"

// gnode is a syntax tree node copied into Go once, so that the runner,
// which visits the decorator's nodes over and over (a loop over a table
// of a hundred rows), makes no cgo call per visit.
type gnode struct {
	typ    string
	text   string
	named  bool
	all    []*gnode // every child, named or not
	fields map[string]*gnode
}

// maxGnodeDepth bounds the copy; a deeper function is not run.
const maxGnodeDepth = 200

// toGnode copies n and its children; nil when deeper than maxGnodeDepth.
func toGnode(n *sitter.Node, src []byte, depth int) *gnode {
	if depth > maxGnodeDepth {
		return nil
	}
	g := &gnode{typ: n.Type(), text: n.Content(src), named: n.IsNamed()}
	for i, nc := 0, int(n.ChildCount()); i < nc; i++ {
		c := toGnode(n.Child(i), src, depth+1)
		if c == nil {
			return nil
		}
		g.all = append(g.all, c)
		if name := n.FieldNameForChild(i); name != "" {
			if g.fields == nil {
				g.fields = map[string]*gnode{}
			}
			if _, seen := g.fields[name]; !seen {
				g.fields[name] = c
			}
		}
	}
	return g
}

func (g *gnode) Type() string  { return g.typ }
func (g *gnode) IsNamed() bool { return g.named }
func (g *gnode) ChildCount() int {
	return len(g.all)
}
func (g *gnode) Child(i int) *gnode { return g.all[i] }

// field is the child of that field name, nil when none (or g is nil).
func (g *gnode) field(name string) *gnode {
	if g == nil {
		return nil
	}
	return g.fields[name]
}

// NamedChildCount and NamedChild count comments, as tree-sitter does.
func (g *gnode) NamedChildCount() int {
	n := 0
	for _, c := range g.all {
		if c.named {
			n++
		}
	}
	return n
}

func (g *gnode) NamedChild(i int) *gnode {
	for _, c := range g.all {
		if c.named {
			if i == 0 {
				return c
			}
			i--
		}
	}
	return nil
}

// kidsOf is children for a gnode: its named children but comments.
func kidsOf(g *gnode) []*gnode {
	if g == nil {
		return nil
	}
	var out []*gnode
	for _, c := range g.all {
		if c.named && c.typ != "comment" {
			out = append(out, c)
		}
	}
	return out
}

// gUnparen is unparen for a gnode.
func gUnparen(g *gnode) *gnode {
	for i := 0; g != nil && g.typ == "parenthesized_expression" && g.NamedChildCount() == 1 && i < 50; i++ {
		g = g.NamedChild(0)
	}
	return g
}
