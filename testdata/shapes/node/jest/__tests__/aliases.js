// Jest: imports from @jest/globals with aliases, ESM syntax through babel.
import { describe as group, test as check, expect } from '@jest/globals';

group('aliased group', () => {
  check('aliased check', () => {
    expect(1).toBe(1);
  });
});
