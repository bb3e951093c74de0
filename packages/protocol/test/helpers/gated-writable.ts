// A slow reader for the output side: writes wait until the test lets them through.
import { Writable } from 'node:stream';

/** A writable that holds every write until `release()` is called, and records what it got. */
export class GatedWritable extends Writable {
  readonly received: string[] = [];
  #held: (() => void)[] = [];

  constructor(highWaterMark: number) {
    super({ highWaterMark, decodeStrings: false });
  }

  override _write(chunk: string, _encoding: BufferEncoding, callback: () => void): void {
    this.received.push(chunk);
    this.#held.push(callback);
  }

  release(): void {
    const held = this.#held;
    this.#held = [];
    for (const callback of held) callback();
  }
}

/** Whether `promise` has settled once queued callbacks ran. */
export async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let isDone = false;
  promise.then(
    () => (isDone = true),
    () => (isDone = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return isDone;
}
