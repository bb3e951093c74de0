import { defineConfig } from 'vitest/config';

// The tests drive the built runtime through real child processes: allow for process start-up.
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
