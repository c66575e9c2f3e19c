// Jest: names known only at run time.
const names = require('../lib/names');

for (const n of [1, 2]) {
  test(`loop ${n}`, () => {});
}

function shared(label) {
  it('shared ' + label, () => {});
}

describe('uses a helper', () => {
  shared('a');
  shared('b');
});

describe(names.title, () => {
  it('inside a computed describe', () => {});
});
