// `pnpm dev` (`idl-gen generate --watch`): watches every IDL of the repository (protocols.ts finds
// them, again whenever protocols/ changes); on each save it regenerates that protocol and reruns
// its quick check, as `idl-gen quick --write` in a process group of its own, and prints one line.
// A save during a run stops the run's whole group and starts again; stopping the watcher stops
// every group first.
import type { FSWatcher } from 'node:fs';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, watch } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { displayPath } from '../cli/command.js';
import { cacheDir } from './output-cache.js';
import type { GroupRun } from './process-group.js';
import { startGroup, stopGroup } from './process-group.js';
import { IDL_FILE_NAME, PROTOCOLS_DIR, ROOT_IDL, listProtocols } from './protocols.js';
import type { ProtocolReport } from './quick-check.js';
import { clock, crashLine, restartLine, runLine } from './watch-line.js';

const CLI = fileURLToPath(new URL('../../bin/idl-gen.mjs', import.meta.url));
/** Editors write a file in more than one step: events this close together are one save. */
const SETTLE_MS = 80;

interface ActiveRun {
  readonly group: GroupRun;
  readonly startedMs: number;
  isSuperseded: boolean;
}

export class IdlWatcher {
  private readonly dirWatchers = new Map<string, FSWatcher>();
  /** The sha256 of each IDL as last seen: an event that leaves it the same is not a save. */
  private readonly seen = new Map<string, string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly runs = new Map<string, ActiveRun>();
  /** Per IDL, the chain its saves are handled on, one after another. */
  private readonly queues = new Map<string, Promise<void>>();
  private readonly logDir = join(cacheDir(), 'watch');
  private isStopped = false;

  constructor(
    private readonly root: string,
    private readonly print: (line: string) => void,
  ) {}

  start(): void {
    mkdirSync(this.logDir, { recursive: true });
    this.rescan(false);
    const idls = [...this.seen.keys()];
    this.print(
      `${clock(new Date())} watching ${idls.join(', ') || `(no IDL yet: ${ROOT_IDL} or ${PROTOCOLS_DIR}/<name>/${IDL_FILE_NAME})`}; ` +
        'each save regenerates and rechecks its protocol; Ctrl-C stops',
    );
  }

  /** Stops watching, then stops every run's process group; settles when none is left. */
  async stop(): Promise<void> {
    this.isStopped = true;
    for (const watcher of this.dirWatchers.values()) watcher.close();
    for (const timer of this.timers.values()) clearTimeout(timer);
    await Promise.all(
      [...this.runs.values()].map((run) => {
        run.isSuperseded = true;
        return stopGroup(run.group.pgid);
      }),
    );
  }

  /** Watches the root, protocols/ and each protocols/<name>/; a new IDL found later is a save. */
  private rescan(isChange: boolean): void {
    // Every folder of protocols/, with an IDL yet or not: its IDL may be written after it.
    const dirs = [this.root, join(this.root, PROTOCOLS_DIR), ...protocolFolders(this.root)];
    for (const protocol of listProtocols(this.root)) {
      if (!this.seen.has(protocol.idlPath)) {
        if (isChange) this.schedule(protocol.idlPath);
        else this.seen.set(protocol.idlPath, this.hashOf(protocol.idlPath) ?? '');
      }
    }
    for (const dir of dirs.filter((d) => existsSync(d) && !this.dirWatchers.has(d))) {
      const watcher = watch(dir, (_event, name) => this.onEvent(dir, name));
      // A folder deleted under it: forget it (a rescan watches it again if it comes back).
      watcher.on('error', () => {
        watcher.close();
        this.dirWatchers.delete(dir);
      });
      this.dirWatchers.set(dir, watcher);
    }
    for (const [dir, watcher] of this.dirWatchers) {
      if (!existsSync(dir)) {
        watcher.close();
        this.dirWatchers.delete(dir);
      }
    }
  }

  private onEvent(dir: string, name: string | null): void {
    if (this.isStopped) return;
    const relativeDir = relative(this.root, dir).split('\\').join('/');
    if (relativeDir === '' && name === ROOT_IDL) this.schedule(ROOT_IDL);
    else if (relativeDir.startsWith(`${PROTOCOLS_DIR}/`) && name === IDL_FILE_NAME)
      this.schedule(`${relativeDir}/${IDL_FILE_NAME}`);
    else if (relativeDir === PROTOCOLS_DIR || name === PROTOCOLS_DIR || name === null)
      this.rescan(true);
  }

  private schedule(idl: string): void {
    clearTimeout(this.timers.get(idl));
    this.timers.set(
      idl,
      setTimeout(() => {
        this.timers.delete(idl);
        const queue = (this.queues.get(idl) ?? Promise.resolve())
          .then(() => this.onSave(idl))
          .catch((error: unknown) =>
            this.print(`${clock(new Date())} ${idl}: could not run the check: ${String(error)}`),
          );
        this.queues.set(idl, queue);
      }, SETTLE_MS),
    );
  }

  private async onSave(idl: string): Promise<void> {
    const hash = this.hashOf(idl);
    if (this.isStopped || hash === null || hash === this.seen.get(idl)) return;
    this.seen.set(idl, hash);
    const savedAt = new Date();
    const previous = this.runs.get(idl);
    if (previous) {
      previous.isSuperseded = true;
      this.print(restartLine(savedAt, idl, (performance.now() - previous.startedMs) / 1000));
      await stopGroup(previous.group.pgid);
    }
    if (!this.isStopped) this.startRun(idl);
  }

  private startRun(idl: string): void {
    const slug = idl.replace(/[^A-Za-z0-9.-]+/g, '_');
    const log = join(this.logDir, `${slug}.log`);
    const reportPath = join(this.logDir, `${slug}.report.json`);
    rmSync(reportPath, { force: true });
    const args = ['quick', '--write', '--watched', '--idl', idl, '--root', this.root];
    const group = startGroup(
      process.execPath,
      [CLI, ...args, '--report', reportPath],
      this.root,
      log,
    );
    const run: ActiveRun = { group, startedMs: performance.now(), isSuperseded: false };
    this.runs.set(idl, run);
    void group.exited.then(({ code, signal }) => {
      if (this.runs.get(idl) === run) this.runs.delete(idl);
      if (run.isSuperseded) return;
      const shown = displayPath(log);
      const report = readReport(reportPath);
      this.print(
        report
          ? runLine(new Date(), report, shown)
          : crashLine(new Date(), idl, signal ?? `exit ${code}`, shown),
      );
    });
  }

  private hashOf(idl: string): string | null {
    try {
      return createHash('sha256')
        .update(readFileSync(join(this.root, idl)))
        .digest('hex');
    } catch {
      return null;
    }
  }
}

function protocolFolders(root: string): string[] {
  const dir = join(root, PROTOCOLS_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(dir, entry.name));
}

function readReport(path: string): ProtocolReport | null {
  try {
    const reports = JSON.parse(readFileSync(path, 'utf8')) as ProtocolReport[];
    return reports[0] ?? null;
  } catch {
    return null;
  }
}

/** Runs the watcher until SIGINT or SIGTERM; resolves to the exit status once nothing is left. */
export function runWatcher(root: string): Promise<number> {
  const watcher = new IdlWatcher(root, (line) => process.stdout.write(`${line}\n`));
  watcher.start();
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.stdout.write(`${clock(new Date())} stopping: ending every run first\n`);
      void watcher.stop().then(() => resolve(signal === 'SIGINT' ? 130 : 143));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
