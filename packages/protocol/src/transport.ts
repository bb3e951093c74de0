/// <reference types="node" preserve="true" />
import type { Readable, Writable } from 'node:stream';
import { classifyMessage } from './classify.js';
import type { ClassifiedMessage, JsonRpcId, MalformedMessage } from './classify.js';
import type { DiagnosticCounts, DiagnosticObserver, TransportDiagnostic } from './diagnostics.js';
import { lineRejectionMessage } from './diagnostics.js';
import { JsonRpcResponseError, TransportClosedError } from './errors.js';
import {
  DEFAULT_MAX_FRAME_BYTES,
  ErrorCode,
  formatMessage,
  MAX_NESTING_DEPTH,
  WireMessage,
} from './gen/constants.gen.js';
import type { DiagnosticReason } from './gen/constants.gen.js';
import { InboundHandlers } from './inbound-handlers.js';
import type { NotificationHandler, RequestHandler } from './inbound-handlers.js';
import { LineReader } from './line-reader.js';
import type { LineRejectionReason } from './line-reader.js';
import { LineWriter } from './line-writer.js';
import { exceedsNestingDepth, readTopLevel, SHORT_LINE_CHARS } from './nesting.js';
import { PendingRequests } from './pending-requests.js';
import type { PendingRequest, RequestOptions } from './pending-requests.js';

/** The outbound surface of a JSON-RPC connection: what one side can send the other. */
export interface JsonRpcTransportPeer {
  /** Sends a request and resolves with the response's `result`. */
  request<R = unknown>(method: string, params?: unknown, options?: RequestOptions): Promise<R>;
  /** Sends a notification; resolves once the output stream has taken it. */
  notify(method: string, params?: unknown): Promise<void>;
}

/** Options of a {@link JsonRpcLineTransport}. */
export interface JsonRpcLineTransportOptions {
  /** Where messages come from (for a client, the runtime's stdout). */
  readonly input: Readable;
  /** Where messages go (for a client, the runtime's stdin). */
  readonly output: Writable;
  /** Longest accepted line in bytes, before its `\n`; defaults to `DEFAULT_MAX_FRAME_BYTES`. */
  readonly maxFrameBytes?: number;
  /** Receives a report for everything the transport ignores. */
  readonly onDiagnostic?: DiagnosticObserver;
}

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
  readonly #observer: DiagnosticObserver | undefined;
  readonly #handlers: InboundHandlers;
  readonly #pending = new PendingRequests();
  readonly #counts: Partial<Record<DiagnosticReason, number>> = {};
  readonly #lifetime = new AbortController();
  #resolveClosed: (error: TransportClosedError) => void = () => {};
  #state: TransportState = 'idle';
  #closeError: TransportClosedError | undefined;

  constructor(options: JsonRpcLineTransportOptions) {
    this.#input = options.input;
    this.#maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    this.#observer = options.onDiagnostic;
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
    return { ...this.#counts };
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
  onRequest(method: string, handler: RequestHandler): () => void {
    return this.#handlers.onRequest(method, handler);
  }

  /**
   * Registers the handler of an inbound notification method (one per method).
   * A notification without a handler is reported as `unhandled-notification`.
   * Returns a function that unregisters it.
   */
  onNotification(method: string, handler: NotificationHandler): () => void {
    return this.#handlers.onNotification(method, handler);
  }

  /** Sends a request with the next numeric id (1, 2, …) and waits for its response. */
  request<R = unknown>(method: string, params?: unknown, options: RequestOptions = {}): Promise<R> {
    const refusal = this.#refusal() ?? PendingRequests.refuse(method, options);
    if (refusal) return Promise.reject(refusal);
    return new Promise<R>((resolve, reject) => {
      const settle = { method, resolve: resolve as (result: unknown) => void, reject };
      const id = this.#pending.add(settle, options);
      const frame =
        params === undefined
          ? { jsonrpc: '2.0', id, method }
          : { jsonrpc: '2.0', id, method, params };
      this.#writer.write(frame).catch((error: Error) => this.#pending.take(id)?.reject(error));
    });
  }

  /** Sends a notification; `params` omitted means no `params` member. */
  notify(method: string, params?: unknown): Promise<void> {
    const refusal = this.#refusal();
    if (refusal) return Promise.reject(refusal);
    return this.#writer.write(
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params },
    );
  }

  /**
   * Counts a diagnostic and hands it to the observer. The transport calls it for
   * everything it ignores; the generated bindings call it for notifications
   * whose params break the schema.
   */
  reportDiagnostic(diagnostic: TransportDiagnostic): void {
    this.#counts[diagnostic.reason] = (this.#counts[diagnostic.reason] ?? 0) + 1;
    if (!this.#observer) return;
    try {
      this.#observer(diagnostic);
    } catch {
      // An observer bug must not stop the stream, and the transport has nowhere to log it.
    }
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

  /**
   * A line nested deeper than the limit is never parsed whole: it is reported, and when its top
   * level reads as a request with a valid id, answered `-32600` so that its caller does not wait.
   */
  #refuseDeepLine(text: string, line: number, bytes: number): void {
    const top = classifyMessage(readTopLevel(text));
    const { id, method } = salvage(top);
    this.reportDiagnostic({
      ...{ reason: 'nesting-too-deep', line, bytes },
      message: formatMessage(WireMessage.NestingTooDeep, { limit: MAX_NESTING_DEPTH }),
      ...(id === undefined ? {} : { id }),
      ...(method === undefined ? {} : { method }),
    });
    if (top.kind !== 'request') return;
    const error = {
      code: ErrorCode.InvalidRequest,
      message: formatMessage(WireMessage.FrameNestedTooDeep, { limit: MAX_NESTING_DEPTH }),
    };
    this.#writer.write({ jsonrpc: '2.0', id: top.message.id, error }).catch(() => {
      // The output failed: the transport is closing, and nobody is left to tell.
    });
  }

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

/** The id and method a classified value has, whatever its kind. */
function salvage(classified: ClassifiedMessage): {
  id?: JsonRpcId | undefined;
  method?: string | undefined;
} {
  switch (classified.kind) {
    case 'request':
      return { id: classified.message.id, method: classified.message.method };
    case 'notification':
      return { method: classified.message.method };
    case 'success':
    case 'error':
      return { id: classified.message.id };
    case 'malformed':
      return { id: classified.id, method: classified.method };
  }
}
