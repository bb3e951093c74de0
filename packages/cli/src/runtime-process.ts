// The runtime behind a launcher. `-- npx dsh-sdk-runtime` starts npm, which starts `sh -c`, which
// starts the runtime; a script without `exec` does the same. The process the recorder started (the
// launcher) is then not the runtime: its pid is not the runtime's, and a signal's death reaches it
// as the shells' code 128 + N. On Linux the runtime is found in /proc: the deepest descendant of
// the launcher whose stdout is the recorder's pipe. Elsewhere the launcher is all there is.
import { readdir, readFile, readlink } from 'node:fs/promises';
import { constants } from 'node:os';

/** A process as the system shows it. */
export interface ProcessInfo {
  readonly pid: number;
  /** Its command line, arguments joined by spaces. */
  readonly command: string;
}

/** An exit status: a code, or the signal it died of (both null when unknown). */
export interface ExitStatus {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
}

const PROC = '/proc';

/** What a process's file descriptor is (e.g. `pipe:[4242]`), or undefined when unreadable. */
export async function descriptorOf(pid: number, fd: number): Promise<string | undefined> {
  try {
    return await readlink(`${PROC}/${pid}/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/** The parent of each process now running (from /proc/<pid>/stat), or undefined without /proc. */
async function parents(): Promise<Map<number, number> | undefined> {
  let names: string[];
  try {
    names = await readdir(PROC);
  } catch {
    return undefined;
  }
  const pids = names.filter((name) => /^\d+$/.test(name)).map(Number);
  const stats = await Promise.all(
    pids.map((pid) => readFile(`${PROC}/${pid}/stat`, 'utf8').catch(() => '')),
  );
  const parentOf = new Map<number, number>();
  pids.forEach((pid, i) => {
    // `pid (comm) state ppid …`: the command name may hold spaces and parentheses.
    const fields = stats[i]!.slice(stats[i]!.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(fields[1]);
    if (Number.isInteger(ppid)) parentOf.set(pid, ppid);
  });
  return parentOf;
}

/** The command line of a process, or '' when it is gone. */
export async function commandOf(pid: number): Promise<string> {
  const raw = await readFile(`${PROC}/${pid}/cmdline`, 'utf8').catch(() => '');
  return raw.replace(/\0+$/, '').split('\0').join(' ');
}

/**
 * The deepest process, among `root` and its descendants, whose stdout is `stdout` (a descriptor
 * as {@link descriptorOf} reads it): the runtime, when `root` is a launcher that stayed its
 * parent, or `root` itself. Undefined when none is found (no /proc, or all gone).
 */
export async function findRuntime(root: number, stdout: string): Promise<ProcessInfo | undefined> {
  const parentOf = await parents();
  if (!parentOf) return undefined;
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parentOf) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  let found: number | undefined;
  let level = parentOf.has(root) ? [root] : [];
  while (level.length > 0) {
    const holders = await Promise.all(level.map((pid) => descriptorOf(pid, 1)));
    const holder = level.find((_, i) => holders[i] === stdout);
    if (holder !== undefined) found = holder;
    level = level.flatMap((pid) => children.get(pid) ?? []);
  }
  return found === undefined ? undefined : { pid: found, command: await commandOf(found) };
}

/** Whether a process is still there (a zombie counts, until its parent collects it). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Signal names by number, the first name of each (SIGABRT, not its alias SIGIOT). */
const SIGNAL_NAMES = new Map<number, NodeJS.Signals>();
for (const [name, number] of Object.entries(constants.signals)) {
  if (!SIGNAL_NAMES.has(number)) SIGNAL_NAMES.set(number, name as NodeJS.Signals);
}

/**
 * The runtime's status as its launcher passes it on, once the runtime is gone. A shell (and npm,
 * which passes the shell's code on) reports a child's death by signal N as the code 128 + N,
 * which is read back as that signal: a runtime's own code is never above 128 by convention. A
 * launcher that was itself killed tells nothing of the runtime.
 */
export function statusThroughLauncher(launcher: ExitStatus): ExitStatus {
  if (launcher.signal !== null || launcher.exitCode === null) return UNKNOWN_STATUS;
  const signal = launcher.exitCode > 128 ? SIGNAL_NAMES.get(launcher.exitCode - 128) : undefined;
  return signal === undefined ? launcher : { exitCode: null, signal };
}

export const UNKNOWN_STATUS: ExitStatus = { exitCode: null, signal: null };
