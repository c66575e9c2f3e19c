// Titles built from literal data: every one must be named statically
// exactly as Jest prints it (see ../README.md to regenerate the golden).
const cases = [
  {name: 'plain', n: 1, tags: ['a', 'b'], nested: {deep: [1, 2]}},
  {name: 'float', n: 2.5, tags: [], nested: {deep: null}},
  {name: 'big', n: 1e21, tags: [null, undefined, 0], nested: {deep: 'x'}},
];

describe('for of', () => {
  for (const c of cases) {
    it(`parses ${c.name} n=${c.n} tags=${c.tags} deep=${c.nested.deep}`, () => {});
  }
  for (const {name, n = 7} of [{name: 'd1'}, {name: 'd2', n: 0}]) {
    test(name + ':' + n, () => {});
  }
});

describe('for in and entries', () => {
  const table = {b: 1, a: 2, 10: 'ten', 2: 'two'};
  for (const k in table) {
    test(`key ${k}`, () => {});
  }
  for (const [k, v] of Object.entries(table)) {
    test(`${k}=${v}`, () => {});
  }
});

describe('indexed', () => {
  for (let i = 0; i < cases.length; i++) {
    test('case #' + i + ' ' + cases[i].name.toUpperCase(), () => {});
  }
  for (let i = 3; i > 0; i -= 2) {
    test(`down ${i}`, () => {});
  }
});

describe('callbacks', () => {
  ['x', 'Y'].forEach((s, i, all) => {
    test(`${s.toLowerCase()} ${i} of ${all.length}`, () => {});
  });
  Object.keys({p: 1, q: 2}).map(function (k) {
    return test(String(k) + String([1, [2, 3]]) + String({}), () => {});
  });
  [[1, 'a'], [2, 'b']].forEach(([num, letter]) => {
    describe(`group ${letter}`, () => {
      test(`${num * 2} ${JSON.stringify({num, letter})}`, () => {});
    });
  });
});

function suite(name, opts) {
  describe(`suite ${name}`, () => {
    it(`works with ${opts.join('|')}`, () => {});
  });
}
suite('one', ['a', 'b']);
suite('two', []);

describe('templates', () => {
  test(`${0.1 + 0.2} ${-0} ${1 / 3} ${2 ** 53} ${[]} ${[[]]} ${null} ${undefined} ${true} ${'a' + 1}`, () => {});
  test(`${JSON.stringify([1, 'a', null, {b: undefined, c: [true]}])}`, () => {});
  test(`${' trim me '.trim()}|${['a', null, 'b'].join()}`, () => {});
});

describe('each arrays', () => {
  test.each([
    [1, 1.5, 'str', true, null, undefined, -0, NaN, [1, 2], {a: 1}],
  ])('%s|%d|%i|%f|%j|%o|%O|%p|%#|%%', () => {});
  test.each([[1, 'a'], [2, 'b']])('row %# %i %s', () => {});
  test.each([1, 'two', [3]])('single %p', () => {});
  test.each([['x', {deep: {deeper: [1, 2]}}]])('%s %p %j', () => {});
  test.each([[1.5, -2.7, '3.9', 'abc']])('%d %i %f %d', () => {});
  test.each([[Infinity, -Infinity, 1e21, 1e-7]])('%s %d %f %j', () => {});
});

describe('each edge cases', () => {
  test.each([[10n, -0, '50%', [[1, [2]]], {x: {y: {z: 1}}}]])('%s %d %s %s %s', () => {});
  test.each([['a%sb', 'c']])('%s|%s', () => {});
  test.each([[{a: 'long string value here', b: [1, 2, 3, 4, 5, 6], c: {d: true}}]])('%p %o', () => {});
  test.each([[1, 2, 3]])('%i', () => {});
  test.each([[0.1, '0x10', ' 7 ', '']])('%d %i %f %d', () => {});
  test.each([{o: {alpha: 'long string value here', beta: [1, 2, 3, 4, 5, 6], gamma: 'another long string value'}}])('$o', () => {});
  test.each([['x'.repeat(120)]])('%s %p', () => {});
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
  `('tagged $a $b $expected $#', () => {});
});
