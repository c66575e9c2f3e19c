// Vitest, plain ESM JavaScript.
import { describe, it as check } from 'vitest';

describe('esm', () => {
  check('aliased it', () => {});
});
