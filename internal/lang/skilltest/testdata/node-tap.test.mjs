// Recorded with node's TAP reporter into node-tap.txt (see tap_test.go).
import test from 'node:test';
import assert from 'node:assert';

test('adds', () => assert.strictEqual(1 + 1, 2));
test('group', async (t) => {
  await t.test('inner passes', () => {});
  await t.test('inner fails', () => assert.strictEqual('a', 'b'));
});
test('skipped', { skip: 'not on this platform' }, () => {});
test('todo', { todo: 'later' }, () => { throw new Error('x'); });
