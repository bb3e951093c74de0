// The client kit: both of this project's clients pass through their shipped drivers, the small
// wire-level driver of the fixtures passes too, and each of its planted defects is caught by the
// requirement that targets it.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { budgetMs } from '../helpers/time-budget.js';
import {
  CLIENT_FIXTURES,
  PYTHON,
  PY_DRIVER,
  TS_DRIVER,
  failing,
  inParallel,
  outcomeOf,
  runKit,
  validateReport,
} from './helpers.js';

const TIMEOUT = (seconds: number) => ['--timeout', String(budgetMs(seconds * 1000) / 1000)];

/** Fixture driver, the scenario that exercises it, the requirement that must catch it. */
const DEFECTS: readonly (readonly [string, string, string])[] = [
  ['prompt-before-initialize', 'handshake', 'DSH-CLIENT-001'],
  ['loose-json', 'handshake', 'DSH-CLIENT-003'],
  ['null-ids', 'handshake', 'DSH-CLIENT-004'],
  ['no-shutdown', 'handshake', 'DSH-CLIENT-006'],
  ['no-ladder', 'ignores-shutdown', 'DSH-CLIENT-007'],
  ['interrupt-on-version-1', 'version-1', 'DSH-CLIENT-008'],
  ['hangs-when-runtime-dies', 'dies-after-initialize', 'DSH-CLIENT-010'],
  ['crashes-on-garbage', 'garbage-lines', 'DSH-CLIENT-011'],
  ['drops-unknown-events', 'unknown-notifications', 'DSH-CLIENT-012'],
  ['small-frame-limit', 'big-frame', 'DSH-CLIENT-015'],
  ['ignores-stderr', 'stderr-noise', 'DSH-CLIENT-018'],
  ['text-from-chunks', 'handshake', 'DSH-CLIENT-019'],
  ['ends-run-on-turn-end', 'handshake', 'DSH-CLIENT-020'],
  ['sends-after-shutdown', 'handshake', 'DSH-CLIENT-021'],
];

describe('dsh-sdk conformance client', () => {
  it.concurrent.each([
    ['the TypeScript client', [process.execPath, TS_DRIVER]],
    ['the Python client', [PYTHON, PY_DRIVER]],
    [
      'the fixtures’ wire-level driver without a defect',
      [process.execPath, join(CLIENT_FIXTURES, 'correct.mjs')],
    ],
  ] as const)('passes %s through its driver', async (_name, command) => {
    const run = await runKit(['client', ...TIMEOUT(10), '--jobs', '4', '--', ...command]);
    const report = run.report();
    expect(failing(report), run.stdout).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    expect(validateReport(report) ? [] : validateReport.errors).toEqual([]);
    expect(report.cases.length).toBeGreaterThanOrEqual(14);
  });

  it('has one fixture driver per defect, each in the table', () => {
    const files = readdirSync(CLIENT_FIXTURES).filter(
      (f) => f.endsWith('.mjs') && f !== 'raw-driver.mjs' && f !== 'correct.mjs',
    );
    expect(files.map((f) => f.slice(0, -4)).sort()).toEqual(DEFECTS.map(([name]) => name).sort());
  });

  it(
    'catches every planted defect of a driver by the requirement that targets it, and exits 1',
    async () => {
      const missed: string[] = [];
      await inParallel(DEFECTS, 6, async ([fixture, scenario, requirement]) => {
        const run = await runKit([
          'client',
          ...TIMEOUT(4),
          '--only',
          `client.${scenario}`,
          '--',
          process.execPath,
          join(CLIENT_FIXTURES, `${fixture}.mjs`),
        ]);
        const report = run.report();
        if (run.code !== 1 || outcomeOf(report, requirement) !== 'FAIL')
          missed.push(
            `${fixture}: exit ${run.code}, ${requirement} ${outcomeOf(report, requirement)}; failed: ${failing(report).join(', ')}`,
          );
      });
      expect(missed).toEqual([]);
    },
    budgetMs(240_000),
  );
});
