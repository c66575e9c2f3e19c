package python

import (
	"regexp"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// execLocal reports whether an exec whose code is no literal runs code
// its caller assembles from its own literals: a code generator (a
// dataclass-like library writing an __init__, a mock writing a function
// of a given signature) that cannot import a project file unless its
// templates do. Such an exec adds no edge; any other still reaches
// lang.AnyNode (every change in the project reaches the file).
//
// The code is built when, in the scope of the call (the enclosing
// function, else the module), it is a string literal or f-string, a
// concatenation (+, adjacent literals), a % or .format template, a
// .join of built parts, .strip/.replace of a built string,
// compile(code, ...), textwrap.dedent(code), a conditional of built
// strings, or a name whose every binding in the scope (=, +=, .append,
// .extend, .insert) is built (a list of built parts included). Not a
// parameter, a global, a loop variable or anything else bound another
// way. The text of its literals, and of the locals it fills slots with,
// must not name an import mechanism (import, __import__, importlib,
// exec, eval, compile, runpy, open, sys.modules), and must hold some
// code besides its slots ("%s" % code is code from elsewhere).
//
// What fills a template's other slots (a parameter, an attribute, a
// call: the names and defaults of the generated function) is taken as
// names and values, not as code: a caller that passes statements to a
// library's template would defeat this (a blind spot, docs/affected.md).
func (r *importReader) execLocal(call, code *sitter.Node) bool {
	if code == nil {
		return false
	}
	b := &codeBuilder{r: r, scope: scopeOf(call), seen: map[string]bool{}}
	b.params = paramsOf(r, b.scope)
	if !b.built(code, 0) {
		return false
	}
	text := b.text.String()
	return !importWords.MatchString(text) && strings.TrimSpace(slotSpecs.ReplaceAllString(text, "")) != ""
}

// importWords are what a code text names to import: its imports are
// unknown.
var importWords = regexp.MustCompile(`\bimport\b|__import__|\bimportlib\b|\bexec\b|\beval\b|\bcompile\b|\brunpy\b|\bopen\b|sys\.modules|__builtins__`)

// slotSpecs are a template's slots: %s, %(name)r, {}, {0}, {name!r:>4}.
var slotSpecs = regexp.MustCompile(`%(\([^)]*\))?[-#0 +]*[0-9*]*(\.[0-9*]+)?[diouxXeEfFgGcrsa%]|\{[^{}]*\}`)

// codeBuilder decides whether an expression builds code from literals
// (see execLocal), collecting the literals' text.
type codeBuilder struct {
	r      *importReader
	scope  *sitter.Node
	params map[string]bool
	seen   map[string]bool // names being resolved
	text   strings.Builder
}

// maxBuildDepth bounds the expressions and names followed.
const maxBuildDepth = 30

// built reports whether n builds code from literals.
func (b *codeBuilder) built(n *sitter.Node, depth int) bool {
	if n == nil || depth > maxBuildDepth {
		return false
	}
	switch n.Type() {
	case "string":
		return b.literal(n, depth)
	case "concatenated_string", "list", "tuple", "parenthesized_expression", "expression_list":
		return b.all(n, depth)
	case "binary_operator":
		switch b.r.text(n.ChildByFieldName("operator")) {
		case "+":
			return b.built(n.ChildByFieldName("left"), depth+1) && b.built(n.ChildByFieldName("right"), depth+1)
		case "%":
			b.slot(n.ChildByFieldName("right"), depth)
			return b.built(n.ChildByFieldName("left"), depth+1)
		}
	case "conditional_expression":
		return n.NamedChildCount() == 3 && b.built(n.NamedChild(0), depth+1) && b.built(n.NamedChild(2), depth+1)
	case "list_comprehension", "generator_expression":
		return b.built(n.ChildByFieldName("body"), depth+1)
	case "call":
		return b.call(n, depth)
	case "identifier":
		return b.name(b.r.text(n), depth)
	}
	return false
}

// all reports whether every named child of n is built.
func (b *codeBuilder) all(n *sitter.Node, depth int) bool {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		if c.Type() != "comment" && !b.built(c, depth+1) {
			return false
		}
	}
	return true
}

// literal collects a string's text; an f-string's interpolations are
// slots.
func (b *codeBuilder) literal(n *sitter.Node, depth int) bool {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		switch c.Type() {
		case "string_content":
			b.text.WriteString(b.r.text(c))
		case "interpolation":
			b.slot(c.ChildByFieldName("expression"), depth)
		}
	}
	b.text.WriteByte('\n')
	return true
}

// slot takes a value filling a template's slot: a local built from
// literals counts with its text (it may be code); anything else is a
// name or a value.
func (b *codeBuilder) slot(n *sitter.Node, depth int) {
	if n == nil {
		return
	}
	if n.Type() == "identifier" || n.Type() == "tuple" || n.Type() == "parenthesized_expression" {
		sub := &codeBuilder{r: b.r, scope: b.scope, params: b.params, seen: b.seen}
		if sub.built(n, depth+1) {
			b.text.WriteString(sub.text.String())
		}
	}
}

