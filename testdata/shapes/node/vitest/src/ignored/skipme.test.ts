import { test } from 'vitest';
test('excluded by config', () => {});
