/// <reference types="node" preserve="true" />
import { isUtf8 } from 'node:buffer';
import { DEFAULT_MAX_FRAME_BYTES } from './gen/constants.gen.js';

/** Why the line reader dropped a line instead of delivering it. */
export type LineRejectionReason = 'invalid-utf8' | 'frame-too-large' | 'truncated-frame';

/** Where the line reader sends complete lines and dropped ones. */
export interface LineSink {
  /** A complete, non-blank line, decoded as strict UTF-8, without its `\n` or trailing `\r`. */
  acceptLine(text: string, line: number, bytes: number): void;
  /**
   * A line that was dropped; `bytes` counts everything before its `\n`. `head` holds its first
   * bytes (at most `rejectedHeadBytes`, a copy), empty unless that option is set.
   */
  rejectLine(reason: LineRejectionReason, line: number, bytes: number, head: Buffer): void;
}

/** Options of a {@link LineReader}. */
export interface LineReaderOptions {
  /**
   * Largest line accepted, in bytes before the `\n`. A trailing `\r` counts,
   * because the limit guards memory and the `\r` is buffered like any other byte.
   */
  readonly maxFrameBytes?: number;
  /**
   * How many first bytes of a dropped line to hand to `rejectLine` (default 0). A recorder uses
   * them to show what an overlong or undecodable line began with; memory stays bounded.
   */
  readonly rejectedHeadBytes?: number;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const REPLACEMENT_CHARACTER = '\uFFFD';
const EMPTY = Buffer.alloc(0);

/**
 * Turns a byte stream into complete `\n`-terminated lines.
 *
 * Bytes are scanned with `indexOf` and never decoded before their line is
 * complete, so a chunk may end anywhere, even inside a UTF-8 character. The
 * complete lines of a chunk are decoded with one call and the text split, which
 * costs less than a decode per line. An unfinished line is kept as a list of
 * chunk slices and joined once, so a long line delivered in many chunks costs
 * linear time. Lines are numbered from 1, counting every `\n`-terminated line,
 * blank ones included.
 */
export class LineReader {
  readonly #sink: LineSink;
  readonly #maxFrameBytes: number;
  readonly #headBytes: number;
  #lineCount = 0;
  #pendingPieces: Buffer[] = [];
  #pendingBytes = 0;
  /** True while the rest of an overlong line is skipped up to its `\n`. */
  #isDiscarding = false;
  /** The first bytes of the line being discarded, when `rejectedHeadBytes` asks for them. */
  #discardedHead: Buffer = EMPTY;

