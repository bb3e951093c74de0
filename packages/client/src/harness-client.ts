import { randomUUID } from 'node:crypto';
import {
  HarnessSdkClientPeer,
  JsonRpcLineTransport,
  LATEST_PROTOCOL_VERSION,
  METHOD_VALIDATORS,
  Method,
  TransportClosedError,
  toViolations,
} from '@dsh-sdk/protocol';
import type {
  DiagnosticObserver,
  InitializeParams,
  InitializeResult,
  RequestMethod,
  RequestOptions,
  ServerCapabilities,
  ServerInfo,
  SessionCloseResult,
  SessionInterruptResult,
  SessionPromptParams,
  SessionPromptResult,
} from '@dsh-sdk/protocol';
import { ConnectionTrace } from './connection-trace.js';
import type { TraceOptions } from './connection-trace.js';
import { toContentBlocks } from './content.js';
import type { PromptInput } from './content.js';
import {
  CapabilityNotSupportedError,
  ClientClosedError,
  InvalidParamsError,
  RunAbortedError,
  RunTimeoutError,
  RuntimeSurvivedKillError,
} from './errors.js';
import type { CapabilityName, RuntimeExit } from './errors.js';
import { NotificationHub } from './notifications.js';
import type { HarnessNotification, NotificationListener } from './notifications.js';
import { RunTracker } from './run-tracker.js';
import type { RunResult } from './run-tracker.js';
import { AsyncQueue } from './run-stream.js';
import type { RunStream, TextStream } from './run-stream.js';
import { textDeltaOf } from './session-events.js';
import { RuntimeProcess } from './runtime-process.js';
import { defaultRuntimeCommand } from './runtime-launcher.js';
import { climbShutdownLadder } from './shutdown-ladder.js';
import type { ShutdownOptions, ShutdownReport } from './shutdown-ladder.js';

/** How to start and talk to a runtime. */
export interface HarnessClientOptions {
  /**
   * The runtime's program and arguments; default: the installed `@dsh-sdk/runtime` (see
   * {@link defaultRuntimeCommand}).
   */
  readonly command?: readonly string[];
  readonly cwd?: string;
  /** Added to (and overriding) this process's environment for the runtime. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The handshake's params. */
  readonly initialize: InitializeParams;
  /**
   * The protocol version to ask for in `initialize` when `initialize.protocolVersion` does not
   * say (default {@link LATEST_PROTOCOL_VERSION}). `null` sends none: the client then behaves as
   * a version 1 client, and the runtime answers exactly `{serverInfo}`.
   */
  readonly protocolVersion?: number | null;
  /** Bound of the `initialize` request (default 10 000 ms). */
  readonly initializeTimeoutMs?: number;
  /** Bound of every other request, `session/prompt` included (default 30 000 ms). */
  readonly requestTimeoutMs?: number;
  /** Receives everything the transport ignores (bad lines on the runtime's stdout, …). */
  readonly onDiagnostic?: DiagnosticObserver;
  /**
   * Subscribed before the handshake, so it sees every notification from the runtime's first
   * line on (the same as {@link HarnessClient.onNotification}, which can only start later).
   */
  readonly onNotification?: NotificationListener;
  /** Receives the runtime's stderr as it comes (it is also kept as a bounded tail). */
  readonly onStderr?: (text: string) => void;
  /** How much of the runtime's stderr to keep for error messages (default 8 KiB). */
  readonly stderrTailBytes?: number;
  /** The transport's frame limit (default 64 MiB). */
  readonly maxFrameBytes?: number;
  /**
   * Records the connection to a trace file (docs/trace-format.md; view it with `dsh-sdk view`):
   * a path, or {@link TraceOptions}. Every frame of both directions as it passed, checked against
   * the IDL, then the runtime's exit. The bytes to and from the runtime are unchanged; a trace
   * file that fails stops recording, reported to `onError` (default: a process warning), and
   * nothing else.
   */
  readonly trace?: string | TraceOptions;
}

