'use strict';
// Added to a copy of json-schema-traverse by internal/fidelity: tests
// declared through an alias and a helper, and rows built from data.
var assert = require('assert');

var t = process.env.FIDELITY_NEVER ? it.skip : it;

function check(title, fn) {
  it(title, fn);
}

describe('fidelity hidden', function() {
  t('declared through an alias fails', function() {
    assert.strictEqual(1, 2);
  });

  check('declared through a helper passes', function() {});
});

var rows = [1, 2, 3].map(function(n) {
  return {n: n, square: n === 2 ? 5 : n * n};
});

describe('fidelity rows', function() {
  rows.forEach(function(row) {
    it('squares ' + row.n, function() {
      assert.strictEqual(row.n * row.n, row.square);
    });
  });
});
