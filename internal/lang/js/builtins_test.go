package js

import (
	"strings"
	"testing"

	"github.com/testdex/testdex"
)

// TestBuiltinValues checks the builtins evaluated on data values against
// node's own results. The expectations were written from node 20's output
// of the same expressions: the program is testdata/builtins.js, and
// `node internal/lang/js/testdata/builtins.js` prints them.
func TestBuiltinValues(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`JSON.stringify({b: 1, 2: "x\"y\\z\n\u0001\u2028<&>", a: [undefined, null, 1e21, -0, 0.1], u: undefined, n: {}})`,
			"{\"2\":\"x\\\"y\\\\z\\n\\u0001\u2028<&>\",\"b\":1,\"a\":[null,null,1e+21,0,0.1],\"n\":{}}"},
		{`'a"b"c'.replace(/"/g, "'") + ' ' + 'a.b.c'.replace(/\./, '-') + ' ' + 'aXbXc'.replaceAll('X', '_') + ' ' + 'abcb'.replace('b', 'B')`,
			"a'b'c a-b.c a_b_c aBcb"},
		{`String([1, 2, 3].pop()) + [1, 2, 3].shift() + JSON.stringify([1, [2, [3]]].flat()) + JSON.stringify([1, [2, [3]]].flat(2))`,
			"31[1,2,[3]][1,2,3]"},
		{`JSON.stringify([0, 1, 2, 3, 4].splice(1, 2)) + JSON.stringify([0, 1, 2, 3].splice(-1)) + JSON.stringify([0, 1, 2, 3].slice(1, -1)) + JSON.stringify([0, 1].concat([2, [3]], 4))`,
			"[1,2][3][1,2][0,1,2,[3],4]"},
		{"`${[1, NaN].includes(NaN)} ${[1, '1'].includes(2)} ${Array.isArray([])} ${Array.isArray({})} ${Array.isArray('a')}`",
			"true false true false false"},
		{`JSON.stringify(Object.entries({x: 'a', 1: ['b', 'c']}).map((e) => e.flat()))`,
			`[["1","b","c"],["x","a"]]`},
		{`JSON.stringify('\uD83D\uDE00 \u00e9')`, "\"\U0001F600 \u00e9\""},
		{"'a\\nb\\tc'.replace(/\\n/g, String.raw`\\n`).replace(/\\t/, '<t>')", "a\\nb<t>c"},
		{`[/^sync(-|$)/.test('sync'), /^sync(-|$)/.test('sync-force-shell'), /^sync(-|$)/.test('spawn'), /-force-shell$/.test('spawn-force-shell'), /^win/i.test('Win32'), /\d{2,}/.test('a1b'), /[a-c]+x?\b/.test('zzb '), /\s/.test('a b'), /a.c/.test('abc'), /\/x\./.test('a/x.y')].join()`,
			"true,true,false,true,true,false,true,true,true,true"},
		{`'abc'.replace(/b+/g, 'x') + 'abc'.replace(/B/i, 'x') + 'abc'.replace(/\d/g, 'x')`, "axcaxcabc"},
		{`'c:/temp'.replace(/^[A-Za-z]:\//, (r) => r.toUpperCase()) + ' ' + 'a-b-c'.replace(/-(\w)/g, (m, c, i) => c.toUpperCase() + i) + ' ' + 'x1y22'.replaceAll(/\d+/g, (d) => '<' + d + '>')`,
			"C:/temp aB1C3 x<1>y<22>"},
		{`'aXbX'.replace('X', (m, i, s) => i + s) + ' ' + 'ab'.replace(/(a)|(z)/, (m, p1, p2) => String(p2)) + ' ' + 'aXbX'.replaceAll('X', () => '_')`,
			"a1aXbXbX undefinedb a_b_"},
		{`JSON.stringify({ [1 + 1]: 'a', b: 1, ['c' + 'd']: 2, [null]: 3, [true]: 4, b: 5, [1.5]: 6 })`,
			`{"2":"a","b":5,"cd":2,"null":3,"true":4,"1.5":6}`},
		{"`${'10' < '9'} ${'10' < 9} ${2 >= 2} ${NaN < 1} ${'b' > 'a'} ${Number('20.1.0'.split('.')[0]) >= 18} ${parseInt('20.11.1', 10)} ${'v20.1'.startsWith('v20')} ${'abc'.endsWith('bc')} ${'abc'.includes('d')} ${'a.b.c'.split('.').join('|')}`",
			"true false true false true true 20 true true false a|b|c"},
	} {
		got := names(extract(t, testdex.Jest, "a.test.js", "it("+c.src+", () => {})"))
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}

