#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader, in this process: no build step, and no second
// process to forward signals to (the watcher's Ctrl-C handling needs them).
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
