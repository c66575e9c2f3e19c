// The expectations of builtins_test.go (TestBuiltinValues, TestReplayedChanges),
// printed by node: node internal/lang/js/testdata/builtins.js
const out = [];
const it = (t) => out.push(t);
it(JSON.stringify({b: 1, 2: "x\"y\\z\n\u0001\u2028<&>", a: [undefined, null, 1e21, -0, 0.1], u: undefined, n: {}}));
it('a"b"c'.replace(/"/g, "'") + ' ' + 'a.b.c'.replace(/\./, '-') + ' ' + 'aXbXc'.replaceAll('X', '_') + ' ' + 'abcb'.replace('b', 'B'));
it(String([1, 2, 3].pop()) + [1, 2, 3].shift() + JSON.stringify([1, [2, [3]]].flat()) + JSON.stringify([1, [2, [3]]].flat(2)));
it(JSON.stringify([0, 1, 2, 3, 4].splice(1, 2)) + JSON.stringify([0, 1, 2, 3].splice(-1)) + JSON.stringify([0, 1, 2, 3].slice(1, -1)) + JSON.stringify([0, 1].concat([2, [3]], 4)));
it(`${[1, NaN].includes(NaN)} ${[1, '1'].includes(2)} ${Array.isArray([])} ${Array.isArray({})} ${Array.isArray('a')}`);
it(JSON.stringify(Object.entries({x: 'a', 1: ['b', 'c']}).map((e) => e.flat())));
const S = new Set(['a', 'b', 'a', NaN]);
it(`${S.has('a')} ${S.size} ${S.has('c')} ${S.has(NaN)}`);
const L = [1, 2, 3]; L.pop(); L.push(4); L.splice(0, 1, 'x'); L.unshift('u');
it(L.join('-'));
let v = ['a']; if (!Array.isArray(v)) { v = 'no' } else { v = v.concat('b') }
it(String(v));
function _s(item) { return (JSON.stringify(_r(item)) || "undefined").replace(/"/g, "'") }
function _r(item) { return typeof item === "function" ? item() : item }
it([undefined, 'c:\\x', {root: '/', 'a"': 1}, null, 0].map((i) => _s(i)).join(","));
it(JSON.stringify('\uD83D\uDE00 \u00e9'));
it('a\nb\tc'.replace(/\n/g, String.raw`\n`).replace(/\t/, '<t>'));
it([/^sync(-|$)/.test('sync'), /^sync(-|$)/.test('sync-force-shell'), /^sync(-|$)/.test('spawn'), /-force-shell$/.test('spawn-force-shell'), /^win/i.test('Win32'), /\d{2,}/.test('a1b'), /[a-c]+x?\b/.test('zzb '), /\s/.test('a b'), /a.c/.test('abc'), /\/x\./.test('a/x.y')].join());
it(`${'10' < '9'} ${'10' < 9} ${2 >= 2} ${NaN < 1} ${'b' > 'a'} ${Number('20.1.0'.split('.')[0]) >= 18} ${parseInt('20.11.1', 10)} ${'v20.1'.startsWith('v20')} ${'abc'.endsWith('bc')} ${'abc'.includes('d')} ${'a.b.c'.split('.').join('|')}`);
it('abc'.replace(/b+/g, 'x') + 'abc'.replace(/B/i, 'x') + 'abc'.replace(/\d/g, 'x'));
it('c:/temp'.replace(/^[A-Za-z]:\//, (r) => r.toUpperCase()) + ' ' + 'a-b-c'.replace(/-(\w)/g, (m, c, i) => c.toUpperCase() + i) + ' ' + 'x1y22'.replaceAll(/\d+/g, (d) => '<' + d + '>'));
it('aXbX'.replace('X', (m, i, s) => i + s) + ' ' + 'ab'.replace(/(a)|(z)/, (m, p1, p2) => String(p2)) + ' ' + 'aXbX'.replaceAll('X', () => '_'));
it(JSON.stringify({ [1 + 1]: 'a', b: 1, ['c' + 'd']: 2, [null]: 3, [true]: 4, b: 5, [1.5]: 6 }));
console.log(JSON.stringify(out, null, 1));
// TestReplayedChanges's other named case.
const S2 = new Set(); S2.add('x'); S2.add('x');
console.log(`${S2.size} ${S2.has('x')}`);
