// A run in a process group of its own, so that stopping it stops everything it started (vitest
// and its esbuild, the Python process), not just its first process.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readdirSync } from 'node:fs';
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

/**
 * True while a process of the group runs. Where there is a /proc, a zombie (exited, not yet
 * reaped) does not count: an init that never reaps would otherwise keep the group alive.
 */
export function isGroupAlive(pgid: number): boolean {
  if (!existsSync('/proc/self/stat')) return signalReaches(pgid);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // After the command's closing parenthesis: state, parent pid, process group, …
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(group) === pgid && state !== 'Z') return true;
    } catch {
      // Gone meanwhile.
    }
  }
  return false;
}

function signalReaches(pgid: number): boolean {
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
  const killAt = performance.now() + graceMs;
  // SIGKILL cannot be ignored; the limit only guards against a process stuck in the kernel.
  const giveUpAt = killAt + 5000;
  while (isGroupAlive(pgid) && performance.now() < giveUpAt) {
    if (performance.now() > killAt) signalGroup(pgid, 'SIGKILL');
    await sleep(25);
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}
