import { defineConfig } from 'vitest/config';
import { scaledTimeouts } from '../vitest.shared.js';

// Each breaking-rule case compiles validators for its edited IDL, and the Python emitter tests
// run ruff and the venv's Python: seconds each on a loaded 2-core machine.
export default defineConfig({
  test: scaledTimeouts(30_000),
});
