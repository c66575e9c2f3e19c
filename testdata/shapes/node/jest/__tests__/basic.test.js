// Jest, CommonJS: plain trees, modifiers, focused and skipped tests.
const { sum } = require('../lib/sum');

describe('sum', () => {
  it('adds two numbers', () => {
    expect(sum(1, 2)).toBe(3);
  });

  test(`handles zero`, () => {
    expect(sum(0, 0)).toBe(0);
  });

  test('joins ' + "concatenated " + 'titles', () => {});

  describe('nested', () => {
    it('goes deeper', () => {});
    it.skip('is skipped', () => {});
    xit('is x-skipped', () => {});
    test.todo('is still to do');
  });

  xdescribe('skipped block', () => {
    it('inside a skipped block', () => {});
  });
});

test.concurrent('runs concurrently', async () => {});
test.failing('is expected to fail', () => {
  throw new Error('fails');
});
xtest('x-skipped at top level', () => {});
test('escapes (regex) [chars] $ and * too', () => {});
