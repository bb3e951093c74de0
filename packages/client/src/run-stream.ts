import type { HarnessNotification } from './notifications.js';
import type { RunResult } from './run-tracker.js';

/** A run being watched as it streams: iterate its notifications, await its result. */
export interface RunStream extends AsyncIterable<HarnessNotification> {
  /** Settles like `run()`: the result once the root session is idle, or the run's error. */
  readonly result: Promise<RunResult>;
}

/** A run's reply text as it streams: iterate its text deltas, await its result. */
export interface TextStream extends AsyncIterable<string> {
  /** Settles like `run()`: the result once the root session is idle, or the run's error. */
  readonly result: Promise<RunResult>;
}

/**
 * An unbounded queue of values with one consumer, ended or failed by its producer. Values
 * come as fast as the runtime sends them; iterating late loses none of them.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  #values: T[] = [];
  #head = 0;
  #isEnded = false;
  #failure: { readonly error: unknown } | undefined;
  #wake: (() => void) | undefined;

  /** Adds a value for the consumer. */
  push(value: T): void {
    if (this.#isEnded) return;
    this.#values.push(value);
    this.#notify();
  }

  /** Ends the iteration once the queued values were taken. */
  end(): void {
    this.#isEnded = true;
    this.#notify();
  }

  /** Makes the iteration throw `error` once the queued values were taken. */
  fail(error: unknown): void {
    if (this.#isEnded) return;
    this.#failure = { error };
    this.end();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      if (this.#head < this.#values.length) {
        const value = this.#values[this.#head] as T;
        this.#head += 1;
        if (this.#head === this.#values.length) this.#compact();
        yield value;
      } else if (this.#isEnded) {
        if (this.#failure) throw this.#failure.error;
        return;
      } else {
        await new Promise<void>((resolve) => (this.#wake = resolve));
      }
    }
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #compact(): void {
    this.#values = [];
    this.#head = 0;
  }
}
