// Package tsgrammars gathers the tree-sitter grammars testdex parses with,
// so that every language package imports them from one place and the cgo
// build of each grammar happens once.
//
// Rules for every user (measured when the grammars were chosen): one *sitter.Parser per goroutine,
// compile each query once, and always Close() trees, cursors and queries:
// left to finalizers, parsing 17 MB of Python reached 1.7 GB of memory.
package tsgrammars

import (
	"bytes"
	"context"
	"errors"
	"iter"
	"sync"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/rust"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// The grammars.
var (
	Python     = python.GetLanguage()
	JavaScript = javascript.GetLanguage()
	TypeScript = typescript.GetLanguage()
	TSX        = tsx.GetLanguage()
	Rust       = rust.GetLanguage()
	Java       = java.GetLanguage()
)

// Language is re-exported so callers need not import the binding for it.
type Language = sitter.Language

// pools holds idle parsers per grammar: a parser serves one goroutine at
// a time, and making one per file would cost more than the parse of a
// small file.
var pools sync.Map // *Language -> *sync.Pool

// Parser returns an idle parser set to l and the function that gives it
// back; the caller must not use the parser after calling it.
func Parser(l *Language) (*sitter.Parser, func()) {
	v, ok := pools.Load(l)
	if !ok {
		v, _ = pools.LoadOrStore(l, &sync.Pool{New: func() any {
			p := sitter.NewParser()
			p.SetLanguage(l)
			return p
		}})
	}
	pool := v.(*sync.Pool)
	p := pool.Get().(*sitter.Parser)
	return p, func() { pool.Put(p) }
}

// Parse parses data with a pooled parser. The caller closes the tree.
func Parse(l *Language, data []byte) (*sitter.Tree, error) {
	p, release := Parser(l)
	defer release()
	return p.ParseCtx(context.Background(), nil, data)
}

// InvalidUTF8 returns the offset of data's first byte that is not valid
// UTF-8, and false when all of it is valid.
func InvalidUTF8(data []byte) (int, bool) {
	if utf8.Valid(data) {
		return 0, false
	}
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return i, true
		}
		i += n
	}
	return 0, false
}

// Line is the 1-based line of byte offset off in data.
func Line(data []byte, off int) int { return bytes.Count(data[:off], []byte{'\n'}) + 1 }

// QueryOnce returns a function that compiles pattern for l on its first
// call and returns the same Query from then on (a Query is read-only once
// built; each use has its own cursor).
func QueryOnce(l *Language, pattern string) func() (*sitter.Query, error) {
	return sync.OnceValues(func() (*sitter.Query, error) { return sitter.NewQuery([]byte(pattern), l) })
}

// Walk calls visit on n and, where it returns true, on each of n's named
// children in turn, depth first, in source order.
func Walk(n *sitter.Node, visit func(*sitter.Node) bool) {
	if !visit(n) {
		return
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		Walk(n.NamedChild(i), visit)
	}
}

// CaptureNodes runs q over n and yields every node each match captures,
// in match order; its cursor is closed when the loop ends, early or not.
func CaptureNodes(q *sitter.Query, n *sitter.Node) iter.Seq[*sitter.Node] {
	return func(yield func(*sitter.Node) bool) {
		qc := sitter.NewQueryCursor()
		defer qc.Close()
		qc.Exec(q, n)
		for {
			m, ok := qc.NextMatch()
			if !ok {
				return
			}
			for _, c := range m.Captures {
				if !yield(c.Node) {
					return
				}
			}
		}
	}
}

// Captures parses src with l and calls each for every node q captures, in
// match order. When the tree holds a syntax error, syntaxError is called
// with its root (while the tree is open) after the captures. It fails
// only when tree-sitter gives up on the parse. Trees and cursors are
// closed before it returns.
func Captures(l *Language, q *sitter.Query, src []byte, each func(*sitter.Node), syntaxError func(root *sitter.Node)) error {
	tree, err := Parse(l, src)
	if err != nil || tree == nil {
		return errors.New("cannot parse: tree-sitter gave up")
	}
	defer tree.Close()
	root := tree.RootNode()
	for n := range CaptureNodes(q, root) {
		each(n)
	}
	if root.HasError() && syntaxError != nil {
		syntaxError(root)
	}
	return nil
}
