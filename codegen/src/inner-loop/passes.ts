// Which steps of the quick check can be skipped: a step that passed on exactly these inputs (every
// file it reads, hashed, and the facts of its environment) passes again, so it is skipped with
// that reason. The record of a pass is found by the hash of its inputs, so any change to any input
// makes it a different, unrecorded set: a stale record is never found.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { cacheDir, pruneOldest } from './output-cache.js';

/** Passes remembered; the least recently recorded beyond this are forgotten. */
const KEPT_PASSES = 500;

/** Everything a step's outcome depends on: files and folders under the root, and facts. */
export interface StepInputs {
  readonly paths: readonly string[];
  readonly facts: readonly string[];
}

export interface RecordedPass {
  readonly step: string;
  /** ISO time of the pass. */
  readonly at: string;
  readonly summary: string;
}

/** Folders no step reads (installs, caches, builds). */
const IGNORED = new Set([
  'node_modules',
  '__pycache__',
  'dist',
  '.turbo',
  '.venv',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.hypothesis',
]);

/** The sha256 over every input file's path and content, in sorted order, and the facts. */
export function fingerprint(root: string, step: string, inputs: StepInputs): string {
  const hash = createHash('sha256').update(`${step}\n`);
  for (const file of listFiles(root, inputs.paths)) {
    hash.update(`${relative(root, file)}\0`);
    hash.update(createHash('sha256').update(readFileSync(file)).digest('hex'));
  }
  for (const fact of inputs.facts) hash.update(`\0fact\0${fact}`);
  return hash.digest('hex');
}

export function findPass(key: string): RecordedPass | null {
  try {
    return JSON.parse(readFileSync(passFile(key), 'utf8')) as RecordedPass;
  } catch {
    return null;
  }
}

export function recordPass(key: string, pass: RecordedPass): void {
  try {
    mkdirSync(join(cacheDir(), 'passes'), { recursive: true });
    writeFileSync(passFile(key), `${JSON.stringify(pass)}\n`);
    pruneOldest(join(cacheDir(), 'passes'), KEPT_PASSES);
  } catch {
    // Not recording a pass only costs time: the step runs next time.
  }
}

function passFile(key: string): string {
  return join(cacheDir(), 'passes', key);
}

function listFiles(root: string, paths: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (path: string) => {
    if (!existsSync(path)) return;
    if (!statSync(path).isDirectory()) {
      if (!path.endsWith('.pyc')) files.push(path);
      return;
    }
    for (const name of readdirSync(path)) {
      if (!IGNORED.has(name) && !name.startsWith('.venv')) walk(join(path, name));
    }
  };
  for (const path of paths) walk(join(root, path));
  return [...new Set(files)].sort();
}