/** Options of one run. */
export interface RunOptions {
  /** The root session; default: a new session. */
  readonly sessionId?: string;
  /**
   * Called with every notification of the run's session tree as it arrives, in wire order.
   * If it throws, the run fails with that error.
   */
  readonly onNotification?: (notification: HarnessNotification) => void;
  /**
   * Cancels the run. When the runtime reported `sessionInterrupt`, the client sends
   * `session/interrupt` for the run's session as soon as the run's turn has started (a prompt
   * still queued behind another turn of the session is interrupted once it starts, never the turn
   * before it), and the run **resolves** once that turn ended: with `finishReason` `aborted`, or
   * with how it finished if it ended first. Without the capability (a version 1 runtime), the run
   * is detached locally and **rejects** with `RunAbortedError`, saying the runtime cannot
   * interrupt: its turn goes on.
   */
  readonly signal?: AbortSignal;
  /**
   * Fails the run with `RunTimeoutError` if it is not idle in time; the error keeps the text
   * streamed so far (`partialResponse`). When the runtime reported `sessionInterrupt` and the
   * run's turn has started, the client first sends `session/interrupt` for the session and fails
   * the run once the runtime answered (`wasInterrupted: true`; no chunk of that turn follows, and the
   * session takes the next prompt). Without the capability (a version 1 runtime), nothing can be
   * sent: the run is detached locally at once and the turn goes on in the runtime; a later
   * prompt on the same session queues behind it. A run still waiting for its receipt (its prompt
   * queued behind another turn) is not interrupted either.
   */
  readonly timeoutMs?: number;
}

const DEFAULT_INITIALIZE_TIMEOUT_MS = 10_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** How long a broken stdout may precede the process's exit before calls fail without it. */
const EXIT_GRACE_MS = 2000;
/** Bound of each shutdown step when a failed handshake stops the runtime. */
const FAILED_START_STEP_MS = 1000;

/**
 * A client of one runtime process: spawns it, performs the handshake, sends prompts and follows
 * them to idle, and stops it with a bounded ladder. When the runtime dies, every pending call and
 * every running run fails at once with a `RuntimeExitedError` (exit code or signal, stderr tail).
 */
export class HarnessClient {
  readonly #runtime: RuntimeProcess;
  readonly #transport: JsonRpcLineTransport;
  readonly #peer: HarnessSdkClientPeer;
  readonly #hub: NotificationHub;
  readonly #requestTimeoutMs: number;
  readonly #runs = new Set<RunTracker>();
  readonly #trace: ConnectionTrace | undefined;
  /** Resolves once the trace, if any, is complete. */
  readonly #traceDone: Promise<void>;
  /** Resolves with the error calls and runs fail with once the runtime is gone. */
  readonly #lost: Promise<Error>;
  #lostError: Error | undefined;
  #handshake: InitializeResult | undefined;
  #shutdown: Promise<ShutdownReport> | undefined;

