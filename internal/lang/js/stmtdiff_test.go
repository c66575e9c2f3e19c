package js

import (
	"testing"

	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/stmtdiff/stmtdifftest"
)

const jsStmtSrc = `'use strict';
function f(x, y = 1) {
  let total = 0;
  if (x > 0) {
    total = x + y;
  } else if (x < -5) {
    total = -x;
  } else {
    total = 1;
  }
  for (const i of [1, 2]) total += i;
  const g = (z) => {
    return z * 2;
  };
  function helper() { return 3; }
  try {
    total += g(total);
  } catch (e) {
    total = 0;
  }
  return total + helper();
}
module.exports = { f };
`

// TestChangedStatements narrows a changed JavaScript function to the
// statements that changed, and refuses where a change could matter
// without its statement marking a line.
func TestChangedStatements(t *testing.T) {
	stmtdifftest.Check(t, Spanner, "m.js", jsStmtSrc, []stmtdifftest.Edit{
		{Name: "a statement in a branch", Old: "total = x + y;", New: "total = x - y;", Want: []lang.Span{{Start: 5, End: 5}}},
		{Name: "an else-if's condition: that if", Old: "} else if (x < -5) {", New: "} else if (x < -6) {", Want: []lang.Span{{Start: 6, End: 10}}},
		{Name: "a loop's single statement", Old: "total += i;", New: "total -= i;", Want: []lang.Span{{Start: 11, End: 11}}},
		{Name: "a statement in a catch", Old: "total = 0;\n  }", New: "total = 2;\n  }", Want: []lang.Span{{Start: 19, End: 19}}},
		{Name: "an arrow's body: its changed statement", Old: "return z * 2;", New: "return z * 3;", Want: []lang.Span{{Start: 13, End: 13}}},
		{Name: "an arrow's parameters: the declaration holding it", Old: "const g = (z) =>", New: "const g = (z = 1) =>", Want: []lang.Span{{Start: 12, End: 14}}},
		{Name: "inside a nested function declaration", Old: "return 3;", New: "return 4;", Want: []lang.Span{{Start: 15, End: 15}}},
		{Name: "a nested function declaration's name (hoisted, bound on entry)", Old: "function helper()", New: "function helper2()"},
		{Name: "a declaration's kind", Old: "let total = 0;", New: "var total = 0;"},
		{Name: "a statement added", Old: "  return total + helper();", New: "  total++;\n  return total + helper();"},
		{Name: "the parameters' defaults", Old: "y = 1", New: "y = 2"},
	}, func(t *testing.T, cur string, old, now lang.FuncSpan) {
		if _, ok := Spanner.(lang.StatementDiffer).ChangedStatements("m.ts", []byte(jsStmtSrc), old, []byte(cur), now); ok {
			t.Errorf("narrowed a TypeScript file")
		}
	})
}
