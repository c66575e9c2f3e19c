'use strict';

var assert = require('assert');

it('same title', function () { assert.strictEqual('broken', 'fixed'); });
it('stands alone', function () {});
