// The live inspector: the runtime behind the recording relay (an InspectedRuntime, replaced by a
// restart), this process as its client (the generated client peer), and a page on 127.0.0.1 that
// watches the records and the runtime's stderr as they come, sends prompts and session actions,
// and downloads the trace.
import type { ServerResponse } from 'node:http';
import { LATEST_PROTOCOL_VERSION } from '@dsh-sdk/protocol';
import type { InitializeParams } from '@dsh-sdk/protocol';
import {
  actionsFor,
  describeError,
  errorAnswer,
  runAction,
  sendPrompt,
} from './inspector-requests.js';
import type { ActionRequest, Answer, PromptRequest } from './inspector-requests.js';
import { readJson, sendJson, startLocalServer } from './local-server.js';
import type { LocalServer } from './local-server.js';
import { renderLivePage, renderTracePage } from './page-html.js';
import { describeEnd, describeLauncher, InspectedRuntime } from './inspected-runtime.js';
import type { RelayEnd } from './relay.js';
import { runtimeName, traceFileName, tracePathFor } from './trace-names.js';

export interface InspectorOptions {
  readonly program: string;
  readonly args: readonly string[];
  readonly port?: number;
  /** Also write the trace to this file. */
  readonly out?: string;
  /** Initialize at start with these params (else the page asks). */
  readonly initialize?: InitializeParams;
  /** Prefills the page's initialize form. */
  readonly defaults: { readonly cwd: string; readonly provider: string; readonly model: string };
  readonly maxFrameBytes?: number;
  readonly log: (line: string) => void;
}

const BODY_LIMIT = 64 * 1024 * 1024;

/** One runtime process and its trace: the first, then one per restart. */
interface Run {
  /** 1, then one more per restart. */
  readonly number: number;
  readonly runtime: InspectedRuntime;
  /** The file its trace is written to (`--out`), if any. */
  readonly path: string | undefined;
}

export class Inspector {
  readonly #options: InspectorOptions;
  readonly #watchers = new Set<ServerResponse>();
  /** Every run so far; the last is the current one (earlier ones stay viewable). */
  readonly #runs: Run[] = [];
  #restarting: Promise<Answer> | undefined;
  #server: LocalServer | undefined;
  #error: string | undefined;

  constructor(options: InspectorOptions) {
    this.#options = options;
    this.#launch();
  }

