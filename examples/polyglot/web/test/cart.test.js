import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { total } from '../cart.js';

describe('total', () => {
  it('is zero for an empty cart', () => {
    assert.equal(total([]), 0);
  });

  it('multiplies price by quantity', () => {
    assert.equal(total([[250, 2]]), 500);
  });

  describe('rejects', () => {
    it('a zero quantity', () => {
      assert.throws(() => total([[1, 0]]));
    });
  });
});

// Names built at run time: testdex lists one dynamic record for them.
for (const sku of ['A-1', 'B-2']) {
  test(`sku ${sku} alone`, () => {
    assert.equal(total([[1, 1]]), 1);
  });
}

test.skip('currencies', () => {});
