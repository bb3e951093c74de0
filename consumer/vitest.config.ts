import { defineConfig } from 'vitest/config';
import { scaledTimeouts } from '../vitest.shared.js';

// Packing and `npm install` into scratch projects take a while on a 2-core machine; the README's
// project is set up once, for every test file (test/readme-project.setup.ts).
export default defineConfig({
  test: { ...scaledTimeouts(120_000, 300_000), globalSetup: ['test/readme-project.setup.ts'] },
});
