// `dsh-sdk conformance client [options] -- <driver command> [args...]`.
import { parseVerbArgs, runtimeCommand } from '../cli-args.js';
import { clientCases, CLIENT_MONITORED, runClientKit } from './client/kit.js';
import { finishRun } from './finish.js';
import { renderList } from './list.js';
import { COMMON_HELP, COMMON_OPTIONS, readCommonOptions } from './options.js';
import { REQUIREMENTS } from './requirements/index.js';
import type { BaselineEntry } from './verdict.js';
import { readBaseline } from './verdict.js';

export const CLIENT_HELP = `Usage: dsh-sdk conformance client [options] -- <driver command> [args...]

Judges a client through its driver (docs/conformance.md, "Writing a driver"): for each
scenario the kit starts the driver afresh with DSH_CONFORMANCE_SCENARIO (the scenario's name),
DSH_CONFORMANCE_PLAN (what to do, JSON) and DSH_SDK_RUNTIME (the runtime command to give the
client, a JSON array: the kit's stub, through which the kit plays the runtime). It checks the
client's traffic and the result line the driver prints.
Exit status: 0 conformant, 1 not, 2 a usage error.

  --cwd DIR, --provider NAME, --model NAME
                            the route the driver is told to initialize with
                            (default: this directory, conformance, conformance-1)
${COMMON_HELP}`;

const OPTIONS = {
  ...COMMON_OPTIONS,
  cwd: { type: 'string' },
  provider: { type: 'string' },
  model: { type: 'string' },
} as const;

export async function runConformanceClient(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseVerbArgs(args, OPTIONS, true);
  if (values.help) {
    process.stdout.write(`${CLIENT_HELP}\n`);
    return 0;
  }
  const common = readCommonOptions(values);
  if (common.list) {
    process.stdout.write(renderList(REQUIREMENTS.client, clientCases(), CLIENT_MONITORED));
    return 0;
  }
  const [program, programArgs] = runtimeCommand(positionals, 'conformance client');
  const baseline: BaselineEntry[] =
    common.expectedFailures === undefined ? [] : readBaseline(common.expectedFailures);
  const route = {
    cwd: values.cwd ?? process.cwd(),
    provider: values.provider ?? 'conformance',
    model: values.model ?? 'conformance-1',
  };
  const log = (line: string) => process.stderr.write(`dsh-sdk conformance: ${line}\n`);
  const run = await runClientKit({
    program,
    args: programArgs,
    env: common.env,
    route,
    liveMs: common.liveMs,
    jobs: common.jobs,
    selection: common.selection,
    onCase: (c) => log(`ran ${c.id} in ${(c.durationMs / 1000).toFixed(1)} s`),
  });
  return finishRun(
    {
      kind: 'client',
      command: [program, ...programArgs],
      header: [
        `dsh-sdk conformance client: ${[program, ...programArgs].join(' ')}`,
        `${run.cases.length} scenarios in ${((run.endedAt.getTime() - run.startedAt.getTime()) / 1000).toFixed(1)} s`,
      ],
      startedAt: run.startedAt,
      endedAt: run.endedAt,
      serverInfo: null,
      protocolVersion: null,
      capabilities: null,
      options: {
        route,
        timeoutS: common.liveMs / 1000,
        jobs: common.jobs,
        only: common.selection.only,
        skip: common.selection.skip,
        expectedFailures: common.expectedFailures ?? null,
      },
      requirements: run.requirements,
      cases: run.cases,
      knownCaseIds: new Set(clientCases().map((c) => c.id)),
    },
    common,
    baseline,
  );
}
