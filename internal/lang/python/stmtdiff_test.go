package python

import (
	"reflect"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/lang"
)

const stmtSrc = `import os


def f(x, y=1):
    """Doc."""
    total = 0
    if x > 0:
        total = x + y
    elif x < -5:
        total = -x
    else:
        pass
    for i in range(3):
        total += i
    value = compute(
        total,
        y,
    )
    while x:
        x -= 1
    if False:
        total = 1

    def inner(z):
        return z * 2

    return inner(value)
`

// TestChangedStatements narrows a changed function to the statements that
// changed, and refuses where a change could matter without its statement
// being reached.
func TestChangedStatements(t *testing.T) {
	for _, c := range []struct {
		name     string
		old, new string
		want     []lang.Span // nil: cannot narrow
	}{
		{"a simple statement in a branch", "total = x + y", "total = x - y", []lang.Span{{Start: 8, End: 8}}},
		{"an if's condition: the whole if", "if x > 0:", "if x >= 0:", []lang.Span{{Start: 7, End: 12}}},
		{"an elif's condition: the elif clause", "elif x < -5:", "elif x < -6:", []lang.Span{{Start: 9, End: 10}}},
		{"an augmented assignment in a loop", "total += i", "total -= i", []lang.Span{{Start: 14, End: 14}}},
		{"a statement on several lines: all of them", "        y,\n", "        y + 1,\n", []lang.Span{{Start: 15, End: 18}}},
		{"a nested function's body", "return z * 2", "return z * 3", []lang.Span{{Start: 25, End: 25}}},
		{"the return", "return inner(value)", "return inner(value) + 1", []lang.Span{{Start: 27, End: 27}}},
		{"two statements", "total = -x", "total = x", []lang.Span{{Start: 10, End: 10}}},
		{"the docstring (doctests read it)", `"""Doc."""`, `"""Dog."""`, nil},
		{"pass, which raises no line event", "        pass\n", "        total = 2\n", nil},
		{"a name bound where it was not (it becomes local everywhere)", "total = -x", "other = -x", nil},
		{"a yield (a generator now)", "total = -x", "total = yield x", nil},
		{"a statement added", "    while x:\n", "    print(x)\n    while x:\n", nil},
		{"an if on a constant (folded by the compiler)", "if False:", "if True:", nil},
		{"the signature", "def f(x, y=1):", "def f(x, y=2):", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(stmtSrc, c.old) {
				t.Fatalf("%q not in the source", c.old)
			}
			cur := strings.Replace(stmtSrc, c.old, c.new, 1)
			if c.name == "two statements" {
				cur = strings.Replace(cur, "total = x + y", "total = x * y", 1)
				c.want = append([]lang.Span{{Start: 8, End: 8}}, c.want...)
			}
			olds, err := Spanner.Spans("m.py", []byte(stmtSrc))
			if err != nil {
				t.Fatal(err)
			}
			curs, err := Spanner.Spans("m.py", []byte(cur))
			if err != nil {
				t.Fatal(err)
			}
			got, ok := Spanner.(lang.StatementDiffer).ChangedStatements("m.py", []byte(stmtSrc), olds[0], []byte(cur), curs[0])
			if c.want == nil {
				if ok {
					t.Errorf("narrowed to %v, want the whole function", got)
				}
				return
			}
			if !ok || !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %v (ok %v), want %v", got, ok, c.want)
			}
		})
	}
}
