/// <reference types="node" preserve="true" />
/** Default size of the kept stderr tail. */
export const DEFAULT_STDERR_TAIL_BYTES = 8 * 1024;

/** Keeps the last `limit` bytes written to a stream, so memory stays bounded however much comes. */
export class StderrTail {
  readonly #limit: number;
  #chunks: Buffer[] = [];
  #length = 0;

  constructor(limit: number = DEFAULT_STDERR_TAIL_BYTES) {
    this.#limit = limit;
  }

  /** Appends a chunk, dropping the oldest bytes beyond the limit. */
  push(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#length += chunk.length;
    if (this.#length <= this.#limit * 2) return;
    this.#compact();
  }

  /** The kept bytes as text; a character cut at the start is dropped. */
  text(): string {
    this.#compact();
    const bytes = this.#chunks[0] ?? Buffer.alloc(0);
    return new TextDecoder('utf-8').decode(bytes).replace(/^\uFFFD+/, '');
  }

  #compact(): void {
    const all = Buffer.concat(this.#chunks);
    const kept = all.length > this.#limit ? all.subarray(all.length - this.#limit) : all;
    this.#chunks = [Buffer.from(kept)];
    this.#length = kept.length;
  }
}
