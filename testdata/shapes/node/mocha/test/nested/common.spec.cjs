const { describe, it } = require('mocha');

describe('cjs suite', function () {
  it("escaped \"quotes\" and \u00e9", function () {});
});
