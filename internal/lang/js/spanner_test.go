package js

import (
	"testing"

	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/langtest"
)

const spannerSource = `// cart
function total(items) {
  return items.reduce((s, i) => s + i.price, 0);
}

const double = (x) => x * 2;
exports.tax = function (x) { return x / 5; };

class Cart {
  add(item) {
    this.items.push(item);
  }
  get size() { return this.items.length; }
  clear = () => { this.items = []; };
}

describe('cart', () => {
  function helper() {}
  it('adds', () => helper());
});
`

// TestSpans checks the functions found, their names and lines.
func TestSpans(t *testing.T) {
	langtest.Spans(t, Spanner, "/p/cart.js", spannerSource, "total 2-4", "total.<anonymous> 3-3", "double 6-6",
		"exports.tax 7-7", "Cart.add 10-12", "Cart.size 13-13", "Cart.clear 14-14", "<anonymous> 17-20",
		"<anonymous>.helper 18-18", "<anonymous>.<anonymous> 19-19")
}

// TestSpanHashes checks that a function's hash ignores comments, white
// space and its position, and follows its tokens, strings' text included.
func TestSpanHashes(t *testing.T) {
	hash := func(file, src string) uint64 {
		t.Helper()
		spans, err := Spanner.Spans(file, []byte(src))
		if err != nil || len(spans) == 0 {
			t.Fatalf("%q: %v %v", src, spans, err)
		}
		return spans[len(spans)-1].Hash
	}
	base := hash("a.js", "function f(a) { return a + 1; }")
	same := []string{
		"\n\n// moved\nfunction f(a) {\n  // why\n  return a + 1; /* done */\n}\n",
		"function   f( a ){return a+1;}",
	}
	for _, s := range same {
		if h := hash("a.js", s); h != base {
			t.Errorf("%q: hash differs from the same tokens'", s)
		}
	}
	differ := []string{
		"function f(a) { return a + 2; }",
		"function f(a) { return a - 1; }",
		"function g(a) { return a + 1; }",
		"function f(a) { return `${a} + 1`; }",
	}
	for _, s := range differ {
		if h := hash("a.js", s); h == base {
			t.Errorf("%q: same hash as other tokens'", s)
		}
	}
	if hash("a.js", "const s = () => `a ${1} b`;") == hash("a.js", "const s = () => `a ${1}  b`;") {
		t.Error("a template's text is not hashed")
	}
}

// TestSpansTypeScript checks TypeScript's methods and typed functions.
func TestSpansTypeScript(t *testing.T) {
	src := "export class Box<T> {\n  constructor(private v: T) {}\n  get(): T {\n    return this.v;\n  }\n}\nexport const make = <T,>(v: T): Box<T> => new Box(v);\n"
	spans, err := Spanner.Spans("/p/box.ts", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []lang.FuncSpan{{Name: "Box.constructor", Start: 2, End: 2}, {Name: "Box.get", Start: 3, End: 5}, {Name: "make", Start: 7, End: 7}}
	if len(spans) != len(want) {
		t.Fatalf("spans %+v, want %+v", spans, want)
	}
	for i, s := range spans {
		if s.Name != want[i].Name || s.Start != want[i].Start || s.End != want[i].End {
			t.Errorf("span %d: %+v, want %+v", i, s, want[i])
		}
	}
}
