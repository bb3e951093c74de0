// Trace records → a file, in batches, with bounded memory and without blocking on each record.
import { closeSync, openSync, writeSync } from 'node:fs';

/** Options of a {@link TraceFileWriter}. */
export interface TraceFileWriterOptions {
  /** Called once if writing fails (disk full, …); recording stops, nothing else is affected. */
  readonly onError?: (error: Error) => void;
}

/** Buffered text above this size is written at once instead of at the end of the event-loop turn. */
const FLUSH_AT = 1 << 20;

/**
 * Writes trace records (one per line) to a file. Records are batched and written at the end of
 * the current event-loop turn, after the chunks they describe were forwarded, or at once when a
 * megabyte is waiting, so memory stays bounded whatever the traffic. A write error stops the
 * recording and is reported once; it never throws into the caller's data path.
 */
export class TraceFileWriter {
  readonly #onError: ((error: Error) => void) | undefined;
  #fd: number | undefined;
  #parts: string[] = [];
  #waiting = 0;
  #scheduled = false;

  constructor(path: string, options: TraceFileWriterOptions = {}) {
    this.#onError = options.onError;
    this.#fd = openSync(path, 'w');
  }

  /** Queues one record (a JSON text without its `\n`). */
  readonly write = (record: string): void => {
    if (this.#fd === undefined) return;
    this.#parts.push(record, '\n');
    this.#waiting += record.length + 1;
    if (this.#waiting >= FLUSH_AT) {
      this.flush();
    } else if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#flushScheduled);
    }
  };

  /** Writes every queued record now. */
  flush(): void {
    if (this.#fd === undefined || this.#parts.length === 0) return;
    const text = this.#parts.join('');
    this.#parts = [];
    this.#waiting = 0;
    try {
      const data = Buffer.from(text, 'utf8');
      let offset = 0;
      while (offset < data.length) offset += writeSync(this.#fd, data, offset);
    } catch (error) {
      this.#fail(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Writes what is queued and closes the file. Idempotent. */
  close(): void {
    this.flush();
    if (this.#fd === undefined) return;
    const fd = this.#fd;
    this.#fd = undefined;
    try {
      closeSync(fd);
    } catch (error) {
      this.#onError?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  readonly #flushScheduled = (): void => {
    this.#scheduled = false;
    this.flush();
  };

  #fail(error: Error): void {
    const fd = this.#fd;
    this.#fd = undefined;
    this.#parts = [];
    try {
      if (fd !== undefined) closeSync(fd);
    } catch {
      // Already reporting the first error.
    }
    this.#onError?.(error);
  }
}
