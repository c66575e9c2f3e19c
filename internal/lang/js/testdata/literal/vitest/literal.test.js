// Titles built from literal data: every one must be named statically
// exactly as Vitest prints it (see ../README.md to regenerate the golden).
import {describe, it, test} from 'vitest';

const cases = [
  {name: 'plain', n: 1, tags: ['a', 'b']},
  {name: 'float', n: 2.5, tags: []},
];

describe('loops', () => {
  for (const c of cases) {
    it(`parses ${c.name} n=${c.n} tags=${c.tags}`, () => {});
  }
  for (let i = 0; i < cases.length; i++) {
    test('case #' + i + ' ' + cases[i].name.toUpperCase(), () => {});
  }
  Object.entries({b: 1, 2: 'two'}).forEach(([k, v]) => {
    test(`${k}=${v}`, () => {});
  });
});

const skipOnCI = process.env.CI ? test.skip : test;
skipOnCI('maybe skipped', () => {});
const t2 = test;
t2('through an alias', () => {});

function suite(name) {
  describe(name, () => {
    it('works', () => {});
  });
}
suite('helper a');
suite('helper b');

describe('each arrays', () => {
  test.each([
    [1, 1.5, 'str', true, null, undefined, -0, NaN, [1, 2], {a: 1}],
  ])('%s|%d|%i|%f|%j|%o|%O|%#|%%', () => {});
  test.each([[1, 'a'], [2, 'b']])('row %# %$ %i %s', () => {});
  test.each([1, 'two', [3]])('single %s', () => {});
  test.each([['x', {deep: {deeper: [1, 2]}}]])('%s %o %j', () => {});
  test.each([[1.5, -2.7, '3.9', 'abc']])('%d %i %f %d', () => {});
  test.each([[Infinity, -Infinity, 1e21, 1e-7]])('%s %d %f %j', () => {});
});

describe('each edge cases', () => {
  test.each([[10n, -0, '50%', [[1, [2]]], {x: {y: {z: 1}}}]])('%s %d %s %s %s', () => {});
  test.each([['a%sb', 'c']])('%s|%s', () => {});
  test.each([{a: 'long string value here', b: [1, 2, 3, 4, 5, 6], c: {d: true}}])('$a | $b | $c | $a.length', () => {});
  test.each([[1, 2, 3]])('%i', () => {});
  test.each([[0.1, '0x10', ' 7 ', '']])('%d %i %f %d', () => {});
  test.each([{list: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]}])('$list', () => {});
});

describe('each objects', () => {
  test.each([
    {a: 1, b: {c: 'deep'}, arr: [1, 2]},
    {a: 'x', b: {c: null}, arr: []},
  ])('a=$a c=$b.c arr=$arr b=$b idx=$# missing=$nope', () => {});
  test.each`
    a    | b      | expected
    ${1} | ${'x'} | ${{v: 1}}
    ${2} | ${[1]} | ${null}
  `('tagged $a $b $expected', () => {});
  test.for([[1, 2], [3, 4]])('for %i + %i', () => {});
  test.for([{x: 'p'}, {x: 'q'}])('for obj $x', () => {});
});

describe('raw strings', () => {
  const cases = [
    {input: String.raw`!@#$%^&*()_-+=[]{}\|;:'",.<>/?`},
    {input: String.raw`C:\temp\${'x'}\n${1 + 1}`},
  ];
  for (const t of cases) {
    test(t.input.toString(), () => {});
  }
  test(String.raw`tab\t${'sub'}end\\`, () => {});
});
