// Formatting generated files on worker threads: prettier is most of what `generate` spends, and
// the emitters keep the main thread busy meanwhile. A file goes to the worker with the least text
// waiting; workers start on first use and stop with `close()`.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { resolveConfig, version as PRETTIER_VERSION } from 'prettier';
import { cachedText } from '../inner-loop/output-cache.js';
import type { OutputFile } from './generated-file.js';

const PRETTIER_PARSER: Partial<Record<OutputFile['language'], string>> = {
  ts: 'typescript',
  js: 'babel',
  md: 'markdown',
  json: 'json',
};

interface Job {
  readonly resolve: (content: string) => void;
  readonly reject: (error: Error) => void;
  readonly size: number;
}

class FormatWorker {
  readonly #worker = new Worker(new URL('./format-worker.mjs', import.meta.url));
  readonly #jobs = new Map<number, Job>();
  #nextId = 0;
  /** Characters sent and not formatted yet. */
  waiting = 0;

  constructor() {
    this.#worker.on(
      'message',
      ({ id, content, error }: { id: number; content?: string; error?: string }) => {
        const job = this.#jobs.get(id);
        if (!job) return;
        this.#jobs.delete(id);
        this.waiting -= job.size;
        if (error !== undefined) job.reject(new Error(`prettier: ${error}`));
        else job.resolve(content ?? '');
      },
    );
    this.#worker.on('error', (error) => {
      for (const job of this.#jobs.values()) job.reject(error);
      this.#jobs.clear();
    });
  }

  format(content: string, options: object): Promise<string> {
    const id = this.#nextId++;
    this.waiting += content.length;
    return new Promise((resolve, reject) => {
      this.#jobs.set(id, { resolve, reject, size: content.length });
      this.#worker.postMessage({ id, content, options });
    });
  }

  close(): Promise<number> {
    return this.#worker.terminate();
  }
}

/** Formats outputs as the repository's prettier configuration says, on a pool of workers. */
export class FormatPool {
  readonly #workers: FormatWorker[] = [];
  readonly #size: number;
  #config: Promise<object> | undefined;

  constructor(
    private readonly root: string,
    size = Math.min(4, Math.max(1, availableParallelism())),
  ) {
    this.#size = size;
  }

  /** Formatted texts by parser and input: a text written to several places is formatted once. */
  readonly #done = new Map<string, Promise<string>>();

  async format(output: OutputFile): Promise<OutputFile> {
    if (output.isFormatted) return output;
    return { ...output, content: await this.formatText(output.content, output.language) };
  }

  /** A text formatted as the repository formats `language` (unchanged for a language it does not). */
  formatText(text: string, language: OutputFile['language']): Promise<string> {
    const parser = PRETTIER_PARSER[language];
    if (!parser) return Promise.resolve(text);
    const key = `${parser}\n${text}`;
    let content = this.#done.get(key);
    if (!content) {
      content = this.#formatWith(text, parser);
      this.#done.set(key, content);
    }
    return content;
  }

  async #formatWith(text: string, parser: string): Promise<string> {
    this.#config ??= resolveConfig(join(this.root, 'package.json')).then((c) => c ?? {});
    const options = { ...(await this.#config), parser };
    // Reused across runs when prettier, its options and the text are the same (`generate:check`
    // after `generate` formats nothing).
    return cachedText('prettier', [PRETTIER_VERSION, options, text], () =>
      this.#leastBusy().format(text, options),
    );
  }

  async close(): Promise<void> {
    await Promise.all(this.#workers.splice(0).map((worker) => worker.close()));
  }

  #leastBusy(): FormatWorker {
    if (this.#workers.length < this.#size) {
      const idle = this.#workers.find((w) => w.waiting === 0);
      if (idle) return idle;
      const worker = new FormatWorker();
      this.#workers.push(worker);
      return worker;
    }
    return this.#workers.reduce((a, b) => (b.waiting < a.waiting ? b : a));
  }
}
