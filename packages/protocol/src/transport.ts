/// <reference types="node" preserve="true" />
import type { Readable, Writable } from 'node:stream';
import { classifyMessage } from './classify.js';
import type { JsonRpcId, MalformedMessage } from './classify.js';
import type { DiagnosticCounts, TransportDiagnostic } from './diagnostics.js';
import { DiagnosticTally, lineRejectionMessage } from './diagnostics.js';
import { JsonRpcResponseError, TransportClosedError } from './errors.js';
import { DEFAULT_MAX_FRAME_BYTES, formatMessage, WireMessage } from './gen/constants.gen.js';
import { InboundHandlers } from './inbound-handlers.js';
import type {
  CatchAllNotificationHandler,
  CatchAllRequestHandler,
  NotificationHandler,
  RequestHandler,
} from './inbound-handlers.js';
import { LineReader } from './line-reader.js';
import type { LineRejectionReason } from './line-reader.js';
import { LineWriter } from './line-writer.js';
import { refuseDeepLine } from './deep-lines.js';
import { transportOptions } from './transport-options.js';
import type {
  JsonRpcLineTransportOptions,
  JsonRpcLineTransportSettings,
  JsonRpcTransportPeer,
} from './transport-options.js';
import { exceedsNestingDepth, SHORT_LINE_CHARS } from './nesting.js';
import { isAbortSignal, PendingRequests } from './pending-requests.js';
import type { PendingRequest, RequestOptions } from './pending-requests.js';

export type {
  JsonRpcLineTransportOptions,
  JsonRpcLineTransportSettings,
  JsonRpcTransportPeer,
} from './transport-options.js';

/** The lifecycle of a transport: created, started, then closed for good. */
export type TransportState = 'idle' | 'open' | 'closed';

/**
 * JSON-RPC 2.0 over newline-delimited JSON on a pair of caller-owned streams.
 *
 * `start()` attaches the listeners; `close()` detaches them and rejects every
 * pending request, but never ends or destroys the streams. The input ending or
 * failing, or a write failing, closes the transport the same way. Nothing is
 * logged: everything ignored goes to the `onDiagnostic` observer.
 */
export class JsonRpcLineTransport implements JsonRpcTransportPeer {
  /** Resolves, once, with the error that pending and later requests reject with. */
  readonly closed: Promise<TransportClosedError>;
  readonly #input: Readable;
  readonly #reader: LineReader;
  readonly #writer: LineWriter;
  readonly #maxFrameBytes: number;
  readonly #diagnostics: DiagnosticTally;
  readonly #handlers: InboundHandlers;
  readonly #pending = new PendingRequests();
  readonly #lifetime = new AbortController();
  #resolveClosed: (error: TransportClosedError) => void = () => {};
  #state: TransportState = 'idle';
  #closeError: TransportClosedError | undefined;

