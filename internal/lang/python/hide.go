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
// callable) in a class body, chained ones too (test_a = test_b = None): a
// subclass's way to drop inherited tests. pytest collects only functions
// and unittest only callables, and both look a name up once, in the most
// derived class that binds it. It returns the test-like names bound.
func (w *walker) hidingAssign(s *sitter.Node) []string {
	if s.NamedChildCount() == 0 || s.NamedChild(0).Type() != "assignment" {
		return nil
	}
	var names []string
	a := s.NamedChild(0)
	for depth := 0; depth < 50; depth++ {
		left, right := a.ChildByFieldName("left"), a.ChildByFieldName("right")
		if left == nil || right == nil || left.Type() != "identifier" {
			return nil
		}
		if name := w.text(left); strings.HasPrefix(name, "test") || name == "runTest" || matchesOption(name, w.functions) {
			names = append(names, name)
		}
		if right.Type() != "assignment" {
			if !notCallable[unparen(right).Type()] {
				return nil
			}
			return names
		}
		a = right
	}
	return nil
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
