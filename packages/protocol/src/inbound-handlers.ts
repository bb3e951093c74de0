import type {
  JsonRpcErrorObject,
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
} from './classify.js';
import { isJsonRpcErrorObject } from './classify.js';
import type { TransportDiagnostic } from './diagnostics.js';
import { handlerFailureDiagnostic } from './diagnostics.js';
import { JsonRpcResponseError, TransportClosedError } from './errors.js';
import { ErrorCode, formatMessage, WireMessage } from './gen/constants.gen.js';

/** What a handler learns about the inbound message besides its params. */
export interface NotificationContext {
  readonly method: string;
  /** 1-based input line the message came on. */
  readonly line: number;
  /** Size of that line in bytes, without its `\n`. */
  readonly bytes: number;
}

/** What a request handler learns about the inbound request besides its params. */
export interface RequestContext extends NotificationContext {
  readonly id: JsonRpcId;
  /** Aborted when the transport closes: nobody will read the response any more. */
  readonly signal: AbortSignal;
}

/**
 * Answers a request: its return value (or resolved value) becomes `result`.
 * Throwing a {@link JsonRpcResponseError} sends that error; anything else
 * thrown is answered `-32603` with the error's message.
 */
export type RequestHandler = (params: unknown, context: RequestContext) => unknown;

/** Handles a notification; if it throws or rejects, `notification-handler-failed` is reported. */
export type NotificationHandler = (
  params: unknown,
  context: NotificationContext,
) => void | PromiseLike<void>;

/**
 * One handler for every request method that has none of its own, the original package's form:
 * called as `(method, params)`, with params made a plain object (absent, `null`, an array or a
 * scalar become `{}`). Its answer and failures are treated as a {@link RequestHandler}'s.
 */
export type CatchAllRequestHandler = (
  method: string,
  params: Record<string, unknown>,
  context: RequestContext,
) => unknown;

/** One handler for every notification method that has none of its own; params as above. */
export type CatchAllNotificationHandler = (
  method: string,
  params: Record<string, unknown>,
  context: NotificationContext,
) => void | PromiseLike<void>;

/** What the handlers need from their transport. */
export interface InboundHandlersHost {
  /** Writes one message (a response). */
  write(message: object): Promise<void>;
  /** Reports a diagnostic. */
  report(diagnostic: TransportDiagnostic): void;
  /** Aborted when the transport closes. */
  readonly signal: AbortSignal;
}

/** The catch-all handlers installed, as the transport calls them. */
interface CatchAlls {
  request?: RequestHandler;
  notification?: NotificationHandler;
}

/**
 * The registered handlers of inbound requests and notifications, one per
 * method plus at most one catch-all of each kind, and the dispatch of messages to them.
 */
export class InboundHandlers {
  readonly #host: InboundHandlersHost;
  readonly #requestHandlers = new Map<string, RequestHandler>();
  readonly #notificationHandlers = new Map<string, NotificationHandler>();
  readonly #catchAll: CatchAlls = {};

  constructor(host: InboundHandlersHost) {
    this.#host = host;
  }

  /** Registers the handler of a request method; returns a function that unregisters it. */
  onRequest(method: string, handler: RequestHandler): () => void {
    return register(this.#requestHandlers, method, handler);
  }

  /** Registers the handler of a notification method; returns a function that unregisters it. */
  onNotification(method: string, handler: NotificationHandler): () => void {
    return register(this.#notificationHandlers, method, handler);
  }

  /**
   * Installs the catch-all request handler, replacing the one before (as the original package
   * does); returns a function that removes it.
   */
  onAnyRequest(handler: CatchAllRequestHandler): () => void {
    return this.#installCatchAll('request', (params, context) =>
      handler(context.method, plainParams(params), context),
    );
  }

  /** Installs the catch-all notification handler, replacing the one before; returns its remover. */
  onAnyNotification(handler: CatchAllNotificationHandler): () => void {
    return this.#installCatchAll('notification', (params, context) =>
      handler(context.method, plainParams(params), context),
    );
  }

