/// <reference types="node" preserve="true" />
import { finished } from 'node:stream';
import type { Writable } from 'node:stream';
import { TransportClosedError } from './errors.js';
import { formatMessage, MAX_NESTING_DEPTH, WireMessage } from './gen/constants.gen.js';
import { exceedsNestingDepth, SHORT_LINE_CHARS } from './nesting.js';

/** What `write` returns when the stream took the line at once: one settled promise for all. */
const WRITTEN: Promise<void> = Promise.resolve();
const ignore = (): void => {};

interface QueuedLine {
  readonly line: string;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
  /** A `flush()` barrier: an empty write that settles in its callback, not when handed over. */
  readonly isBarrier?: boolean;
}

/**
 * Writes messages as compact JSON lines, in call order, respecting back-pressure.
 *
 * Each `write` returns a promise that resolves once the stream has taken the
 * line without asking to wait: at once when `write()` returns `true`, on the
 * next `'drain'` when it returns `false`. Lines written meanwhile are queued
 * here, so a caller that awaits each write never runs ahead of the reader.
 *
 * A failed write (`EPIPE`, an `'error'` event, a stream that was ended or
 * destroyed) fails the writer for good: every queued and later write rejects
 * with a {@link TransportClosedError} of reason `output-error`, and `onFailure`
 * is told once. Disposing the writer never ends or destroys the stream.
 */
export class LineWriter {
  readonly #output: Writable;
  readonly #onFailure: (error: TransportClosedError) => void;
  /** Lines waiting for `'drain'`; `#queueHead` avoids O(n) `shift()` on long bursts. */
  #queue: QueuedLine[] = [];
  #queueHead = 0;
  /** The line whose `write()` returned `false`; it resolves on `'drain'`. */
  #blocked: QueuedLine | undefined;
  #failure: TransportClosedError | undefined;
  #isAttached = false;
  #hasWritten = false;

  constructor(output: Writable, onFailure: (error: TransportClosedError) => void) {
    this.#output = output;
    this.#onFailure = onFailure;
  }