  constructor(sink: LineSink, options: LineReaderOptions = {}) {
    this.#sink = sink;
    this.#maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    this.#headBytes = options.rejectedHeadBytes ?? 0;
    if (!Number.isSafeInteger(this.#maxFrameBytes) || this.#maxFrameBytes < 1) {
      throw new RangeError(`maxFrameBytes must be a positive integer, got ${this.#maxFrameBytes}`);
    }
    if (!Number.isSafeInteger(this.#headBytes) || this.#headBytes < 0) {
      throw new RangeError(
        `rejectedHeadBytes must be a non-negative integer, got ${this.#headBytes}`,
      );
    }
  }

  /** Number of `\n`-terminated lines seen so far. */
  get lineCount(): number {
    return this.#lineCount;
  }

  /** Feeds the next chunk of the stream. */
  push(chunk: Buffer): void {
    let start = 0;
    if (this.#pendingBytes > 0 || this.#isDiscarding) {
      const newline = chunk.indexOf(NEWLINE);
      if (newline === -1) {
        this.#holdPartial(chunk);
        return;
      }
      this.#finishPendingLine(chunk.subarray(0, newline));
      start = newline + 1;
    }
    // The lines that lie wholly inside this chunk end at its last `\n`: decoded together, once.
    const lastNewline = chunk.lastIndexOf(NEWLINE);
    if (lastNewline >= start) {
      this.#deliverRun(chunk, start, lastNewline);
      start = lastNewline + 1;
    }
    if (start < chunk.length) this.#holdPartial(start === 0 ? chunk : chunk.subarray(start));
  }

  /**
   * Signals the end of the stream. Bytes after the last `\n` are a frame cut
   * short: they are reported as `truncated-frame`, or as `frame-too-large` if
   * they already passed the limit (the size is known, the ending is not).
   */
  end(): void {
    if (this.#pendingBytes === 0 && !this.#isDiscarding) return;
    const reason = this.#isDiscarding ? 'frame-too-large' : 'truncated-frame';
    const bytes = this.#pendingBytes;
    const head = this.#isDiscarding ? this.#discardedHead : this.#headOf(this.#pendingPieces);
    this.#resetPending();
    this.#sink.rejectLine(reason, this.#lineCount + 1, bytes, head);
  }

  #holdPartial(piece: Buffer): void {
    this.#pendingBytes += piece.length;
    if (this.#isDiscarding) return;
    if (this.#pendingBytes > this.#maxFrameBytes) {
      // Keep only the count: memory stays bounded however long the line runs.
      this.#discardedHead = this.#headOf([...this.#pendingPieces, piece]);
      this.#pendingPieces = [];
      this.#isDiscarding = true;
      return;
    }
    this.#pendingPieces.push(piece);
  }

  #finishPendingLine(lastPiece: Buffer): void {
    const bytes = this.#pendingBytes + lastPiece.length;
    if (this.#isDiscarding || bytes > this.#maxFrameBytes) {
      const head = this.#isDiscarding
        ? this.#discardedHead
        : this.#headOf([...this.#pendingPieces, lastPiece]);
      this.#resetPending();
      this.#lineCount += 1;
      this.#sink.rejectLine('frame-too-large', this.#lineCount, bytes, head);
      return;
    }
    this.#pendingPieces.push(lastPiece);
    const line = Buffer.concat(this.#pendingPieces, bytes);
    this.#resetPending();
    this.#deliver(line, 0, line.length);
  }

  #resetPending(): void {
    this.#pendingPieces = [];
    this.#pendingBytes = 0;
    this.#isDiscarding = false;
    this.#discardedHead = EMPTY;
  }

  /** A copy of the first `rejectedHeadBytes` bytes of a line held in pieces. */
  #headOf(pieces: readonly Buffer[]): Buffer {
    if (this.#headBytes === 0) return EMPTY;
    const parts: Buffer[] = [];
    let room = this.#headBytes;
    for (const piece of pieces) {
      if (room === 0) break;
      const part = piece.subarray(0, room);
      parts.push(part);
      room -= part.length;
    }
    return Buffer.concat(parts);
  }

  /**
   * Delivers the complete lines of `buffer[start, end)`, where `end` is the `\n` of the last one.
   *
   * One lenient decode of the whole run, then the text is split on `\n`: valid UTF-8 never holds
   * a `0x0a` byte inside a character, so the run's `\n`s and its lines' `\n`s are the same ones,
   * and a run that decodes without U+FFFD (or is checked strict once) has only valid lines. A run
   * with invalid bytes is delivered line by line, so each bad line is reported on its own. Byte
   * sizes come from the text when the run is ASCII, else from the buffer's own `\n`s.
   */
  #deliverRun(buffer: Buffer, start: number, end: number): void {
    const text = buffer.toString('utf8', start, end);
    if (text.includes(REPLACEMENT_CHARACTER) && !isUtf8(buffer.subarray(start, end))) {
      for (
        let newline = buffer.indexOf(NEWLINE, start);
        ;
        newline = buffer.indexOf(NEWLINE, start)
      ) {
        this.#deliver(buffer, start, newline);
        if (newline === end) return;
        start = newline + 1;
      }
    }
    const isAscii = text.length === end - start;
    let from = 0;
    let byteStart = start;
    for (;;) {
      let to = text.indexOf('\n', from);
      if (to === -1) to = text.length;
      const byteEnd = isAscii
        ? start + to
        : to === text.length
          ? end
          : buffer.indexOf(NEWLINE, byteStart);
      this.#lineCount += 1;
      const bytes = byteEnd - byteStart;
      if (bytes > this.#maxFrameBytes) {
        const head = this.#headOf([buffer.subarray(byteStart, byteEnd)]);
        this.#sink.rejectLine('frame-too-large', this.#lineCount, bytes, head);
      } else {
        const contentEnd = to > from && text.charCodeAt(to - 1) === CARRIAGE_RETURN ? to - 1 : to;
        if (contentEnd > from)
          this.#sink.acceptLine(text.slice(from, contentEnd), this.#lineCount, bytes);
      }
      if (to === text.length) return;
      from = to + 1;
      byteStart = byteEnd + 1;
    }
  }

  /** Delivers the line held in `buffer[start, end)`, where `end` is its `\n`. */
  #deliver(buffer: Buffer, start: number, end: number): void {
    this.#lineCount += 1;
    const bytes = end - start;
    if (bytes > this.#maxFrameBytes) {
      const head = this.#headOf([buffer.subarray(start, end)]);
      this.#sink.rejectLine('frame-too-large', this.#lineCount, bytes, head);
      return;
    }
    const contentEnd = end > start && buffer[end - 1] === CARRIAGE_RETURN ? end - 1 : end;
    if (contentEnd === start) return;
    const text = decodeStrictUtf8(buffer, start, contentEnd);
    if (text === undefined) {
      const head = this.#headOf([buffer.subarray(start, end)]);
      this.#sink.rejectLine('invalid-utf8', this.#lineCount, bytes, head);
      return;
    }
    this.#sink.acceptLine(text, this.#lineCount, bytes);
  }
}

/**
 * Decodes `buffer[start, end)` as strict UTF-8, or returns `undefined` if the
 * bytes are not valid UTF-8.
 *
 * The lenient decoder turns every invalid sequence into U+FFFD, so a text
 * without U+FFFD came from valid bytes and needs no second look. Only texts
 * holding U+FFFD (rare, and possibly legitimate) are checked strictly. This is
 * faster than a fatal `TextDecoder` per line, which needs a subarray each time.
 */
export function decodeStrictUtf8(buffer: Buffer, start: number, end: number): string | undefined {
  const text = buffer.toString('utf8', start, end);
  if (!text.includes(REPLACEMENT_CHARACTER)) return text;
  return isUtf8(buffer.subarray(start, end)) ? text : undefined;
}