  #installCatchAll<K extends 'request' | 'notification'>(
    kind: K,
    installed: NonNullable<CatchAlls[K]>,
  ): () => void {
    this.#catchAll[kind] = installed;
    return () => {
      if (this.#catchAll[kind] === installed) delete this.#catchAll[kind];
    };
  }

  /**
   * Runs the request's handler (its method's own, else the catch-all) and answers it; a method
   * without either is answered `-32601`.
   */
  dispatchRequest({ id, method, params }: JsonRpcRequest, line: number, bytes: number): void {
    const handler = this.#requestHandlers.get(method) ?? this.#catchAll.request;
    if (!handler) {
      const message = formatMessage(WireMessage.MethodNotFound, { method });
      void this.#respondError(id, { code: ErrorCode.MethodNotFound, message });
      return;
    }
    const context: RequestContext = { id, method, line, bytes, signal: this.#host.signal };
    new Promise((resolve) => resolve(handler(params, context))).then(
      (result) => this.#respondResult(id, result),
      (error: unknown) => this.#respondError(id, toErrorObject(error)),
    );
  }

  /**
   * Runs the notification's handler (its method's own, else the catch-all); a failure is
   * reported, not thrown. A notification nobody handles is reported as `unhandled-notification`.
   */
  dispatchNotification({ method, params }: JsonRpcNotification, line: number, bytes: number): void {
    const handler = this.#notificationHandlers.get(method) ?? this.#catchAll.notification;
    if (!handler) {
      const message = formatMessage(WireMessage.NoHandler, { method });
      this.#host.report({ reason: 'unhandled-notification', message, line, bytes, method });
      return;
    }
    const context: NotificationContext = { method, line, bytes };
    try {
      const outcome = handler(params, context);
      if (outcome && typeof outcome.then === 'function') {
        outcome.then(undefined, (error: unknown) => this.#reportHandlerFailure(error, context));
      }
    } catch (error) {
      this.#reportHandlerFailure(error, context);
    }
  }

  #reportHandlerFailure(error: unknown, { method, line, bytes }: NotificationContext): void {
    this.#host.report(handlerFailureDiagnostic(method, line, bytes, error, describeError(error)));
  }

  async #respondResult(id: JsonRpcId, result: unknown): Promise<void> {
    try {
      // `undefined` would make JSON.stringify drop the member and leave an invalid response.
      await this.#host.write({ jsonrpc: '2.0', id, result: result === undefined ? null : result });
    } catch (error) {
      // A result JSON cannot hold (a BigInt, a cycle) is still answered, as an internal error.
      if (!(error instanceof TransportClosedError))
        await this.#respondError(id, toErrorObject(error));
    }
  }

  async #respondError(id: JsonRpcId, error: JsonRpcErrorObject): Promise<void> {
    if (!isJsonRpcErrorObject(error)) {
      // A code that is no safe integer, or a message that is no string: the peer would drop it.
      const { code } = error as { code?: unknown };
      error = {
        code: ErrorCode.InternalError,
        message: formatMessage(WireMessage.ErrorNotJsonRpc, { code: describeValue(code) }),
      };
    }
    try {
      await this.#host.write({ jsonrpc: '2.0', id, error });
    } catch (failure) {
      if (failure instanceof TransportClosedError || !('data' in error)) return;
      // The handler's `data` could not be serialized: still answer, without it.
      await this.#respondError(id, { code: error.code, message: error.message });
    }
  }
}

function register<H>(handlers: Map<string, H>, method: string, handler: H): () => void {
  if (handlers.has(method)) throw new Error(`a handler for ${method} is already registered`);
  handlers.set(method, handler);
  return () => {
    if (handlers.get(method) === handler) handlers.delete(method);
  };
}

/** Params as the original package hands them to a catch-all: a plain object, `{}` for anything else. */
function plainParams(params: unknown): Record<string, unknown> {
  return typeof params === 'object' && params !== null && !Array.isArray(params)
    ? (params as Record<string, unknown>)
    : {};
}

function toErrorObject(error: unknown): JsonRpcErrorObject {
  if (error instanceof JsonRpcResponseError) return error.toErrorObject();
  return { code: ErrorCode.InternalError, message: describeError(error) };
}

function describeError(error: unknown): string {
  try {
    return error instanceof Error ? String(error.message) : String(error);
  } catch {
    // A thrown value whose text cannot be had (a toString that throws) is still answered.
    return WireMessage.HandlerFailed;
  }
}

function describeValue(value: unknown): string {
  try {
    return String(value);
  } catch {
    return typeof value;
  }
}
