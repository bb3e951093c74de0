// `pnpm test:quick` as a contributor runs it (scripts/test-quick.sh), on a scratch copy of the
// repository with a cache of its own: green on the committed state, the vector runs skipped (and
// saying why) when nothing they read changed, and failing on a broken vector in both languages,
// on a stale generated file and on a break of a released version.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeScratchRepo, removeScratchRepo } from './helpers/scratch-repo.js';
import { budgetMs } from './helpers/time-budget.js';

const cacheHome = mkdtempSync(join(tmpdir(), 'idl-quick-cache-'));
let copy = '';

beforeAll(() => {
  copy = makeScratchRepo('idl-quick-');
});

afterAll(() => {
  removeScratchRepo(copy);
  rmSync(cacheHome, { recursive: true, force: true });
});

function testQuick(...args: string[]) {
  const result = spawnSync('bash', ['scripts/test-quick.sh', ...args], {
    cwd: copy,
    encoding: 'utf8',
    env: { ...process.env, IDL_GEN_CACHE_DIR: cacheHome },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: result.status, out: result.stdout + result.stderr };
}

/** Replaces `before` with `after` in a file of the copy; returns the way back. */
function edit(path: string, before: string, after: string): () => void {
  const file = join(copy, path);
  const original = readFileSync(file, 'utf8');
  expect(original).toContain(before);
  writeFileSync(file, original.replace(before, after));
  return () => writeFileSync(file, original);
}

const STEP = (mark: string, name: string) =>
  new RegExp(`^  ${mark} ${name.replace(/[()]/g, '\\$&')} `, 'm');

describe('pnpm test:quick on a copy of the repository', () => {
  it(
    'is green on the committed state, then skips the vector runs whose inputs did not change',
    () => {
      const first = testQuick();
      expect(first.code, first.out).toBe(0);
      expect(first.out).toMatch(STEP('✓', 'generated files'));
      expect(first.out).toMatch(STEP('✓', 'breaking'));
      expect(first.out).toMatch(/^ {2}✓ vectors \(TypeScript\) +\d{3,} passed/m);
      expect(first.out).toMatch(/^ {2}✓ vectors \(Python\) +\d{3,} passed/m);
      expect(first.out).toMatch(/^test:quick: green in [\d.]+ s/m);

      const second = testQuick();
      expect(second.code, second.out).toBe(0);
      for (const language of ['TypeScript', 'Python'])
        expect(second.out).toMatch(
          new RegExp(
            `^ {2}- vectors \\(${language}\\) +skipped: it passed at [\\d:]+ on exactly these inputs \\(\\d+ passed\\); --full runs it$`,
            'm',
          ),
        );
      // Nothing changed: every protocol's generated files and breaking check pass unrun too.
      for (const step of ['generated files', 'breaking'])
        expect(second.out).toMatch(
          new RegExp(`^ {2}- ${step} +skipped: it passed at [\\d:]+ on exactly these inputs`, 'm'),
        );
    },
    budgetMs(240_000),
  );

  it(
    'fails on a deliberately broken vector, naming it in both languages',
    () => {
      const restore = edit(
        'test-vectors/messages/initialize/capabilities-with-unknown-key.ndjson',
        '"protocolVersion":3}}',
        '"protocolVersion":"three"}}',
      );
      const run = testQuick();
      restore();
      expect(run.code, run.out).toBe(1);
      expect(run.out).toMatch(/^ {2}✗ vectors \(TypeScript\) +\d+ failed, \d+ passed/m);
      expect(run.out).toMatch(/^ {2}✗ vectors \(Python\) +\d+ failed, \d+ passed/m);
      const failing = 'messages/initialize/capabilities-with-unknown-key';
      expect(run.out).toContain(
        `--- FAILED tests/test_vectors.py::test_delivered_frames_are_valid_and_round_trip[${failing}]`,
      );
      expect(run.out).toMatch(
        new RegExp(`FAIL .*vectors\\.test\\.ts.*${failing} \\[valid frames\\]`),
      );
      expect(run.out).toMatch(/^test:quick: FAILED in [\d.]+ s/m);
    },
    budgetMs(240_000),
  );

  it(
    'with --full, runs every step and fails on a stale generated file and a break of version 1',
    () => {
      // A value added to a closed enum version-1 clients receive; nothing was regenerated.
      const restore = edit(
        'protocol.idl.json',
        '"enum": ["running", "idle"]',
        '"enum": ["running", "idle", "paused"]',
      );
      const run = testQuick('--full');
      restore();
      expect(run.code, run.out).toBe(1);
      // Every step runs; only another protocol's vectors are not this loop's (its packages' suites).
      expect(run.out).not.toMatch(
        /^ {2}- (?!vectors \((TypeScript|Python)\) +skipped: protocols\/)/m,
      );
      expect(run.out).toMatch(
        /^ {2}✗ generated files +\d+ file\(s\) do not match protocol\.idl\.json: run `pnpm generate`/m,
      );
      expect(run.out).toMatch(/^ {2}✗ breaking +FAILED, 1 breaking change/m);
    },
    budgetMs(240_000),
  );
});