// TestBuiltinsUnknown checks that what is not data stays unknown: a
// regular expression the engines may not agree on (a global one that can
// match empty, a group in a loop, a character beyond the Basic
// Multilingual Plane), a $ replacement, a replacement function that reads
// what is not known, a function row, an object's identity, a computed key
// that is a symbol or an object.
func TestBuiltinsUnknown(t *testing.T) {
	for _, src := range []string{
		`'abc'.replace('b', '$&$&')`,
		`'abc'.replaceAll(/b/, 'x')`,
		`'abc'.replace(/b*/g, 'x')`,
		`'abc'.replace(/\b/g, 'x')`,
		`'aba'.replace(/(?:(a)|b)+/, 'x')`,
		`'a\u{1F600}b'.replace(/b/, (m, i) => i)`,
		`'abc'.replace(/b/, (m) => m + y)`,
		`'abc'.replace(/b/, async (m) => m)`,
		`'abc'.replace('', () => 'x')`,
		`JSON.stringify({ [Symbol('a')]: 1 })`,
		`JSON.stringify({ [{}]: 1 })`,
		`JSON.stringify([() => 1])`,
		`String([{}].includes({}))`,
		`String(new Set([{}]).has(1))`,
		`[1, 2].splice(x).join()`,
		`String(Array.isArray(f()))`,
		`String(/a/g.test('a'))`,
		`String(/a/y.test('a'))`,
		`String(/a/u.test('a'))`,
		`String(/(?=a)a/.test('a'))`,
		`String(/(a)\1/.test('aa'))`,
		`String(/^.$/.test('\u{1F600}'))`,
		`String(/\s/.test('a\u00a0b'))`,
		`String(/é/i.test('É'))`,
		`String([1] < 2)`,
		`String(null < 1)`,
		`String('a'.split(/,/))`,
		`String(parseInt('ff', 16))`,
	} {
		got := names(extract(t, testdex.Jest, "a.test.js", "it("+src+", () => {})"))
		if len(got) != 1 || !strings.HasPrefix(got[0], "dynamic ") {
			t.Errorf("%s: got %q, want one dynamic record", src, got)
		}
	}
}

// TestReplayedChanges checks the values of bindings the code changes
// before a title reads them (node's output, testdata/builtins.js), and
// that a change whose order the source does not fix leaves the title
// dynamic.
func TestReplayedChanges(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string
	}{
		{"const S = new Set(['a', 'b', 'a', NaN]);\nit(`${S.has('a')} ${S.size} ${S.has('c')} ${S.has(NaN)}`, () => {})",
			[]string{"true 3 false true"}},
		{"const L = [1, 2, 3]; L.pop(); L.push(4); L.splice(0, 1, 'x'); L.unshift('u');\nit(L.join('-'), () => {})",
			[]string{"u-x-2-4"}},
		{"let v = ['a']; if (!Array.isArray(v)) { v = 'no' } else { v = v.concat('b') }\nit(String(v), () => {})",
			[]string{"a,b"}},
		{"const S = new Set(); S.add('x'); S.add('x'); describe('d', () => { it(`${S.size} ${S.has('x')}`, () => {}) })",
			[]string{"d", "d > 1 true"}},
		{"function _s(item) { return (JSON.stringify(_r(item)) || \"undefined\").replace(/\"/g, \"'\") }\nfunction _r(item) { return typeof item === \"function\" ? item() : item }\nit([undefined, 'c:\\\\x', {root: '/', 'a\"': 1}, null, 0].map((i) => _s(i)).join(\",\"), () => {})",
			[]string{`undefined,'c:\\x',{'root':'/','a\'':1},null,0`}},
		// A test's body runs after every title is read: what it changes
		// does not change a title, in a helper or at the top level.
		{"function f(o) { it(o.a, () => { o.a = 'x' }); it(o.a + '2', () => {}) }\nf({a: 'y'})", []string{"y", "y2"}},
		{"const L = ['a']; test('t', () => { L.push('b') }); describe('d', () => { L.forEach(x => it(x, () => {})) })",
			[]string{"t", "d", "d > a"}},
		// The order of these is not fixed by the source, or not replayed.
		{"const L = [1]; function f() { L.push(2) } f(); it(L.join(), () => {})", []string{"dynamic {L.join()}"}},
		{"const L = [1]; for (const x of [2]) { L.push(x) } it(L.join(), () => {})", []string{"dynamic {L.join()}"}},
		{"let v = 'a'; if (process.env.X) { v = 'b' } it(v, () => {})", []string{"dynamic {v}"}},
		{"const L = ['a', 'b']; for (const x of L) { it(x, () => {}); L.pop() }", []string{"dynamic {x}"}},
		{"function h() { it(L.join(), () => {}) }\nconst L = [1]; L.push(2); h()", []string{"dynamic {L.join()}"}},
		{"const L = [1]; L.push(L.pop()); it(L.join(), () => {})", []string{"dynamic {L.join()}"}},
		{"for (const r of [['a', 'b']]) { r[0] = 'z'; it(r.join(), () => {}) }", []string{"dynamic {r.join()}"}},
		{"for (let i = 0; i < 2; i++) { it('t' + i, () => {}); i++ }", []string{"dynamic {'t' + i}"}},
		{"const L = ['a']; describe('d', () => { L.push('b') }); it(L.join(), () => {})", []string{"d", "dynamic {L.join()}"}},
		{"const L = ['a']; beforeAll(() => { L.push('b') }); it(L.join(), () => {})", []string{"dynamic {L.join()}"}},
	} {
		got := names(extract(t, testdex.Jest, "a.test.js", c.src))
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}

