/// <reference types="node" preserve="true" />
// Every process the kit starts runs in a process group of its own, so the kit can stop it and all
// it started (a launcher script, a client's runtime) at once, whatever happens: at the end of a
// case, on a timeout, on Ctrl-C, and when the kit itself exits.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';

/** How a process ended. */
export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** The process groups alive, by their leader's pid. */
const liveGroups = new Set<number>();
let isCleanupInstalled = false;

/** Kills every group the kit started and has not yet stopped. Safe to call at any time. */
export function killAllGroups(): void {
  for (const pgid of liveGroups) killGroup(pgid, 'SIGKILL');
  liveGroups.clear();
}

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is gone already.
  }
}

function installCleanup(): void {
  if (isCleanupInstalled) return;
  isCleanupInstalled = true;
  process.on('exit', killAllGroups);
}

/** What the last bytes of a stream were, up to a limit. */
export class Tail {
  #chunks: Buffer[] = [];
  #size = 0;

  constructor(readonly limit: number) {}

  push(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    while (this.#size - (this.#chunks[0]?.length ?? 0) >= this.limit && this.#chunks.length > 1) {
      this.#size -= this.#chunks.shift()!.length;
    }
  }

  text(): string {
    const all = Buffer.concat(this.#chunks);
    return all.subarray(Math.max(0, all.length - this.limit)).toString('utf8');
  }
}

/** The last non-empty line of `text`, shortened: how a failure to start is told in one line. */
export function lastLine(text: string, max = 200): string {
  const line = text.trimEnd().split('\n').pop()?.trim() ?? '';
  return line.length > max ? `…${line.slice(line.length - max)}` : line;
}

/** A child process leading its own group, with its stderr's tail kept. */
export class GroupChild {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stderrTail = new Tail(20 * 1024);
  /** Resolves once the process runs; rejects with a one-line reason when it cannot start. */
  readonly started: Promise<void>;
  /** Resolves when the process exited (its output may still be draining). */
  readonly exited: Promise<ProcessExit>;
  #exit: ProcessExit | undefined;

  constructor(program: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd?: string) {
    installCleanup();
    this.child = spawn(program, [...args], {
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      env,
      ...(cwd === undefined ? {} : { cwd }),
    });
    const pid = this.child.pid;
    if (pid !== undefined) liveGroups.add(pid);
    this.child.stderr.on('data', (chunk: Buffer) => this.stderrTail.push(chunk));
    this.child.stdin.on('error', () => {}); // EPIPE once it exited: seen through `exited`
    this.started = new Promise((resolve, reject) => {
      this.child.once('spawn', () => resolve());
      this.child.once('error', (error: NodeJS.ErrnoException) =>
        reject(new Error(describeSpawnError(program, error))),
      );
    });
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.#exit = { code, signal };
        resolve(this.#exit);
      });
      this.child.once('error', () => {
        this.#exit ??= { code: null, signal: null };
        resolve(this.#exit);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** How it ended, or undefined while it runs. */
  get exit(): ProcessExit | undefined {
    return this.#exit;
  }

  /** Signals the whole group (the process and everything it started). */
  signalGroup(signal: NodeJS.Signals): void {
    if (this.child.pid !== undefined) killGroup(this.child.pid, signal);
  }

  /** Kills the group and forgets it; idempotent. */
  stop(): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    killGroup(pid, 'SIGKILL');
    liveGroups.delete(pid);
  }
}

function describeSpawnError(program: string, error: NodeJS.ErrnoException): string {
  if (error.code === 'ENOENT') return `${program}: not found`;
  if (error.code === 'EACCES') return `${program}: permission denied (not executable?)`;
  return `${program}: ${error.message}`;
}

/** `exited with code 3` / `killed by SIGTERM`. */
export function describeExit(exit: ProcessExit): string {
  return exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.code}`;
}
