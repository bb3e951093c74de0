/// <reference types="node" preserve="true" />
// Keeps track of which process is the runtime, for a relay whose started process may be a
// launcher (runtime-process.ts). It looks at the processes holding the recorder's pipe as the
// launcher starts the runtime: the runtime is the deepest one that has written something or
// lasts (is seen in two looks in a row), so a shell runtime's helpers (a `sleep`, say) are not
// taken for it. Looks start 50 ms after the start, then twice as far apart up to a second, and
// stop once the runtime wrote and the choice held for three looks. A runtime that lives only a
// few milliseconds behind its launcher may be gone before a look finds it: its launcher's status
// is then all there is. The runtime is signalled directly, and its status read through its
// launcher at the end.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import {
  commandOf,
  descriptorOf,
  hasWritten,
  isAlive,
  statusThroughLauncher,
  stdoutHolders,
  UNKNOWN_STATUS,
} from './runtime-process.js';
import type { ExitStatus, ProcessInfo } from './runtime-process.js';
import { startsWithLauncher } from './launchers.js';

/** The runtime process as known so far. */
export interface RuntimeProcess {
  /** Its pid; undefined before the start, or while a launcher may still be starting it. */
  readonly pid: number | undefined;
  /** The launcher that stayed in between, when one did. */
  readonly launcher?: ProcessInfo;
}

/** How the runtime ended: its own status, with its launcher's when one stayed in between. */
export interface RuntimeEnd extends ExitStatus {
  readonly pid?: number;
  readonly launcher?: ProcessInfo & ExitStatus;
}

const FIRST_LOOK_MS = 50;
const LAST_LOOK_MS = 1000;
/** Looks in a row that found the same runtime: it is settled. */
const SETTLED_LOOKS = 3;

export class RuntimeTracker {
  readonly #child: ChildProcess;
  readonly #onChange: () => void;
  #stdout: string | undefined;
  /** The runtime as chosen by the last look, how deep, and for how many looks in a row. */
  #chosen: ProcessInfo | undefined;
  #chosenDepth = -1;
  #sameFor = 0;
  /** The pipe's holders at the last look. */
  #previous = new Set<number>();
  #launcher: ProcessInfo | undefined;
  #wrote = false;
  #stopped = false;
  #timer: NodeJS.Timeout | undefined;
  #nextLookMs = FIRST_LOOK_MS;

  /** Follows `child` from its start; `onChange` hears of every change of the runtime's pid. */
  constructor(child: ChildProcess, onChange: () => void) {
    this.#child = child;
    this.#onChange = onChange;
    child.once('spawn', () => {
      void descriptorOf(child.pid!, 1).then((stdout) => {
        this.#stdout = stdout;
        this.#lookSoon();
      });
    });
  }

  get current(): RuntimeProcess {
    const chosen = this.#chosen ?? this.#started();
    // A launcher at the end of the chain may still be starting the runtime, until nothing
    // changed for a few looks.
    const unsure =
      chosen !== undefined && startsWithLauncher(chosen.command) && this.#sameFor < SETTLED_LOOKS;
    return {
      pid: unsure ? undefined : chosen?.pid,
      ...(this.#launcher === undefined ? {} : { launcher: this.#launcher }),
    };
  }

  /** The runtime wrote to its stdout: look again soon, until the choice settles. */
  wrote(): void {
    if (this.#wrote) return;
    this.#wrote = true;
    this.#sameFor = Math.min(this.#sameFor, 1);
    this.#nextLookMs = FIRST_LOOK_MS;
    clearTimeout(this.#timer);
    this.#lookSoon();
  }

  /**
   * Sends a signal to the runtime itself, or to the started process when that is all it knows
   * (or the process it took for the runtime is gone).
   */
  signal(signal: NodeJS.Signals): void {
    const chosen = this.#chosen?.pid;
    const target = chosen !== undefined && isAlive(chosen) ? chosen : this.#child.pid;
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
    const runtime = this.#chosen?.pid;
    if (runtime === undefined || runtime === pid || this.#launcher === undefined) {
      return { ...started, ...(pid === undefined ? {} : { pid }) };
    }
    const status = isAlive(runtime) ? UNKNOWN_STATUS : statusThroughLauncher(started);
    return { ...status, pid: runtime, launcher: { ...this.#launcher, ...started } };
  }

  #started(): ProcessInfo | undefined {
    const { pid } = this.#child;
    if (pid === undefined) return undefined;
    // Its command as the system runs it: a script without exec shows as its shell (a launcher),
    // which its spawn arguments do not say; before the first look that is all there is.
    // Either says launcher: `npx` runs as `node …/npx` until npm renames itself.
    const spawned = this.#child.spawnargs.join(' ');
    const running = commandLineNow(pid);
    const command =
      running === undefined || (startsWithLauncher(spawned) && !startsWithLauncher(running))
        ? spawned
        : running;
    return { pid, command };
  }

  #lookSoon(): void {
    if (this.#stopped || this.#stdout === undefined) return;
    if (this.#wrote && this.#sameFor >= SETTLED_LOOKS) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      void this.#look().then(() => this.#lookSoon());
    }, this.#nextLookMs);
    this.#timer.unref();
    this.#nextLookMs = Math.min(this.#nextLookMs * 2, LAST_LOOK_MS);
  }

  async #look(): Promise<void> {
    const root = this.#child.pid;
    if (root === undefined || this.#stdout === undefined || this.#stopped) return;
    const holders = await stdoutHolders(root, this.#stdout);
    if (!holders || this.#stopped) return;
    // The deepest holder that was there last time too, or has written (the started process
    // always counts).
    const wrote = await Promise.all(holders.map((h) => hasWritten(h.pid)));
    const lasting = holders.filter(
      (h, i) => h.pid === root || this.#previous.has(h.pid) || wrote[i],
    );
    this.#previous = new Set(holders.map((h) => h.pid));
    const deepest = lasting.reduce<(typeof lasting)[number] | undefined>(
      (best, h) => (best === undefined || h.depth > best.depth ? h : best),
      undefined,
    );
    // Never back up the chain: a runtime that died (and is no longer found) stays the runtime.
    if (deepest === undefined || deepest.depth < this.#chosenDepth) return;
    if (deepest.pid === this.#chosen?.pid) {
      this.#sameFor += 1;
      if (this.#sameFor === SETTLED_LOOKS) this.#onChange();
      return;
    }
    const command = await commandOf(deepest.pid);
    if (deepest.pid !== root) this.#launcher ??= { pid: root, command: await commandOf(root) };
    this.#chosen = { pid: deepest.pid, command };
    this.#chosenDepth = deepest.depth;
    this.#sameFor = 1;
    this.#onChange();
  }
}

/** `/proc/<pid>/cmdline` read at once, arguments joined by spaces; undefined where there is none. */
function commandLineNow(pid: number): string | undefined {
  try {
    const parts = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return parts.length > 0 ? parts.join(' ') : undefined;
  } catch {
    return undefined;
  }
}