  /** `options` names the streams: `new JsonRpcLineTransport({ input, output })`. */
  constructor(options: JsonRpcLineTransportOptions);
  /** The original package's form: the streams first, then the other options. */
  constructor(input: Readable, output: Writable, settings?: JsonRpcLineTransportSettings);
  constructor(
    first: JsonRpcLineTransportOptions | Readable,
    output?: Writable,
    settings: JsonRpcLineTransportSettings = {},
  ) {
    const options = transportOptions(first, output, settings);
    this.#input = options.input;
    this.#maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    this.#diagnostics = new DiagnosticTally(options.onDiagnostic);
    this.#reader = new LineReader(
      { acceptLine: this.#handleLine, rejectLine: this.#handleRejectedLine },
      { maxFrameBytes: this.#maxFrameBytes },
    );
    this.#writer = new LineWriter(options.output, (error) => this.#shutDown(error));
    this.#handlers = new InboundHandlers({
      write: (message) => this.#writer.write(message),
      report: (diagnostic) => this.reportDiagnostic(diagnostic),
      signal: this.#lifetime.signal,
    });
    this.closed = new Promise((resolve) => (this.#resolveClosed = resolve));
  }

  /** `idle` until `start()`, `open` until closed, then `closed` for good. */
  get state(): TransportState {
    return this.#state;
  }

  /** How many diagnostics of each reason were reported so far. */
  get diagnosticCounts(): DiagnosticCounts {
    return this.#diagnostics.counts;
  }

  /** Attaches the stream listeners and begins reading. Idempotent; no effect after close. */
  start(): this {
    if (this.#state !== 'idle') return this;
    this.#state = 'open';
    this.#writer.attach();
    this.#input.on('data', this.#handleData);
    this.#input.on('end', this.#handleEnd);
    this.#input.on('error', this.#handleInputError);
    this.#input.on('close', this.#handleInputClose);
    // Those events will not come again for a stream that already ended or was destroyed.
    if (this.#input.readableEnded) this.#handleEnd();
    else if (this.#input.destroyed) this.#handleInputClose();
    return this;
  }

  /**
   * Detaches the listeners and rejects every pending request with a
   * {@link TransportClosedError} carrying `message`. The streams are left open
   * and the input keeps its flowing state. Idempotent.
   */
  close(message = 'the transport was closed', options: { cause?: unknown } = {}): void {
    this.#shutDown(new TransportClosedError('closed', message, options));
  }

  /**
   * Registers the handler of an inbound request method (one per method; a
   * second registration throws). Returns a function that unregisters it.
   */
  onRequest(method: string, handler: RequestHandler): () => void;
  /**
   * The original package's form: one handler, called as `(method, params)`, for every method
   * without a handler of its own; a second one replaces it. A method neither handles is
   * answered `-32601`; a throw or rejection `-32603` with its message (or the
   * {@link JsonRpcResponseError} thrown). Returns a function that removes it.
   */
  onRequest(handler: CatchAllRequestHandler): () => void;
  onRequest(first: string | CatchAllRequestHandler, handler?: RequestHandler): () => void {
    if (typeof first === 'function') return this.#handlers.onAnyRequest(first);
    return this.#handlers.onRequest(first, handler as RequestHandler);
  }

  /**
   * Registers the handler of an inbound notification method (one per method).
   * A notification without a handler is reported as `unhandled-notification`.
   * Returns a function that unregisters it.
   */
  onNotification(method: string, handler: NotificationHandler): () => void;
  /**
   * The original package's form: one handler, called as `(method, params)`, for every
   * notification without a handler of its own; a second one replaces it. Returns its remover.
   */
  onNotification(handler: CatchAllNotificationHandler): () => void;
  onNotification(
    first: string | CatchAllNotificationHandler,
    handler?: NotificationHandler,
  ): () => void {
    if (typeof first === 'function') return this.#handlers.onAnyNotification(first);
    return this.#handlers.onNotification(first, handler as NotificationHandler);
  }

  /**
   * Sends a request with the next numeric id (1, 2, …) and waits for its response. The third
   * argument may be an `AbortSignal` alone, the original package's form: aborting it rejects
   * with the signal's reason, as `fetch` does (`options.signal` rejects with a `RequestAbortedError`).
   */
  request<R = unknown>(
    method: string,
    params?: unknown,
    options: RequestOptions | AbortSignal = {},
  ): Promise<R> {
    const isSignal = isAbortSignal(options);
    const rejection = isSignal ? 'signal-reason' : 'aborted-error';
    const settings: RequestOptions = isSignal ? { signal: options } : options;
    const refusal = this.#refusal() ?? PendingRequests.refuse(method, settings, rejection);
    if (refusal) return Promise.reject(refusal);
    return new Promise<R>((resolve, reject) => {
      const settle = { method, resolve: resolve as (result: unknown) => void, reject };
      const id = this.#pending.add(settle, settings, rejection);
      const frame =
        params === undefined
          ? { jsonrpc: '2.0', id, method }
          : { jsonrpc: '2.0', id, method, params };
      this.#writer.write(frame).catch((error: Error) => this.#pending.take(id)?.reject(error));
    });
  }

  /**
   * Sends a notification; `params` omitted means no `params` member. The promise resolves once
   * the output stream has taken it and rejects if it could not be sent; one nobody awaits never
   * becomes an unhandled rejection (the original package's `notify` returned nothing), and a
   * closed transport says why through {@link closed}.
   */
  notify(method: string, params?: unknown): Promise<void> {
    const refusal = this.#refusal();
    if (refusal) {
      const refused = Promise.reject(refusal);
      refused.catch(() => {});
      return refused;
    }
    return this.#writer.send(
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params },
    );
  }

  /**
   * Resolves once every message sent before it has been handed to the operating system, writing
   * nothing itself: call it before exiting, so that the last response is not lost. Rejects if
   * one of those messages could not be written.
   */
  flush(): Promise<void> {
    return this.#writer.flush();
  }

  /**
   * Counts a diagnostic and hands it to the observer. The transport calls it for
   * everything it ignores; the generated bindings call it for notifications
   * whose params break the schema.
   */
  reportDiagnostic(diagnostic: TransportDiagnostic): void {
    this.#diagnostics.report(diagnostic);
  }

  #refusal(): TransportClosedError | undefined {
    if (this.#state === 'open') return undefined;
    return this.#closeError ?? new TransportClosedError('not-started', 'call start() first');
  }

  readonly #handleData = (chunk: Buffer | string): void => {
    // A caller may have called setEncoding(); its decoder already kept characters whole.
    this.#reader.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  };

  readonly #handleEnd = (): void => {
    this.#reader.end();
    this.#shutDown(new TransportClosedError('input-ended', 'the input stream ended'));
  };

  readonly #handleInputError = (error: Error): void => {
    const message = `the input stream failed: ${error.message}`;
    this.#shutDown(new TransportClosedError('input-error', message, { cause: error }));
  };

