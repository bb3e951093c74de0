// A run in a process group of its own, so that stopping it stops everything it started (vitest
// and its esbuild, the Python process), not just its first process.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export interface GroupRun {
  /** The group's id: the pid of its first process. */
  readonly pgid: number;
  readonly child: ChildProcess;
  /** Settles when the first process has exited (the group may outlive it until stopped). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `file args` as the leader of a new process group, its output appended to `logPath`. */
export function startGroup(
  file: string,
  args: readonly string[],
  cwd: string,
  logPath: string,
): GroupRun {
  const log = openSync(logPath, 'w');
  try {
    // stdin is a pipe the run never reads: it closes when this process dies, however it dies,
    // and the run then stops itself (`idl-gen quick --watched`).
    const child = spawn(file, [...args], { cwd, detached: true, stdio: ['pipe', log, log] });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
      (resolve) => {
        child.on('exit', (code, signal) => resolve({ code, signal }));
        child.on('error', () => resolve({ code: null, signal: null }));
      },
    );
    if (child.pid === undefined) throw new Error(`could not start ${file}`);
    return { pgid: child.pid, child, exited };
  } finally {
    closeSync(log);
  }
}

/** True while any process of the group exists. */
export function isGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** SIGTERM to the whole group, SIGKILL to what is left after `graceMs`; settles when none is left. */
export async function stopGroup(pgid: number, graceMs = 2000): Promise<void> {
  signalGroup(pgid, 'SIGTERM');
  const deadline = performance.now() + graceMs;
  while (isGroupAlive(pgid)) {
    if (performance.now() > deadline) {
      signalGroup(pgid, 'SIGKILL');
      if (performance.now() > deadline + graceMs) return;
    }
    await sleep(20);
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}