  private constructor(
    runtime: RuntimeProcess,
    options: HarnessClientOptions,
    command: readonly string[],
  ) {
    this.#runtime = runtime;
    this.#requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.#transport = new JsonRpcLineTransport({
      input: runtime.stdout,
      output: runtime.stdin,
      ...(options.maxFrameBytes === undefined ? {} : { maxFrameBytes: options.maxFrameBytes }),
      ...(options.onDiagnostic === undefined ? {} : { onDiagnostic: options.onDiagnostic }),
    });
    this.#peer = new HarnessSdkClientPeer(this.#transport);
    this.#hub = new NotificationHub(this.#peer, this.#transport);
    if (options.onNotification) this.#hub.subscribe(options.onNotification);
    this.#lost = new Promise((resolve) => {
      void runtime.exitError.then(resolve);
      void this.#transport.closed.then(async (closed) => {
        if (closed.reason === 'closed' || (await runtime.waitForExit(EXIT_GRACE_MS))) return;
        resolve(closed); // stdout broke, yet the process lives on
      });
    });
    void this.#lost.then((lost) => {
      // The client's own shutdown ended the runtime: say so, and keep what happened as the cause.
      const error = this.#shutdown ? ClientClosedError.pending('what was pending', lost) : lost;
      this.#lostError = error;
      for (const run of this.#runs) run.fail(error);
      // Rejects what still waits (a runtime whose stdout outlives it would leave it waiting).
      this.#transport.close(error.message, { cause: error });
    });
    this.#transport.start();
    // Tapped after the transport's listener: the transport has each chunk before the recorder.
    this.#trace =
      options.trace === undefined
        ? undefined
        : new ConnectionTrace(
            runtime,
            typeof options.trace === 'string' ? { path: options.trace } : options.trace,
            {
              command,
              ...(options.maxFrameBytes === undefined
                ? {}
                : { maxFrameBytes: options.maxFrameBytes }),
            },
          );
    this.#traceDone = this.#trace?.finishAfter(runtime.exited) ?? Promise.resolve();
  }

  /**
   * Starts a runtime and performs the handshake. If `initialize` fails or times out, the
   * runtime is stopped and the error is thrown (a `JsonRpcResponseError` keeps the wire code).
   */
  static async spawn(options: HarnessClientOptions): Promise<HarnessClient> {
    const params = initializeParams(options);
    requireValidParams(Method.initialize, params); // before anything is started
    const command = options.command ?? defaultRuntimeCommand();
    const runtime = await RuntimeProcess.start({
      command,
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(options.env === undefined ? {} : { env: options.env }),
      ...(options.stderrTailBytes === undefined
        ? {}
        : { stderrTailBytes: options.stderrTailBytes }),
      ...(options.onStderr === undefined ? {} : { onStderr: options.onStderr }),
    });
    const client = new HarnessClient(runtime, options, command);
    try {
      const timeoutMs = options.initializeTimeoutMs ?? DEFAULT_INITIALIZE_TIMEOUT_MS;
      client.#handshake = await client.#call(client.#peer.initialize(params, { timeoutMs }));
    } catch (error) {
      await client.shutdown({ timeoutMs: FAILED_START_STEP_MS });
      throw error;
    }
    return client;
  }

  /** Who answered the handshake. */
  get serverInfo(): ServerInfo {
    return this.#handshakeResult().serverInfo;
  }

  /**
   * The protocol version the handshake settled on: the runtime's `protocolVersion`, or 1 when it
   * answered without one (a version 1 runtime, or a client that sent none).
   */
  get protocolVersion(): number {
    return this.#handshakeResult().protocolVersion ?? 1;
  }

  /** What the runtime serves beyond version 1, as it reported it (`{}` below version 2); unknown keys kept. */
  get capabilities(): ServerCapabilities {
    return this.#handshakeResult().capabilities ?? {};
  }

  /**
   * Sends `session/interrupt`: stops the session's turn in progress (its queued prompts stay
   * queued). Fails with `CapabilityNotSupportedError`, without sending, when the runtime did not
   * report `sessionInterrupt`.
   */
  interrupt(sessionId: string, options: RequestOptions = {}): Promise<SessionInterruptResult> {
    return this.#call(
      (async () => {
        this.#requireOpen('interrupt()');
        return this.#sendInterrupt(sessionId, options);
      })(),
    );
  }

  /**
   * Sends `session/close`: stops the session, drops its queued prompts and disposes it (a later
   * prompt with the same id starts a new session). Fails with `CapabilityNotSupportedError`,
   * without sending, when the runtime did not report `sessionClose`.
   */
  closeSession(sessionId: string, options: RequestOptions = {}): Promise<SessionCloseResult> {
    const bounded = { timeoutMs: this.#requestTimeoutMs, ...options };
    return this.#call(
      (async () => {
        this.#requireOpen('closeSession()');
        this.#requireCapability('sessionClose', Method.sessionClose);
        requireValidParams(Method.sessionClose, { sessionId });
        return this.#peer.sessionClose({ sessionId }, bounded);
      })(),
    );
  }

  #handshakeResult(): InitializeResult {
    if (!this.#handshake) throw new Error('the handshake has not completed');
    return this.#handshake;
  }

  /** Refuses a call made once `shutdown()` was called, saying so. */
  #requireOpen(call: string): void {
    if (this.#shutdown) throw ClientClosedError.afterShutdown(call);
  }

  #requireCapability(capability: CapabilityName, method: string): void {
    if (this.capabilities[capability] !== true)
      throw new CapabilityNotSupportedError(capability, method, this.protocolVersion);
  }

  async #sendInterrupt(
    sessionId: string,
    options: RequestOptions,
  ): Promise<SessionInterruptResult> {
    this.#requireCapability('sessionInterrupt', Method.sessionInterrupt);
    requireValidParams(Method.sessionInterrupt, { sessionId });
    return this.#peer.sessionInterrupt(
      { sessionId },
      { timeoutMs: this.#requestTimeoutMs, ...options },
    );
  }

  /** Whether cancelling a run tells the runtime (it reported `sessionInterrupt`). */
  get #canInterrupt(): boolean {
    return this.#handshake?.capabilities?.sessionInterrupt === true;
  }

  /** The runtime's process id. */
  get pid(): number | undefined {
    return this.#runtime.pid;
  }

  /** How the runtime ended, once it has. */
  get exit(): RuntimeExit | undefined {
    return this.#runtime.exit;
  }

  /** Resolves when the runtime process exits, however that happens. */
  get exited(): Promise<RuntimeExit> {
    return this.#runtime.exited;
  }

  /**
   * The transport to the runtime: its `diagnosticCounts` (how many lines and messages of each
   * reason it ignored) and `state`. Attach an observer with the `onDiagnostic` option.
   */
  get transport(): JsonRpcLineTransport {
    return this.#transport;
  }

  /** The last bytes of the runtime's stderr. */
  stderrTail(): string {
    return this.#runtime.stderrTail();
  }

  /** Subscribes to every notification of the runtime (all sessions); returns the unsubscribe. */
  onNotification(listener: NotificationListener): () => void {
    return this.#hub.subscribe(listener);
  }

  /**
   * Sends `session/prompt` and resolves with the receipt; see {@link run} to follow the turn.
   * Params that break the schema fail with `InvalidParamsError` (the runtime's `-32602`
   * violations) without sending.
   */
  prompt(params: SessionPromptParams, options: RequestOptions = {}): Promise<SessionPromptResult> {
    const bounded = { timeoutMs: this.#requestTimeoutMs, ...options };
    return this.#call(
      (async () => {
        this.#requireOpen('prompt()');
        requireValidParams(Method.sessionPrompt, params);
        return this.#peer.sessionPrompt(params, bounded);
      })(),
    );
  }

  /**
   * Prompts a session and follows the run from the prompt's receipt to the root session's next
   * `idle`, over the root and the children `subagent.started` reveals (recursively).
   */
  run(prompt: PromptInput, options: RunOptions = {}): Promise<RunResult> {
    return this.#run(prompt, options, 'run()');
  }

  async #run(prompt: PromptInput, options: RunOptions, call: string): Promise<RunResult> {
    const sessionId = options.sessionId ?? newSessionId();
    const tracker = new RunTracker(sessionId, options.onNotification);
    const unsubscribe = this.#hub.subscribe((notification) => tracker.accept(notification));
    const cancel = this.#canInterrupt
      ? () => void this.#interruptRun(tracker)
      : (reason: unknown) =>
          tracker.fail(new RunAbortedError(sessionId, reason, tracker.partialResponse));
    const timeOut = (timeoutMs: number) => void this.#timeOutRun(tracker, timeoutMs);
    const disarm = armRunLimits(tracker, options, cancel, timeOut);
    this.#runs.add(tracker);
    try {
      this.#requireOpen(call);
      if (this.#lostError) throw this.#lostError;
      const params = { sessionId, contentBlocks: toContentBlocks(prompt) };
      // With an interrupt to send, an aborted signal must not drop the prompt's answer.
      const signal = this.#canInterrupt ? undefined : options.signal;
      const { messageId } = await this.prompt(params, signal ? { signal } : {});
      tracker.setMessageId(messageId);
    } catch (error) {
      tracker.fail(error);
    }
    try {
      return await tracker.done;
    } finally {
      unsubscribe();
      disarm();
      this.#runs.delete(tracker);
    }
  }

  /**
   * Cancels a run on a runtime that can interrupt: once its turn has started (its receipt came),
   * `session/interrupt` for its session; the run then ends on its own with the turn. A failed
   * interrupt fails the run.
   */
  async #interruptRun(tracker: RunTracker): Promise<void> {
    await tracker.started;
    // Once its own turn ended, the session's next turn is another prompt's: leave it be.
    if (tracker.isSettled || tracker.hasTurnEnded) return;
    try {
      await this.#call(this.#sendInterrupt(tracker.sessionId, {}));
    } catch (error) {
      tracker.fail(error);
    }
  }

  /**
   * A run out of time: on a runtime that can interrupt, once its turn has started, the session
   * is interrupted first (see {@link RunOptions.timeoutMs}); then the run fails with
   * `RunTimeoutError` and the text streamed until then.
   */
  async #timeOutRun(tracker: RunTracker, timeoutMs: number): Promise<void> {
    const { sessionId, stage } = tracker;
    let wasInterrupted = false;
    const isTurnRunning = stage === 'waiting-for-idle' && !tracker.hasTurnEnded;
    if (this.#canInterrupt && isTurnRunning && !tracker.isSettled) {
      tracker.expire();
      try {
        wasInterrupted = (await this.#call(this.#sendInterrupt(sessionId, {}))).wasRunning;
      } catch {
        // The timeout is what the caller asked to hear about; the runtime's state decides the rest.
      }
    }
    const { partialResponse } = tracker;
    tracker.fail(
      new RunTimeoutError(sessionId, timeoutMs, stage, { partialResponse, wasInterrupted }),
    );
  }

  /**
   * Starts a run and streams the reply text as it arrives: the text deltas of the root session's
   * `assistant/chunk`s (not reasoning, not the children's), then the end of the iteration when
   * the run resolves, or the run's error. `result` settles like `run()`; leaving the loop early
   * does not stop the run (pass a `signal` for that).
   */
  streamText(prompt: PromptInput, options: RunOptions = {}): TextStream {
    const sessionId = options.sessionId ?? newSessionId();
    const queue = new AsyncQueue<string>();
    const onNotification = (notification: HarnessNotification): void => {
      const delta = textDeltaOf(notification, sessionId);
      if (delta !== undefined && delta !== '') queue.push(delta);
      options.onNotification?.(notification);
    };
    const result = this.#run(prompt, { ...options, sessionId, onNotification }, 'streamText()');
    result.then(
      () => queue.end(),
      (error: unknown) => queue.fail(error),
    );
    return { result, [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator]() };
  }

  /** Starts a run and returns it as an async iterable of its notifications plus its result. */
  stream(prompt: PromptInput, options: RunOptions = {}): RunStream {
    const queue = new AsyncQueue<HarnessNotification>();
    const onNotification = (notification: HarnessNotification): void => {
      queue.push(notification);
      options.onNotification?.(notification);
    };
    const result = this.#run(prompt, { ...options, onNotification }, 'stream()');
    result.then(
      () => queue.end(),
      (error: unknown) => queue.fail(error),
    );
    return { result, [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator]() };
  }

  /**
   * Stops the runtime: a bounded `shutdown` request, then closing stdin, SIGTERM and SIGKILL,
   * each bounded by `timeoutMs`, stopping at the first step after which it is gone. Calling it
   * again returns the same report.
   */
  shutdown(options: ShutdownOptions = {}): Promise<ShutdownReport> {
    this.#shutdown ??= this.#climbShutdownLadder(options);
    return this.#shutdown;
  }

  async #climbShutdownLadder(options: ShutdownOptions): Promise<ShutdownReport> {
    const report = await climbShutdownLadder(
      this.#runtime,
      (timeoutMs) => this.#peer.shutdown({ timeoutMs }),
      options,
    );
    this.#transport.close('the client shut the runtime down');
    if (!report.hasExited) {
      this.#trace?.finish(undefined); // let go alive: no exit to record
      this.#runtime.release();
      const error = new RuntimeSurvivedKillError(this.pid);
      for (const run of this.#runs) run.fail(error);
    } else {
      await this.#traceDone;
    }
    return report;
  }

  /** Awaits a request; if it failed because the runtime went away, fails with why it did. */
  async #call<T>(request: Promise<T>): Promise<T> {
    try {
      return await request;
    } catch (error) {
      if (error instanceof ClientClosedError) throw error; // a call after shutdown(), refused
      if (this.#lostError) throw this.#lostError;
      if (error instanceof TransportClosedError) {
        if (this.#shutdown) throw ClientClosedError.pending('this call', error);
        if (error.reason !== 'closed') throw await this.#lost;
      }
      throw error;
    }
  }
}

