// Every planted defect is caught by the requirement that targets it (each fixture runtime run
// on the cases that exercise it, several at once); the proxy without a defect passes those cases;
// a failure's transcript opens in dsh-sdk view.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { budgetMs } from '../helpers/time-budget.js';
import {
  ROUTE,
  RUNTIME_FIXTURES,
  failing,
  inParallel,
  outcomeOf,
  runKit,
  validateReport,
  validateTraceRecord,
} from './helpers.js';
import type { KitRun } from './helpers.js';

/** A short liveness bound: several fixtures wait for what never comes (scaled under CI). */
const TIMEOUT = ['--timeout', String(budgetMs(3000) / 1000)];

/** Fixture, the case that exercises it, the requirement that must catch it. */
const DEFECTS: readonly (readonly [string, string, string])[] = [
  ['wrong-id-type', 'init.handshake', 'DSH-MSG-001'],
  ['logs-before-requests', 'init.handshake', 'DSH-STDOUT-001'],
  ['json-logs-on-stdout', 'prompt.turn', 'DSH-STDOUT-002'],
  ['non-compact-json', 'init.handshake', 'DSH-FRAME-003'],
  ['raw-lone-surrogate', 'hostile.encoding', 'DSH-FRAME-005'],
  ['unknown-method-wrong-code', 'init.before-initialize', 'DSH-ERR-001'],
  ['invalid-params-without-data', 'init.route-refused', 'DSH-ERR-002'],
  ['lenient-max-tokens', 'params.initialize', 'DSH-PARAMS-001'],
  ['prompt-before-initialize', 'init.before-initialize', 'DSH-INIT-002'],
  ['second-initialize-accepted', 'init.second-initialize', 'DSH-INIT-003'],
  ['receipt-names-other-message', 'prompt.turn', 'DSH-PROMPT-001'],
  ['no-idle-after-turn', 'prompt.turn', 'DSH-PROMPT-003'],
  ['events-reordered', 'prompt.turn', 'DSH-EVENT-001'],
  ['seq-gap', 'prompt.turn', 'DSH-EVENT-002'],
  ['subagent-finished-late', 'subagent.delegate', 'DSH-SUBAGENT-002'],
  ['no-exit-after-shutdown', 'init.handshake', 'DSH-SHUTDOWN-002'],
  ['exit-code-on-eof', 'shutdown.end-of-input', 'DSH-SHUTDOWN-004'],
  ['crash-on-malformed-line', 'hostile.lines', 'DSH-HOSTILE-001'],
  ['answers-batch', 'hostile.lines', 'DSH-HOSTILE-002'],
  ['answers-null-id', 'hostile.lines', 'DSH-HOSTILE-003'],
  ['deep-nesting-parse-error', 'hostile.lines', 'DSH-HOSTILE-008'],
  ['v1-with-capabilities', 'init.handshake', 'DSH-VERSION-001'],
  ['chunk-after-interrupt', 'stop.interrupt-running', 'DSH-INTERRUPT-003'],
  ['late-turn-end-after-interrupt', 'stop.interrupt-running', 'DSH-INTERRUPT-004'],
  ['close-not-idempotent', 'stop.idle-and-unknown', 'DSH-CLOSE-001'],
  ['events-after-close', 'stop.close-running', 'DSH-CLOSE-002'],
];

const kit = (
  fixture: string,
  only: readonly string[],
  extra: readonly string[] = [],
): Promise<KitRun> =>
  runKit([
    'runtime',
    ...ROUTE,
    ...TIMEOUT,
    '--jobs',
    '2',
    ...only.flatMap((o) => ['--only', o]),
    ...extra,
    '--',
    process.execPath,
    join(RUNTIME_FIXTURES, `${fixture}.mjs`),
  ]);

describe('planted-defect fixture runtimes', () => {
  it('has one fixture per defect, each in the table', () => {
    const files = readdirSync(RUNTIME_FIXTURES).filter(
      (f) => f.endsWith('.mjs') && f !== 'defect-proxy.mjs' && f !== 'passthrough.mjs',
    );
    expect(files.map((f) => f.slice(0, -4)).sort()).toEqual(DEFECTS.map(([name]) => name).sort());
  });

  it(
    'catches every defect by the requirement that targets it, and exits 1',
    async () => {
      const missed: string[] = [];
      await inParallel(DEFECTS, 6, async ([fixture, only, requirement]) => {
        // Without a pause between chunks the reference runtime streams a whole turn in tens of
        // ms, before the kit's interrupt arrives: the defects planted around a running turn's
        // stop would show only when the kit wins that race (the runtime's knob, through --env).
        const paced = only.startsWith('stop.') ? ['--env', 'DSH_SDK_RUNTIME_CHUNK_DELAY_MS=2'] : [];
        const run = await kit(fixture, [only], paced);
        const report = run.report();
        if (run.code !== 1 || outcomeOf(report, requirement) !== 'FAIL')
          missed.push(
            `${fixture}: exit ${run.code}, ${requirement} ${outcomeOf(report, requirement)}; failed: ${failing(report).join(', ')}`,
          );
        if (!validateReport(report))
          missed.push(
            `${fixture}: the report breaks its schema: ${JSON.stringify(validateReport.errors)}`,
          );
        const entry = report.requirements.find((r) => r.id === requirement);
        if (entry?.failure?.transcript.length === 0)
          missed.push(`${fixture}: the report has no transcript of the failure`);
      });
      expect(missed).toEqual([]);
    },
    budgetMs(240_000),
  );

  it(
    'passes the same cases without a defect',
    async () => {
      const run = await kit('passthrough', [...new Set(DEFECTS.map(([, only]) => only))]);
      expect(failing(run.report()), run.stdout).toEqual([]);
      expect(run.code).toBe(0);
    },
    budgetMs(120_000),
  );

  it(
    "writes a failing case's traffic as traces that dsh-sdk view opens",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'dsh-transcripts-'));
      const run = await kit(
        'chunk-after-interrupt',
        ['stop.interrupt-running'],
        // Paced like the stop defects above: an unpaced turn ends before the kit's interrupt.
        ['--transcripts', dir, '--env', 'DSH_SDK_RUNTIME_CHUNK_DELAY_MS=2'],
      );
      expect(run.code).toBe(1);
      const traces = readdirSync(dir).filter((f) => f.endsWith('.trace.ndjson'));
      expect(traces).toEqual(['stop.interrupt-running.trace.ndjson']);
      const path = join(dir, traces[0]!);
      const records = readFileSync(path, 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string });
      for (const record of records)
        expect(
          validateTraceRecord(record) ? [] : validateTraceRecord.errors,
          JSON.stringify(record),
        ).toEqual([]);
      expect(records.map((r) => r.type)).toEqual(
        expect.arrayContaining(['header', 'frame', 'exit']),
      );
      const page = join(dir, 'page.html');
      const view = await runCli(['view', path, '--out', page]);
      expect(view.code, view.stderr).toBe(0);
      expect(readFileSync(page, 'utf8')).toContain('session/interrupt');
    },
    budgetMs(60_000),
  );
});
