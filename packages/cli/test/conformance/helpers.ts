// Running `bin/dsh-sdk conformance` as a user would, and reading what it writes.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AjvModule from 'ajv';
import { DSH_SDK, REPO_ROOT } from '../helpers/cli.js';

const Ajv = AjvModule.default;

export const RUNTIME_FIXTURES = fileURLToPath(new URL('./fixtures/runtimes/', import.meta.url));
export const CLIENT_FIXTURES = fileURLToPath(new URL('./fixtures/clients/', import.meta.url));
export const TS_DRIVER = join(REPO_ROOT, 'packages/client/examples/conformance-driver.mjs');
export const PY_DRIVER = join(REPO_ROOT, 'python/examples/conformance_driver.py');
export const PYTHON = join(REPO_ROOT, 'python/.venv/bin/python');
export const ROUTE = ['--provider', 'echo', '--model', 'echo-1'];

export interface RequirementEntry {
  readonly id: string;
  readonly tier: string;
  readonly outcome: string;
  readonly message: string;
  readonly expected?: string;
  readonly failure?: {
    readonly case: string;
    readonly transcript: unknown[];
    readonly stderrTail: string;
  };
}

export interface Report {
  readonly run: Record<string, unknown>;
  readonly requirements: readonly RequirementEntry[];
  readonly cases: readonly { readonly id: string; readonly skipped?: string }[];
  readonly verdict: {
    readonly conformant: boolean;
    readonly stale: string[];
    readonly unknown: string[];
  };
}

export interface KitRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly dir: string;
  /** The `--report-json` file, read. */
  report(): Report;
}

/** Runs `bin/dsh-sdk conformance <args>` with `--report-json` into a fresh folder. */
export function runKit(
  args: readonly string[],
  onStart?: (child: ChildProcess) => void,
): Promise<KitRun> {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-sdk-conformance-test-'));
  const separator = args.indexOf('--');
  const withReport =
    separator < 0
      ? [...args]
      : [
          ...args.slice(0, separator),
          '--report-json',
          join(dir, 'report.json'),
          ...args.slice(separator),
        ];
  const child = spawn(DSH_SDK, ['conformance', ...withReport], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  onStart?.(child);
  return new Promise((resolve) =>
    child.on('close', (code, signal) =>
      resolve({
        code,
        signal,
        stdout,
        stderr,
        dir,
        report: () => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report,
      }),
    ),
  );
}

export const outcomeOf = (report: Report, id: string): string | undefined =>
  report.requirements.find((r) => r.id === id)?.outcome;

/** The requirements that stand against conformance: failed, or not tested. */
export const failing = (report: Report): string[] =>
  report.requirements
    .filter(
      (r) =>
        r.tier !== 'ADVISORY' &&
        (r.outcome === 'FAIL' || r.outcome === 'NOT_TESTED') &&
        r.expected === undefined,
    )
    .map((r) => r.id);

function validatorFor(path: string): ReturnType<InstanceType<typeof Ajv>['compile']> {
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addFormat('date-time', (value: string) => !Number.isNaN(Date.parse(value)));
  return ajv.compile(JSON.parse(readFileSync(path, 'utf8')) as object);
}

export const validateReport = validatorFor(
  join(REPO_ROOT, 'packages/cli/conformance-report.schema.json'),
);
export const validateTraceRecord = validatorFor(
  join(REPO_ROOT, 'packages/protocol/trace-format.schema.json'),
);

/** Runs `work` on every item, `jobs` at a time. */
export async function inParallel<T>(
  items: readonly T[],
  jobs: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/** Pids of the processes whose environment holds `DSH_CONFORMANCE_TEST_TAG=<tag>`. */
export function taggedProcesses(tag: string): number[] {
  const needle = `DSH_CONFORMANCE_TEST_TAG=${tag}`;
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(needle);
      } catch {
        return false;
      }
    })
    .map(Number);
}
