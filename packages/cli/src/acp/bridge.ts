/// <reference types="node" preserve="true" />
// The ACP agent the bridge is: ACP requests on its own stdio, served by DeepSeek Harness runtimes
// (docs/acp.md). Params are checked by the generated ACP validators before any handler runs.
import { randomUUID } from 'node:crypto';
import { isAbsolute } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Readable, Writable } from 'node:stream';
import { LATEST_PROTOCOL_VERSION, serveAcp } from '@dsh-sdk/acp';
import type {
  AcpAgentPeer,
  AcpRequestHandlers,
  InitializeRequest,
  InitializeResponse,
  NewSessionRequest,
  NewSessionResponse,
  PromptRequest,
  PromptResponse,
} from '@dsh-sdk/acp';
import { RunAbortedError } from '@dsh-sdk/client';
import type { HarnessClient, RunResult, RuntimeExitedError } from '@dsh-sdk/client';
import { JsonRpcLineTransport } from '@dsh-sdk/protocol';
import type { TransportDiagnostic } from '@dsh-sdk/protocol';
import { invalidParams, notInitialized, toAcpError, unknownSession } from './bridge-errors.js';
import { toRuntimeBlocks } from './prompt-content.js';
import { RuntimePool } from './runtime-pool.js';
import type { RuntimeRoute } from './runtime-pool.js';
import { toSessionUpdates, toStopReason } from './session-updates.js';
import { JsonRpcResponseError } from '@dsh-sdk/client';

/** Where the bridge speaks ACP and which runtimes serve it. */
export interface BridgeOptions {
  readonly route: RuntimeRoute;
  readonly input: Readable;
  readonly output: Writable;
  /** Where diagnostics go (the bridge's stderr). */
  readonly log: (line: string) => void;
  /** The working directory of the runtime started at `initialize`. */
  readonly cwd: string;
  readonly version: string;
}

/** An ACP session: the runtime of its cwd, and the turns it has in flight. */
interface BridgeSession {
  readonly runtime: HarnessClient;
  readonly turns: Set<AbortController>;
}

/**
 * Runs the bridge until its input ends and every request read before that is answered (exit code
 * 0), or a runtime dies (1).
 */
export async function runBridge(options: BridgeOptions): Promise<number> {
  // The transport closes for good when its input ends, so it sees the end only once the requests
  // already read are answered: `printf '<requests>' | dsh-sdk acp …` gets every answer.
  const input = new PassThrough();
  const transport = new JsonRpcLineTransport({
    input,
    output: options.output,
    onDiagnostic: (diagnostic) => options.log(describeDiagnostic(diagnostic)),
  });
  const bridge = new AcpBridge(transport, options);
  let lastByte = 0x0a;
  options.input.on('data', (chunk: Buffer) => {
    lastByte = chunk.at(-1) ?? lastByte;
    input.write(chunk);
  });
  let ending: Promise<void> | undefined;
  const endAfterAnswers = () =>
    (ending ??= (async () => {
      // A last request without its newline is still a request: end its line, then wait for it.
      if (lastByte !== 0x0a) input.write('\n');
      await bridge.answered();
      input.end();
    })());
  options.input.once('end', endAfterAnswers).once('close', endAfterAnswers);
  options.input.once('error', (error) =>
    options.log(`dsh-sdk acp: stdin failed: ${error.message}`),
  );
  transport.start();
  return bridge.exitCode;
}

class AcpBridge implements AcpRequestHandlers {
  readonly #peer: AcpAgentPeer;
  readonly #pool: RuntimePool;
  readonly #sessions = new Map<string, BridgeSession>();
  readonly #lost: Promise<never>;
  #loseRuntime: (error: RuntimeExitedError) => void = () => {};
  /** Settles once the first runtime answered `initialize` (or failed to). */
  #handshake: Promise<boolean> | undefined;
  /** The requests being served: their answers are written before the bridge ends at EOF. */
  readonly #serving = new Set<Promise<unknown>>();
  readonly exitCode: Promise<number>;

