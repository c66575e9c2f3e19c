// Package tsgrammars gathers the tree-sitter grammars testdex parses with,
// so that every language package imports them from one place and the cgo
// build of each grammar happens once.
//
// Rules for every user (see STACK.md): one *sitter.Parser per goroutine,
// compile each query once, and always Close() trees, cursors and queries:
// left to finalizers, parsing 17 MB of Python reached 1.7 GB of memory.
package tsgrammars

import (
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
