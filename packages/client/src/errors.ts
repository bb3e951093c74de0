// The client's own errors. Wire errors stay `JsonRpcResponseError` (from @dsh-sdk/protocol).
/// <reference types="node" preserve="true" />
import { ERROR_MESSAGES, ErrorCode, JsonRpcResponseError } from '@dsh-sdk/protocol';
import type { Violation } from '@dsh-sdk/protocol';

/** How a runtime process ended: an exit code, or the signal that killed it. */
export interface RuntimeExit {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Describes an exit for a person: `exited with code 1` or `was killed by SIGKILL`. */
export function describeExit({ exitCode, signal }: RuntimeExit): string {
  if (signal !== null) return `was killed by ${signal}`;
  return `exited with code ${exitCode ?? 'unknown'}`;
}

/**
 * The runtime process ended while a call or a run was waiting for it. Every pending call and
 * every running `run()` fails at once with this error; its message holds the exit code (or
 * signal) and the tail of the runtime's stderr.
 */
export class RuntimeExitedError extends Error implements RuntimeExit {
  override readonly name = 'RuntimeExitedError';
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The last bytes the runtime wrote to stderr (bounded), as text. */
  readonly stderrTail: string;

  constructor(exit: RuntimeExit, stderrTail: string) {
    const tail = stderrTail.trimEnd();
    const shownTail = tail === '' ? ' (stderr was empty)' : `; stderr tail:\n${tail}`;
    super(`the runtime ${describeExit(exit)}${shownTail}`);
    this.exitCode = exit.exitCode;
    this.signal = exit.signal;
    this.stderrTail = stderrTail;
  }
}

/**
 * The client itself ended the call or run: `shutdown()` was called while it was pending, or the
 * call came after `shutdown()` ({@link ClientClosedError.afterShutdown}: nothing was sent). The
 * runtime did not fail; see {@link RuntimeExitedError} for a runtime that ended by itself.
 */
export class ClientClosedError extends Error {
  override readonly name = 'ClientClosedError';

  /** `what` (`this call`, `what was pending`) was pending when `shutdown()` ended it. */
  static pending(what: string, cause: unknown): ClientClosedError {
    return new ClientClosedError(`the client is closing: its own shutdown() ended ${what}`, {
      cause,
    });
  }

  /** A call (`run()`) made once `shutdown()` was called: the client sent nothing. */
  static afterShutdown(call: string): ClientClosedError {
    return new ClientClosedError(
      `the client is closed: ${call} came after its shutdown(), so nothing was sent`,
    );
  }
}

/** The runtime process did not exit even after SIGKILL; the client let go of it. */
export class RuntimeSurvivedKillError extends Error {
  override readonly name = 'RuntimeSurvivedKillError';
  readonly pid: number | undefined;

  constructor(pid: number | undefined) {
    super(`the runtime (pid ${pid}) survived SIGKILL; the client let go of it`);
    this.pid = pid;
  }
}

/** The runtime process could not be started (for example, the command does not exist). */
export class RuntimeSpawnError extends Error {
  override readonly name: string = 'RuntimeSpawnError';
  readonly command: readonly string[];

  constructor(command: readonly string[], cause: unknown, message?: string) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(message ?? `could not start the runtime ${JSON.stringify(command)}: ${reason}`, {
      cause,
    });
    this.command = command;
  }
}

/**
 * No `command` was given and the default runtime's package is not installed. Thrown by
 * `HarnessClient.spawn` before anything is spawned; its message says what to install or pass.
 */
export class RuntimeNotInstalledError extends RuntimeSpawnError {
  override readonly name = 'RuntimeNotInstalledError';
  /** The package that would provide the default runtime. */
  readonly packageName: string;

  constructor(packageName: string, cause: unknown) {
    super(
      [],
      cause,
      `no runtime command was given and the default runtime, ${packageName}, is not installed: ` +
        `install the tarball the toolkit's scripts/pack.sh packs (it is on no registry): ` +
        `npm install ./${tarballName(packageName)}-VERSION.tgz; or pass \`command\` with the ` +
        `runtime to start, for example ` +
        `HarnessClient.spawn({ command: ['my-runtime', '--stdio'], initialize })`,
    );
    this.packageName = packageName;
  }
}

/** The file name `npm pack` gives a package's tarball, less `-VERSION.tgz`: `@a/b` → `a-b`. */
function tarballName(packageName: string): string {
  return packageName.replace(/^@/, '').replace('/', '-');
}

