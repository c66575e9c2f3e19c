// Mocha BDD, CommonJS.
const assert = require('node:assert');

describe('Array', function () {
  describe('#indexOf()', function () {
    it('returns -1 when absent', function () {
      assert.strictEqual([1, 2, 3].indexOf(4), -1);
    });
    specify('is a specify', () => {});
  });

  context('in a context', () => {
    it(`uses a template`, () => {});
    it('is pending');
    it.skip('is skipped', () => {});
    xit('is x-skipped', () => {});
  });

  xdescribe('skipped suite', () => {
    it('inside skipped suite', () => {});
  });
  describe.skip('skip-modified suite', () => {
    it('inside it too', () => {});
  });
});

describe('generated', () => {
  [1, 2].forEach((n) => {
    it('adds ' + n, () => {});
  });
});

it('top level ' + 'concatenated', () => {});
