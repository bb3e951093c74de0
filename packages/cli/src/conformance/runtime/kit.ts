/// <reference types="node" preserve="true" />
// `dsh-sdk conformance runtime`: the probe, then every selected case on fresh runtimes, a few
// at a time, then each requirement's outcome.
import { requirementById, REQUIREMENTS } from '../requirements/index.js';
import type { Requirement } from '../requirements/index.js';
import { aggregate } from '../results.js';
import type { CaseResult, Gate, RequirementResult } from '../results.js';
import { inPool, isNarrowed, selectCases, within } from '../selection.js';
import type { Selection } from '../selection.js';
import { runtimeCases } from './all-cases.js';
import { RuntimeCaseContext } from './case-context.js';
import type { ProbeInfo, RuntimeKitEnv } from './case-context.js';
import type { RuntimeCase } from './case.js';
import { probeRuntime } from './probe.js';
import type { JsonObject } from './server-line.js';

export interface RuntimeKitOptions {
  readonly program: string;
  readonly args: readonly string[];
  /** The runtime's whole environment (the kit's, plus `--env`). */
  readonly env: NodeJS.ProcessEnv;
  readonly route: JsonObject;
  readonly liveMs: number;
  readonly timeScale: number;
  readonly delegatePrompt: string | null;
  readonly jobs: number;
  readonly selection: Selection;
  /** Called as each case ends (progress on stderr). */
  readonly onCase?: (result: CaseResult) => void;
}

export interface RuntimeRun {
  readonly probe: ProbeInfo;
  readonly startedAt: Date;
  readonly endedAt: Date;
  readonly cases: readonly CaseResult[];
  readonly requirements: readonly RequirementResult[];
}

/** Why a requirement is not judged against this runtime, if it is not. */
export function runtimeGate(
  probe: ProbeInfo,
  delegatePrompt: string | null,
): (r: Requirement) => Gate | undefined {
  return (requirement) => {
    if (requirement.capability !== undefined && probe.capabilities[requirement.capability] !== true)
      return {
        outcome: 'SKIP',
        why: `the runtime did not report the ${requirement.capability} capability`,
      };
    const version = probe.protocolVersion;
    if (
      (requirement.versions === 'v1' && version >= 2) ||
      (requirement.versions === 'v2' && version < 2)
    )
      return {
        outcome: 'SKIP',
        why: `applies to version ${requirement.versions === 'v1' ? '1' : '2 and later'} runtimes`,
      };
    if (requirement.optOut === 'delegate' && delegatePrompt === null)
      return { outcome: 'NOT_TESTED', why: 'opted out: --no-delegate', optedOut: true };
    return undefined;
  };
}

async function runCase(
  c: RuntimeCase,
  env: RuntimeKitEnv,
  gate: (r: Requirement) => Gate | undefined,
): Promise<CaseResult> {
  const base = {
    id: c.id,
    title: c.title,
    requirements: c.requirements,
    transcripts: [],
    stderrTail: '',
  };
  const version = env.probe.protocolVersion;
  if ((c.versions === 'v1' && version >= 2) || (c.versions === 'v2' && version < 2))
    return {
      ...base,
      skipped: `applies to version ${c.versions === 'v1' ? '1' : '2 and later'} runtimes`,
      durationMs: 0,
      outcomes: new Map(),
    };
  const applies = (id: string): boolean => {
    const requirement = requirementById('runtime', id);
    return requirement !== undefined && gate(requirement) === undefined;
  };
  if (!c.requirements.some(applies))
    return {
      ...base,
      skipped: 'every requirement it judges is skipped in this run',
      durationMs: 0,
      outcomes: new Map(),
    };
  const ctx = new RuntimeCaseContext(env, applies);
  const started = performance.now();
  const bound = env.liveMs * (c.scale ?? 4);
  const problem = await within(
    c.run(ctx).then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    ),
    bound,
    () => `the case did not finish within ${bound / 1000} s`,
  );
  await ctx.stopAll();
  if (problem !== undefined)
    for (const id of c.requirements)
      if (applies(id) && !ctx.findings.has(id)) ctx.fail(id, problem);
  return {
    ...base,
    durationMs: performance.now() - started,
    outcomes: ctx.outcomes(),
    transcripts: ctx.transcripts,
    stderrTail: ctx.stderrTail(),
  };
}

export async function runRuntimeKit(options: RuntimeKitOptions): Promise<RuntimeRun> {
  const startedAt = new Date();
  const probe = await probeRuntime(options);
  const env: RuntimeKitEnv = { ...options, probe };
  const gate = runtimeGate(probe, options.delegatePrompt);
  const selected = selectCases(runtimeCases(), options.selection);
  const cases = await inPool(selected, options.jobs, async (c) => {
    const result = await runCase(c, env, gate);
    options.onCase?.(result);
    return result;
  });
  const requirements = aggregate(REQUIREMENTS.runtime, cases, gate, isNarrowed(options.selection));
  return { probe, startedAt, endedAt: new Date(), cases, requirements };
}
