/// <reference types="node" preserve="true" />
// A runtime under test, spoken to in raw NDJSON: the kit writes exactly the bytes it chooses,
// reads every line the runtime writes, checks each with the monitor, and records both directions
// in the trace format for the transcript.
import { TraceRecorder } from '@dsh-sdk/protocol';
import { GroupChild, describeExit } from '../process-group.js';
import type { ProcessExit } from '../process-group.js';
import { within } from '../selection.js';
import { WireMonitor } from './monitor.js';
import type { MonitorSink } from './monitor.js';
import { idKey, readServerLine } from './server-line.js';
import type { JsonObject, JsonRpcId, ServerLine } from './server-line.js';

/** A wait that ran out: the case fails with what it was waiting for. */
export class WaitTimeout extends Error {
  override readonly name = 'WaitTimeout';
}

/** How long waits may last, in ms. */
export interface Bounds {
  /** A liveness bound: an answer, an exit, a turn's end (the `--timeout` base). */
  readonly live: number;
}

export interface WireOptions {
  readonly program: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly bounds: Bounds;
  readonly sink: MonitorSink;
  /** Where the transcript's records go, one JSON text each. */
  readonly record: (line: string) => void;
}

interface Waiter {
  readonly test: (line: ServerLine) => boolean;
  readonly resolve: (line: ServerLine) => void;
}

export type Answer = JsonObject & { readonly id: JsonRpcId };

export class RuntimeWire {
  readonly monitor: WireMonitor;
  readonly lines: ServerLine[] = [];
  readonly #process: GroupChild;
  readonly #recorder: TraceRecorder;
  readonly #bounds: Bounds;
  readonly #started = performance.now();
  #waiters: Waiter[] = [];
  #partial: Buffer[] = [];
  #nextId = 1;
  /** For each pending id, how many lines had been read when its request went out. */
  readonly #sentAt = new Map<string, number>();
  #hasWritten = false;
  #earlyBytes = 0;
  readonly outputEnded: Promise<void>;

