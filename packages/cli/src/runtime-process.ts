/// <reference types="node" preserve="true" />
// The runtime behind a launcher. `-- npx dsh-sdk-runtime` starts npm, which starts `sh -c`, which
// starts the runtime; a script without `exec` does the same. The process the recorder started (the
// launcher) is then not the runtime: its pid is not the runtime's, and a signal's death reaches it
// as the shells' code 128 + N. On Linux the runtime is found in /proc: the deepest descendant of
// the launcher whose stdout is the recorder's pipe. Elsewhere the launcher is all there is.
import { existsSync } from 'node:fs';
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

/** The children of each process now running (from every /proc/<pid>/stat), or undefined. */
async function childrenByScan(): Promise<Map<number, number[]> | undefined> {
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
  const children = new Map<number, number[]>();
  pids.forEach((pid, i) => {
    // `pid (comm) state ppid …`: the command name may hold spaces and parentheses.
    const ppid = Number(stats[i]!.slice(stats[i]!.lastIndexOf(')') + 2).split(' ')[1]);
    if (Number.isInteger(ppid)) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  });
  return children;
}

/**
 * The children of `pid`, from its threads' /proc/<pid>/task/<tid>/children (a few small reads),
 * or undefined where the kernel has no such files.
 */
async function childrenOf(pid: number): Promise<number[] | undefined> {
  try {
    const tasks = await readdir(`${PROC}/${pid}/task`);
    const lists = await Promise.all(
      tasks.map((tid) => readFile(`${PROC}/${pid}/task/${tid}/children`, 'utf8')),
    );
    return lists.flatMap((list) => list.split(' ').filter(Boolean).map(Number));
  } catch (error) {
    // Gone (no children then), or a kernel without the files.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' && existsSync(`${PROC}/${pid}`)
      ? undefined
      : [];
  }
}

/** Whether a process has written anything yet (to any file), by its /proc/<pid>/io. */
export async function hasWritten(pid: number): Promise<boolean> {
  const io = await readFile(`${PROC}/${pid}/io`, 'utf8').catch(() => '');
  return Number(/^wchar: (\d+)$/m.exec(io)?.[1] ?? 0) > 0;
}

/** The command line of a process, or '' when it is gone. */
export async function commandOf(pid: number): Promise<string> {
  const raw = await readFile(`${PROC}/${pid}/cmdline`, 'utf8').catch(() => '');
  return raw.replace(/\0+$/, '').split('\0').join(' ');
}

/** A process holding the recorder's pipe, and how far below the started process it is. */
export interface Holder {
  readonly pid: number;
  readonly depth: number;
}

/**
 * The processes, among `root` and its descendants, whose stdout is `stdout` (a descriptor as
 * {@link descriptorOf} reads it), level by level: the runtime is the deepest, or one of its own
 * helpers (see runtime-tracker.ts). Undefined without /proc.
 */
export async function stdoutHolders(root: number, stdout: string): Promise<Holder[] | undefined> {
  if (!existsSync(`${PROC}/${root}`)) return existsSync(PROC) ? [] : undefined;
  let scanned: Map<number, number[]> | undefined;
  const children = async (pid: number): Promise<number[]> => {
    const direct = await childrenOf(pid);
    if (direct !== undefined) return direct;
    scanned ??= await childrenByScan();
    return scanned?.get(pid) ?? [];
  };
  const holders: Holder[] = [];
  let level = [root];
  for (let depth = 0; level.length > 0; depth++) {
    const fds = await Promise.all(level.map((pid) => descriptorOf(pid, 1)));
    const held = level.filter((_, i) => fds[i] === stdout);
    for (const pid of held) holders.push({ pid, depth });
    // Only a holder's children can be the runtime (a launcher passes its stdout on).
    level = (await Promise.all(held.map(children))).flat();
  }
  return holders;
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
