// `dsh-sdk conformance runtime [options] -- <command> [args...]`.
import { METHOD_VALIDATORS, toViolations } from '@dsh-sdk/protocol';
import { parseVerbArgs, runtimeCommand, UsageError } from '../cli-args.js';
import { finishRun } from './finish.js';
import { renderList } from './list.js';
import { COMMON_HELP, COMMON_OPTIONS, DEFAULT_TIMEOUT_S, readCommonOptions } from './options.js';
import { REQUIREMENTS } from './requirements/index.js';
import { runtimeCases } from './runtime/all-cases.js';
import { runRuntimeKit } from './runtime/kit.js';
import { MONITORED_REQUIREMENTS } from './runtime/monitor.js';
import { StartFailure } from './runtime/probe.js';
import type { JsonObject } from './runtime/server-line.js';
import { DEFAULT_DELEGATE_PROMPT } from './runtime/turns.js';
import type { BaselineEntry } from './verdict.js';
import { readBaseline } from './verdict.js';

export const RUNTIME_HELP = `Usage: dsh-sdk conformance runtime [options] -- <runtime command> [args...]

Judges a runtime against the protocol: starts it afresh for each case (in a process group of
its own, always stopped after), speaks raw NDJSON to it, checks every line it writes against
the IDL and WIRE.md, and reports each requirement (docs/conformance.md).
Exit status: 0 conformant, 1 not, 2 a usage error or a runtime that cannot start.

The route (initialize's params):
  --provider NAME, --model NAME   the model route (both required, unless --initialize)
  --effort NAME                   reasoningEffort (default: none, the model's own)
  --cwd DIR                       cwd (default: this directory)
  --initialize JSON               initialize's whole params instead (without protocolVersion)

Child agents:
  --delegate-prompt TEXT    a prompt that makes the runtime start a child agent
                            (default: "/delegate <a long task>", the reference runtimes' agent)
  --no-delegate             do not test child agents (their requirements: not tested)

${COMMON_HELP}`;

const OPTIONS = {
  ...COMMON_OPTIONS,
  provider: { type: 'string' },
  model: { type: 'string' },
  effort: { type: 'string' },
  cwd: { type: 'string' },
  initialize: { type: 'string' },
  'delegate-prompt': { type: 'string' },
  'no-delegate': { type: 'boolean' },
} as const;

/** The route: `--initialize`, or `--provider`/`--model`/`--effort`/`--cwd`; checked against the IDL. */
function readRoute(values: {
  provider?: string;
  model?: string;
  effort?: string;
  cwd?: string;
  initialize?: string;
}): JsonObject {
  let route: JsonObject;
  if (values.initialize !== undefined) {
    if (values.provider ?? values.model ?? values.effort ?? values.cwd)
      throw new UsageError(
        'give the route either with --initialize or with --provider/--model/--effort/--cwd, not both',
      );
    try {
      route = JSON.parse(values.initialize) as JsonObject;
    } catch (error) {
      throw new UsageError(`--initialize is not JSON: ${(error as Error).message}`);
    }
  } else {
    if (values.provider === undefined || values.model === undefined)
      throw new UsageError('give the route: --provider and --model (or --initialize JSON)');
    route = {
      cwd: values.cwd ?? process.cwd(),
      provider: values.provider,
      model: values.model,
      ...(values.effort === undefined ? {} : { reasoningEffort: values.effort }),
    };
  }
  const validate = METHOD_VALIDATORS.initialize.params;
  if (!validate(route)) {
    const problems = toViolations(validate.errors).map((v) => `${v.pointer || '/'} ${v.message}`);
    throw new UsageError(`the route is not valid initialize params: ${problems.join('; ')}`);
  }
  if (typeof route === 'object' && route !== null && 'protocolVersion' in route)
    throw new UsageError(
      'leave protocolVersion out of --initialize: the kit asks for versions itself',
    );
  return route;
}

export async function runConformanceRuntime(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseVerbArgs(args, OPTIONS, true);
  if (values.help) {
    process.stdout.write(`${RUNTIME_HELP}\n`);
    return 0;
  }
  const common = readCommonOptions(values);
  if (common.list) {
    process.stdout.write(renderList(REQUIREMENTS.runtime, runtimeCases(), MONITORED_REQUIREMENTS));
    return 0;
  }
  if (values['no-delegate'] && values['delegate-prompt'] !== undefined)
    throw new UsageError('--no-delegate and --delegate-prompt exclude each other');
  const route = readRoute(values);
  const [program, programArgs] = runtimeCommand(positionals, 'conformance runtime');
  const baseline: BaselineEntry[] =
    common.expectedFailures === undefined ? [] : readBaseline(common.expectedFailures);
  const delegatePrompt = values['no-delegate']
    ? null
    : (values['delegate-prompt'] ?? DEFAULT_DELEGATE_PROMPT);
  const log = (line: string) => process.stderr.write(`dsh-sdk conformance: ${line}\n`);
  let run;
  try {
    run = await runRuntimeKit({
      program,
      args: programArgs,
      env: common.env,
      route,
      liveMs: common.liveMs,
      timeScale: Math.max(1, common.liveMs / (DEFAULT_TIMEOUT_S * 1000)),
      delegatePrompt,
      jobs: common.jobs,
      selection: common.selection,
      onCase: (c) =>
        log(
          `${c.skipped ? 'skipped' : 'ran'} ${c.id}${c.skipped ? ` (${c.skipped})` : ` in ${(c.durationMs / 1000).toFixed(1)} s`}`,
        ),
    });
  } catch (error) {
    if (!(error instanceof StartFailure)) throw error;
    log(`cannot start the runtime: ${error.message}`);
    return 2;
  }
  const { probe } = run;
  const info = probe.serverInfo
    ? `${String(probe.serverInfo['name'])} ${String(probe.serverInfo['version'])}`
    : 'no serverInfo';
  const capabilities = Object.keys(probe.capabilities).filter(
    (k) => probe.capabilities[k] === true,
  );
  return finishRun(
    {
      kind: 'runtime',
      command: [program, ...programArgs],
      header: [
        `dsh-sdk conformance runtime: ${[program, ...programArgs].join(' ')}`,
        `${info}, protocol version ${probe.protocolVersion}, capabilities: ${capabilities.join(', ') || 'none'}; ${run.cases.filter((c) => !c.skipped).length} cases in ${((run.endedAt.getTime() - run.startedAt.getTime()) / 1000).toFixed(1)} s`,
      ],
      startedAt: run.startedAt,
      endedAt: run.endedAt,
      serverInfo: probe.serverInfo,
      protocolVersion: probe.protocolVersion,
      capabilities: probe.capabilities,
      options: {
        route,
        timeoutS: common.liveMs / 1000,
        jobs: common.jobs,
        only: common.selection.only,
        skip: common.selection.skip,
        delegatePrompt,
        expectedFailures: common.expectedFailures ?? null,
      },
      requirements: run.requirements,
      cases: run.cases,
      knownCaseIds: new Set(runtimeCases().map((c) => c.id)),
    },
    common,
    baseline,
  );
}
