import { describe, expect, it, test } from 'vitest';

// pathe's test helper: rows through runTest, each row's last element taken
// with pop() in the loop, arguments printed by a local _s; a row holding a
// function is the one dynamic record of its table.
runTest('upper', (s?: string) => String(s).toUpperCase(), {
  a: 'A',
  'b"c': 'B"C',
  'd\\e': 'D\\E',
});

runTest('join', (...parts: unknown[]) => parts.join('/'), [
  ['.'],
  [undefined, 'undefined'],
  ['x', String.raw`y\z`, 'x/y\\z'],
  [{ dir: '/a', base: 'b' }, '[object Object]'],
  [() => 'late', 'late'],
]);

function _s(item: unknown) {
  return (JSON.stringify(_r(item)) || 'undefined').replace(/"/g, "'");
}

function _r(item: unknown) {
  return typeof item === 'function' ? item() : item;
}

export function runTest(name: string, fn: (...args: any[]) => unknown, items: Record<string, unknown> | unknown[][]) {
  if (!Array.isArray(items)) {
    items = Object.entries(items).map((e) => e.flat());
  }
  describe(`${name}`, () => {
    for (const item of items as unknown[][]) {
      const expected = item.pop();
      const args = item;
      it(`${name}(${args.map((i) => _s(i)).join(',')}) should be ${_s(expected)}`, () => {
        expect(fn(...args.map((i) => _r(i)))).toBe(_r(expected));
      });
    }
  });
}

// ufo's shape: a table cut with splice and filtered through a Set.
const ignored = new Set(['skip']);
const table = [{ input: 'header' }, { input: 'a', output: 'A' }, { input: 'skip', output: 'S' }, { input: 'b' }];

describe('cut', () => {
  const rows = table.splice(1).filter((t) => t.output && !ignored.has(t.input));
  for (const t of rows) {
    test(t.input + (t.output ? ': ' + t.output : ''), () => {});
  }
});

// .each rows named one by one: the function row stays dynamic.
test.each([['a'], [() => 1], [2]])('row %s', () => {});
