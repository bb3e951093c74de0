// Stopping a runtime, each step bounded (the IDL's `shutdown`): the `shutdown` request, closing stdin,
// SIGTERM, SIGKILL. The ladder stops at the first step after which the process is gone.
import { RequestTimeoutError } from '@dsh-sdk/protocol';
import type { RuntimeExit } from './errors.js';
import type { RuntimeProcess } from './runtime-process.js';

/** A rung of the ladder. */
export type ShutdownStep = 'shutdown-request' | 'close-stdin' | 'sigterm' | 'sigkill';

/** What one step did and how long it took. */
export interface ShutdownStepReport {
  readonly step: ShutdownStep;
  /** For example `answered, exited`, `timed out`, `still running`. */
  readonly outcome: string;
  readonly elapsedMs: number;
}

/** How a shutdown ended. */
export interface ShutdownReport extends RuntimeExit {
  /** The step after which the runtime was gone, or `already-exited` if it was gone before. */
  readonly endedBy: ShutdownStep | 'already-exited';
  /** `false` only if the process survived SIGKILL within its bound. */
  readonly hasExited: boolean;
  /** Every step taken, in order. */
  readonly steps: readonly ShutdownStepReport[];
  readonly elapsedMs: number;
}

/** Options of a shutdown. */
export interface ShutdownOptions {
  /** The bound of each step, in milliseconds (default 2000). */
  readonly timeoutMs?: number;
}

/** Default bound of each step of the ladder. */
export const DEFAULT_SHUTDOWN_STEP_MS = 2000;

/**
 * Climbs the ladder against `runtime`. `requestShutdown` sends the `shutdown` request and
 * rejects if it is refused, fails or is not answered within the bound it is given.
 */
export async function climbShutdownLadder(
  runtime: RuntimeProcess,
  requestShutdown: (timeoutMs: number) => Promise<unknown>,
  { timeoutMs = DEFAULT_SHUTDOWN_STEP_MS }: ShutdownOptions = {},
): Promise<ShutdownReport> {
  const started = performance.now();
  const steps: ShutdownStepReport[] = [];
  const finish = (endedBy: ShutdownReport['endedBy']): ShutdownReport => ({
    endedBy,
    hasExited: runtime.exit !== undefined,
    exitCode: runtime.exit?.exitCode ?? null,
    signal: runtime.exit?.signal ?? null,
    steps,
    elapsedMs: Math.round(performance.now() - started),
  });
  if (runtime.exit) return finish('already-exited');
  const rungs: readonly [ShutdownStep, () => Promise<string>][] = [
    ['shutdown-request', () => sendShutdown(runtime, requestShutdown, timeoutMs)],
    ['close-stdin', () => afterward(runtime, timeoutMs, () => runtime.closeStdin())],
    ['sigterm', () => afterward(runtime, timeoutMs, () => runtime.kill('SIGTERM'))],
    ['sigkill', () => afterward(runtime, timeoutMs, () => runtime.kill('SIGKILL'))],
  ];
  for (const [step, climb] of rungs) {
    const stepStarted = performance.now();
    const outcome = await climb();
    steps.push({ step, outcome, elapsedMs: Math.round(performance.now() - stepStarted) });
    if (runtime.exit) return finish(step);
  }
  return finish('sigkill');
}

async function sendShutdown(
  runtime: RuntimeProcess,
  requestShutdown: (timeoutMs: number) => Promise<unknown>,
  timeoutMs: number,
): Promise<string> {
  let answer: string;
  try {
    await requestShutdown(timeoutMs);
    answer = 'answered';
  } catch (error) {
    answer = `not answered (${error instanceof Error ? error.message : String(error)})`;
    // Unanswered within the bound: the runtime is stuck, waiting longer will not help.
    if (!runtime.exit && error instanceof RequestTimeoutError) {
      return answer;
    }
  }
  return `${answer}, ${(await runtime.waitForExit(timeoutMs)) ? 'exited' : 'still running'}`;
}

async function afterward(
  runtime: RuntimeProcess,
  timeoutMs: number,
  act: () => unknown,
): Promise<string> {
  act();
  return (await runtime.waitForExit(timeoutMs)) ? 'exited' : 'still running';
}
