const test = require('node:test');

test('default import', () => {});
test.skip('skip modifier', () => {});
