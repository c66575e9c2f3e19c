// node:test, ESM.
import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';

test('top-level test', () => {
  assert.equal(1, 1);
});

test('with subtests', async (t) => {
  await t.test('subtest one', () => {});
  await t.test(`subtest two`, async (t2) => {
    await t2.test('grandchild', () => {});
  });
});

describe('a describe', () => {
  it('an it', () => {});
  it.skip('skipped it', () => {});
  it.todo('todo it');
  test('skipped by option', { skip: 'not today' }, () => {});
  describe('inner', () => {
    it('deep', () => {});
  });
});

for (const n of [1, 2]) {
  test(`loop ${n}`, () => {});
}
