package python

import (
	"testing"

	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/stmtdiff/stmtdifftest"
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
	stmtdifftest.Check(t, Spanner, "m.py", stmtSrc, []stmtdifftest.Edit{
		{Name: "a simple statement in a branch", Old: "total = x + y", New: "total = x - y", Want: []lang.Span{{Start: 8, End: 8}}},
		{Name: "an if's condition: the whole if", Old: "if x > 0:", New: "if x >= 0:", Want: []lang.Span{{Start: 7, End: 12}}},
		{Name: "an elif's condition: the elif clause", Old: "elif x < -5:", New: "elif x < -6:", Want: []lang.Span{{Start: 9, End: 10}}},
		{Name: "an augmented assignment in a loop", Old: "total += i", New: "total -= i", Want: []lang.Span{{Start: 14, End: 14}}},
		{Name: "a statement on several lines: all of them", Old: "        y,\n", New: "        y + 1,\n", Want: []lang.Span{{Start: 15, End: 18}}},
		{Name: "a nested function's body", Old: "return z * 2", New: "return z * 3", Want: []lang.Span{{Start: 25, End: 25}}},
		{Name: "the return", Old: "return inner(value)", New: "return inner(value) + 1", Want: []lang.Span{{Start: 27, End: 27}}},
		{Name: "two statements", Old: "total = x + y\n    elif x < -5:\n        total = -x", New: "total = x * y\n    elif x < -5:\n        total = x", Want: []lang.Span{{Start: 8, End: 8}, {Start: 10, End: 10}}},
		{Name: "the docstring (doctests read it)", Old: `"""Doc."""`, New: `"""Dog."""`},
		{Name: "pass, which raises no line event", Old: "        pass\n", New: "        total = 2\n"},
		{Name: "a name bound where it was not (it becomes local everywhere)", Old: "total = -x", New: "other = -x"},
		{Name: "a yield (a generator now)", Old: "total = -x", New: "total = yield x"},
		{Name: "a statement added", Old: "    while x:\n", New: "    print(x)\n    while x:\n"},
		{Name: "an if on a constant (folded by the compiler)", Old: "if False:", New: "if True:"},
		{Name: "the signature", Old: "def f(x, y=1):", New: "def f(x, y=2):"},
	}, nil)
}
