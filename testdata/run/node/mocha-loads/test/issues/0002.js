'use strict';

describe('issue 2', () => {
  it('parses', () => {});
});
it('regression', () => {});
