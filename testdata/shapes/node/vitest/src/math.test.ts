// Vitest, TypeScript: trees, modifiers and tables formatted as Vitest does.
import { describe, expect, it, suite, test } from 'vitest';

describe('math', () => {
  it('adds', () => {
    expect(1 + 1).toBe(2);
  });
  test.skip('skipped', () => {});
  test.todo('to do');
  test.concurrent('concurrent', async () => {});
  test.fails('fails on purpose', () => {
    throw new Error('x');
  });
  test.skipIf(process.env.NEVER)('skip if', () => {});
  describe.sequential('in sequence', () => {
    it('first', () => {});
  });
  test('with options', { timeout: 1000 }, () => {});
  test('skipped by option', { skip: true }, () => {});
});

suite('a suite', () => {
  test(`template title`, () => {});
});

describe('tables', () => {
  test.each([
    [1, 2, 3],
    [2, 3, 5],
  ])('add(%i, %i) -> %i', (a, b, c) => {
    expect(a + b).toBe(c);
  });
  test.each([[[1, 2], 'x']])('array %s and %s', () => {});
  test.each(['a', 'b'])('primitive %s #%# $%$', () => {});
  test.each([
    { a: 1, b: 'one', deep: { c: true } },
    { a: 2, b: 'two', deep: { c: false } },
  ])('object $a is $b, deep $deep.c', () => {});
  test.each`
    a    | b      | sum
    ${1} | ${'x'} | ${[1, 2]}
  `('tagged $a $b $sum', () => {});
  test.for([
    [1, 1],
    [2, 4],
  ])('for %i squared is %i', ([a, b]) => {});
  describe.each([{ name: 'alpha' }, { name: 'beta' }])('block $name', ({ name }) => {
    test('inner', () => {});
  });
  test.each([[1.5, -0, 50]])('float %f neg %d pct %s%%', () => {});
});

const rows = Array.from({ length: 2 }, (_, i) => [i]);
test.each(rows)('generated %i', () => {});
