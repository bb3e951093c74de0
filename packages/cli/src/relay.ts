// The recording relay: a runtime child process whose stdio is wired to a client's streams, every
// chunk forwarded as it comes and then shown to a TraceRecorder. Used by `trace` (the client is
// this process's stdio) and by `inspect` (the client is the inspector's own transport).
/// <reference types="node" preserve="true" />
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { TraceDirection, TraceFinish, TraceRecorder } from '@dsh-sdk/protocol';
import { RuntimeTracker } from './runtime-tracker.js';
import type { RuntimeEnd } from './runtime-tracker.js';

/** Options of {@link startRelay}. */
export interface RelayOptions {
  readonly program: string;
  readonly args: readonly string[];
  /** Bytes from the client, for the runtime's stdin. */
  readonly clientInput: Readable;
  /** Where the runtime's stdout goes. */
  readonly clientOutput: Writable;
  /** End `clientOutput` when the runtime's stdout ends (not for process.stdout). */
  readonly endClientOutput: boolean;
  readonly recorder: TraceRecorder;
  /** The runtime's stderr: this process's own (`inherit`), or a pipe the caller reads. */
  readonly stderr: 'inherit' | 'pipe';
  readonly env?: NodeJS.ProcessEnv;
}

/** How the runtime ended (through its launcher, when one stayed in between). */
export interface RelayEnd extends RuntimeEnd {
  /** Set when the runtime could not be started at all. */
  readonly spawnError?: Error;
}

/** A running relay. */
export interface Relay {
  readonly child: ChildProcess;
  /** Which process is the runtime: the started one, or the one behind its launcher. */
  readonly runtime: RuntimeTracker;
  /**
   * Settles once the runtime exited and its stdout was drained and recorded: every byte was
   * handed to `clientOutput`, whose own buffer may still hold some (see flush-output.ts).
   */
  readonly ended: Promise<RelayEnd>;
  /** Sends a signal to everything it started (the runtime's process group), as a last resort. */
  killAll(signal: NodeJS.Signals): void;
}

/**
 * Starts the runtime and relays both directions. The runtime gets its own process group, so a
 * terminal's Ctrl-C reaches it once, through the caller's forwarding, not twice.
 * `onRuntimeChange` hears when the runtime's process is found behind a launcher.
 */
export function startRelay(options: RelayOptions, onRuntimeChange: () => void = () => {}): Relay {
  const { recorder, clientInput, clientOutput } = options;
  const child = spawn(options.program, [...options.args], {
    stdio: ['pipe', 'pipe', options.stderr],
    detached: true,
    env: options.env ?? process.env,
  });
  const runtime = new RuntimeTracker(child, onRuntimeChange);
  const childStdin = child.stdin!;
  const childStdout = child.stdout!;
  // A runtime that exits stops reading: its stdin fails with EPIPE, which is not ours to report.
  childStdin.on('error', () => {});
  // A client that stops reading breaks our output: the runtime then sees its own stdout break.
  clientOutput.on('error', () => childStdout.destroy());

  forward(clientInput, childStdin, (chunk) => recorder.push('clientToServer', chunk));
  clientInput.on('end', () => {
    recorder.endOfStream('clientToServer');
    childStdin.end();
  });
  childStdout.once('data', () => runtime.wrote());
  forward(childStdout, clientOutput, (chunk) => recorder.push('serverToClient', chunk));
  const stdoutDone = new Promise<void>((resolve) => {
    childStdout.on('end', () => {
      recorder.endOfStream('serverToClient');
      if (options.endClientOutput) clientOutput.end();
      resolve();
    });
    childStdout.on('close', resolve);
  });

  const ended = new Promise<RelayEnd>((resolve) => {
    child.on('error', (error) => {
      if (child.pid === undefined) {
        runtime.end({ exitCode: null, signal: null });
        resolve({ exitCode: null, signal: null, spawnError: error });
      }
    });
    child.on('exit', (exitCode, signal) => {
      const end = runtime.end({ exitCode, signal });
      void stdoutDone.then(() => resolve(end));
    });
  });
  const killAll = (signal: NodeJS.Signals): void => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      child.kill(signal);
    }
  };
  return { child, runtime, ended, killAll };
}

/** The `exit` record's members for how the runtime ended (docs/trace-format.md). */
export function traceFinish(end: RelayEnd): TraceFinish {
  const { launcher } = end;
  return {
    exitCode: end.exitCode,
    signal: end.signal,
    ...(end.pid === undefined ? {} : { pid: end.pid }),
    ...(launcher === undefined
      ? {}
      : {
          launcher: {
            pid: launcher.pid,
            command: launcher.command,
            exitCode: launcher.exitCode,
            signal: launcher.signal,
          },
        }),
    ...(end.spawnError === undefined ? {} : { spawnError: end.spawnError.message }),
  };
}

/**
 * Copies chunks from `from` to `to` as they come, then shows each to `record`. Back-pressure is
 * the destination's: a full destination pauses the source until it drains, as a pipe would.
 */
function forward(from: Readable, to: Writable, record: (chunk: Buffer) => void): void {
  from.on('data', (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    if (!to.destroyed && !to.write(bytes)) {
      from.pause();
      to.once('drain', () => from.resume());
    }
    record(bytes);
  });
}

/** The signals a proxy passes on to its runtime. */
export const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = [
  'SIGINT',
  'SIGTERM',
  'SIGHUP',
  'SIGQUIT',
  'SIGUSR1',
  'SIGUSR2',
];

/** Direction names, for messages. */
export const DIRECTION_ARROWS: Record<TraceDirection, string> = {
  clientToServer: 'client → runtime',
  serverToClient: 'runtime → client',
};