// TestLocalCalls checks the calls of the file's own functions evaluated
// with their arguments, and that a name something else may take (a
// parameter, a nested function, a local binding) or a function passed on
// leaves the call unknown.
func TestLocalCalls(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string
	}{
		{"function f(x, y = '!') { return `${x.a}${y}` }\nconst g = (s) => s.toUpperCase();\nit(f({a: 'q'}) + g('w'), () => {})", []string{"q!W"}},
		{"function f(x) { return 'top' + x }\ndescribe('x', (f) => { it(f(1), () => {}) })", []string{"x", "dynamic x > {f(1)}"}},
		{"function f(x) { return 'top' + x }\ndescribe('x', () => { function f(x) { return 'in' + x } it(f(1), () => {}) })", []string{"x", "dynamic x > {f(1)}"}},
		{"function f(x) { return 'top' + x }\ndescribe('x', () => { const f = (x) => 'in' + x; it(f(1), () => {}) })", []string{"x", "dynamic x > {f(1)}"}},
		// Passed on as an argument, f binds nothing: its calls still
		// return what its body gives.
		{"function f(x) { return 'top' + x }\n[1].map(f); it(f(1), () => {})", []string{"top1"}},
		{"function f(x) { return 'top' + x }\nconst g = f; it(f(1), () => {})", []string{"dynamic {f(1)}"}},
		{"async function f(x) { return x }\nit(String(f(1)), () => {})", []string{"dynamic {String(f(1))}"}},
		{"function f(x) { return f(x) }\nit(f(1), () => {})", []string{"dynamic {f(1)}"}},
		{"function f(x) { const y = x; return y }\nit(f(1), () => {})", []string{"1"}},
		{"function f(x) { let y = x; y = y + 1; return y }\nit(f(1), () => {})", []string{"dynamic {f(1)}"}},
		{"const b = 'm';\nfunction f(x) { var a = b; var b = x; return a }\nit(String(f(1)), () => {})", []string{"dynamic {String(f(1))}"}},
		{"const y = 'm';\nfunction f(x) { if (y) return 'a'; var y = 2; return y }\nit(f(0), () => {})", []string{"dynamic {f(0)}"}},
		{"function f(x) { if (x) { return 'a' } return 'b' }\nit(f(u), () => {})", []string{"dynamic {f(u)}"}},
	} {
		got := names(extract(t, testdex.Jest, "a.test.js", c.src))
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}

// TestObjectMethods checks that a method definition in an object literal
// is a function value, so the object's other properties stay readable
// (dayjs's locale objects: { name: 'ku', preparse(s) {...} }), and that
// a getter or setter, whose reads run code, leaves the object unknown.
func TestObjectMethods(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"const o = { name: 'ku', preparse(s) { return s }, async *gen() {}, 'q r'() {} };\nit(o.name + ' ' + Object.keys(o).join(), () => {})",
			"ku name,preparse,gen,q r"},
		{"const o = { name: 'x', get n() { return 1 } };\nit(o.name, () => {})", "dynamic {o.name}"},
		{"const o = { name: 'x', set n(v) {} };\nit(o.name, () => {})", "dynamic {o.name}"},
		{"const o = { name: 'x', m() {} };\nit(String(o), () => {})", "[object Object]"},
		{"const o = { name: 'x', toString() { return 'y' } };\nit(String(o), () => {})", "dynamic {String(o)}"},
	} {
		got := names(extract(t, testdex.Jest, "a.test.js", c.src))
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}
