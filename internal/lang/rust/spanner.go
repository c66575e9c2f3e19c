package rust

import (
	"fmt"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/zeebo/xxh3"

	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

// Spanner is Rust's lang.Spanner: every fn item of a file, with a body
// (trait methods without one are left out), nested ones and those of
// impl and trait blocks included. Each is named by its enclosing modules,
// impl type (or trait) and fns, joined with "::" ("tests::test_a",
// "S::m", "outer::inner"); closures belong to the fn around them. A span
// runs from the fn's first attribute-free token (its visibility or fn) to
// its closing brace, and is hashed canonically: the tree-sitter parse's
// leaf tokens, comments dropped, so formatting and comments do not change
// it. Safe for concurrent use.
var Spanner lang.Spanner = spanner{}

type spanner struct{}

// Spans returns the file's fns in source order; a file that does not
// parse whole returns those read and an error.
func (spanner) Spans(file string, src []byte) ([]lang.FuncSpan, error) {
	tree, err := tsgrammars.Parse(tsgrammars.Rust, src)
	if err != nil || tree == nil {
		return nil, fmt.Errorf("%s: cannot parse: tree-sitter gave up", file)
	}
	defer tree.Close()
	root := tree.RootNode()
	var out []lang.FuncSpan
	var walk func(n *sitter.Node, prefix string)
	walk = func(n *sitter.Node, prefix string) {
		for i := 0; i < int(n.NamedChildCount()); i++ {
			c := n.NamedChild(i)
			switch c.Type() {
			case "function_item":
				name := prefix + fieldText(c, "name", src)
				out = append(out, lang.FuncSpan{Name: name, Start: int(c.StartPoint().Row) + 1,
					End: int(c.EndPoint().Row) + 1, Hash: tokenHash(c, src)})
				walk(c, name+"::")
			case "impl_item":
				walk(c, prefix+implName(c, src)+"::")
			case "trait_item", "mod_item":
				walk(c, prefix+fieldText(c, "name", src)+"::")
			default:
				walk(c, prefix)
			}
		}
	}
	walk(root, "")
	if root.HasError() {
		return out, fmt.Errorf("%s: syntax error: fns near it may be cut wrong", file)
	}
	return out, nil
}

// implName is an impl block's type as written ("S", "Vec<T>"), spaces
// dropped; a trait impl's is "<S as Trait>".
func implName(n *sitter.Node, src []byte) string {
	ty := compact(fieldText(n, "type", src))
	if tr := n.ChildByFieldName("trait"); tr != nil {
		return "<" + ty + " as " + compact(tr.Content(src)) + ">"
	}
	return ty
}

func compact(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' && s[i] != '\n' && s[i] != '\t' && s[i] != '\r' {
			out = append(out, s[i])
		}
	}
	return string(out)
}

// tokenHash hashes n's leaf tokens, each as its length and bytes,
// comments left out.
func tokenHash(n *sitter.Node, src []byte) uint64 {
	h := xxh3.New()
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		switch t := n.Type(); {
		case t == "line_comment" || t == "block_comment":
			return
		case n.ChildCount() == 0:
			b := src[n.StartByte():n.EndByte()]
			k := len(b)
			h.Write([]byte{byte(k >> 24), byte(k >> 16), byte(k >> 8), byte(k)})
			h.Write(b)
			return
		}
		for i := 0; i < int(n.ChildCount()); i++ {
			walk(n.Child(i))
		}
	}
	walk(n)
	return h.Sum64()
}
