package python

import (
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// notCallable are the expressions whose value is never callable.
var notCallable = map[string]bool{"none": true, "true": true, "false": true, "integer": true, "float": true,
	"string": true, "concatenated_string": true, "list": true, "tuple": true, "dictionary": true, "set": true,
	"list_comprehension": true, "dictionary_comprehension": true, "set_comprehension": true}

// hidingAssign reads test_x = None (or another value that is not
// callable) in a class body: a subclass's way to drop an inherited test.
// pytest collects only functions and unittest only callables, and both
// look a name up once, in the most derived class that binds it.
func (w *walker) hidingAssign(s *sitter.Node) (string, bool) {
	if s.NamedChildCount() == 0 || s.NamedChild(0).Type() != "assignment" {
		return "", false
	}
	a := s.NamedChild(0)
	left, right := a.ChildByFieldName("left"), a.ChildByFieldName("right")
	if left == nil || right == nil || left.Type() != "identifier" || !notCallable[unparen(right).Type()] {
		return "", false
	}
	name := w.text(left)
	if !strings.HasPrefix(name, "test") && name != "runTest" && !matchesOption(name, w.functions) {
		return "", false
	}
	return name, true
}

// hide records that the class body now binds name to a non-callable,
// dropping a test method it defined above.
func (c *classFact) hide(name string) {
	c.Methods = slices.DeleteFunc(c.Methods, func(f fnFact) bool { return f.Name == name })
	if !slices.Contains(c.Hidden, name) {
		c.Hidden = append(c.Hidden, name)
	}
}

// unhide records that the class body binds name to a function again.
func (c *classFact) unhide(name string) {
	c.Hidden = slices.DeleteFunc(c.Hidden, func(s string) bool { return s == name })
}
