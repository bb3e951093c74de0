/// <reference types="node" preserve="true" />
import type { Writable } from 'node:stream';
import { TransportClosedError } from './errors.js';
import { formatMessage, MAX_NESTING_DEPTH, WireMessage } from './gen/constants.gen.js';
import { exceedsNestingDepth, SHORT_LINE_CHARS } from './nesting.js';

interface QueuedLine {
  readonly line: string;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
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
    return new Promise<void>((resolve, reject) => {
      const entry = { line, resolve, reject };
      if (this.#blocked) this.#queue.push(entry);
      else this.#writeNow(entry);
    });
  }

  #writeNow(entry: QueuedLine): void {
    this.#hasWritten = true;
    if (this.#output.write(entry.line, this.#handleWritten)) entry.resolve();
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
