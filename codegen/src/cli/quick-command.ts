// `idl-gen quick` (`pnpm test:quick`): the contributor's inner loop; see inner-loop/quick-check.ts.
import { writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { formatProblem } from '../idl/source.js';
import { disableOutputCache } from '../inner-loop/output-cache.js';
import type { ProtocolSource } from '../inner-loop/protocols.js';
import { PROTOCOLS_DIR, listProtocols } from '../inner-loop/protocols.js';
import type { ProtocolReport } from '../inner-loop/quick-check.js';
import { quickCheck } from '../inner-loop/quick-check.js';
import type { StepResult } from '../inner-loop/step.js';
import type { Command, OptionValues } from './command.js';
import { UsageError, rootOption } from './command.js';

/** The hang guard of each vector process, before DSH_SDK_TEST_TIME_SCALE (3 under CI=true). */
const VECTOR_TIMEOUT_MS = 120_000;

export const quickCommand: Command = {
  name: 'quick',
  summary: 'the inner loop: generated files current, nothing breaks, vectors pass (test:quick)',
  help: `Usage: idl-gen quick [--full] [--protocol NAME | --idl FILE] [--write] [--root DIR]

For each protocol of the repository (protocol.idl.json, protocols/<name>/protocol.idl.json):
the generated files match the IDL, nothing breaks a released version, and the golden vectors
pass in TypeScript (vitest) and Python (one process: python/tests/vectors/batch.py). The vector
runs start first and run beside the rest. A vector run is skipped, with the reason, when it
passed before on exactly the inputs it has now; datamodel-codegen's and prettier's outputs are
reused from a cache keyed by their exact input and tool versions. CI runs the full suites.

Exit status: 0 when every step passed or was skipped, 1 when one failed, 2 for a usage error.

Options:
  --full           run every step, skip nothing, reuse no cached output
  --protocol NAME  only protocols/NAME/protocol.idl.json
  --idl FILE       only the protocol of this IDL (e.g. protocol.idl.json)
  --write          regenerate the files first instead of comparing them (what the watcher runs)
  --report FILE    also write the outcome as JSON
  --watched        stop, with every process started, when stdin closes (the watcher's runs)
  --root DIR       the repository (default: this one)
  -h, --help       show this help
`,
  options: {
    full: { type: 'boolean' },
    protocol: { type: 'string' },
    idl: { type: 'string' },
    write: { type: 'boolean' },
    report: { type: 'string' },
    watched: { type: 'boolean' },
    root: { type: 'string' },
  },
  run: runQuick,
};

async function runQuick(values: OptionValues): Promise<number> {
  const root = rootOption(values);
  const protocols = selectProtocols(root, values);
  if (values['watched'] === true) stopWhenStdinCloses();
  const full = values['full'] === true;
  if (full) disableOutputCache();
  const started = performance.now();
  const reports: ProtocolReport[] = [];
  for (const protocol of protocols) {
    process.stdout.write(`test:quick: ${protocol.idlPath}\n`);
    const report = await quickCheck(protocol, {
      root,
      mode: values['write'] === true ? 'write' : 'check',
      full,
      timeoutMs: VECTOR_TIMEOUT_MS * timeScale(),
      onStep: (step) => process.stdout.write(stepLine(step)),
    });
    printFailures(report);
    reports.push(report);
  }
  if (typeof values['report'] === 'string')
    writeFileSync(resolve(values['report']), `${JSON.stringify(reports, null, 2)}\n`);
  const isGreen = reports.every((r) => r.verdict === 'green');
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    `test:quick: ${isGreen ? 'green' : 'FAILED'} in ${seconds} s` +
      `${full ? '' : ' (--full runs every step without skips or caches)'}; CI runs the full suites\n`,
  );
  return isGreen ? 0 : 1;
}

function selectProtocols(root: string, values: OptionValues): ProtocolSource[] {
  const all = listProtocols(root);
  const name = values['protocol'];
  const idl = values['idl'];
  if (typeof name === 'string' && typeof idl === 'string')
    throw new UsageError('give --protocol or --idl, not both', 'quick');
  const wanted =
    typeof name === 'string'
      ? `${PROTOCOLS_DIR}/${name}/protocol.idl.json`
      : typeof idl === 'string'
        ? relative(root, resolve(idl)).split('\\').join('/')
        : null;
  if (wanted === null) return all;
  const found = all.filter((p) => p.idlPath === wanted);
  if (found.length === 0)
    throw new UsageError(
      `${wanted} is not a protocol of ${root} (protocols: ${all.map((p) => p.idlPath).join(', ') || 'none'})`,
      'quick',
    );
  return found;
}

const MARK = { passed: '✓', failed: '✗', skipped: '-' } as const;

function stepLine(step: StepResult): string {
  const seconds = step.verdict === 'skipped' ? '' : `  ${step.seconds.toFixed(1)} s`;
  return `  ${MARK[step.verdict]} ${step.name.padEnd(21)} ${step.summary}${seconds}\n`;
}

function printFailures(report: ProtocolReport): void {
  for (const problem of report.idlProblems ?? [])
    process.stdout.write(`${formatProblem(report.idl, problem)}\n`);
  if (report.idlProblems)
    process.stdout.write(`${report.idlProblems.length} problem(s) in ${report.idl}\n`);
  for (const step of report.steps.filter((s) => s.verdict === 'failed' && s.detail !== ''))
    process.stdout.write(`\n--- ${step.name} (${report.idl}) ---\n${step.detail.trimEnd()}\n`);
}

/** The watcher's pipe closes when the watcher dies: then end this run's whole process group. */
function stopWhenStdinCloses(): void {
  process.stdin.on('data', () => {});
  process.stdin.on('end', () => process.kill(-process.pid, 'SIGKILL'));
}

function timeScale(): number {
  const scale =
    process.env['DSH_SDK_TEST_TIME_SCALE'] ?? (process.env['CI'] === 'true' ? '3' : '1');
  return Number(scale) || 1;
}
