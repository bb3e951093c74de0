// The verdict of a run, and the baseline (`--expected-failures FILE`) that cannot go stale: a
// listed failure does not fail the run, but a listed entry that now passes does, and so does an
// id the kit does not know.
import { readFileSync } from 'node:fs';
import { UsageError } from '../cli-args.js';
import { OUTCOMES, TIERS } from './requirements/index.js';
import type { Outcome, Tier } from './requirements/index.js';
import type { CaseResult, RequirementResult } from './results.js';
import { countsAgainst } from './results.js';

export interface BaselineEntry {
  /** A requirement id or a case id. */
  readonly id: string;
  readonly reason: string;
}

export interface Verdict {
  readonly conformant: boolean;
  readonly counts: Readonly<Record<Tier, Readonly<Record<Outcome, number>>>>;
  /** Baseline entries that now pass. */
  readonly stale: readonly string[];
  /** Baseline entries naming nothing the kit knows. */
  readonly unknown: readonly string[];
  /** Human lines saying why. */
  readonly lines: readonly string[];
}

/** Reads a baseline: `{"expectedFailures": [{"id": "DSH-…", "reason": "…"}]}`; a usage error when malformed. */
export function readBaseline(path: string): BaselineEntry[] {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`--expected-failures ${path}: ${(error as Error).message}`);
  }
  const entries = (value as { expectedFailures?: unknown } | null)?.expectedFailures;
  if (!Array.isArray(entries))
    throw new UsageError(
      `--expected-failures ${path}: expected {"expectedFailures": [{"id", "reason"}, …]}`,
    );
  return entries.map((entry: unknown, i) => {
    const { id, reason } = (entry ?? {}) as { id?: unknown; reason?: unknown };
    if (typeof id !== 'string' || typeof reason !== 'string' || reason.trim() === '')
      throw new UsageError(
        `--expected-failures ${path}: entry ${i} needs an "id" and a non-empty "reason"`,
      );
    return { id, reason };
  });
}

/** Marks the failures the baseline expects; returns the stale and unknown entries. */
export function applyBaseline(
  results: readonly RequirementResult[],
  cases: readonly CaseResult[],
  knownCaseIds: ReadonlySet<string>,
  baseline: readonly BaselineEntry[],
): { results: RequirementResult[]; stale: string[]; unknown: string[] } {
  const byId = new Map(baseline.map((e) => [e.id, e.reason]));
  const ran = new Map(cases.filter((c) => c.skipped === undefined).map((c) => [c.id, c]));
  const stale: string[] = [];
  const unknown: string[] = [];
  for (const entry of baseline) {
    const result = results.find((r) => r.requirement.id === entry.id);
    if (result) {
      if (result.outcome === 'PASS') stale.push(entry.id);
    } else if (knownCaseIds.has(entry.id)) {
      const c = ran.get(entry.id);
      if (
        c &&
        ![...c.outcomes.values()].some((o) => o.outcome === 'FAIL' || o.outcome === 'NOT_TESTED')
      )
        stale.push(entry.id);
    } else unknown.push(entry.id);
  }
  const marked = results.map((result) => {
    const byRequirement = byId.get(result.requirement.id);
    const failingCases = result.cases.filter((c) => c.outcome !== 'PASS').map((c) => c.id);
    const byCases =
      failingCases.length > 0 && failingCases.every((id) => byId.has(id))
        ? failingCases.map((id) => byId.get(id)).join('; ')
        : undefined;
    const reason = byRequirement ?? byCases;
    const isExpected =
      reason !== undefined &&
      (result.outcome === 'FAIL' || result.outcome === 'WARN' || result.outcome === 'NOT_TESTED');
    return isExpected ? { ...result, expected: reason } : result;
  });
  return { results: marked, stale, unknown };
}

function countTiers(results: readonly RequirementResult[]): Record<Tier, Record<Outcome, number>> {
  const counts = {} as Record<Tier, Record<Outcome, number>>;
  for (const tier of TIERS) {
    counts[tier] = {} as Record<Outcome, number>;
    for (const outcome of OUTCOMES)
      counts[tier][outcome] = results.filter(
        (r) => r.requirement.tier === tier && r.outcome === outcome,
      ).length;
  }
  return counts;
}

export function judge(
  results: readonly RequirementResult[],
  stale: readonly string[],
  unknown: readonly string[],
  isPartial: boolean,
): Verdict {
  const against = results.filter((r) => countsAgainst(r) && r.expected === undefined);
  const failed = against.filter((r) => r.outcome === 'FAIL').map((r) => r.requirement.id);
  const untested = against.filter((r) => r.outcome === 'NOT_TESTED').map((r) => r.requirement.id);
  const expected = results.filter((r) => r.expected !== undefined).length;
  const lines: string[] = [];
  if (failed.length > 0) lines.push(`${failed.length} requirement(s) failed: ${failed.join(', ')}`);
  if (untested.length > 0)
    lines.push(`${untested.length} requirement(s) could not be tested: ${untested.join(', ')}`);
  if (stale.length > 0)
    lines.push(
      `the baseline is stale: ${stale.join(', ')} now pass(es); remove them from --expected-failures`,
    );
  if (unknown.length > 0)
    lines.push(`the baseline names ids the kit does not know: ${unknown.join(', ')}`);
  if (expected > 0) lines.push(`${expected} failure(s) expected by the baseline (marked *)`);
  const conformant =
    failed.length === 0 && untested.length === 0 && stale.length === 0 && unknown.length === 0;
  const partial = isPartial ? ' (a partial run: --only/--skip)' : '';
  lines.push(conformant ? `conformant${partial}` : `not conformant${partial}`);
  return { conformant, counts: countTiers(results), stale, unknown, lines };
}
