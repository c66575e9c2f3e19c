'use strict';

var assert = require('assert');

describe('alias', function () {
  it('works', function () { assert.strictEqual(1 + 1, 2); });
  it.skip('is pending', function () {});
});

it('same title', function () { assert.ok(true); });
