#!/usr/bin/env node
// Runs the TypeScript CLI through tsx so the generator needs no build step.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const tsxCli = require.resolve('tsx/cli');
const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const { status } = spawnSync(process.execPath, [tsxCli, main, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(status ?? 1);
