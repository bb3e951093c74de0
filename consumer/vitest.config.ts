import { defineConfig } from 'vitest/config';
import { scaledTimeouts } from '../vitest.shared.js';

// Packing and `npm install` into scratch projects take a while on a 2-core machine.
export default defineConfig({
  test: scaledTimeouts(120_000, 300_000),
});
