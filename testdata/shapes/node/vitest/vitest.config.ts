import { defineConfig } from 'vitest/config';

// Read by testdex as literals; Vitest runs it.
export default defineConfig({
  test: {
    include: ['src/**/*.{test,spec}.?(c|m)[jt]s?(x)', 'test/**/*.spec.tsx'],
    exclude: ['**/node_modules/**', 'src/ignored/**'],
  },
});
