// The live inspector: the runtime behind the recording relay, this process as its client (the
// generated client peer), and a page on 127.0.0.1 that watches the records as they are made and
// sends prompts.
import type { ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import {
  HarnessSdkClientPeer,
  JsonRpcLineTransport,
  JsonRpcResponseError,
  LATEST_PROTOCOL_VERSION,
  TraceFileWriter,
  TraceRecorder,
} from '@dsh-sdk/protocol';
import type {
  InitializeParams,
  InitializeResult,
  SdkEncodedImageBlock,
  ServerCapabilities,
  SdkPromptContentBlock,
  TextBlock,
} from '@dsh-sdk/protocol';
import { readJson, sendJson, startLocalServer } from './local-server.js';
import type { LocalServer } from './local-server.js';
import { renderLivePage } from './page-html.js';
import { startRelay } from './relay.js';
import type { Relay, RelayEnd } from './relay.js';

/**
 * An action on one session, offered as a button when the runtime reports its capability in the
 * `initialize` result (protocol version 2), calling the generated peer's method. The page draws
 * whatever this list yields.
 */
interface SessionAction {
  readonly name: string;
  readonly label: string;
  readonly capability: keyof ServerCapabilities;
  readonly run: (peer: HarnessSdkClientPeer, sessionId: string) => Promise<unknown>;
}

const SESSION_ACTIONS: readonly SessionAction[] = [
  {
    name: 'interrupt',
    label: 'Interrupt',
    capability: 'sessionInterrupt',
    run: (peer, sessionId) => peer.sessionInterrupt({ sessionId }),
  },
  {
    name: 'close',
    label: 'Close',
    capability: 'sessionClose',
    run: (peer, sessionId) => peer.sessionClose({ sessionId }),
  },
];

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
const STEP_TIMEOUT_MS = 2000;

type Answer = { result: unknown } | { error: { code?: number; message: string; data?: unknown } };

function errorAnswer(error: unknown): Answer {
  if (error instanceof JsonRpcResponseError) {
    return {
      error: {
        code: error.code,
        message: error.wireMessage,
        ...(error.data === undefined ? {} : { data: error.data }),
      },
    };
  }
  return { error: { message: error instanceof Error ? error.message : String(error) } };
}

/** An error's message, with the violations of a `-32602` (pointer and reason each). */
function describeError(error: { message: string; data?: unknown }): string {
  if (!Array.isArray(error.data)) return error.message;
  const violations = (error.data as { pointer?: unknown; message?: unknown }[]).map(
    (v) => `${String(v.pointer)} ${String(v.message)}`,
  );
  return `${error.message}: ${violations.join('; ')}`;
}

export class Inspector {
  readonly #options: InspectorOptions;
  readonly #records: string[] = [];
  readonly #watchers = new Set<ServerResponse>();
  readonly #recorder: TraceRecorder;
  readonly #writer: TraceFileWriter | undefined;
  readonly #transport: JsonRpcLineTransport;
  readonly #peer: HarnessSdkClientPeer;
  readonly #relay: Relay;
  #server: LocalServer | undefined;
  #initialized: InitializeResult | undefined;
  #end: RelayEnd | undefined;
  #error: string | undefined;

  constructor(options: InspectorOptions) {
    this.#options = options;
    this.#writer =
      options.out === undefined
        ? undefined
        : new TraceFileWriter(options.out, {
            onError: (error) =>
              options.log(`recording to ${options.out} stopped: ${error.message}`),
          });
    this.#recorder = new TraceRecorder({
      write: (record) => this.#addRecord(record),
      recorder: 'dsh-sdk inspect',
      command: [options.program, ...options.args],
      ...(options.maxFrameBytes === undefined ? {} : { maxFrameBytes: options.maxFrameBytes }),
    });
    const toRuntime = new PassThrough();
    const fromRuntime = new PassThrough();
    this.#relay = startRelay({
      program: options.program,
      args: options.args,
      clientInput: toRuntime,
      clientOutput: fromRuntime,
      endClientOutput: true,
      recorder: this.#recorder,
      stderr: 'pipe',
    });
    this.#relay.child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    this.#transport = new JsonRpcLineTransport({ input: fromRuntime, output: toRuntime });
    this.#peer = new HarnessSdkClientPeer(this.#transport.start());
    void this.#relay.ended.then((end) => {
      this.#end = end;
      if (end.spawnError)
        this.#error = `cannot start ${options.program}: ${end.spawnError.message}`;
      this.#transport.close('the runtime exited');
      this.#broadcastState();
    });
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
          response.end(
            renderLivePage(this.#server!.token, `${this.#options.program} · dsh-sdk inspect`),
          );
        },
        '/events': (request, response) => {
          request.socket.setNoDelay(true);
          this.#watch(response);
        },
        '/state': (_request, response) => sendJson(response, 200, this.#state()),
        '/initialize': async (request, response) => {
          const params = (await readJson(request, BODY_LIMIT)) as InitializeParams;
          sendJson(response, 200, await this.initialize(params));
        },
        '/prompt': async (request, response) => {
          const body = (await readJson(request, BODY_LIMIT)) as PromptRequest;
          sendJson(response, 200, await this.#prompt(body));
        },
        '/action': async (request, response) => {
          const body = (await readJson(request, BODY_LIMIT)) as {
            name?: string;
            sessionId?: string;
          };
          sendJson(response, 200, await this.#action(body));
        },
      },
      this.#options.port ?? 0,
    );
    if (this.#options.initialize) await this.initialize(this.#options.initialize);
    return this.#server.url;
  }

  /** The handshake; asks for the latest protocol version unless `params` name one. */
  async initialize(params: InitializeParams): Promise<Answer> {
    try {
      const versioned = { protocolVersion: LATEST_PROTOCOL_VERSION, ...params };
      this.#initialized = await this.#peer.initialize(versioned);
      this.#error = undefined;
      return { result: this.#initialized };
    } catch (error) {
      const answer = errorAnswer(error);
      if ('error' in answer) this.#error = `initialize failed: ${describeError(answer.error)}`;
      return answer;
    } finally {
      this.#broadcastState();
    }
  }

  /** Shuts the runtime down, each step bounded: shutdown, stdin's end, SIGTERM, SIGKILL. */
  async stop(): Promise<RelayEnd> {
    const { child } = this.#relay;
    const exited = (ms: number): Promise<boolean> =>
      Promise.race([
        this.#relay.ended.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref()),
      ]);
    if (this.#end === undefined && this.#initialized) {
      await this.#peer.shutdown({ timeoutMs: STEP_TIMEOUT_MS }).catch(() => undefined);
    }
    this.#transport.close('the inspector is stopping');
    child.stdin?.end();
    if (!(await exited(STEP_TIMEOUT_MS))) child.kill('SIGTERM');
    if (!(await exited(STEP_TIMEOUT_MS))) child.kill('SIGKILL');
    const end = await this.#relay.ended;
    this.#recorder.finish({ exitCode: end.exitCode, signal: end.signal });
    this.#writer?.close();
    for (const watcher of this.#watchers) watcher.end();
    await this.#server?.close();
    return end;
  }

  #addRecord(record: string): void {
    this.#records.push(record);
    this.#writer?.write(record);
    for (const watcher of this.#watchers) watcher.write(`event: record\ndata: ${record}\n\n`);
  }

  #watch(response: ServerResponse): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    const history = this.#records.map((record) => `event: record\ndata: ${record}\n\n`).join('');
    response.write(history);
    response.write(`event: state\ndata: ${JSON.stringify(this.#state())}\n\n`);
    this.#watchers.add(response);
    response.on('close', () => this.#watchers.delete(response));
  }

  #state(): Record<string, unknown> {
    const capabilities = this.#initialized?.capabilities;
    const actions = SESSION_ACTIONS.filter((a) => capabilities?.[a.capability] === true).map(
      ({ name, label }) => ({ name, label }),
    );
    return {
      initialized: this.#initialized !== undefined,
      ...(this.#initialized ? this.#initialized : {}),
      actions,
      runtime: {
        running: this.#end === undefined,
        exitCode: this.#end?.exitCode ?? null,
        signal: this.#end?.signal ?? null,
      },
      ...(this.#error === undefined ? {} : { error: this.#error }),
      defaults: this.#options.defaults,
      command: [this.#options.program, ...this.#options.args],
    };
  }

  #broadcastState(): void {
    const event = `event: state\ndata: ${JSON.stringify(this.#state())}\n\n`;
    for (const watcher of this.#watchers) watcher.write(event);
  }

  async #prompt(body: PromptRequest): Promise<Answer> {
    const contentBlocks: SdkPromptContentBlock[] = [];
    if (typeof body.text === 'string' && body.text !== '') {
      const text: TextBlock = { type: 'text', text: body.text };
      contentBlocks.push(text);
    }
    if (body.image) {
      const image = { type: 'image', data: body.image.data, mimeType: body.image.mimeType };
      contentBlocks.push(image as SdkEncodedImageBlock);
    }
    try {
      const result = await this.#peer.sessionPrompt({
        sessionId: String(body.sessionId ?? ''),
        contentBlocks,
      });
      return { result };
    } catch (error) {
      return errorAnswer(error);
    }
  }

  async #action(body: { name?: string; sessionId?: string }): Promise<Answer> {
    const action = SESSION_ACTIONS.find((a) => a.name === body.name);
    if (!action) return { error: { message: `no action ${String(body.name)}` } };
    try {
      return { result: await action.run(this.#peer, String(body.sessionId ?? '')) };
    } catch (error) {
      return errorAnswer(error);
    }
  }
}

interface PromptRequest {
  readonly sessionId?: unknown;
  readonly text?: unknown;
  readonly image?: { readonly data: string; readonly mimeType: string };
}
