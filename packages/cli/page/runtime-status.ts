// The runtime's health on the live page: its stderr (a pane with everything kept, a tail in the
// banner), once the process is gone a banner saying how it ended, and the runs before a restart
// (each with its trace, to view or download).
import { byId, el } from './dom.js';

/** What the inspector reports about one run of the runtime process (part of its state). */
export interface RuntimeState {
  /** 1 for the first process, one more per restart. */
  readonly run: number;
  readonly running: boolean;
  /** The runtime's own pid; null while not known (a launcher may still be starting it). */
  readonly pid: number | null;
  /** The launcher that stayed between the inspector and the runtime (npx, a script), if any. */
  readonly launcher?: { readonly pid: number; readonly command: string };
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** How it ended, in words ("exited with code 3"), once it did. */
  readonly ended?: string;
  /** Its launcher's own end, when one stayed in between ("through npm exec x (pid 7), which…"). */
  readonly endedThrough?: string;
  /** Why it could not be started (the spawn error), if so. */
  readonly spawnError?: string;
  /** The name its trace downloads as. */
  readonly traceFile: string;
  /** The file its trace is written to (`--out`), or null. */
  readonly tracePath: string | null;
}

/** The stderr kept on the page, as the inspector does (its last characters). */
const STDERR_KEPT_CHARS = 32 * 1024;
/** Lines of stderr the banner quotes. */
const BANNER_TAIL_LINES = 12;

/** The process in words, for the status line: "running (pid 7)", "exited with code 3"… */
export function describeProcess(runtime: RuntimeState): string {
  const through = runtime.launcher ? `, through ${runtime.launcher.command}` : '';
  if (runtime.running) {
    return runtime.pid === null ? `starting${through}` : `running (pid ${runtime.pid}${through})`;
  }
  return runtime.spawnError !== undefined ? 'not started' : (runtime.ended ?? 'ended');
}

export class RuntimeStatus {
  #stderr = '';
  #runtime: RuntimeState | undefined;
  #command: readonly string[] = [];

  /** More of the runtime's stderr arrived. */
  addStderr(text: string): void {
    this.#stderr = (this.#stderr + text).slice(-STDERR_KEPT_CHARS);
    const lines = this.#stderr.split('\n').filter((line) => line !== '').length;
    byId('stderr-text').textContent = this.#stderr;
    byId('stderr-count').textContent = `(${lines} line${lines === 1 ? '' : 's'})`;
    byId('stderr-pane').dataset['lines'] = String(lines);
    this.#renderBanner();
  }

  update(runtime: RuntimeState, command: readonly string[]): void {
    this.#runtime = runtime;
    this.#command = command;
    this.#renderBanner();
  }

  #renderBanner(): void {
    const runtime = this.#runtime;
    const banner = byId('runtime-banner');
    if (!runtime || runtime.running) {
      banner.hidden = true;
      return;
    }
    banner.hidden = false;
    banner.dataset['exitCode'] = String(runtime.exitCode ?? '');
    banner.dataset['signal'] = runtime.signal ?? '';
    banner.dataset['spawnError'] = runtime.spawnError ?? '';
    const command = this.#command.join(' ');
    byId('runtime-banner-title').textContent =
      `The runtime (${command}) ${runtime.ended ?? 'is gone'}. Restart it to go on.`;
    const detail = [
      runtime.pid === null ? '' : `pid ${runtime.pid}`,
      runtime.endedThrough ?? '',
    ].filter((part) => part !== '');
    const detailNode = byId('runtime-banner-detail');
    detailNode.textContent = detail.join(', ');
    detailNode.hidden = detail.length === 0;
    const tail = this.#stderr.replace(/\n+$/, '').split('\n').slice(-BANNER_TAIL_LINES).join('\n');
    const quote = byId('runtime-banner-tail');
    quote.textContent = tail;
    quote.hidden = tail === '';
  }
}

/**
 * Where the current run's trace goes, and the runs before a restart, each with how it ended, its
 * trace's file and links to view it (a page of its own) and download it.
 */
export function renderRuns(
  current: RuntimeState,
  earlier: readonly RuntimeState[],
  api: (path: string, query?: Record<string, string>) => string,
): void {
  const where = current.tracePath ?? 'not written to a file (Download trace saves it)';
  byId('trace-file').textContent = `run ${current.run} · trace: ${where}`;
  byId('trace-file').dataset['path'] = current.tracePath ?? '';
  const items = earlier.map((run) => {
    const view = el(
      'a',
      { href: api('/run', { run: String(run.run) }), target: '_blank', 'data-view': '' },
      'view',
    );
    const download = el(
      'a',
      {
        href: api('/trace', { run: String(run.run) }),
        download: run.traceFile,
        'data-download': '',
      },
      'download',
    );
    const pid = run.pid === null ? '' : ` (pid ${run.pid})`;
    const file = run.tracePath ?? 'not written to a file';
    return el(
      'li',
      { 'data-run': String(run.run), 'data-path': run.tracePath ?? '' },
      `run ${run.run}${pid} ${run.ended ?? 'ended'} · trace: `,
      el('code', {}, file),
      ' · ',
      view,
      ' · ',
      download,
    );
  });
  const list = byId('earlier-runs');
  list.replaceChildren(...items);
  list.hidden = items.length === 0;
}
