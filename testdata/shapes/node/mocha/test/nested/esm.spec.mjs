// Mocha, ESM with imports from mocha.
import { describe, it as check } from 'mocha';
import assert from 'node:assert';

describe('esm suite', () => {
  check('aliased it', () => assert.ok(true));
});
