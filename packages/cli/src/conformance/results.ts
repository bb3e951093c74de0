// From cases to requirements: each requirement's outcome over the cases that judged it, its tier
// applied (an advisory failure is a WARN), and what made it skipped or not tested.
import type { CaseOutcome } from './verdicts.js';
import type { Outcome, Requirement } from './requirements/index.js';

export interface CaseResult {
  readonly id: string;
  readonly title: string;
  readonly requirements: readonly string[];
  /** Why the case did not run (its versions, or every requirement gated), when it did not. */
  readonly skipped?: string;
  readonly durationMs: number;
  readonly outcomes: ReadonlyMap<
    string,
    { readonly outcome: CaseOutcome; readonly message: string }
  >;
  /** The trace records of each peer the case started, as JSON texts. */
  readonly transcripts: readonly (readonly string[])[];
  readonly stderrTail: string;
}

/** Why a requirement is not judged in this run. */
export interface Gate {
  readonly outcome: 'SKIP' | 'NOT_TESTED';
  readonly why: string;
  /** The user opted out of its area (`--no-delegate`): not tested, and not a failure. */
  readonly optedOut?: boolean;
}

export interface RequirementResult {
  readonly requirement: Requirement;
  readonly outcome: Outcome;
  readonly message: string;
  readonly cases: readonly {
    readonly id: string;
    readonly outcome: CaseOutcome;
    readonly message: string;
  }[];
  readonly durationMs: number;
  /** The first case that failed it: its transcript and stderr go in the reports. */
  readonly failingCase?: CaseResult;
  readonly optedOut?: boolean;
  /** Set by the baseline: the failure is expected, with the entry's reason. */
  readonly expected?: string;
}

export function aggregate(
  requirements: readonly Requirement[],
  cases: readonly CaseResult[],
  gate: (requirement: Requirement) => Gate | undefined,
  isNarrowed: boolean,
): RequirementResult[] {
  return requirements.map((requirement) => {
    const touched = cases.flatMap((c) => {
      const found = c.outcomes.get(requirement.id);
      return found ? [{ id: c.id, ...found, durationMs: c.durationMs, result: c }] : [];
    });
    const durationMs = touched.reduce((sum, t) => sum + t.durationMs, 0);
    const cases_ = touched.map(({ id, outcome, message }) => ({ id, outcome, message }));
    const base = { requirement, cases: cases_, durationMs };
    const gated = gate(requirement);
    if (gated)
      return {
        ...base,
        outcome: gated.outcome,
        message: gated.why,
        ...(gated.optedOut ? { optedOut: true } : {}),
      };
    const failed = touched.filter((t) => t.outcome === 'FAIL');
    if (failed.length > 0)
      return {
        ...base,
        outcome: requirement.tier === 'ADVISORY' ? 'WARN' : 'FAIL',
        message: failed.map((t) => `${t.id}: ${t.message}`).join('\n'),
        failingCase: failed[0]!.result,
      };
    if (touched.some((t) => t.outcome === 'PASS')) return { ...base, outcome: 'PASS', message: '' };
    const untested = touched.find((t) => t.outcome === 'NOT_TESTED');
    if (untested)
      return { ...base, outcome: 'NOT_TESTED', message: `${untested.id}: ${untested.message}` };
    const judging = cases.filter((c) => c.requirements.includes(requirement.id));
    const skipped = judging.find((c) => c.skipped !== undefined);
    if (skipped && judging.every((c) => c.skipped !== undefined))
      return { ...base, outcome: 'SKIP', message: skipped.skipped! };
    if (isNarrowed)
      return { ...base, outcome: 'SKIP', message: 'no selected case judged it (--only/--skip)' };
    return { ...base, outcome: 'NOT_TESTED', message: 'no case could exercise it' };
  });
}

/** Whether a requirement's result stands against conformance (before the baseline). */
export function countsAgainst(result: RequirementResult): boolean {
  if (result.requirement.tier === 'ADVISORY') return false;
  if (result.outcome === 'FAIL') return true;
  return result.outcome === 'NOT_TESTED' && !result.optedOut;
}
