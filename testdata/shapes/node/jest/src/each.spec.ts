// Jest, TypeScript: .each tables formatted as jest-each does.
import { describe, expect, it, test } from '@jest/globals';

const CASES = [
  [1, 1, 2],
  [2, 3, 5],
] as const;

describe('each', () => {
  test.each([
    [1, 2, 3],
    [-1, 1.5, 0.5],
  ])('add(%i, %d) = %f', (a, b, c) => {
    expect(a + b).toBe(c);
  });

  test.each([['a', 'b'], ['x%y', 'z']])('%s then %s (row %#) 100%%', () => {});
  test.each(['one', 'two'])('primitive %s', (s) => {});
  test.each([[{ a: 1 }, [1, 2]], [null, undefined]])('pretty %p and %j', () => {});
  test.each([[true, 10n], [false, -0]])('%s with %d', () => {});
  it.each([
    { name: 'ann', age: 30, pet: { kind: 'cat' } },
    { name: 'bob', age: 41, pet: { kind: 'dog' } },
  ])('$name is $age with a $pet.kind ($#)', () => {});
  test.each(CASES)('const table %i + %i', () => {});

  test.each`
    a    | b    | expected
    ${1} | ${1} | ${2}
    ${'x'} | ${[1]} | ${{ k: 'v' }}
  `('template $a + $b = $expected', () => {});

  describe.each([
    ['first', 1],
    ['second', 2],
  ])('block %s', (label, n) => {
    it('runs inside', () => {});
  });

  test.only.each([[1], [2]])('only row %i', () => {});
  test.skip.each([[1]])('skipped row %i', () => {});
});

test.each(makeRows())('from a function %s', () => {});

function makeRows(): string[][] {
  return [['r1'], ['r2']];
}
