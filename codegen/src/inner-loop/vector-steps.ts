// The golden vectors, each language in one process: vitest on the two vector test files (its
// per-test cost is small; its start-up is the cost), and the Python batch runner
// (python/tests/vectors/batch.py), which runs pytest's vector tests without pytest's per-test
// cost. Each is skipped when it passed on exactly the inputs it has now (passes.ts).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { venvFingerprint } from './tool-fingerprint.js';
import type { StepInputs } from './passes.js';
import { findPass, fingerprint, recordPass } from './passes.js';
import type { StepResult } from './step.js';
import { skippedStep, stepResult } from './step.js';

interface Tally {
  readonly passed: number;
  readonly failed: number;
  readonly summary: string;
}

interface VectorRunner {
  readonly name: string;
  inputs(root: string): StepInputs;
  command(
    root: string,
    report: string,
    full: boolean,
  ): { file: string; args: string[]; cwd: string };
  tally(report: string): Tally;
}

/** Files shared by both languages' vector tests: the vectors and the IDL they are checked against. */
const SHARED_INPUTS = ['test-vectors', 'protocol.idl.json'];

const TS_TEST_FILES = ['test/vectors.test.ts', 'test/vectors-coverage.test.ts'];

export const TS_VECTORS: VectorRunner = {
  name: 'vectors (TypeScript)',
  inputs: () => ({
    paths: [
      ...SHARED_INPUTS,
      'packages/protocol',
      'vitest.shared.ts',
      'tsconfig.base.json',
      'package.json',
      'node_modules/.pnpm/lock.yaml',
    ],
    facts: [`node ${process.version} ${process.platform} ${process.arch}`, ...TS_TEST_FILES],
  }),
  command: (root, report, full) => ({
    file: process.execPath,
    args: [
      join(root, 'packages/protocol/node_modules/vitest/vitest.mjs'),
      'run',
      // One worker thread for both files, their modules loaded once: 0.4 s less CPU than a
      // thread and a module graph per file (the full suite keeps files isolated).
      '--pool=threads',
      '--maxWorkers=1',
      '--no-isolate',
      // Transformed modules kept on disk, keyed by their content (not with --full).
      ...(full ? [] : ['--experimental.fsModuleCache']),
      '--reporter=dot',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...TS_TEST_FILES,
    ],
    cwd: join(root, 'packages/protocol'),
  }),
  tally(report) {
    const json = JSON.parse(readFileSync(report, 'utf8')) as {
      numPassedTests: number;
      numTotalTests: number;
    };
    // Skipped and todo tests count as not passed: the vector tests have none.
    const failed = json.numTotalTests - json.numPassedTests;
    return {
      passed: json.numPassedTests,
      failed,
      summary: tallySummary(json.numPassedTests, failed),
    };
  },
};

export const PY_VECTORS: VectorRunner = {
  name: 'vectors (Python)',
  inputs: (root) => ({
    paths: [...SHARED_INPUTS, 'python/src', 'python/tests', 'python/pyproject.toml'],
    facts: venvFingerprint(join(root, 'python/.venv')),
  }),
  command: (root, report) => ({
    file: join(root, 'python/.venv/bin/python'),
    args: ['-m', 'vectors.batch', '--json', report],
    cwd: join(root, 'python/tests'),
  }),
  tally(report) {
    const json = JSON.parse(readFileSync(report, 'utf8')) as {
      passed: number;
      xfailed: number;
      skipped: number;
      failures: unknown[];
    };
    const others = [
      ...(json.xfailed ? [`${json.xfailed} known failures`] : []),
      ...(json.skipped ? [`${json.skipped} skipped`] : []),
    ];
    const summary = tallySummary(json.passed, json.failures.length);
    return {
      passed: json.passed,
      failed: json.failures.length,
      summary: others.length > 0 ? `${summary} (${others.join(', ')})` : summary,
    };
  },
};

function tallySummary(passed: number, failed: number): string {
  return failed > 0 ? `${failed} failed, ${passed} passed` : `${passed} passed`;
}

export interface VectorStepOptions {
  readonly full: boolean;
  /** Longest a run may take before it is stopped and reported (scaled by the caller). */
  readonly timeoutMs: number;
}

/** Runs one language's vectors, or skips them with the reason when they passed on these inputs. */
export async function runVectorStep(
  root: string,
  runner: VectorRunner,
  options: VectorStepOptions,
): Promise<StepResult> {
  const started = performance.now();
  const inputs = runner.inputs(root);
  const key = fingerprint(root, runner.name, inputs);
  const pass = options.full ? null : findPass(key);
  if (pass) {
    const at = new Date(pass.at).toLocaleTimeString('en-GB');
    const reason = `it passed at ${at} on exactly these inputs (${pass.summary}); --full runs it`;
    return skippedStep(runner.name, started, reason, 'inputs unchanged since it passed');
  }
  const dir = mkdtempSync(join(tmpdir(), 'idl-gen-vectors-'));
  try {
    const report = join(dir, 'report.json');
    const { file, args, cwd } = runner.command(root, report, options.full);
    const run = await runChild(file, args, cwd, options.timeoutMs);
    let tally: Tally | null = null;
    try {
      tally = runner.tally(report);
    } catch {
      // No report: the runner could not start or crashed; its output says why.
    }
    if (run.code !== 0 || !tally || tally.failed > 0 || tally.passed === 0) {
      const why = run.timedOut
        ? `stopped after ${options.timeoutMs / 1000} s`
        : (tally?.summary ?? `exited ${run.code ?? run.signal} without a report`);
      return stepResult(runner.name, started, 'failed', why, run.output);
    }
    // Recorded only if no input changed while it ran: the pass is for what it read.
    if (fingerprint(root, runner.name, inputs) === key)
      recordPass(key, { step: runner.name, at: new Date().toISOString(), summary: tally.summary });
    return stepResult(runner.name, started, 'passed', tally.summary);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface ChildRun {
  readonly code: number | null;
  readonly signal: string | null;
  readonly output: string;
  readonly timedOut: boolean;
}

function runChild(file: string, args: string[], cwd: string, timeoutMs: number): Promise<ChildRun> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const child = spawn(file, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    const finish = (code: number | null, signal: string | null, extra = '') => {
      clearTimeout(timer);
      const output = Buffer.concat(chunks).toString('utf8') + extra;
      resolve({ code, signal, output, timedOut });
    };
    child.on('error', (error) => finish(null, null, `could not start ${file}: ${error.message}\n`));
    child.on('close', (code, signal) => finish(code, signal));
  });
}
