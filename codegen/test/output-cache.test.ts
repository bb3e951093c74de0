// The output cache is only ever a shortcut: an entry is found by its exact input, a damaged entry
// is recomputed, and `generate --check` on a copy of the repository still fails on every drift
// while the cache is warm (the CLI, as CI and the contributor run it).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedTextSync, cacheKey } from '../src/inner-loop/output-cache.js';
import { venvFingerprint } from '../src/inner-loop/tool-fingerprint.js';
import { makeScratchRepo, removeScratchRepo } from './helpers/scratch-repo.js';
import { budgetMs } from './helpers/time-budget.js';

const cli = new URL('../bin/idl-gen.mjs', import.meta.url).pathname;
const cacheHome = mkdtempSync(join(tmpdir(), 'idl-gen-cache-'));
let copy = '';

beforeAll(() => {
  process.env['IDL_GEN_CACHE_DIR'] = cacheHome;
  copy = makeScratchRepo('idl-cache-');
});

afterAll(() => {
  delete process.env['IDL_GEN_CACHE_DIR'];
  removeScratchRepo(copy);
  rmSync(cacheHome, { recursive: true, force: true });
});

function generate(...args: string[]) {
  const result = spawnSync(process.execPath, [cli, 'generate', '--root', copy, ...args], {
    encoding: 'utf8',
    env: { ...process.env, IDL_GEN_CACHE_DIR: cacheHome },
    // Every formatted file's whole diff, when prettier's settings change.
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

/** `generate --check` with `before` replaced by `after` in a file of the copy, then restored. */
function checkAfterEdit(path: string, before: string, after: string) {
  const file = join(copy, path);
  const original = readFileSync(file, 'utf8');
  expect(original).toContain(before);
  writeFileSync(file, original.replace(before, after));
  try {
    return generate('--check');
  } finally {
    writeFileSync(file, original);
  }
}

describe('cachedTextSync', () => {
  it('computes once per input and finds the entry again by the same input only', () => {
    let computed = 0;
    const compute = () => `output ${++computed}`;
    expect(cachedTextSync('test-kind', ['tool 1.0', 'input a'], compute)).toBe('output 1');
    expect(cachedTextSync('test-kind', ['tool 1.0', 'input a'], compute)).toBe('output 1');
    expect(cachedTextSync('test-kind', ['tool 1.1', 'input a'], compute)).toBe('output 2');
    expect(cachedTextSync('test-kind', ['tool 1.0', 'input b'], compute)).toBe('output 3');
    expect(computed).toBe(3);
  });

  it('recomputes an entry that was torn or edited', () => {
    let computed = 0;
    const compute = () => `fresh ${++computed}`;
    cachedTextSync('test-damage', ['x'], compute);
    const file = join(cacheHome, 'test-damage', cacheKey('test-damage', ['x']));
    writeFileSync(file, readFileSync(file, 'utf8').replace('fresh 1', 'stale'));
    expect(cachedTextSync('test-damage', ['x'], compute)).toBe('fresh 2');
    writeFileSync(file, readFileSync(file, 'utf8').slice(0, 30));
    expect(cachedTextSync('test-damage', ['x'], compute)).toBe('fresh 3');
    expect(cachedTextSync('test-damage', ['x'], compute)).toBe('fresh 3');
  });
});

describe('venvFingerprint (part of datamodel-codegen’s key)', () => {
  it('changes with the interpreter and with any installed distribution', () => {
    const venv = mkdtempSync(join(tmpdir(), 'idl-venv-'));
    const sitePackages = join(venv, 'lib/python3.11/site-packages');
    mkdirSync(join(sitePackages, 'black-26.10.1.dist-info'), { recursive: true });
    writeFileSync(join(venv, 'pyvenv.cfg'), 'home = /x\nversion = 3.11.7\n');
    const first = venvFingerprint(venv);
    expect(first).toStrictEqual(['python 3.11.7', 'black-26.10.1.dist-info']);
    rmSync(join(sitePackages, 'black-26.10.1.dist-info'), { recursive: true });
    mkdirSync(join(sitePackages, 'black-26.11.0.dist-info'));
    expect(venvFingerprint(venv)).not.toStrictEqual(first);
    writeFileSync(join(venv, 'pyvenv.cfg'), 'home = /x\nversion = 3.12.1\n');
    expect(venvFingerprint(venv)[0]).toBe('python 3.12.1');
    rmSync(venv, { recursive: true, force: true });
  });
});

describe('generate --check with a warm cache, on a copy of the repository', () => {
  it(
    'fills the cache on generate and reuses it, and still fails on every drift',
    () => {
      expect(generate().code).toBe(0);
      // One entry per protocol with Python models (the DeepSeek Harness protocol and ACP).
      expect(readdirSync(join(cacheHome, 'datamodel-codegen'))).toHaveLength(2);
      expect(generate('--check').code).toBe(0);

      // A generated file edited by hand, its output cached: the comparison is with the disk.
      const edited = checkAfterEdit('python/src/dsh_sdk/_gen/models.py', 'class ', 'class Edited');
      expect(edited.code).toBe(1);
      expect(edited.err).toMatch(/changed +python\/src\/dsh_sdk\/_gen\/models\.py/);

      // prettier's settings changed: every formatted output would differ, so no entry may match.
      const reformatted = checkAfterEdit(
        '.prettierrc.json',
        '"printWidth": 100',
        '"printWidth": 60',
      );
      expect(reformatted.code).toBe(1);
      expect(reformatted.err).toMatch(/changed +packages\/protocol\/src\/gen\/peers\.gen\.ts/);
      expect(generate('--check').code).toBe(0);
    },
    budgetMs(180_000),
  );
});