  readonly #handleInputClose = (): void => {
    const message = 'the input stream closed before it ended';
    this.#shutDown(new TransportClosedError('input-error', message));
  };

  readonly #handleRejectedLine = (
    reason: LineRejectionReason,
    line: number,
    bytes: number,
  ): void => {
    if (this.#state !== 'open') return;
    const message = lineRejectionMessage(reason, this.#maxFrameBytes);
    this.reportDiagnostic({ reason, line, bytes, message });
  };

  #refuseDeepLine(text: string, line: number, bytes: number): void {
    const write = (message: object): Promise<void> => this.#writer.write(message);
    refuseDeepLine(text, { line, bytes }, (diagnostic) => this.reportDiagnostic(diagnostic), write);
  }

  readonly #handleLine = (text: string, line: number, bytes: number): void => {
    if (this.#state !== 'open') return;
    if (text.length > SHORT_LINE_CHARS && exceedsNestingDepth(text))
      return this.#refuseDeepLine(text, line, bytes);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      // Too deep comes first, for a short line too.
      if (exceedsNestingDepth(text)) return this.#refuseDeepLine(text, line, bytes);
      const detail = error instanceof Error ? error.message : String(error);
      this.reportDiagnostic({
        reason: 'invalid-json',
        line,
        bytes,
        message: WireMessage.InvalidJson,
        detail,
      });
      return;
    }
    const classified = classifyMessage(value);
    switch (classified.kind) {
      case 'request':
        return this.#handlers.dispatchRequest(classified.message, line, bytes);
      case 'notification':
        return this.#handlers.dispatchNotification(classified.message, line, bytes);
      case 'success': {
        const { id, result } = classified.message;
        return this.#settle(id, line, bytes, (pending) => pending.resolve(result));
      }
      case 'error': {
        const { id, error } = classified.message;
        return this.#settle(id, line, bytes, (pending) =>
          pending.reject(JsonRpcResponseError.fromErrorObject(error)),
        );
      }
      case 'malformed':
        return this.#reportMalformed(classified, line, bytes);
    }
  };

  #reportMalformed(malformed: MalformedMessage, line: number, bytes: number): void {
    const { reason, detail: message, id, method } = malformed;
    this.reportDiagnostic({
      ...{ reason, line, bytes, message },
      ...(id === undefined ? {} : { id }),
      ...(method === undefined ? {} : { method }),
    });
  }

  #settle(id: JsonRpcId, line: number, bytes: number, settle: (p: PendingRequest) => void): void {
    // Our ids are numbers, so a string id never matches (not even "1" for 1).
    const pending = typeof id === 'number' ? this.#pending.take(id) : undefined;
    if (pending) return settle(pending);
    const message = formatMessage(WireMessage.UnknownResponseId, { id: JSON.stringify(id) });
    this.reportDiagnostic({ reason: 'unknown-response-id', line, bytes, id, message });
  }

  #shutDown(error: TransportClosedError): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#closeError = error;
    this.#input.off('data', this.#handleData);
    this.#input.off('end', this.#handleEnd);
    this.#input.off('error', this.#handleInputError);
    this.#input.off('close', this.#handleInputClose);
    this.#writer.dispose(error);
    this.#pending.rejectAll(error);
    this.#lifetime.abort(error);
    this.#resolveClosed(error);
  }
}
