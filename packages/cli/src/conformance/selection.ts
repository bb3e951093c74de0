// Which cases a run takes (`--only`/`--skip`, by case id or requirement id, with `*` and `?`),
// and running them a few at a time (`--jobs`), each within its bound.

/** A glob of `*` (any run of characters) and `?` (one character), matched whole. */
export function globMatcher(globs: readonly string[]): (id: string) => boolean {
  const patterns = globs.map(
    (glob) =>
      new RegExp(
        `^${glob
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '.*')
          .replace(/\?/g, '.')}$`,
      ),
  );
  return (id) => patterns.some((pattern) => pattern.test(id));
}

export interface Selectable {
  readonly id: string;
  readonly requirements: readonly string[];
}

export interface Selection {
  readonly only: readonly string[];
  readonly skip: readonly string[];
}

/** Whether the user narrowed the run. */
export const isNarrowed = (selection: Selection): boolean =>
  selection.only.length > 0 || selection.skip.length > 0;

/** The cases a selection takes: named by `--only` (its id or one of its requirements), not by `--skip`. */
export function selectCases<T extends Selectable>(cases: readonly T[], selection: Selection): T[] {
  const only = globMatcher(selection.only);
  const skip = globMatcher(selection.skip);
  return cases.filter(
    (c) => (selection.only.length === 0 || only(c.id) || c.requirements.some(only)) && !skip(c.id),
  );
}

/** Runs `work` on every item, `jobs` at a time, keeping the items' order in the results. */
export async function inPool<T, R>(
  items: readonly T[],
  jobs: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, worker));
  return results;
}

/** `promise`, or `onTimeout()` once `ms` passed. */
export async function within<T>(promise: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(onTimeout()), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
