import { defineConfig } from 'vitest/config';

// Property tests run hundreds of cases and child processes start slowly on a loaded machine: allow for both.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
