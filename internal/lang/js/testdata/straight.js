// The expectations of straight_test.go (TestStraightFunctions), printed by
// node: node internal/lang/js/testdata/straight.js
const out = [];
const it = (t) => out.push(t);
function stringify(value) {
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
for (const t of [{set: 9, fn: 'sqrt', expect: '3'}, {set: {re: 1, im: 0.5 * Math.sqrt(4 / 3)}, fn: 'arg', param: null, expect: "" + Math.PI / 6},
  {set: "x", error: "SyntaxError: Invalid Param"}, {set: ["9", -0.1e-7], expect: Math.PI + "i"}, {}]) {
  it(describeTest(t));
}
it([g(3), g(-1), g(1)].join());
it(`${Math.floor(-2.5)} ${Math.ceil(-0.5)} ${Math.abs(-3)} ${Math.trunc(2.7)} ${Math.SQRT1_2} ${Math.LN10} ${'' + -3 * Math.PI / 4}`);
it(`${(0.1).toString()} ${(1e21).toString()} ${(true).toString()} ${(-0).toString()}`);
it(JSON.stringify({a: 1, b: 2}, (k, v) => k === 'b' ? undefined : v) + JSON.stringify([1, 2], (k, v) => k === '0' ? undefined : v));
it(`${[1] === undefined} ${({}) == null} ${[] !== 'a'} ${null != {a: 1}}`);
console.log(JSON.stringify(out, null, 1));
// TestReplayedForLoops's cases.
const a1 = [{n: 'x', set: {r: 1}}, {n: 'y', set: [9, 8]}, {n: 'z', set: null}, {n: 'w', set: 'r'}];
for (let i = 0, len = a1.length; i < len; ++i) { if (a1[i].set != null && a1[i].set.hasOwnProperty('r')) { a1.push({n: a1[i].n + '2', abs: a1[i].set.r}) } }
const a2 = [1, 2];
for (let i = 0; i < a2.length && i < 5; i++) a2.push(a2[i] * 10);
console.log(JSON.stringify(a1) + ' ' + a2.join() + ' ' + [[1].hasOwnProperty('0'), 'ab'.hasOwnProperty('length'), (3).hasOwnProperty('x'), ({a: 1}).hasOwnProperty('a')].join());