// call decides the calls that build strings.
func (b *codeBuilder) call(n *sitter.Node, depth int) bool {
	fn, args := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
	first := firstArg(args)
	switch fn.Type() {
	case "identifier":
		switch b.r.text(fn) {
		case "compile", "dedent", "cleandoc":
			return b.built(first, depth+1)
		}
	case "attribute":
		obj, attr := fn.ChildByFieldName("object"), b.r.text(fn.ChildByFieldName("attribute"))
		switch attr {
		case "format", "format_map":
			for i := 0; args != nil && i < int(args.NamedChildCount()); i++ {
				b.slot(args.NamedChild(i), depth)
			}
			return b.built(obj, depth+1)
		case "join":
			return b.built(obj, depth+1) && b.built(first, depth+1)
		case "strip", "lstrip", "rstrip", "replace", "expandtabs":
			return b.built(obj, depth+1)
		case "dedent", "cleandoc": // textwrap.dedent, inspect.cleandoc
			return b.built(first, depth+1)
		}
	}
	return false
}

func firstArg(args *sitter.Node) *sitter.Node {
	for i := 0; args != nil && i < int(args.NamedChildCount()); i++ {
		if c := args.NamedChild(i); c.Type() != "keyword_argument" && c.Type() != "comment" {
			return c
		}
	}
	return nil
}

// name decides a local: every binding of it in the scope builds code.
func (b *codeBuilder) name(name string, depth int) bool {
	if b.params[name] || b.seen[name] {
		return false
	}
	b.seen[name] = true
	defer delete(b.seen, name)
	found, ok := 0, true
	walkScope(b.scope, func(n *sitter.Node) bool {
		if !ok {
			return false
		}
		switch v, kind := b.binding(n, name); kind {
		case bindNone:
		case bindOther:
			ok = false
		default:
			found++
			ok = b.built(v, depth+1)
		}
		return ok
	})
	return ok && found > 0
}

// How a node binds a name.
const (
	bindNone  = iota // it does not
	bindValue        // name = v, name += v, name.append(v), ...
	bindOther        // for name in, with ... as name, global name, def name, import ... as name
)

// binding says whether n binds name, and to what.
func (b *codeBuilder) binding(n *sitter.Node, name string) (*sitter.Node, int) {
	switch n.Type() {
	case "assignment", "augmented_assignment":
		left := n.ChildByFieldName("left")
		if b.r.text(left) == name {
			if right := n.ChildByFieldName("right"); right != nil {
				return right, bindValue
			}
			return nil, bindNone // an annotation alone binds nothing
		}
		if left != nil && left.Type() != "identifier" && mentions(b.r, left, name) {
			return nil, bindOther // unpacked into, or a subscript of it assigned
		}
	case "call":
		fn := n.ChildByFieldName("function")
		if fn != nil && fn.Type() == "attribute" && b.r.text(fn.ChildByFieldName("object")) == name {
			args := n.ChildByFieldName("arguments")
			switch b.r.text(fn.ChildByFieldName("attribute")) {
			case "append", "extend":
				return firstArg(args), bindValue
			case "insert":
				if args != nil && args.NamedChildCount() == 2 {
					return args.NamedChild(1), bindValue
				}
				return nil, bindOther
			}
		}
	case "for_statement", "for_in_clause", "with_item", "as_pattern", "global_statement", "nonlocal_statement",
		"import_statement", "import_from_statement", "aliased_import", "named_expression", "delete_statement":
		if mentions(b.r, n.ChildByFieldName("left"), name) || n.Type() != "for_statement" && n.Type() != "for_in_clause" && mentionsDirect(b.r, n, name) {
			return nil, bindOther
		}
	case "function_definition", "class_definition":
		if b.r.text(n.ChildByFieldName("name")) == name {
			return nil, bindOther
		}
	}
	return nil, bindNone
}

// mentions reports whether an identifier of n's subtree is name.
func mentions(r *importReader, n *sitter.Node, name string) bool {
	if n == nil {
		return false
	}
	if n.Type() == "identifier" {
		return r.text(n) == name
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if mentions(r, n.NamedChild(i), name) {
			return true
		}
	}
	return false
}

// mentionsDirect is mentions over n's named children that are not
// blocks (a with statement's items, not its body).
func mentionsDirect(r *importReader, n *sitter.Node, name string) bool {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); c.Type() != "block" && mentions(r, c, name) {
			return true
		}
	}
	return false
}

// scopeOf returns the function definition enclosing n, else the module.
func scopeOf(n *sitter.Node) *sitter.Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Type() == "function_definition" || p.Type() == "lambda" {
			return p
		}
		n = p
	}
	return n
}

// paramsOf returns the parameter names of a function scope.
func paramsOf(r *importReader, scope *sitter.Node) map[string]bool {
	out := map[string]bool{}
	ps := scope.ChildByFieldName("parameters")
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if n == nil {
			return
		}
		if n.Type() == "identifier" {
			out[r.text(n)] = true
			return
		}
		for i := 0; i < int(n.NamedChildCount()); i++ {
			c := n.NamedChild(i)
			if c.Type() == "default_parameter" || c.Type() == "typed_default_parameter" || c.Type() == "typed_parameter" {
				walk(c.NamedChild(0)) // the name, not its default or type
				continue
			}
			walk(c)
		}
	}
	walk(ps)
	return out
}

// walkScope calls visit on every node of scope, depth first, while it
// returns true.
func walkScope(scope *sitter.Node, visit func(*sitter.Node) bool) {
	c := sitter.NewTreeCursor(scope)
	defer c.Close()
	for {
		if !visit(c.CurrentNode()) {
			return
		}
		if c.GoToFirstChild() {
			continue
		}
		for !c.GoToNextSibling() {
			if !c.GoToParent() || c.CurrentNode().Equal(scope) {
				return
			}
		}
	}
}
