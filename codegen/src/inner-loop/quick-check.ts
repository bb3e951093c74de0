// The quick check of one protocol (`pnpm test:quick`, and the watcher after each save): what it
// proves is what the full suites prove of an IDL edit (the generated files are current, nothing
// breaks a released version, the golden vectors pass in both languages), at the cost of one
// process per language. The vector processes start first and run beside the in-process steps.
import type { IdlProblem } from '../idl/source.js';
import type { ProtocolSource } from './protocols.js';
import type { StepResult } from './step.js';
import { BREAKING_STEP, GENERATED_STEP, skippedStep, stepResult } from './step.js';
import { PY_VECTORS, TS_VECTORS, runVectorStep } from './vector-steps.js';

export interface QuickOptions {
  readonly root: string;
  /** `check` compares the generated files; `write` (the watcher) regenerates them first. */
  readonly mode: 'check' | 'write';
  /** Run every step, skip nothing, reuse no cached output. */
  readonly full: boolean;
  /** The hang guard of each vector process. */
  readonly timeoutMs: number;
  /** Called as each step ends, in the order they end. */
  readonly onStep: (result: StepResult) => void;
}

export interface ProtocolReport {
  readonly idl: string;
  readonly verdict: 'green' | 'failed';
  readonly seconds: number;
  /** When the IDL did not load: every problem, with its pointer and line:column. */
  readonly idlProblems: readonly IdlProblem[] | null;
  /** Generated files written (write mode) or out of date (check mode). */
  readonly changed: readonly string[];
  /** Generated files, breaking, then the vectors. */
  readonly steps: readonly StepResult[];
}

const VECTOR_STEPS = [TS_VECTORS.name, PY_VECTORS.name];
/** The order of the report's steps (they end in any order). */
const STEP_ORDER = [GENERATED_STEP, BREAKING_STEP, ...VECTOR_STEPS];

export async function quickCheck(
  protocol: ProtocolSource,
  options: QuickOptions,
): Promise<ProtocolReport> {
  const started = performance.now();
  const steps: StepResult[] = [];
  const done = (result: StepResult) => {
    steps.push(result);
    options.onStep(result);
    return result;
  };
  const finish = (idlProblems: readonly IdlProblem[] | null, changed: readonly string[]) =>
    toReport(protocol, started, steps, idlProblems, changed);

  // Checking committed files, the vectors need nothing from this run: they start at once.
  const early =
    options.mode === 'check' && protocol.name === null ? startVectors(options, done) : null;
  // The in-process steps' modules (the emitters, the breaking checker) load while they run.
  const { breakingStep, generatedStep, loadDocument, protocolOf } =
    await import('./protocol-steps.js');
  const { unlessPassed } = await import('./protocol-passes.js');
  const loaded = loadDocument(options.root, protocol.idlPath);
  if ('problems' in loaded) {
    // Nothing else means anything until the IDL loads; the vector runs already started finish.
    await early;
    return finish(loaded.problems, []);
  }
  if (protocol.name !== null)
    for (const name of VECTOR_STEPS) done(vectorsElsewhere(name, protocol.name, started));
  // Checking, a step that passed on exactly its current inputs is skipped: an edit to one
  // protocol's IDL rechecks that protocol only. Writing (the watcher) or --full runs each.
  let protocolFiles: ReturnType<typeof protocolOf>;
  try {
    protocolFiles = protocolOf(options.root, loaded.doc);
  } catch (error) {
    // Laid out wrongly (no protocol.targets.json): nothing can be generated or compared.
    for (const name of [GENERATED_STEP, BREAKING_STEP]) done(failedWith(name, started, error));
    await early;
    return finish(null, []);
  }
  const orSkip = (name: string, step: () => Promise<StepResult> | StepResult) =>
    options.mode === 'check' && !options.full
      ? unlessPassed(options.root, protocolFiles, name, step)
      : step();
  let changed: readonly string[] = [];
  const generated = async () => {
    const outcome = await generatedStep(options.root, loaded.doc, options.mode).catch(
      (error: unknown) => ({ result: failedWith(GENERATED_STEP, started, error), changed: [] }),
    );
    changed = outcome.changed;
    return outcome.result;
  };
  done(await orSkip(GENERATED_STEP, generated));
  const vectors = early ?? (protocol.name === null ? startVectors(options, done) : null);
  const breakingStarted = performance.now();
  done(
    await orSkip(BREAKING_STEP, () => {
      try {
        return breakingStep(options.root, loaded.doc);
      } catch (error) {
        return failedWith(BREAKING_STEP, breakingStarted, error);
      }
    }),
  );
  await vectors;
  return finish(null, changed);
}

function toReport(
  protocol: ProtocolSource,
  started: number,
  steps: readonly StepResult[],
  idlProblems: readonly IdlProblem[] | null,
  changed: readonly string[],
): ProtocolReport {
  return {
    idl: protocol.idlPath,
    verdict: idlProblems || steps.some((s) => s.verdict === 'failed') ? 'failed' : 'green',
    seconds: (performance.now() - started) / 1000,
    idlProblems,
    changed,
    steps: [...steps].sort((a, b) => STEP_ORDER.indexOf(a.name) - STEP_ORDER.indexOf(b.name)),
  };
}

function startVectors(options: QuickOptions, done: (r: StepResult) => void): Promise<unknown> {
  const run = { full: options.full, timeoutMs: options.timeoutMs };
  return Promise.all(
    [TS_VECTORS, PY_VECTORS].map((runner) => {
      const started = performance.now();
      return runVectorStep(options.root, runner, run)
        .catch((error: unknown) => failedWith(runner.name, started, error))
        .then(done);
    }),
  );
}

/** A step that throws (a tool missing, a file unreadable) fails with the error, not the run. */
function failedWith(name: string, started: number, error: unknown): StepResult {
  const message = error instanceof Error ? error.message : String(error);
  return stepResult(name, started, 'failed', message.split('\n')[0] ?? '', message);
}

/** The vector runs of this loop are the root protocol's (test-vectors/); another protocol's
 * vectors belong to its packages' suites, which `pnpm test` runs. */
function vectorsElsewhere(step: string, name: string, started: number): StepResult {
  return skippedStep(
    step,
    started,
    `protocols/${name}/'s vectors are checked by its packages' suites (pnpm test)`,
    'vectors in package suites',
  );
}
