import { defineConfig } from 'vitest/config';

// The tests drive bin/dsh-sdk, the reference runtimes and Chromium as real processes.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
