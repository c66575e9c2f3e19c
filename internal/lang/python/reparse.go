package python

import (
	"bytes"
	"context"

	sitter "github.com/smacker/go-tree-sitter"
)

// reparse recovers the statements of a file tree-sitter could not parse
// whole: one bad construct (CPython's test_compile.py has a dedent inside
// brackets) can make the whole module a single ERROR node. It cuts the
// file at its top-level class, def and decorator lines and parses runs of
// those chunks on their own, halving a run that still has an error until
// it is one chunk. Each parse sees the file with everything outside the
// run blanked to spaces, so nodes keep the file's byte offsets and lines.
// The caller closes the trees.
func reparse(p *sitter.Parser, data []byte) []*sitter.Tree {
	starts := chunkStarts(data)
	var out []*sitter.Tree
	var split func(a, b, depth int)
	split = func(a, b, depth int) {
		lo, hi := starts[a], len(data)
		if b < len(starts) {
			hi = starts[b]
		}
		tree, err := p.ParseCtx(context.Background(), nil, blankOutside(data, lo, hi))
		if err != nil || tree == nil {
			return
		}
		if b-a == 1 && tree.RootNode().HasError() {
			tree = dropBadMethods(p, data, lo, hi, tree)
		}
		if !tree.RootNode().HasError() || b-a == 1 || depth > 40 {
			out = append(out, tree)
			return
		}
		tree.Close()
		mid := (a + b) / 2
		split(a, mid, depth+1)
		split(mid, b, depth+1)
	}
	split(0, len(starts), 0)
	return out
}

// chunkStarts returns the offsets where top-level chunks begin: the file's
// start and every line at column 0 that starts a class, a def or the first
// of a definition's decorators.
func chunkStarts(data []byte) []int {
	starts := []int{0}
	afterDecorator := false
	for off := 0; off < len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data) - off
		}
		l := data[off : off+end]
		isDef := bytes.HasPrefix(l, []byte("class ")) || bytes.HasPrefix(l, []byte("def ")) || bytes.HasPrefix(l, []byte("async def "))
		switch {
		case bytes.HasPrefix(l, []byte("@")):
			if !afterDecorator && off > 0 {
				starts = append(starts, off)
			}
			afterDecorator = true
		case isDef:
			if !afterDecorator && off > 0 {
				starts = append(starts, off)
			}
			afterDecorator = false
		}
		off += end + 1
	}
	return starts
}

// blankOutside returns a copy of data with every byte outside [lo, hi)
// but newlines replaced by a space.
func blankOutside(data []byte, lo, hi int) []byte {
	out := make([]byte, len(data))
	for i, c := range data {
		if (i < lo || i >= hi) && c != '\n' {
			c = ' '
		}
		out[i] = c
	}
	return out
}

// dropBadMethods reparses one chunk with the indented definition (a
// method) around its innermost error blanked, a few times over: a class
// keeps its other methods when one of them does not parse.
func dropBadMethods(p *sitter.Parser, data []byte, lo, hi int, tree *sitter.Tree) *sitter.Tree {
	buf := blankOutside(data, lo, hi)
	for i := 0; i < 5 && tree.RootNode().HasError(); i++ {
		bad := innermostError(tree.RootNode(), 0)
		s, e := outerMethod(buf, lo, int(bad.StartByte()))
		if s < 0 {
			break
		}
		for j := s; j < e; j++ {
			if buf[j] != '\n' {
				buf[j] = ' '
			}
		}
		next, err := p.ParseCtx(context.Background(), nil, buf)
		if err != nil || next == nil {
			break
		}
		tree.Close()
		tree = next
	}
	return tree
}

// innermostError descends along erroring children to the first ERROR or
// MISSING node that holds no other.
func innermostError(n *sitter.Node, depth int) *sitter.Node {
	for i := 0; i < int(n.ChildCount()) && depth < 200; i++ {
		if c := n.Child(i); c.HasError() || c.IsMissing() || c.Type() == "ERROR" {
			return innermostError(c, depth+1)
		}
	}
	return n
}

// outerMethod finds, in buf[lo:], the nearest least indented (but indented) def
// or decorator line at or before off that no column-0 line separates from
// it, and the end of its block: the next non-blank line indented no deeper.
// It returns -1, -1 when there is none.
func outerMethod(buf []byte, lo, off int) (int, int) {
	start, indent := -1, 1<<30
	for ls := lineStart(buf, off); ls >= lo; ls = lineStart(buf, ls-1) {
		l := buf[ls:lineEnd(buf, ls)]
		t := bytes.TrimLeft(l, " \t")
		ind := len(l) - len(t)
		if len(t) > 0 && ind == 0 {
			break
		}
		if ind > 0 && ind < indent && (bytes.HasPrefix(t, []byte("def ")) || bytes.HasPrefix(t, []byte("async def ")) || bytes.HasPrefix(t, []byte("@"))) {
			start, indent = ls, ind
		}
		if ls == 0 {
			break
		}
	}
	if start < 0 {
		return -1, -1
	}
	end := start
	for end < len(buf) && bytes.HasPrefix(bytes.TrimLeft(buf[end:lineEnd(buf, end)], " \t"), []byte("@")) {
		end = lineEnd(buf, end) + 1 // the decorators, then the def line
	}
	end = min(lineEnd(buf, min(end, len(buf)-1))+1, len(buf))
	for end < len(buf) {
		le := lineEnd(buf, end)
		l := buf[end:le]
		t := bytes.TrimLeft(l, " \t")
		if len(t) > 0 && t[0] != '#' && len(l)-len(t) <= indent {
			break
		}
		end = le + 1
	}
	return start, min(end, len(buf))
}

func lineStart(buf []byte, off int) int {
	if off <= 0 {
		return 0
	}
	return bytes.LastIndexByte(buf[:off], '\n') + 1
}

func lineEnd(buf []byte, off int) int {
	if i := bytes.IndexByte(buf[off:], '\n'); i >= 0 {
		return off + i
	}
	return len(buf)
}
