// The request handlers of the runtime and its handshake state machine:
// not-initialized → (initialize) → ready → (shutdown) → shutting-down.
import {
  capabilitiesAt,
  LATEST_PROTOCOL_VERSION,
  SERVER_NAME,
  WireMessage,
} from '@dsh-sdk/protocol';
import type {
  HarnessSdkRequestHandlers,
  InitializeParams,
  InitializeResult,
  ServerInfo,
  SessionCloseParams,
  SessionCloseResult,
  SessionInterruptParams,
  SessionInterruptResult,
  SessionPromptParams,
  SessionPromptResult,
  ShutdownResult,
  UserMessage,
} from '@dsh-sdk/protocol';
import type { ModelAdapter, ModelRoute } from './adapters/model-adapter.js';
import { resolveRoute } from './adapters/route-resolver.js';
import type { AttachmentStore } from './attachment-store.js';
import type { Notifier } from './notifier.js';
import { admitPrompt } from './prompt-admission.js';
import { invalidRequestError, notInitializedError } from './protocol-errors.js';
import type { SessionRegistry } from './session.js';
import { runTurn } from './turn.js';
import type { TurnContext } from './turn.js';
import { RUNTIME_VERSION } from './version.js';

/** Where the handshake stands. */
export type ServerState = 'not-initialized' | 'ready' | 'shutting-down';

/** What the server works with. */
export interface RuntimeServerOptions {
  readonly adapters: readonly ModelAdapter[];
  readonly store: AttachmentStore;
  readonly sessions: SessionRegistry;
  readonly notifier: Notifier;
  /** See {@link TurnContext.chunkDelayMs}. */
  readonly chunkDelayMs: number;
  /** See {@link TurnContext.maxTokensIsSuccess}. */
  readonly maxTokensIsSuccess: boolean;
  /** Called once `shutdown` has been accepted: the runtime flushes its output and exits. */
  readonly onShutdown: () => void;
}

/**
 * Serves `initialize`, `session/prompt`, `session/interrupt`, `session/close` and `shutdown`.
 * Params arrive checked against the schema by the generated bindings; this class adds the
 * route, attachment and state checks.
 */
export class RuntimeServer implements HarnessSdkRequestHandlers {
  readonly #options: RuntimeServerOptions;
  #state: ServerState = 'not-initialized';
  #context: TurnContext | undefined;
  /** Prompts are admitted one at a time in arrival order, so ids and queues follow the wire. */
  #admissions: Promise<unknown> = Promise.resolve();

  constructor(options: RuntimeServerOptions) {
    this.#options = options;
  }

  /** Where the handshake stands. */
  get state(): ServerState {
    return this.#state;
  }

  initialize(params: InitializeParams): InitializeResult {
    if (this.#state === 'shutting-down') throw invalidRequestError(WireMessage.ShuttingDown);
    if (this.#state === 'ready') throw invalidRequestError(WireMessage.AlreadyInitialized);
    const route: ModelRoute = resolveRoute(this.#options.adapters, params);
    const { notifier, sessions, chunkDelayMs, maxTokensIsSuccess } = this.#options;
    this.#context = { route, notifier, sessions, chunkDelayMs, maxTokensIsSuccess };
    this.#state = 'ready';
    const serverInfo: ServerInfo = { name: SERVER_NAME, version: RUNTIME_VERSION };
    // Without a requested version: exactly the version 1 result.
    if (params.protocolVersion === undefined) return { serverInfo };
    const protocolVersion = Math.min(params.protocolVersion, LATEST_PROTOCOL_VERSION);
    return protocolVersion >= 2
      ? { serverInfo, protocolVersion, capabilities: capabilitiesAt(protocolVersion) }
      : { serverInfo, protocolVersion };
  }

  sessionPrompt(params: SessionPromptParams): Promise<SessionPromptResult> {
    const context = this.#requireReady();
    return this.#inOrder(() => this.#accept(params, context));
  }

  /** The state checks of every request but the handshake's: `-32600` after shutdown, `-32002` before initialize. */
  #requireReady(): TurnContext {
    if (this.#state === 'shutting-down') throw invalidRequestError(WireMessage.ShuttingDown);
    const context = this.#context;
    if (this.#state !== 'ready' || !context) throw notInitializedError();
    return context;
  }

  /** Runs `step` after every prompt, interrupt and close received before it. */
  #inOrder<T>(step: () => Promise<T>): Promise<T> {
    const done = this.#admissions.then(step);
    this.#admissions = done.catch(() => undefined);
    return done;
  }

  /**
   * Stops the session's turn in progress once the prompts received before this request were
   * admitted (wire order). The turn stops streaming before the answer is written; its closing
   * frames follow.
   */
  sessionInterrupt(params: SessionInterruptParams): Promise<SessionInterruptResult> {
    this.#requireReady();
    return this.#inOrder(async () => {
      const session = this.#options.sessions.find(params.sessionId);
      if (!session) return { found: false, wasRunning: false };
      return { found: true, wasRunning: session.interrupt('user') };
    });
  }

  /**
   * Disposes the session (and its child sessions) in wire order: answered once it stopped, so
   * nothing of it follows the answer, and a prompt received after it starts a new session.
   */
  sessionClose(params: SessionCloseParams): Promise<SessionCloseResult> {
    this.#requireReady();
    return this.#inOrder(async () => ({
      found: await this.#options.sessions.close(params.sessionId),
    }));
  }

  shutdown(): ShutdownResult {
    if (this.#state === 'shutting-down') throw invalidRequestError(WireMessage.ShuttingDown);
    this.#state = 'shutting-down';
    void this.#options.sessions.stopAll();
    this.#options.onShutdown();
    return {};
  }

  /** Resolves once every prompt received so far has been answered and every started turn ended. */
  async settle(): Promise<void> {
    await this.#admissions;
    await this.#options.sessions.stopAll();
  }

  async #accept(params: SessionPromptParams, context: TurnContext): Promise<SessionPromptResult> {
    const { content, prompt } = await admitPrompt(this.#options.store, params.contentBlocks);
    const session = context.sessions.open(params.sessionId);
    const message: UserMessage = {
      id: session.nextMessageId(),
      role: 'user',
      content,
      source: { kind: 'user' },
    };
    // A prompt admitted while `shutdown` was being answered gets its id but no turn.
    if (this.#state === 'ready')
      session.enqueue((control) => runTurn(session, { message, prompt }, context, control));
    return { messageId: message.id };
  }
}
