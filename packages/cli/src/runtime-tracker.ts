// Keeps track of which process is the runtime, for a relay whose started process may be a
// launcher (runtime-process.ts): looked for as the launcher starts it, confirmed by the first
// output (the process holding the pipe then is the one that wrote), then signalled directly, and
// its status read through the launcher at the end.
import type { ChildProcess } from 'node:child_process';
import { basename } from 'node:path';
import {
  commandOf,
  descriptorOf,
  findRuntime,
  isAlive,
  statusThroughLauncher,
  UNKNOWN_STATUS,
} from './runtime-process.js';
import type { ExitStatus, ProcessInfo } from './runtime-process.js';

/** The runtime process as known so far. */
export interface RuntimeProcess {
  /** Its pid; undefined before the started process is known, or while a launcher starts it. */
  readonly pid: number | undefined;
  /** The launcher that stayed in between, when one did. */
  readonly launcher?: ProcessInfo;
}

/** How the runtime ended: its own status, with its launcher's when one stayed in between. */
export interface RuntimeEnd extends ExitStatus {
  readonly pid?: number;
  readonly launcher?: ProcessInfo & ExitStatus;
}

/** Looks again after 50 ms, then twice as long each time up to a second, until confirmed. */
const FIRST_LOOK_MS = 50;
const LAST_LOOK_MS = 1000;

/** Programs that start another program and may stay its parent, by their first word. */
const LAUNCHERS: ReadonlySet<string> = new Set(
  ['npm', 'npx', 'pnpm', 'pnpx', 'yarn', 'env', 'sh', 'bash', 'dash', 'zsh', 'uv', 'uvx'].concat(
    ['pipx', 'poetry', 'hatch'],
  ),
);

/** Whether a command line looks like a launcher still starting the runtime. */
export function looksLikeLauncher(command: string): boolean {
  return LAUNCHERS.has(basename(command.split(' ')[0] ?? ''));
}

export class RuntimeTracker {
  readonly #child: ChildProcess;
  readonly #onChange: () => void;
  #stdout: string | undefined;
  #found: ProcessInfo | undefined;
  #launcher: ProcessInfo | undefined;
  #confirmed = false;
  #stopped = false;
  #timer: NodeJS.Timeout | undefined;
  #looking: Promise<void> | undefined;

  /** Follows `child` from its start; `onChange` hears of every change of the runtime's pid. */
  constructor(child: ChildProcess, onChange: () => void) {
    this.#child = child;
    this.#onChange = onChange;
    child.once('spawn', () => {
      void descriptorOf(child.pid!, 1).then((stdout) => {
        this.#stdout = stdout;
        if (this.#confirmed) void this.#look();
        else this.#lookLater(FIRST_LOOK_MS);
      });
    });
  }

  get current(): RuntimeProcess {
    const found = this.#found ?? (this.#child.pid === undefined ? undefined : this.#startedInfo());
    // Until the runtime writes, a launcher at the end of the chain may still be starting it.
    const starting = !this.#confirmed && found !== undefined && looksLikeLauncher(found.command);
    return {
      pid: starting ? undefined : found?.pid,
      ...(this.#launcher === undefined ? {} : { launcher: this.#launcher }),
    };
  }

  /** The runtime wrote: the process holding its stdout now is the runtime. */
  confirm(): void {
    if (this.#confirmed) return;
    this.#confirmed = true;
    clearTimeout(this.#timer);
    void this.#look();
  }

  /** Sends a signal to the runtime itself, or to the started process when that is all it knows. */
  signal(signal: NodeJS.Signals): void {
    const target = this.#found?.pid ?? this.#child.pid;
    if (target === undefined) return;
    try {
      process.kill(target, signal);
    } catch {
      // Gone already.
    }
  }

  /**
   * The runtime's end, once the started process exited with `started`: that status itself, or,
   * through a launcher, the runtime's as the launcher passed it on (unknown if it outlived it).
   */
  end(started: ExitStatus): RuntimeEnd {
    this.#stopped = true;
    clearTimeout(this.#timer);
    const pid = this.#child.pid;
    if (this.#found === undefined || this.#found.pid === pid || this.#launcher === undefined) {
      return { ...started, ...(pid === undefined ? {} : { pid }) };
    }
    const runtime = this.#found.pid;
    const status = isAlive(runtime) ? UNKNOWN_STATUS : statusThroughLauncher(started);
    return { ...status, pid: runtime, launcher: { ...this.#launcher, ...started } };
  }

  /** Settles once a look under way is done (the tests' and the end's view is then current). */
  settled(): Promise<void> {
    return this.#looking ?? Promise.resolve();
  }

  #startedInfo(): ProcessInfo {
    return { pid: this.#child.pid!, command: this.#child.spawnargs.join(' ') };
  }

  #lookLater(ms: number): void {
    if (this.#stopped || this.#confirmed) return;
    this.#timer = setTimeout(() => {
      void this.#look().then(() => this.#lookLater(Math.min(ms * 2, LAST_LOOK_MS)));
    }, ms);
    this.#timer.unref();
  }

  #look(): Promise<void> {
    this.#looking = (async () => {
      const root = this.#child.pid;
      if (root === undefined || this.#stdout === undefined || this.#stopped) return;
      const found = await findRuntime(root, this.#stdout);
      if (!found || this.#stopped || found.pid === this.#found?.pid) return;
      if (found.pid !== root) this.#launcher ??= { pid: root, command: await commandOf(root) };
      this.#found = found;
      this.#onChange();
    })();
    return this.#looking;
  }
}
