import { defineConfig } from 'vitest/config';
import { scaledTimeouts } from '../../vitest.shared.js';

// The tests drive the built runtime through real child processes: allow for process start-up.
export default defineConfig({
  test: scaledTimeouts(20_000),
});
