/// <reference types="node" preserve="true" />
// The kit playing a runtime: the client's stub connects to a Unix socket here. What the client
// writes arrives as lines (checked by the client monitor, recorded for the transcript); what the
// scenario writes goes to the client as the runtime's stdout or stderr.
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TraceRecorder } from '@dsh-sdk/protocol';
import { readServerLine } from '../runtime/server-line.js';
import type { JsonObject, ServerLine } from '../runtime/server-line.js';
import { encodeFrame, frameReader } from './stub-frames.js';

export const STUB_RUNTIME = fileURLToPath(new URL('./stub-runtime.js', import.meta.url));

/** How the stub ended: told to exit, or killed (the socket closed without being told). */
export type StubEnd = { readonly how: 'exited' | 'killed'; readonly at: number };

export class FakeRuntime {
  readonly socketPath: string;
  /** What the client wrote, line by line (`ServerLine` is just a line here: the client's). */
  readonly lines: ServerLine[] = [];
  readonly signals: { readonly name: string; readonly at: number }[] = [];
  stdinClosedAt: number | undefined;
  stubPid: number | undefined;
  /** Set when the scenario made it exit. */
  exitedAt: number | undefined;
  readonly connected: Promise<void>;
  readonly ended: Promise<StubEnd>;
  readonly #server: Server;
  readonly #started = performance.now();
  readonly #recorder: TraceRecorder;
  readonly #onLine: (line: ServerLine) => void;
  #socket: Socket | undefined;
  #partial: Buffer[] = [];
  #waiters: (() => void)[] = [];

  constructor(dir: string, record: (line: string) => void, onLine: (line: ServerLine) => void) {
    this.socketPath = join(dir, 'runtime.sock');
    this.#onLine = onLine;
    this.#recorder = new TraceRecorder({
      write: record,
      recorder: 'dsh-sdk conformance',
      command: this.command(),
    });
    let connect: () => void;
    let end: (e: StubEnd) => void;
    this.connected = new Promise((resolve) => (connect = resolve));
    this.ended = new Promise((resolve) => (end = resolve));
    this.#server = createServer((socket) => {
      this.#socket = socket;
      socket.on('error', () => {});
      socket.on('close', () => {
        const at = this.now();
        end({ how: this.exitedAt === undefined ? 'killed' : 'exited', at });
        this.#recorder.endOfStream('serverToClient');
        this.#wake();
      });
      socket.on(
        'data',
        frameReader((type, payload) => this.#onFrame(type, payload, connect)),
      );
    });
  }

  listen(): Promise<void> {
    return new Promise((resolve) => this.#server.listen(this.socketPath, resolve));
  }

  /** The command the client starts as its runtime. */
  command(): string[] {
    return [process.execPath, STUB_RUNTIME, this.socketPath];
  }

  now(): number {
    return performance.now() - this.#started;
  }

  #onFrame(type: string, payload: Buffer, connect: () => void): void {
    if (type === 'h') {
      this.stubPid = Number(payload.toString('utf8'));
      connect();
    } else if (type === 'i') this.#read(payload);
    else if (type === 'c') {
      this.stdinClosedAt = this.now();
      this.#recorder.endOfStream('clientToServer');
    } else if (type === 's') this.signals.push({ name: payload.toString('utf8'), at: this.now() });
    this.#wake();
  }

  #read(chunk: Buffer): void {
    this.#recorder.push('clientToServer', chunk);
    let start = 0;
    for (let end = chunk.indexOf(10); end >= 0; end = chunk.indexOf(10, start)) {
      this.#partial.push(chunk.subarray(start, end));
      const line = readServerLine(Buffer.concat(this.#partial), this.lines.length, this.now());
      this.#partial = [];
      start = end + 1;
      this.lines.push(line);
      this.#onLine(line);
    }
    if (start < chunk.length) this.#partial.push(chunk.subarray(start));
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  /** Waits until `test()` holds (checked on every event from the stub), or throws after `bound` ms. */
  async until(test: () => boolean, what: string, bound: number): Promise<void> {
    const deadline = performance.now() + bound;
    while (!test()) {
      const left = deadline - performance.now();
      if (left <= 0)
        throw new Error(`the client did not ${what} within ${(bound / 1000).toFixed(1)} s`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The first request of `method` the client sent after line `from`. */
  async request(method: string, bound: number, from = 0): Promise<JsonObject> {
    const find = () =>
      this.lines.find(
        (l) => l.index >= from && l.kind === 'request' && l.message?.['method'] === method,
      );
    await this.until(
      () => find() !== undefined || this.#socket?.destroyed === true,
      `send ${method}`,
      bound,
    );
    const line = find();
    if (!line) throw new Error(`the client did not send ${method} before its runtime ended`);
    return line.message!;
  }

  /** Writes bytes to the client as the runtime's stdout. */
  write(bytes: Buffer | string): void {
    const chunk = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
    this.#recorder.push('serverToClient', chunk);
    this.#socket?.write(encodeFrame('o', chunk));
  }

  /** Writes messages, one compact line each, in one write. */
  send(...messages: readonly object[]): void {
    this.write(messages.map((m) => `${JSON.stringify(m)}\n`).join(''));
  }

  answer(request: JsonObject, result: unknown): void {
    this.send({ jsonrpc: '2.0', id: request['id'], result });
  }

  stderr(text: string | Buffer): void {
    this.#socket?.write(encodeFrame('e', typeof text === 'string' ? Buffer.from(text) : text));
  }

  ignoreSignals(names: readonly string[]): void {
    this.#socket?.write(encodeFrame('i', names.join(',')));
  }

  exit(code: number): void {
    this.exitedAt = this.now();
    this.#socket?.write(encodeFrame('x', String(code)));
  }

  /** Stops listening, ends the transcript and kills the stub if it is still there. */
  async close(): Promise<void> {
    this.#socket?.destroy();
    if (this.stubPid !== undefined) {
      try {
        process.kill(this.stubPid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    this.#recorder.finish({});
    await new Promise((resolve) => this.#server.close(resolve));
  }
}
