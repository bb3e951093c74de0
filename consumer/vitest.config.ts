import { defineConfig } from 'vitest/config';

// Packing and `npm install` into scratch projects take a while on a 2-core machine.
export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
