// The runtime child process: spawning it, its exit, a bounded tail of its stderr, signals.
/// <reference types="node" preserve="true" />
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { RuntimeExitedError, RuntimeSpawnError } from './errors.js';
import type { RuntimeExit } from './errors.js';
import { StderrTail } from './stderr-tail.js';

/** How to start a runtime process. */
export interface RuntimeProcessOptions {
  /** The program and its arguments. */
  readonly command: readonly string[];
  readonly cwd?: string;
  /** Added to (and overriding) this process's environment. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** How many bytes of stderr to keep for error messages. */
  readonly stderrTailBytes?: number;
  /** Receives the runtime's stderr as it comes. */
  readonly onStderr?: (text: string) => void;
}

/** Longest wait, after the process exited, for the rest of its stderr to arrive. */
const STDERR_SETTLE_MS = 500;

type Child = ChildProcessByStdio<Writable, Readable, Readable>;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** A started runtime process. Its stdin and stdout carry the protocol; stderr is kept as a tail. */
export class RuntimeProcess {
  /** Resolves when the process exits. */
  readonly exited: Promise<RuntimeExit>;
  /**
   * Resolves once the process exited and its stderr was read (or a short wait passed), with the
   * error that calls and runs fail with.
   */
  readonly exitError: Promise<RuntimeExitedError>;
  readonly #child: Child;
  readonly #tail: StderrTail;
  #exit: RuntimeExit | undefined;

  private constructor(child: Child, options: RuntimeProcessOptions) {
    this.#child = child;
    this.#tail = new StderrTail(options.stderrTailBytes);
    const { onStderr } = options;
    child.stderr.on('data', (chunk: Buffer) => {
      this.#tail.push(chunk);
      onStderr?.(chunk.toString('utf8'));
    });
    // Failures of the pipes show up as the transport closing or the process exiting; an
    // 'error' event nobody listens to would crash the client instead.
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream.on('error', () => {});
    child.on('error', () => {}); // a failed kill(): the ladder goes on to its next step
    const stderrClosed = new Promise<void>((resolve) => child.stderr.once('close', resolve));
    this.exited = new Promise((resolve) => {
      child.once('exit', (exitCode, signal) => {
        this.#exit = { exitCode, signal };
        resolve(this.#exit);
      });
    });
    this.exitError = this.exited.then(async (exit) => {
      await Promise.race([stderrClosed, delay(STDERR_SETTLE_MS)]);
      return new RuntimeExitedError(exit, this.#tail.text());
    });
  }

  /** Spawns the process; rejects with {@link RuntimeSpawnError} if it cannot start. */
  static start(options: RuntimeProcessOptions): Promise<RuntimeProcess> {
    const [program, ...args] = options.command;
    if (program === undefined) {
      return Promise.reject(new RuntimeSpawnError(options.command, 'the command is empty'));
    }
    return new Promise((resolve, reject) => {
      const child = spawn(program, args, {
        stdio: ['pipe', 'pipe', 'pipe'],
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        env: { ...process.env, ...options.env },
      });
      child.once('error', (error) => reject(new RuntimeSpawnError(options.command, error)));
      child.once('spawn', () => resolve(new RuntimeProcess(child, options)));
    });
  }

  /** The runtime's stdin: the client writes requests here. */
  get stdin(): Writable {
    return this.#child.stdin;
  }

  /** The runtime's stdout: frames only. */
  get stdout(): Readable {
    return this.#child.stdout;
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** How the process ended, once it has. */
  get exit(): RuntimeExit | undefined {
    return this.#exit;
  }

  /** The last bytes of stderr, as text. */
  stderrTail(): string {
    return this.#tail.text();
  }

  /** Resolves `true` once the process exited, or `false` after `timeoutMs`. */
  async waitForExit(timeoutMs: number): Promise<boolean> {
    if (this.#exit) return true;
    return Promise.race([this.exited.then(() => true), delay(timeoutMs).then(() => false)]);
  }

  /** Ends the runtime's stdin (the runtime then finishes and exits). */
  closeStdin(): void {
    if (!this.#child.stdin.writableEnded) this.#child.stdin.end();
  }

  /** Sends `signal`; `false` if the process could not be signalled (it is gone). */
  kill(signal: NodeJS.Signals): boolean {
    return this.#exit === undefined && this.#child.kill(signal);
  }

  /** Lets go of the pipes, so a process that will not die does not keep the client alive. */
  release(): void {
    for (const stream of [this.#child.stdin, this.#child.stdout, this.#child.stderr]) {
      stream.destroy();
    }
    this.#child.unref();
  }
}
