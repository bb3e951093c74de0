import { defineConfig } from 'vitest/config';
import { scaledTimeouts } from '../../vitest.shared.js';

// The tests drive bin/dsh-sdk, the reference runtimes and Chromium as real processes.
export default defineConfig({
  test: scaledTimeouts(60_000),
});
