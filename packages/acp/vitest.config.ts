import { defineConfig } from 'vitest/config';
import { scaledTimeouts } from '../../vitest.shared.js';

// Property tests run hundreds of cases and child processes start slowly on a loaded machine: allow for both.
export default defineConfig({
  test: scaledTimeouts(30_000),
});
