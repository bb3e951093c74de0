// One runtime process as the inspector drives it: started behind the recording relay with its own
// recorder (a trace per process), the generated client peer on the relay's client side, and the
// runtime's stderr kept (its tail) as well as passed on to the terminal. A restart is a new one.
import { PassThrough } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import {
  HarnessSdkClientPeer,
  JsonRpcLineTransport,
  TraceFileWriter,
  TraceRecorder,
} from '@dsh-sdk/protocol';
import type { InitializeResult } from '@dsh-sdk/protocol';
import { startRelay, traceFinish } from './relay.js';
import type { Relay, RelayEnd } from './relay.js';
import type { RuntimeProcess } from './runtime-tracker.js';

export interface InspectedRuntimeOptions {
  readonly program: string;
  readonly args: readonly string[];
  /** Also write this process's trace to this file. */
  readonly out?: string;
  readonly maxFrameBytes?: number;
  readonly log: (line: string) => void;
  readonly onRecord: (record: string) => void;
  readonly onStderr: (text: string) => void;
  /** The process ended (or never started) on its own or by `stop()`: its recording is finished. */
  readonly onEnd: (end: RelayEnd) => void;
  /** The runtime's process was found behind its launcher (its pid changed). */
  readonly onProcess: () => void;
}

/** How much of the runtime's stderr is kept for the page (its last characters). */
export const STDERR_TAIL_CHARS = 32 * 1024;
const STEP_TIMEOUT_MS = 2000;

export class InspectedRuntime {
  /** This process's trace so far, one record per entry. */
  readonly records: string[] = [];
  readonly peer: HarnessSdkClientPeer;
  /** Settles once the process exited (or failed to start) and its trace is finished. */
  readonly ended: Promise<RelayEnd>;
  /** Settles with whether the process started (false: it could not be spawned). */
  readonly started: Promise<boolean>;
  /** Wall clock when it was started, epoch milliseconds. */
  readonly startedAt = Date.now();
  initialized: InitializeResult | undefined;
  end: RelayEnd | undefined;
  readonly #relay: Relay;
  readonly #recorder: TraceRecorder;
  readonly #writer: TraceFileWriter | undefined;
  readonly #transport: JsonRpcLineTransport;
  #stderr = '';
  #stopping = false;

  constructor(options: InspectedRuntimeOptions) {
    this.#writer =
      options.out === undefined
        ? undefined
        : new TraceFileWriter(options.out, {
            onError: (error) =>
              options.log(`recording to ${options.out} stopped: ${error.message}`),
          });
    this.#recorder = new TraceRecorder({
      write: (record) => {
        this.records.push(record);
        this.#writer?.write(record);
        options.onRecord(record);
      },
      recorder: 'dsh-sdk inspect',
      command: [options.program, ...options.args],
      ...(options.maxFrameBytes === undefined ? {} : { maxFrameBytes: options.maxFrameBytes }),
    });
    const toRuntime = new PassThrough();
    const fromRuntime = new PassThrough();
    this.#relay = startRelay(
      {
        program: options.program,
        args: options.args,
        clientInput: toRuntime,
        clientOutput: fromRuntime,
        endClientOutput: true,
        recorder: this.#recorder,
        stderr: 'pipe',
      },
      options.onProcess,
    );
    const { child } = this.#relay;
    this.started = new Promise((resolve) => {
      child.once('spawn', () => resolve(true));
      child.once('error', () => resolve(child.pid !== undefined));
    });
    const decoder = new StringDecoder('utf8');
    this.#relay.child.stderr?.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      const text = decoder.write(chunk);
      if (text === '') return;
      this.#stderr = (this.#stderr + text).slice(-STDERR_TAIL_CHARS);
      options.onStderr(text);
    });
    this.#transport = new JsonRpcLineTransport({ input: fromRuntime, output: toRuntime });
    this.peer = new HarnessSdkClientPeer(this.#transport.start());
    this.ended = this.#relay.ended.then((end) => {
      this.end = end;
      this.#recorder.finish(traceFinish(end));
      this.#writer?.close();
      this.#transport.close('the runtime exited');
      if (end.spawnError) {
        options.log(`cannot start ${options.program}: ${end.spawnError.message}`);
      } else if (!this.#stopping) {
        options.log(`the runtime ${describeEnd(end)}`);
      }
      options.onEnd(end);
      return end;
    });
  }

  /** The runtime's own process (behind its launcher, if one stayed in between). */
  get process(): RuntimeProcess {
    return this.#relay.runtime.current;
  }

  /** The last {@link STDERR_TAIL_CHARS} characters the runtime wrote to stderr. */
  get stderr(): string {
    return this.#stderr;
  }

  /**
   * Shuts the process down, each step bounded: shutdown, stdin's end, SIGTERM to the runtime,
   * SIGKILL to everything it started.
   */
  async stop(): Promise<RelayEnd> {
    this.#stopping = true;
    const { child, runtime } = this.#relay;
    const exited = (ms: number): Promise<boolean> =>
      Promise.race([
        this.ended.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref()),
      ]);
    if (this.end === undefined && this.initialized) {
      await this.peer.shutdown({ timeoutMs: STEP_TIMEOUT_MS }).catch(() => undefined);
    }
    this.#transport.close('the inspector is stopping');
    child.stdin?.end();
    if (!(await exited(STEP_TIMEOUT_MS))) runtime.signal('SIGTERM');
    if (!(await exited(STEP_TIMEOUT_MS))) this.#relay.killAll('SIGKILL');
    return this.ended;
  }
}

/** "exited with code 3", "was killed by SIGKILL", "could not be started: …". */
export function describeEnd(end: RelayEnd): string {
  if (end.spawnError) return `could not be started: ${end.spawnError.message}`;
  if (end.signal !== null) return `was killed by ${end.signal}`;
  if (end.exitCode !== null) return `exited with code ${end.exitCode}`;
  return 'ended; its exit status is unknown (it outlived its launcher)';
}

/** Its launcher, when one stayed in between: "through npm exec x (pid 7), which exited with code 137". */
export function describeLauncher(end: RelayEnd): string | undefined {
  const { launcher } = end;
  if (!launcher) return undefined;
  const how =
    launcher.signal !== null
      ? `was killed by ${launcher.signal}`
      : `exited with code ${launcher.exitCode ?? '?'}`;
  return `through ${launcher.command} (pid ${launcher.pid}), which ${how}`;
}