  constructor(options: WireOptions) {
    this.#bounds = options.bounds;
    this.monitor = new WireMonitor(options.sink);
    this.#recorder = new TraceRecorder({
      write: options.record,
      recorder: 'dsh-sdk conformance',
      command: [options.program, ...options.args],
    });
    this.#process = new GroupChild(options.program, options.args, options.env);
    const stdout = this.#process.child.stdout;
    stdout.on('data', (chunk: Buffer) => this.#read(chunk));
    this.outputEnded = new Promise((resolve) =>
      stdout.once('close', () => {
        this.#recorder.endOfStream('serverToClient');
        this.monitor.outputEnded(Buffer.concat(this.#partial));
        resolve();
      }),
    );
  }

  get started(): Promise<void> {
    return this.#process.started;
  }

  get exit(): ProcessExit | undefined {
    return this.#process.exit;
  }

  get pid(): number | undefined {
    return this.#process.pid;
  }

  get stderrTail(): string {
    return this.#process.stderrTail.text();
  }

  /** Milliseconds since the runtime was started. */
  now(): number {
    return performance.now() - this.#started;
  }

  /** Bytes the runtime wrote to stdout before the kit wrote anything. */
  get earlyOutput(): number {
    return this.#earlyBytes;
  }

  #read(chunk: Buffer): void {
    if (!this.#hasWritten) this.#earlyBytes += chunk.length;
    this.#recorder.push('serverToClient', chunk);
    let start = 0;
    for (let end = chunk.indexOf(10); end >= 0; end = chunk.indexOf(10, start)) {
      this.#partial.push(chunk.subarray(start, end));
      const raw = Buffer.concat(this.#partial);
      this.#partial = [];
      start = end + 1;
      this.#accept(readServerLine(raw, this.lines.length, this.now()));
    }
    if (start < chunk.length) this.#partial.push(chunk.subarray(start));
  }

  #accept(line: ServerLine): void {
    this.lines.push(line);
    this.monitor.check(line);
    const waiting = this.#waiters;
    this.#waiters = [];
    for (const waiter of waiting) {
      if (waiter.test(line)) waiter.resolve(line);
      else this.#waiters.push(waiter);
    }
  }

  /** Writes bytes exactly as given. */
  writeRaw(bytes: Buffer | string): void {
    const chunk = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
    this.#hasWritten = true;
    this.monitor.clientWrote();
    this.#recorder.push('clientToServer', chunk);
    this.#process.child.stdin.write(chunk);
  }

  /** Resolves once the runtime's stdin has taken what was written (back-pressure). */
  drained(): Promise<void> {
    const stdin = this.#process.child.stdin;
    if (!stdin.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        stdin.off('drain', done);
        stdin.off('close', done);
        resolve();
      };
      stdin.on('drain', done);
      stdin.on('close', done);
    });
  }

  /** Writes one compact line. */
  send(message: object): void {
    this.writeRaw(`${JSON.stringify(message)}\n`);
  }

  /** A fresh numeric id. */
  nextId(): number {
    return this.#nextId++;
  }

  /** Sends a request (params omitted when undefined) and returns its id; the answer is awaited with {@link answerTo}. */
  sendRequest(method: string, params?: unknown, id: JsonRpcId = this.nextId()): JsonRpcId {
    this.expectAnswer(id, method, params);
    this.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    return id;
  }

  /** Registers a request about to be written by hand: its answer is awaited with {@link answerTo}. */
  expectAnswer(id: unknown, method: string, params?: unknown): void {
    this.#sentAt.set(idKey(id), this.lines.length);
    this.monitor.expectAnswer(id, method, params);
  }

  /** The answer to request `id` (read since it was sent, or the next one), within the liveness bound. */
  answerTo(id: JsonRpcId, what: string, bound = this.#bounds.live): Promise<Answer> {
    const key = idKey(id);
    const from = this.#sentAt.get(key) ?? 0;
    return this.waitFor(
      (line) =>
        line.index >= from && line.kind === 'response' && idKey(line.message?.['id']) === key,
      `answer to ${what}`,
      bound,
    ).then((line) => line.message as Answer);
  }

  /** Sends a request and waits for its answer. */
  async request(method: string, params?: unknown, id?: JsonRpcId): Promise<Answer> {
    const sent = this.sendRequest(method, params, id);
    return this.answerTo(sent, `${method} (id ${idKey(sent)})`);
  }

  /** The first line (already read or to come) that passes `test`. */
  waitFor(
    test: (line: ServerLine) => boolean,
    what: string,
    bound = this.#bounds.live,
  ): Promise<ServerLine> {
    const seen = this.lines.find(test);
    if (seen) return Promise.resolve(seen);
    return this.#waitForNext(test, what, bound);
  }

  /** The next line to come that passes `test` (lines already read do not count). */
  #waitForNext(
    test: (line: ServerLine) => boolean,
    what: string,
    bound: number,
  ): Promise<ServerLine> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        reject(
          new WaitTimeout(`no ${what} within ${(bound / 1000).toFixed(1)} s${this.#exitNote()}`),
        );
      }, bound);
      const waiter: Waiter = {
        test,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      };
      this.#waiters.push(waiter);
      void this.outputEnded.then(() => {
        if (!this.#waiters.includes(waiter)) return;
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        clearTimeout(timer);
        void this.#process.exited.then(() =>
          reject(new WaitTimeout(`no ${what}: the runtime's output ended${this.#exitNote()}`)),
        );
      });
    });
  }

  #exitNote(): string {
    const exit = this.#process.exit;
    if (!exit) return '';
    const tail = this.stderrTail.trimEnd().split('\n').slice(-3).join(' ⏎ ');
    return ` (the runtime ${describeExit(exit)}${tail ? `; stderr: ${tail.slice(-300)}` : ''})`;
  }

  /** Resolves when the next line arrives, the output ends, or `bound` ms pass. */
  moreLines(bound: number): Promise<void> {
    const count = this.lines.length;
    return this.#waitForNext((l) => l.index >= count, 'more', bound).then(
      () => undefined,
      () => undefined,
    );
  }

  /** Lines read after `line` (or after the start). */
  after(line: ServerLine | undefined): ServerLine[] {
    return line ? this.lines.slice(line.index + 1) : this.lines;
  }

  /** Stops reading stdout (the runtime's writes block once the pipe is full), or goes on. */
  pauseReading(): void {
    this.#process.child.stdout.pause();
  }

  resumeReading(): void {
    this.#process.child.stdout.resume();
  }

  closeStdin(): void {
    this.#recorder.endOfStream('clientToServer');
    this.#process.child.stdin.end();
  }

  /** Waits for the runtime to exit, or undefined when the bound passed first. */
  waitExit(bound = this.#bounds.live): Promise<ProcessExit | undefined> {
    return within<ProcessExit | undefined>(this.#process.exited, bound, () => undefined);
  }

  /** Stops the runtime and its group, and ends the transcript. */
  async stop(): Promise<void> {
    if (!this.#process.exit) this.#process.stop();
    const exit = await this.#process.exited;
    await Promise.race([this.outputEnded, new Promise((resolve) => setTimeout(resolve, 200))]);
    this.#process.stop();
    this.#recorder.finish({ exitCode: exit.code, signal: exit.signal });
  }
}
