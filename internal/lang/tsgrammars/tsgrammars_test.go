package tsgrammars

import (
	"strings"
	"sync"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

func TestParseConcurrently(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, c := range []struct {
				l    *Language
				src  string
				root string
			}{{Python, "def test_x(): pass\n", "module"}, {Rust, "#[test]\nfn t() {}\n", "source_file"}, {Java, "class A {}", "program"}} {
				tree, err := Parse(c.l, []byte(c.src))
				if err != nil || tree.RootNode().Type() != c.root || tree.RootNode().HasError() {
					t.Errorf("%q: %v", c.src, err)
				}
				tree.Close()
			}
		}()
	}
	wg.Wait()
}

func TestInvalidUTF8AndLine(t *testing.T) {
	if _, bad := InvalidUTF8([]byte("caf\u00e9\n")); bad {
		t.Error("valid UTF-8 reported invalid")
	}
	data := []byte("ok\nok\ncaf\xe9\n")
	off, bad := InvalidUTF8(data)
	if !bad || off != 9 || Line(data, off) != 3 {
		t.Errorf("offset %d (bad %v), line %d; want 9, true, 3", off, bad, Line(data, off))
	}
}

// TestWalk: Walk visits named nodes depth first in source order and
// skips the children of a node whose visit returns false.
func TestWalk(t *testing.T) {
	src := []byte("a = 1\ndef f():\n    b = 2\nc = 3\n")
	tree, err := Parse(Python, src)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	var got []string
	Walk(tree.RootNode(), func(n *sitter.Node) bool {
		if n.Type() == "identifier" {
			got = append(got, n.Content(src))
		}
		return n.Type() != "function_definition"
	})
	if strings.Join(got, " ") != "a c" {
		t.Errorf("Walk saw %v, want [a c] (f's body skipped)", got)
	}
}
