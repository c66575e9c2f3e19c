package java

import (
	"fmt"
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/zeebo/xxh3"

	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

// Spanner is Java's lang.Spanner: every method, constructor and compact
// record constructor of a file, those of nested and anonymous classes
// included (a lambda's lines belong to the method around it). Each is
// named "Outer.Inner.method(int,String)": the enclosing types, the name
// (a constructor's is its class's), and the parameter types as written
// with spaces dropped, so overloads are distinct; an anonymous class is
// "<anonymous>". A span runs from its first annotation or modifier to its
// closing brace (Javadoc is left out), and is hashed canonically: its
// tokens (see canonicalHash) without comments and spacing. The
// declarations come from the tree-sitter parse the Extractor uses; safe
// for concurrent use.
var Spanner lang.Spanner = spanner{}

type spanner struct{}

// functionQuery is compiled once and shared.
var functionQuery = tsgrammars.QueryOnce(tsgrammars.Java,
	"(method_declaration) @f (constructor_declaration) @f (compact_constructor_declaration) @f")

// Spans returns the file's methods and constructors in source order. A
// file that does not parse whole returns the ones read and an error
// naming the first bad line.
func (spanner) Spans(file string, src []byte) ([]lang.FuncSpan, error) {
	if off, bad := tsgrammars.InvalidUTF8(src); bad {
		return nil, fmt.Errorf("%s:%d: not UTF-8", file, tsgrammars.Line(src, off))
	}
	q, err := functionQuery()
	if err != nil {
		return nil, fmt.Errorf("java method query: %w", err)
	}
	var out []lang.FuncSpan
	syntax := false
	err = tsgrammars.Captures(tsgrammars.Java, q, src, func(n *sitter.Node) {
		out = append(out, lang.FuncSpan{
			Name:  qualifiedName(n, src),
			Start: int(n.StartPoint().Row) + 1,
			End:   int(n.EndPoint().Row) + 1,
			Hash:  canonicalHash(src[n.StartByte():n.EndByte()]),
		})
	}, func(*sitter.Node) { syntax = true })
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	slices.SortStableFunc(out, func(a, b lang.FuncSpan) int { return a.Start - b.Start })
	if syntax {
		return out, fmt.Errorf("%s: syntax error: methods near it may be cut wrong", file)
	}
	return out, nil
}

// qualifiedName is Outer.Inner.name(Types) of a method or constructor.
func qualifiedName(n *sitter.Node, src []byte) string {
	name := "<init>" // never: every constructor has its name
	if id := n.ChildByFieldName("name"); id != nil {
		name = id.Content(src)
	}
	var types []string
	if params := n.ChildByFieldName("parameters"); params != nil {
		for i := 0; i < int(params.NamedChildCount()); i++ {
			p := params.NamedChild(i)
			if t := p.ChildByFieldName("type"); t != nil {
				ty := strings.Join(strings.Fields(t.Content(src)), "")
				if p.Type() == "spread_parameter" {
					ty += "..."
				}
				types = append(types, ty)
			} else if p.Type() == "spread_parameter" && p.NamedChildCount() > 0 {
				types = append(types, strings.Join(strings.Fields(p.NamedChild(0).Content(src)), "")+"...")
			}
		}
	}
	name += "(" + strings.Join(types, ",") + ")"
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Type() {
		case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration", "annotation_type_declaration":
			if id := p.ChildByFieldName("name"); id != nil {
				name = id.Content(src) + "." + name
			}
		case "object_creation_expression":
			name = "<anonymous>." + name
		}
	}
	return name
}

// Token kinds of the canonical stream: each token is written as its kind,
// its length and its bytes, so no two different streams hash alike.
const (
	tokWord byte = iota + 1
	tokNumber
	tokString
	tokChar
	tokPunct
)

// canonicalHash hashes Java source by its tokens: words, numbers, string
// and char literals (text blocks included) verbatim, punctuation a byte
// each; comments and whitespace are dropped. It never fails: what it does
// not understand it hashes byte by byte.
func canonicalHash(src []byte) uint64 {
	h := xxh3.New()
	javaTokens(src, func(kind byte, b []byte, _ string) {
		n := len(b)
		h.Write([]byte{kind, byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)})
		h.Write(b)
	})
	return h.Sum64()
}