  constructor(
    private readonly transport: JsonRpcLineTransport,
    private readonly options: BridgeOptions,
  ) {
    this.#peer = serveAcp(transport, this);
    this.#peer.onSessionCancel(({ sessionId }) => this.#cancel(sessionId));
    this.#lost = new Promise<never>((_, reject) => {
      this.#loseRuntime = reject;
    });
    this.#lost.catch(() => {}); // observed by every pending request; none may be pending
    this.#pool = new RuntimePool(options.route, (error) => this.#loseRuntime(error));
    this.exitCode = Promise.race([
      transport.closed.then(() => 0),
      this.#lost.catch((error: Error) => {
        options.log(`dsh-sdk acp: ${error.message}`);
        return 1;
      }),
    ]).then(async (code) => {
      await this.#pool.shutdown();
      transport.close('the bridge is exiting');
      return code;
    });
  }

  initialize(params: InitializeRequest): Promise<InitializeResponse> {
    return this.#serve(this.#initialize(params));
  }

  sessionNew(params: NewSessionRequest): Promise<NewSessionResponse> {
    return this.#serve(this.#sessionNew(params));
  }

  sessionPrompt(params: PromptRequest): Promise<PromptResponse> {
    return this.#serve(this.#sessionPrompt(params));
  }

  /** Settles once no request is being served and the last answer was handed to the transport. */
  async answered(): Promise<void> {
    // Lines written to the transport's input reach its handlers a turn later.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.#serving.size > 0) await Promise.allSettled(this.#serving);
    // The transport writes an answer when the handler's promise settles: one turn later.
    await new Promise((resolve) => setImmediate(resolve));
  }

  #serve<T>(work: Promise<T>): Promise<T> {
    this.#serving.add(work);
    const done = () => this.#serving.delete(work);
    work.then(done, done);
    return work;
  }

  async #initialize(params: InitializeRequest): Promise<InitializeResponse> {
    const started = this.#guard(this.#pool.runtimeFor(this.options.cwd));
    this.#handshake = started.then(
      () => true,
      () => false,
    );
    await started;
    return {
      protocolVersion: Math.min(params.protocolVersion, LATEST_PROTOCOL_VERSION),
      agentCapabilities: {
        loadSession: false,
        promptCapabilities: { image: true, audio: false, embeddedContext: false },
      },
      authMethods: [],
      agentInfo: { name: 'dsh-sdk-acp', title: 'DeepSeek Harness', version: this.options.version },
    };
  }

  async #sessionNew(params: NewSessionRequest): Promise<NewSessionResponse> {
    // A request sent right behind `initialize` waits for its answer.
    if (!(await this.#handshake)) throw notInitialized();
    if (!isAbsolute(params.cwd)) {
      throw invalidParams([
        { pointer: '/cwd', message: `must be an absolute path, got ${JSON.stringify(params.cwd)}` },
      ]);
    }
    const runtime = await this.#guard(this.#pool.runtimeFor(params.cwd));
    const sessionId = `acp-${randomUUID()}`;
    this.#sessions.set(sessionId, { runtime, turns: new Set() });
    return { sessionId };
  }

  async #sessionPrompt({ sessionId, prompt }: PromptRequest): Promise<PromptResponse> {
    const session = this.#sessions.get(sessionId);
    if (session === undefined) throw unknownSession(sessionId);
    const contentBlocks = toRuntimeBlocks(prompt);
    const cancel = new AbortController();
    session.turns.add(cancel);
    try {
      const result = await this.#guard(
        session.runtime.run(contentBlocks, {
          sessionId,
          signal: cancel.signal,
          onNotification: (notification) => {
            for (const update of toSessionUpdates(notification, sessionId)) {
              void this.#peer.notifySessionUpdate({ sessionId, update }).catch(() => {});
            }
          },
        }),
      );
      if (result.finishReason === 'error') throw turnError(result);
      return { stopReason: toStopReason(result.finishReason) };
    } catch (error) {
      // A version 1 runtime cannot interrupt: the run was let go locally (docs/acp.md, "Cancel").
      if (error instanceof RunAbortedError) return { stopReason: 'cancelled' };
      throw toAcpError(error);
    } finally {
      session.turns.delete(cancel);
    }
  }

  #cancel(sessionId: string): void {
    for (const turn of this.#sessions.get(sessionId)?.turns ?? []) turn.abort();
  }

  /** Awaits `work`, or fails at once with the exit of a runtime that died meanwhile. */
  #guard<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.#lost]);
  }
}

/** A turn that ended in `error`: the runtime's message, and the whole reason as `data`. */
function turnError(result: RunResult): JsonRpcResponseError {
  const end = [...result.events].reverse().find((event) => event.type === 'turn/end');
  const reason = (end?.data as { reason?: Record<string, unknown> } | undefined)?.reason ?? {};
  const message =
    typeof reason['message'] === 'string' ? reason['message'] : 'the turn ended in error';
  return new JsonRpcResponseError(-32603, message, { data: { reason } });
}

/** One stderr line per ignored input, as the reference runtimes write theirs. */
function describeDiagnostic(diagnostic: TransportDiagnostic): string {
  const where = diagnostic.line === undefined ? '' : ` line=${diagnostic.line}`;
  const detail = diagnostic.detail === undefined ? '' : ` (${diagnostic.detail})`;
  const message = `${diagnostic.message}${detail}`.replace(/\s+/g, ' ');
  return `dsh-sdk acp: ignored input: ${diagnostic.reason}${where} bytes=${diagnostic.bytes}: ${message}`;
}
