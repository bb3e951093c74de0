// One step of the quick check and how it ended.
export const GENERATED_STEP = 'generated files';
export const BREAKING_STEP = 'breaking';

export type Verdict = 'passed' | 'failed' | 'skipped';

export interface StepResult {
  /** e.g. `generated files`, `breaking`, `vectors (Python)`. */
  readonly name: string;
  readonly verdict: Verdict;
  /** One phrase: what it proved, why it failed, or why it was skipped. */
  readonly summary: string;
  /** A failure's full output (a diff, the failing tests); empty otherwise. */
  readonly detail: string;
  readonly seconds: number;
  /** A skip's reason in a few words, for one-line displays (the watcher's). */
  readonly note?: string;
}

export function secondsSince(startedMs: number): number {
  return (performance.now() - startedMs) / 1000;
}

export function stepResult(
  name: string,
  startedMs: number,
  verdict: Verdict,
  summary: string,
  detail = '',
): StepResult {
  return { name, verdict, summary, detail, seconds: secondsSince(startedMs) };
}

/** A skipped step: why, in full and in a few words. */
export function skippedStep(
  name: string,
  startedMs: number,
  reason: string,
  note: string,
): StepResult {
  return { ...stepResult(name, startedMs, 'skipped', `skipped: ${reason}`), note };
}