/** The handshake's params, with the protocol version the client asks for (none for `null`). */
function initializeParams({ initialize, protocolVersion }: HarnessClientOptions): InitializeParams {
  if (initialize.protocolVersion !== undefined) return initialize;
  const version = protocolVersion === undefined ? LATEST_PROTOCOL_VERSION : protocolVersion;
  return version === null ? initialize : { ...initialize, protocolVersion: version };
}

/** A new session's id. */
function newSessionId(): string {
  return `session-${randomUUID()}`;
}

/** Throws {@link InvalidParamsError}, the runtime's `-32602`, for params that break the schema. */
function requireValidParams(method: RequestMethod, params: unknown): void {
  const { params: validate } = METHOD_VALIDATORS[method];
  if (!validate(params)) throw new InvalidParamsError(method, toViolations(validate.errors));
}

/** Arms a run's timeout and abort signal; returns the function that disarms them. */
function armRunLimits(
  tracker: RunTracker,
  { signal, timeoutMs }: RunOptions,
  cancel: (reason: unknown) => void,
  timeOut: (timeoutMs: number) => void,
): () => void {
  const onAbort = (): void => cancel(signal?.reason);
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const timer =
    timeoutMs === undefined ? undefined : setTimeout(() => timeOut(timeoutMs), timeoutMs);
  return () => {
    signal?.removeEventListener('abort', onAbort);
    if (timer !== undefined) clearTimeout(timer);
  };
}
