package js

import (
	"reflect"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/lang"
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
	for _, c := range []struct {
		name     string
		old, new string
		want     []lang.Span // nil: cannot narrow
	}{
		{"a statement in a branch", "total = x + y;", "total = x - y;", []lang.Span{{Start: 5, End: 5}}},
		{"an else-if's condition: that if", "} else if (x < -5) {", "} else if (x < -6) {", []lang.Span{{Start: 6, End: 10}}},
		{"a loop's single statement", "total += i;", "total -= i;", []lang.Span{{Start: 11, End: 11}}},
		{"a statement in a catch", "total = 0;\n  }", "total = 2;\n  }", []lang.Span{{Start: 19, End: 19}}},
		{"an arrow's body: its changed statement", "return z * 2;", "return z * 3;", []lang.Span{{Start: 13, End: 13}}},
		{"an arrow's parameters: the declaration holding it", "const g = (z) =>", "const g = (z = 1) =>", []lang.Span{{Start: 12, End: 14}}},
		{"inside a nested function declaration", "return 3;", "return 4;", []lang.Span{{Start: 15, End: 15}}},
		{"a nested function declaration's name (hoisted, bound on entry)", "function helper()", "function helper2()", nil},
		{"a declaration's kind", "let total = 0;", "var total = 0;", nil},
		{"a statement added", "  return total + helper();", "  total++;\n  return total + helper();", nil},
		{"the parameters' defaults", "y = 1", "y = 2", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(jsStmtSrc, c.old) {
				t.Fatalf("%q not in the source", c.old)
			}
			cur := strings.Replace(jsStmtSrc, c.old, c.new, 1)
			olds, err := Spanner.Spans("m.js", []byte(jsStmtSrc))
			if err != nil {
				t.Fatal(err)
			}
			curs, err := Spanner.Spans("m.js", []byte(cur))
			if err != nil {
				t.Fatal(err)
			}
			got, ok := Spanner.(lang.StatementDiffer).ChangedStatements("m.js", []byte(jsStmtSrc), olds[0], []byte(cur), curs[0])
			if c.want == nil {
				if ok {
					t.Errorf("narrowed to %v, want the whole function", got)
				}
				return
			}
			if !ok || !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %v (ok %v), want %v", got, ok, c.want)
			}
			if _, ok := Spanner.(lang.StatementDiffer).ChangedStatements("m.ts", []byte(jsStmtSrc), olds[0], []byte(cur), curs[0]); ok {
				t.Errorf("narrowed a TypeScript file")
			}
		})
	}
}
