// The runtime's health on the live page: its stderr (a pane with everything kept, a tail in the
// banner) and, once the process is gone, a banner saying how it ended.
import { byId } from './dom.js';

/** What the inspector reports about the runtime process (part of its state). */
export interface RuntimeState {
  readonly running: boolean;
  readonly pid: number | null;
  /** 1 for the first process, one more per restart. */
  readonly generation: number;
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** How it ended, in words ("exited with code 3"), once it did. */
  readonly ended?: string;
  /** Why it could not be started (the spawn error), if so. */
  readonly spawnError?: string;
}

/** The stderr kept on the page, as the inspector does (its last characters). */
const STDERR_KEPT_CHARS = 32 * 1024;
/** Lines of stderr the banner quotes. */
const BANNER_TAIL_LINES = 12;

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
    const tail = this.#stderr.replace(/\n+$/, '').split('\n').slice(-BANNER_TAIL_LINES).join('\n');
    const quote = byId('runtime-banner-tail');
    quote.textContent = tail;
    quote.hidden = tail === '';
  }
}