/** Where a run was when its `timeoutMs` ran out. */
export type RunStage = 'waiting-for-receipt' | 'waiting-for-idle';

/**
 * A run did not reach its root session's `idle` within its `timeoutMs`. On a runtime that
 * reported `sessionInterrupt`, a run whose turn had started was interrupted first (`wasInterrupted`),
 * so the session is free for the next prompt; otherwise its turn goes on in the runtime.
 */
export class RunTimeoutError extends Error {
  override readonly name = 'RunTimeoutError';
  readonly sessionId: string;
  readonly timeoutMs: number;
  readonly stage: RunStage;
  /** The assistant text streamed before the run stopped (see `RunResult.partialResponse`). */
  readonly partialResponse: string;
  /** Whether `session/interrupt` stopped the run's turn (the runtime answered `wasRunning`). */
  readonly wasInterrupted: boolean;

  constructor(
    sessionId: string,
    timeoutMs: number,
    stage: RunStage,
    { partialResponse = '', wasInterrupted = false }: RunStopDetails = {},
  ) {
    const waiting = stage === 'waiting-for-receipt' ? 'its receipt' : 'the session to go idle';
    const after = wasInterrupted ? '; session/interrupt stopped its turn' : '';
    super(
      `the run on session ${sessionId} timed out after ${timeoutMs} ms waiting for ${waiting}${after}`,
    );
    this.sessionId = sessionId;
    this.timeoutMs = timeoutMs;
    this.stage = stage;
    this.partialResponse = partialResponse;
    this.wasInterrupted = wasInterrupted;
  }
}

/** What a stopped run had got so far. */
export interface RunStopDetails {
  readonly partialResponse?: string;
  readonly wasInterrupted?: boolean;
}

/**
 * A run was abandoned through its `signal` against a runtime that cannot interrupt (it did not
 * report the `sessionInterrupt` capability, e.g. a version 1 runtime): the run is detached
 * locally and the runtime is not told, so its turn goes on. `cause` is the signal's reason.
 * (A runtime that can interrupt is told, and the run resolves with finish reason `aborted`.)
 */
export class RunAbortedError extends Error {
  override readonly name = 'RunAbortedError';
  readonly sessionId: string;
  /** The assistant text streamed before the run was detached (see `RunResult.partialResponse`). */
  readonly partialResponse: string;

  constructor(sessionId: string, reason: unknown, partialResponse = '') {
    super(
      `the run on session ${sessionId} was aborted and detached: the runtime cannot interrupt ` +
        '(it did not report the sessionInterrupt capability), so its turn goes on',
      { cause: reason },
    );
    this.sessionId = sessionId;
    this.partialResponse = partialResponse;
  }
}

/** A capability of `initialize`'s result, by name, and the method it allows. */
export type CapabilityName = 'sessionInterrupt' | 'sessionClose';

/**
 * A version 2 method was called on a runtime that did not report its capability (a version 1
 * runtime, or a client that asked for version 1). Thrown before anything is sent.
 */
export class CapabilityNotSupportedError extends Error {
  override readonly name = 'CapabilityNotSupportedError';
  readonly capability: CapabilityName;
  readonly method: string;
  /** The protocol version the handshake settled on. */
  readonly protocolVersion: number;

  constructor(capability: CapabilityName, method: string, protocolVersion: number) {
    super(
      `the runtime did not report the ${capability} capability (negotiated protocol version ` +
        `${protocolVersion}): ${method} was not sent`,
    );
    this.capability = capability;
    this.method = method;
    this.protocolVersion = protocolVersion;
  }
}

/**
 * The client checked a request's params against the schema before sending and found them
 * invalid: nothing was sent. It is the `-32602` a runtime would have answered (the same `code`,
 * `wireMessage` and `data`, every violation in schema order), so code that handles a runtime's
 * refusal handles this too; `instanceof InvalidParamsError` tells that it never left.
 */
export class InvalidParamsError extends JsonRpcResponseError {
  override readonly name = 'InvalidParamsError';
  /** The method that was not sent. */
  readonly method: string;
  declare readonly data: readonly Violation[];

  constructor(method: string, violations: readonly Violation[]) {
    super(ErrorCode.InvalidParams, ERROR_MESSAGES[ErrorCode.InvalidParams], { data: violations });
    this.method = method;
    this.message = `${this.message} (checked by the client: ${method} was not sent)`;
  }
}
