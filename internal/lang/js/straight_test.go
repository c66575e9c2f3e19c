package js

import (
	"strings"
	"testing"

	"github.com/testdex/testdex"
)

// straightPrelude holds the functions of testdata/straight.js: complex.js's
// stringify (JSON.stringify with a replacer) and describeTest
// (declarations, then a return), and g (guards, a declaration, a return).
const straightPrelude = `function stringify(value) {
  return JSON.stringify(value, function replacer(key, val) {
    if (typeof val === "number") {
      return val.toString();
    }
    return val;
  });
}
function describeTest(test) {
  var ctor = "new C(" + (test.set !== undefined ? stringify(test.set) : "") + ")";
  var fnCall = test.fn == null ? "" : "." + test.fn + "(" + (test.param !== undefined ? stringify(test.param) : "") + ")";
  var expectedResult = test.expect == null ? "" : " === " + stringify(test.expect);
  var error = test.error == null ? "" : " should throw " + test.error;
  return ctor + fnCall + expectedResult + error;
}
function g(x) { if (x > 2) return 'big'; if (x < 0) { return 'neg' } const y = x * 2; return 'small' + y }
`

// TestStraightFunctions checks calls of the file's functions whose bodies
// run straight to a value, JSON.stringify with a replacer, Math's
// constants and exact functions, a number's toString and an object
// compared with a primitive against node's
// own results: `node internal/lang/js/testdata/straight.js` prints them.
func TestStraightFunctions(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`describeTest({set: 9, fn: 'sqrt', expect: '3'})`, `new C("9").sqrt() === "3"`},
		{`describeTest({set: {re: 1, im: 0.5 * Math.sqrt(4 / 3)}, fn: 'arg', param: null, expect: "" + Math.PI / 6})`,
			`new C({"re":"1","im":"0.5773502691896257"}).arg(null) === "0.5235987755982988"`},
		{`describeTest({set: "x", error: "SyntaxError: Invalid Param"})`, `new C("x") should throw SyntaxError: Invalid Param`},
		{`describeTest({set: ["9", -0.1e-7], expect: Math.PI + "i"})`, `new C(["9","-1e-8"]) === "3.141592653589793i"`},
		{`describeTest({})`, `new C()`},
		{`[g(3), g(-1), g(1)].join()`, "big,neg,small2"},
		{"`${Math.floor(-2.5)} ${Math.ceil(-0.5)} ${Math.abs(-3)} ${Math.trunc(2.7)} ${Math.SQRT1_2} ${Math.LN10} ${'' + -3 * Math.PI / 4}`",
			"-3 0 3 2 0.7071067811865476 2.302585092994046 -2.356194490192345"},
		{"`${(0.1).toString()} ${(1e21).toString()} ${(true).toString()} ${(-0).toString()}`", "0.1 1e+21 true 0"},
		{`JSON.stringify({a: 1, b: 2}, (k, v) => k === 'b' ? undefined : v) + JSON.stringify([1, 2], (k, v) => k === '0' ? undefined : v)`,
			`{"a":1}[null,2]`},
		{"`${[1] === undefined} ${({}) == null} ${[] !== 'a'} ${null != {a: 1}}`", "false false true true"},
	} {
		got := names(extract(t, testdex.Mocha, "a.test.js", straightPrelude+"it("+c.src+", () => {})"))
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}

// TestStraightUnknown checks that what does not run straight, or is not
// fixed to the last bit, stays unknown: Math.log, a replacer reading its
// holder, a body with a loop or an else, a guard the source does not
// decide, Math shadowed.
func TestStraightUnknown(t *testing.T) {
	for _, src := range []string{
		`String(Math.log(2))`,
		`JSON.stringify({a: 1}, function (k, v) { return this.a })`,
		`h(1)`,
		`e(1)`,
		`g(x)`,
		`String(M.PI)`,
		`describeTest({set: new C(1)})`,
	} {
		prelude := straightPrelude + "function h(x) { for (const a of [1]) {} return 'x' }\nfunction e(x) { if (x) { return 'a' } else { return 'b' } }\nconst M = Math;\n"
		got := names(extract(t, testdex.Mocha, "a.test.js", prelude+"it("+src+", () => {})"))
		if len(got) != 1 || !strings.HasPrefix(got[0], "dynamic ") {
			t.Errorf("%s: got %q, want one dynamic record", src, got)
		}
	}
	shadowed := "const Math = { PI: 3 };\nit(String(Math.PI), () => {})"
	if got := names(extract(t, testdex.Mocha, "a.test.js", shadowed)); len(got) != 1 || got[0] != "3" {
		t.Errorf("a file's own Math: got %q, want its PI, 3", got)
	}
}

// TestReplayedForLoops checks a push in an indexed for loop over the
// binding it changes, replayed iteration by iteration (complex.js's
// constructor table), and hasOwnProperty on literals, against node's
// output (the last line of `node internal/lang/js/testdata/straight.js`);
// a condition the source does not decide, a body that changes the counter
// or holds another statement, and a loop in a function stay unknown.
func TestReplayedForLoops(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"const a1 = [{n: 'x', set: {r: 1}}, {n: 'y', set: [9, 8]}, {n: 'z', set: null}, {n: 'w', set: 'r'}];\n" +
			"for (let i = 0, len = a1.length; i < len; ++i) { if (a1[i].set != null && a1[i].set.hasOwnProperty('r')) { a1.push({n: a1[i].n + '2', abs: a1[i].set.r}) } }\n" +
			"const a2 = [1, 2];\nfor (let i = 0; i < a2.length && i < 5; i++) a2.push(a2[i] * 10);\n" +
			"it(JSON.stringify(a1) + ' ' + a2.join() + ' ' + [[1].hasOwnProperty('0'), 'ab'.hasOwnProperty('length'), (3).hasOwnProperty('x'), ({a: 1}).hasOwnProperty('a')].join(), () => {})",
			`[{"n":"x","set":{"r":1}},{"n":"y","set":[9,8]},{"n":"z","set":null},{"n":"w","set":"r"},{"n":"x2","abs":1}] 1,2,10,20,100,200,1000 true,true,false,true`},
		{"const a = [1];\nfor (let i = 0; i < a.length; i++) { if (u) a.push(3) }\nit(a.join(), () => {})", "dynamic {a.join()}"},
		{"const a = [1];\nfor (let i = 0; i < 3; i++) { a.push(i); i++ }\nit(a.join(), () => {})", "dynamic {a.join()}"},
		{"const a = [1];\nfor (let i = 0; i < 3; i++) { a.push(i); f() }\nit(a.join(), () => {})", "dynamic {a.join()}"},
		{"const a = [1];\nfunction g() { for (let i = 0; i < 3; i++) a.push(i) }\nit(a.join(), () => {})", "dynamic {a.join()}"},
		{"const a = [1];\nfor (let i = 0; i < a.length; i++) a.push(i);\nit(a.join(), () => {})", "dynamic {a.join()}"},
		{"const o = {hasOwnProperty: () => true};\nit(String(o.hasOwnProperty('x')), () => {})", "dynamic {String(o.hasOwnProperty('x'))}"},
	} {
		got := names(extract(t, testdex.Mocha, "a.test.js", c.src))
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}