  get #run(): Run {
    return this.#runs.at(-1)!;
  }

  get #runtime(): InspectedRuntime {
    return this.#run.runtime;
  }

  #launch(): void {
    const { program, args, out, maxFrameBytes, log } = this.#options;
    const number = this.#runs.length + 1;
    const path = out === undefined ? undefined : tracePathFor(out, number);
    // A process replaced by a restart no longer speaks to the page.
    const current = (): boolean => number === this.#runs.length;
    const runtime = new InspectedRuntime({
      program,
      args,
      ...(path === undefined ? {} : { out: path }),
      ...(maxFrameBytes === undefined ? {} : { maxFrameBytes }),
      log,
      onRecord: (record) => current() && this.#send('record', record),
      onStderr: (text) => current() && this.#send('stderr', JSON.stringify(text)),
      onEnd: () => current() && this.#broadcastState(),
      onProcess: () => current() && this.#broadcastState(),
    });
    this.#runs.push({ number, runtime, path });
  }

  /** The run a request names (`?run=N`), the current one by default. */
  #runOf(url: URL): Run | undefined {
    const number = url.searchParams.get('run');
    return number === null ? this.#run : this.#runs[Number(number) - 1];
  }

  /** Starts serving the page; resolves with its URL (token included). */
  async start(): Promise<string> {
    this.#server = await startLocalServer(
      {
        '/': (_request, response) => {
          response.writeHead(200, {
            'content-type': 'text/html; charset=utf-8',
            'cache-control': 'no-store',
          });
          response.end(renderLivePage(this.#server!.token, `${this.#name} · dsh-sdk inspect`));
        },
        '/events': (request, response) => {
          request.socket.setNoDelay(true);
          this.#watch(response);
        },
        '/state': (_request, response) => sendJson(response, 200, this.#state()),
        '/trace': (_request, response, url) => this.#sendTrace(response, this.#runOf(url)),
        '/run': (_request, response, url) => this.#sendRunPage(response, this.#runOf(url)),
        '/initialize': async (request, response) => {
          const params = (await readJson(request, BODY_LIMIT)) as InitializeParams;
          sendJson(response, 200, await this.initialize(params));
        },
        '/prompt': async (request, response) => {
          const body = (await readJson(request, BODY_LIMIT)) as PromptRequest;
          sendJson(response, 200, await this.#prompt(body));
        },
        '/action': async (request, response) => {
          const body = (await readJson(request, BODY_LIMIT)) as ActionRequest;
          sendJson(response, 200, await this.#action(body));
        },
        '/restart': async (_request, response) => sendJson(response, 200, await this.restart()),
      },
      this.#options.port ?? 0,
    );
    if (this.#options.initialize) await this.initialize(this.#options.initialize);
    return this.#server.url;
  }

  /** The handshake; asks for the latest protocol version unless `params` name one. */
  async initialize(params: InitializeParams): Promise<Answer> {
    const runtime = this.#runtime;
    try {
      const versioned = { protocolVersion: LATEST_PROTOCOL_VERSION, ...params };
      runtime.initialized = await runtime.peer.initialize(versioned);
      this.#error = undefined;
      return { result: runtime.initialized };
    } catch (error) {
      const answer = errorAnswer(error);
      // A runtime that is gone says so in its own banner; this is for a refused handshake.
      if ('error' in answer && runtime.end === undefined) {
        this.#error = `initialize failed: ${describeError(answer.error)}`;
      }
      return answer;
    } finally {
      this.#broadcastState();
    }
  }

  /**
   * Stops the runtime (if it still runs) and starts a fresh one, initialized again with the
   * command line's params when there were some. The pages reload onto the new process's trace.
   */
  restart(): Promise<Answer> {
    this.#restarting ??= (async (): Promise<Answer> => {
      await this.#runtime.stop();
      this.#error = undefined;
      this.#launch();
      const { number, path, runtime } = this.#run;
      // The pages reload first, so they read the new process's trace from its header on.
      this.#send('reset', JSON.stringify({ run: number }));
      // One that cannot start says so itself (InspectedRuntime), and the page's banner too.
      if (await runtime.started) {
        const { pid } = runtime.process;
        const recording = path === undefined ? '' : `, recording to ${path}`;
        this.#options.log(
          `restarted the runtime (run ${number}${pid === undefined ? '' : `, pid ${pid}`})${recording}`,
        );
      }
      if (this.#options.initialize) await this.initialize(this.#options.initialize);
      return { result: { run: number, pid: runtime.process.pid ?? null } };
    })().finally(() => (this.#restarting = undefined));
    return this.#restarting;
  }

  /** Shuts the runtime down (see {@link InspectedRuntime.stop}) and stops serving. */
  async stop(): Promise<RelayEnd> {
    await this.#restarting?.catch(() => undefined);
    const end = await this.#runtime.stop();
    for (const watcher of this.#watchers) watcher.end();
    await this.#server?.close();
    return end;
  }

  #send(event: string, data: string): void {
    for (const watcher of this.#watchers) watcher.write(`event: ${event}\ndata: ${data}\n\n`);
  }

  #watch(response: ServerResponse): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    const runtime = this.#runtime;
    const history = runtime.records.map((record) => `event: record\ndata: ${record}\n\n`);
    if (runtime.stderr !== '') {
      history.push(`event: stderr\ndata: ${JSON.stringify(runtime.stderr)}\n\n`);
    }
    history.push(`event: state\ndata: ${JSON.stringify(this.#state())}\n\n`);
    response.write(history.join(''));
    this.#watchers.add(response);
    response.on('close', () => this.#watchers.delete(response));
  }

  /** The runtime's name, from its command line (the page's title, the downloads' names). */
  get #name(): string {
    return runtimeName([this.#options.program, ...this.#options.args]);
  }

  #fileName(run: Run): string {
    return traceFileName([this.#options.program, ...this.#options.args], run.runtime.startedAt);
  }

  /** A run's trace so far, as a file to save. */
  #sendTrace(response: ServerResponse, run: Run | undefined): void {
    if (!run) return sendJson(response, 404, { error: 'no such run' });
    const { records } = run.runtime;
    response.writeHead(200, {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'content-disposition': `attachment; filename="${this.#fileName(run)}"`,
      'cache-control': 'no-store',
    });
    response.end(records.length === 0 ? '' : `${records.join('\n')}\n`);
  }

  /** A run's trace as `dsh-sdk view` shows it: one self-contained page. */
  #sendRunPage(response: ServerResponse, run: Run | undefined): void {
    if (!run) return sendJson(response, 404, { error: 'no such run' });
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
    });
    const title = `run ${run.number} of ${this.#name} · dsh-sdk inspect`;
    response.end(renderTracePage(`${run.runtime.records.join('\n')}\n`, title));
  }

  #state(): Record<string, unknown> {
    const { initialized } = this.#runtime;
    const capabilities = initialized?.capabilities;
    const actions = actionsFor(capabilities);
    const current = this.#describeRun(this.#run);
    return {
      initialized: initialized !== undefined,
      ...(initialized ?? {}),
      actions,
      runtime: current,
      ...(this.#error === undefined ? {} : { error: this.#error }),
      defaults: this.#options.defaults,
      command: [this.#options.program, ...this.#options.args],
      traceFile: current['traceFile'],
      earlierRuns: this.#runs.slice(0, -1).map((run) => this.#describeRun(run)),
    };
  }

  /** A run as the page shows it: its process, how it ended, where its trace is. */
  #describeRun(run: Run): Record<string, unknown> {
    const { runtime } = run;
    const { end } = runtime;
    const proc = end === undefined ? runtime.process : { pid: end.pid, launcher: end.launcher };
    return {
      run: run.number,
      running: end === undefined,
      pid: proc.pid ?? null,
      ...(proc.launcher
        ? { launcher: { pid: proc.launcher.pid, command: proc.launcher.command } }
        : {}),
      exitCode: end?.exitCode ?? null,
      signal: end?.signal ?? null,
      ...(end === undefined ? {} : { ended: describeEnd(end) }),
      ...(end && describeLauncher(end) ? { endedThrough: describeLauncher(end) } : {}),
      ...(end?.spawnError ? { spawnError: end.spawnError.message } : {}),
      traceFile: this.#fileName(run),
      tracePath: run.path ?? null,
    };
  }

  #broadcastState(): void {
    this.#send('state', JSON.stringify(this.#state()));
  }

  #prompt(body: PromptRequest): Promise<Answer> {
    return sendPrompt(this.#runtime.peer, body);
  }

  #action(body: ActionRequest): Promise<Answer> {
    return runAction(this.#runtime.peer, body);
  }
}