  /**
   * Starts listening to the output stream's `'drain'`, `'error'`, `'finish'` and
   * `'close'`. The first write does it too; calling it early also catches errors
   * the stream reports before anything is written.
   */
  attach(): void {
    if (this.#isAttached || this.#failure) return;
    this.#isAttached = true;
    this.#output.on('drain', this.#handleDrain);
    this.#output.on('error', this.#handleError);
    this.#output.on('finish', this.#handleFinish);
    this.#output.on('close', this.#handleClose);
  }

  /**
   * Stops listening and rejects every queued line (and every later write) with
   * `error`. The stream is left as it is.
   */
  dispose(error: TransportClosedError): void {
    this.#failure ??= error;
    this.#rejectWaiting(this.#failure);
    this.#detach();
  }

  /**
   * Serializes `message` as one line and writes it. A value JSON cannot hold, or one nested deeper
   * than `MAX_NESTING_DEPTH` (which the peer would drop unread), fails this write only.
   */
  write(message: object): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure);
    let line: string;
    try {
      // JSON.stringify escapes lone surrogates (`\ud800`), so every line is valid UTF-8.
      line = JSON.stringify(message);
    } catch (error) {
      // A value JSON cannot hold (a BigInt, a cycle) fails this write only, not the stream.
      return Promise.reject(error instanceof Error ? error : new TypeError(String(error)));
    }
    if (line.length > SHORT_LINE_CHARS && exceedsNestingDepth(line)) {
      const detail = formatMessage(WireMessage.MessageNestedTooDeep, { limit: MAX_NESTING_DEPTH });
      return Promise.reject(new RangeError(detail));
    }
    line += '\n';
    if (!this.#isAttached) this.attach();
    if (this.#output.destroyed || this.#output.writableEnded) {
      this.#fail(new Error('the output stream was ended or destroyed'));
      return Promise.reject(this.#failure);
    }
    if (!this.#blocked) {
      // The common case costs no promise of its own: the stream took the line at once.
      this.#hasWritten = true;
      if (this.#output.write(line, this.#handleWritten)) return WRITTEN;
      return new Promise<void>((resolve, reject) => (this.#blocked = { line, resolve, reject }));
    }
    return new Promise<void>((resolve, reject) => this.#queue.push({ line, resolve, reject }));
  }

  /**
   * `write`, for a caller that may not wait for the outcome: a failure still rejects the promise
   * returned, but is never an unhandled rejection.
   */
  send(message: object): Promise<void> {
    const written = this.write(message);
    if (written !== WRITTEN) written.catch(ignore);
    return written;
  }

  /**
   * Resolves once every line written before it has been handed to the operating system (the
   * stream called back for it), writing no bytes of its own: what a server awaits before it
   * exits. Rejects when one of those lines could not be written (the output failed, or the
   * transport closed while it still waited for `'drain'`).
   */
  flush(): Promise<void> {
    if (this.#failure?.reason === 'output-error') return Promise.reject(this.#failure);
    const output = this.#output;
    if (output.writableLength === 0 && !this.#blocked) return Promise.resolve();
    if (output.destroyed || output.writableEnded) return flushedAtFinish(output);
    return new Promise<void>((resolve, reject) => {
      const barrier = { line: '', resolve, reject, isBarrier: true };
      if (this.#blocked) this.#queue.push(barrier);
      else this.#writeNow(barrier);
    });
  }

  #writeNow(entry: QueuedLine): void {
    this.#hasWritten = true;
    if (entry.isBarrier) {
      this.#output.write('', (error) => {
        if (error) entry.reject(this.#failure ?? error);
        else entry.resolve();
      });
    } else if (this.#output.write(entry.line, this.#handleWritten)) entry.resolve();
    else this.#blocked = entry;
  }

  readonly #handleDrain = (): void => {
    const blocked = this.#blocked;
    if (!blocked) return;
    this.#blocked = undefined;
    blocked.resolve();
    while (!this.#blocked && this.#queueHead < this.#queue.length) {
      const next = this.#queue[this.#queueHead] as QueuedLine;
      this.#queueHead += 1;
      this.#writeNow(next);
    }
    if (this.#queueHead === this.#queue.length) this.#clearQueue();
  };

  readonly #handleWritten = (error?: Error | null): void => {
    if (error) this.#fail(error);
  };

  readonly #handleError = (error: Error): void => {
    this.#fail(error);
  };

  /** An ended stream never drains: its buffer was flushed, but queued lines can never be written. */
  readonly #handleFinish = (): void => {
    const blocked = this.#blocked;
    if (!blocked) return;
    this.#blocked = undefined;
    blocked.resolve();
    if (this.#queueHead < this.#queue.length) this.#fail(new Error('the output stream was ended'));
  };

  /** A stream closed while a line waits for `'drain'` will never drain. */
  readonly #handleClose = (): void => {
    if (this.#blocked) this.#fail(new Error('the output stream closed before it drained'));
  };

  #fail(cause: Error): void {
    if (this.#failure) return;
    const failure = new TransportClosedError(
      'output-error',
      `writing to the output failed: ${cause.message}`,
      { cause },
    );
    this.#failure = failure;
    this.#rejectWaiting(failure);
    this.#detach();
    this.#onFailure(failure);
  }

  #rejectWaiting(error: Error): void {
    const waiting = this.#queue.slice(this.#queueHead);
    if (this.#blocked) waiting.unshift(this.#blocked);
    this.#blocked = undefined;
    this.#clearQueue();
    for (const entry of waiting) entry.reject(error);
  }

  #clearQueue(): void {
    this.#queue = [];
    this.#queueHead = 0;
  }

  #detach(): void {
    if (!this.#isAttached) return;
    this.#isAttached = false;
    this.#output.off('drain', this.#handleDrain);
    this.#output.off('error', this.#handleError);
    this.#output.off('finish', this.#handleFinish);
    this.#output.off('close', this.#handleClose);
    this.#guardLateErrors();
  }

  /**
   * A line already handed to the stream can still fail after we stop listening
   * (a peer that exits makes the pipe report `EPIPE` later). An `'error'` event
   * nobody listens to would crash the process, so until the stream closes a
   * no-op listener takes the errors our own writes cause.
   */
  #guardLateErrors(): void {
    if (!this.#hasWritten || this.#output.closed) return;
    const ignore = (): void => {};
    this.#output.on('error', ignore);
    this.#output.once('close', () => this.#output.off('error', ignore));
  }
}

/** Settles when an ended or destroyed stream has flushed what it held, or could not. */
function flushedAtFinish(output: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    finished(output, { readable: false }, (error) => {
      if (!error) return resolve();
      const message = `the output stream closed before it flushed: ${error.message}`;
      reject(new TransportClosedError('output-error', message, { cause: error }));
    });
  });
}
