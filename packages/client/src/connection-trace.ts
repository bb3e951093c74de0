// A client's own connection, recorded in the trace format (docs/trace-format.md): the runtime's
// stdio is tapped, never changed, and a failing trace file never touches the connection.
/// <reference types="node" preserve="true" />
import type { Readable, Writable } from 'node:stream';
import { TraceFileWriter, TraceRecorder } from '@dsh-sdk/protocol';
import type { TraceDirection, TraceFinding, TraceFindingContext } from '@dsh-sdk/protocol';
import type { RuntimeExit } from './errors.js';

/** What `HarnessClient.spawn({ trace })` records, and where. */
export interface TraceOptions {
  /** The trace file (created, or truncated). */
  readonly path: string;
  /** The header's `recorder` (default {@link CLIENT_RECORDER}). */
  readonly recorder?: string;
  /** First bytes kept of a line that is not decoded (default 1024). */
  readonly headBytes?: number;
  /** Receives every finding as it is made: a frame that breaks the protocol, either way. */
  readonly onFinding?: (finding: TraceFinding, context: TraceFindingContext) => void;
  /**
   * Called once when recording stops because of an error (the file cannot be created, the disk is
   * full, …); the connection goes on untouched. Default: a process warning.
   */
  readonly onError?: (error: Error) => void;
}

/** The `recorder` written into the header of a trace the TypeScript client records. */
export const CLIENT_RECORDER = '@dsh-sdk/client';

/** Longest wait, after the runtime exited, for the rest of its stdout to be recorded. */
const STDOUT_SETTLE_MS = 500;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** The streams of a runtime a trace taps. */
export interface TracedStreams {
  readonly stdin: Writable;
  readonly stdout: Readable;
}

/**
 * Records both directions of a client's connection to its runtime. Chunks from the runtime are
 * seen by a `data` listener of its own next to the transport's; chunks to the runtime are seen
 * once `stdin.write` has taken them. Nothing is held, copied back or reordered.
 */
export class ConnectionTrace {
  readonly #writer: TraceFileWriter | undefined;
  readonly #recorder: TraceRecorder | undefined;
  readonly #onError: (error: Error) => void;
  readonly #stdoutDone: Promise<void>;
  #stopped = false;

  constructor(
    streams: TracedStreams,
    options: TraceOptions,
    connection: { command: readonly string[]; maxFrameBytes?: number },
  ) {
    this.#onError =
      options.onError ??
      ((error) => process.emitWarning(`recording to ${options.path} stopped: ${error.message}`));
    try {
      this.#writer = new TraceFileWriter(options.path, { onError: (e) => this.#stop(e) });
      const { onFinding } = options;
      this.#recorder = new TraceRecorder({
        write: this.#writer.write,
        recorder: options.recorder ?? CLIENT_RECORDER,
        command: connection.command,
        ...(connection.maxFrameBytes === undefined
          ? {}
          : { maxFrameBytes: connection.maxFrameBytes }),
        ...(options.headBytes === undefined ? {} : { headBytes: options.headBytes }),
        ...(onFinding === undefined
          ? {}
          : { onFinding: (f, c) => this.#guard(() => onFinding(f, c)) }),
      });
    } catch (error) {
      this.#stop(toError(error));
    }
    const { stdin, stdout } = streams;
    this.#stdoutDone = new Promise((resolve) => {
      stdout.once('end', resolve);
      stdout.once('close', resolve);
    });
    if (this.#stopped) return;
    stdout.on('data', (chunk: Buffer) => this.#push('serverToClient', chunk));
    stdout.once('end', () => this.#guard(() => this.#recorder?.endOfStream('serverToClient')));
    stdin.once('finish', () => this.#guard(() => this.#recorder?.endOfStream('clientToServer')));
    tapWrites(stdin, (chunk) => this.#push('clientToServer', chunk));
  }

  /**
   * Finishes once the runtime exited and its stdout was read to its end (or a short wait passed:
   * a grandchild may hold it open); resolves when the file is complete.
   */
  async finishAfter(exited: Promise<RuntimeExit>): Promise<void> {
    const exit = await exited;
    await Promise.race([this.#stdoutDone, delay(STDOUT_SETTLE_MS)]);
    this.finish(exit);
  }

  /** Ends the recording with the runtime's exit (`null`s when it was let go alive) and closes the file. */
  finish(exit: RuntimeExit | undefined): void {
    if (this.#stopped) return;
    this.#guard(() =>
      this.#recorder?.finish({ exitCode: exit?.exitCode ?? null, signal: exit?.signal ?? null }),
    );
    this.#stopped = true;
    this.#writer?.close();
  }

  #push(dir: TraceDirection, chunk: Buffer): void {
    if (!this.#stopped) this.#guard(() => this.#recorder?.push(dir, chunk));
  }

  /** Runs a step of the recording; an error stops the recording, never the caller. */
  #guard(step: () => void): void {
    try {
      step();
    } catch (error) {
      this.#stop(toError(error));
    }
  }

  #stop(error: Error): void {
    if (this.#stopped) return;
    this.#stopped = true;
    try {
      this.#writer?.close();
    } catch {
      // Reporting the first error is enough.
    }
    try {
      this.#onError(error);
    } catch {
      // A throwing observer must not reach the connection either.
    }
  }
}

/**
 * Shows every chunk written to `stream` to `record`, after `write` took it. Node's writable streams
 * have no event for written data, so the instance's own `write` is wrapped; arguments, return
 * value and back-pressure stay the stream's.
 */
function tapWrites(stream: Writable, record: (chunk: Buffer) => void): void {
  const write = stream.write;
  stream.write = function tappedWrite(this: Writable, ...args: unknown[]): boolean {
    const [chunk, encoding] = args;
    const accepted = !this.writableEnded && !this.destroyed;
    const result = (write as (...a: unknown[]) => boolean).apply(this, args);
    if (accepted) record(toBuffer(chunk, encoding));
    return result;
  } as Writable['write'];
}

function toBuffer(chunk: unknown, encoding: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
  const charset = typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8';
  return Buffer.from(String(chunk), charset);
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
