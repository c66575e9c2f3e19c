// Titles built from literal data: every one must be named statically
// exactly as node --test prints it (see ../README.md to regenerate the golden).
import { describe, it, test } from 'node:test';

const cases = [{ name: 'a', n: 1 }, { name: 'b', n: 2.5 }];

describe('loops', () => {
  for (const c of cases) {
    it(`case ${c.name} ${c.n * 2}`, () => {});
  }
  Object.keys({ x: 1, 2: 'y' }).forEach((k, i) => {
    it(k + '#' + i, () => {});
  });
});

test('subtests', async (t) => {
  for (let i = 0; i < 2; i++) {
    await t.test(`sub ${i}`, () => {});
  }
  for (const [k, v] of Object.entries({ p: [1, 2] })) {
    await t.test(`${k}=${v}`, () => {});
  }
});

function group(name, items) {
  describe(`group ${name}`, () => {
    items.forEach((item) => it(String(item), () => {}));
  });
}
group('one', [1, 'two', [3, 4]]);
group('two', []);
