// `dsh-sdk trace --out FILE -- <runtime command>`: a transparent stdio proxy that records.
import { constants } from 'node:os';
import { TraceFileWriter, TraceRecorder } from '@dsh-sdk/protocol';
import type { TraceFinding, TraceFindingContext } from '@dsh-sdk/protocol';
import { integerOption, parseVerbArgs, runtimeCommand, UsageError } from './cli-args.js';
import { flushStdio } from './flush-output.js';
import { DIRECTION_ARROWS, FORWARDED_SIGNALS, startRelay, traceFinish } from './relay.js';
import type { Relay, RelayEnd } from './relay.js';

export const TRACE_HELP = `Usage: dsh-sdk trace --out FILE [options] -- <runtime command> [args...]

Runs the runtime with this process's stdio, passing every byte through unchanged in both
directions, and records each frame (direction, time, size, line, content) to FILE in the trace
format (docs/trace-format.md). Frames are checked against the IDL; violations are recorded and
printed to stderr, and never change what passes. The runtime's stderr passes through, signals
are forwarded, stdin's end reaches the runtime, and the exit status is the command's; the proxy
exits only once all the runtime wrote has been delivered. Behind a launcher that stays its
parent (npx, a script without exec) the runtime's own pid and status are recorded, found on
Linux in /proc (docs/cli.md, "The runtime behind a launcher").

Options:
  --out FILE              where the trace goes (required)
  --max-frame-bytes N     longest line decoded, in bytes (default: the protocol's, 64 MiB);
                          longer ones are recorded by size and first bytes
  --head-bytes N          first bytes kept of a line that is not decoded (default 1024)
  --quiet                 do not print findings to stderr (they are still recorded)
  -h, --help              show this help`;

const OPTIONS = {
  out: { type: 'string' },
  'max-frame-bytes': { type: 'string' },
  'head-bytes': { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Signals Node does not die of: it ignores SIGPIPE, and SIGUSR1 starts its debugger. */
const SURVIVED_BY_NODE: ReadonlySet<NodeJS.Signals> = new Set(['SIGPIPE', 'SIGUSR1']);

/** Formats a finding for stderr: where it was, then what. */
export function describeFinding(finding: TraceFinding, context: TraceFindingContext): string {
  const where = [DIRECTION_ARROWS[context.dir]];
  if (context.line > 0) where.push(`line ${context.line}`);
  where.push(`frame ${context.seq}`);
  if (context.method !== undefined) where.push(context.method);
  if (context.id !== undefined) where.push(`id ${JSON.stringify(context.id)}`);
  return `${where.join(' ')}: ${finding.reason}: ${finding.message}`;
}

/**
 * Passes the signals a proxy forwards on to the runtime while it runs (to the runtime itself when
 * a launcher stayed in between). Once it has exited (its last output may still be on its way to
 * the client), a signal is this process's own again: `beforeOwnSignal` completes the recording,
 * then the signal takes its course. Returns what stops the forwarding.
 */
function forwardSignals(relay: () => Relay | undefined, beforeOwnSignal: () => void): () => void {
  const handlers = FORWARDED_SIGNALS.map((signal) => {
    const handler = (): void => {
      const child = relay()?.child;
      if (child?.exitCode === null && child.signalCode === null) {
        relay()!.runtime.signal(signal);
        return;
      }
      stop();
      beforeOwnSignal();
      if (!SURVIVED_BY_NODE.has(signal)) process.kill(process.pid, signal);
    };
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  const stop = (): void => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
  return stop;
}

export async function runTrace(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseVerbArgs(args, OPTIONS, true);
  if (values.help) {
    process.stdout.write(`${TRACE_HELP}\n`);
    return 0;
  }
  if (values.out === undefined) throw new UsageError('--out FILE is required');
  const [program, programArgs] = runtimeCommand(positionals, 'trace');
  const maxFrameBytes = integerOption('max-frame-bytes', values['max-frame-bytes'], 1);
  const headBytes = integerOption('head-bytes', values['head-bytes'], 0);
  const log = (line: string): void => void process.stderr.write(`dsh-sdk trace: ${line}\n`);

  const writer = new TraceFileWriter(values.out, {
    onError: (error) => log(`recording stopped, cannot write ${values.out}: ${error.message}`),
  });
  const recorder = new TraceRecorder({
    write: writer.write,
    recorder: 'dsh-sdk trace',
    command: [program, ...programArgs],
    ...(maxFrameBytes === undefined ? {} : { maxFrameBytes }),
    ...(headBytes === undefined ? {} : { headBytes }),
    ...(values.quiet ? {} : { onFinding: (f, c) => log(describeFinding(f, c)) }),
  });
  // Forwarding is in place before the runtime starts: no signal can slip between the two.
  let relay: Relay | undefined;
  let finished = false;
  const finishRecording = (end: RelayEnd): void => {
    if (finished) return;
    finished = true;
    recorder.finish(traceFinish(end));
    writer.close(); // synchronous: the trace is complete even if this process dies next
  };
  const stopForwarding = forwardSignals(
    () => relay,
    () => {
      const child = relay?.child;
      const started = { exitCode: child?.exitCode ?? null, signal: child?.signalCode ?? null };
      finishRecording(relay?.runtime.end(started) ?? started);
    },
  );
  relay = startRelay({
    program,
    args: programArgs,
    clientInput: process.stdin,
    clientOutput: process.stdout,
    endClientOutput: false,
    recorder,
    stderr: 'inherit',
  });
  const end = await relay.ended;
  stopForwarding();
  finishRecording(end);
  if (end.spawnError) {
    log(`cannot start ${program}: ${end.spawnError.message}`);
    return 127;
  }
  // Our parent sees what it would have seen without us: the status of the process we started
  // (a launcher's own, when one stayed in between; the trace has the runtime's).
  const { exitCode, signal } = end.launcher ?? end;
  if (signal !== null && !SURVIVED_BY_NODE.has(signal)) {
    // Die the way it died, so our parent sees the same status; main's flush before its exit is
    // skipped that way, so flush what the runtime wrote first.
    await flushStdio();
    process.kill(process.pid, signal);
  }
  // A signal Node does not die of is reported as a shell reports a signal's death.
  if (signal !== null) return 128 + (constants.signals[signal] ?? 0);
  return exitCode ?? 1;
}
