// dsh-sdk trace never cuts the runtime's output short. The runtime is in a long turn of 100 KB
// frames and exits (or dies of a signal) as soon as its stdin has ended, or on SIGTERM; every byte
// it wrote must reach the client before the proxy exits, and every byte the client sent must reach
// the runtime. Over real pipes, run after run: PROXY_TRUNCATION_RUNS runs of each case (default
// 10, and 50 in a row under CI=true, the acceptance: CI's six jobs load its two cores).
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';
import type { TraceRecord } from '@dsh-sdk/protocol';
import { describe, expect, test } from 'vitest';
import { closingFrame, replyFrame } from './fixtures/big-frames.mjs';
import { DSH_SDK, FIXTURES, framesOf, readTraceFile, runCli, tempDir } from './helpers/cli.js';
import { budgetMs } from './helpers/time-budget.js';

/** 50 under CI=true, where five other jobs load the machine: the acceptance, on every CI run. */
const RUNS = Number(
  process.env['PROXY_TRUNCATION_RUNS'] ?? (process.env['CI'] === 'true' ? 50 : 10),
);
const RUNTIME = join(FIXTURES, 'big-frames-runtime.mjs');
const FRAME_BYTES = 100_000;
const FRAMES = 24;
/** How long the client takes over each chunk it reads. */
const CLIENT_PAUSE_MS = 3;
/** A run moves a few MB; this is only a guard against a hang on a slow machine. */
const RUN_TIMEOUT_MS = budgetMs(120_000);

/** What the client sends: big prompt requests, as a client with long prompts would. */
const CLIENT_INPUT = Buffer.concat(
  Array.from({ length: 8 }, (_, i) => {
    const text = `${i} `.repeat(FRAME_BYTES / 4);
    const request = {
      jsonrpc: '2.0',
      id: i + 1,
      method: 'session/prompt',
      params: { sessionId: 's1', contentBlocks: [{ type: 'text', text }] },
    };
    return Buffer.from(`${JSON.stringify(request)}\n`);
  }),
);

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

interface ProxyRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: Buffer;
  readonly stderr: string;
  readonly trace: TraceRecord[];
}

/** Starts `dsh-sdk trace` in front of the big-frames runtime, which ends with `end`. */
function startProxy(end: string): { proxy: ChildProcessWithoutNullStreams; trace: string } {
  const trace = join(tempDir(), 'truncation.trace.ndjson');
  const proxy = spawn(
    DSH_SDK,
    [
      'trace',
      '--quiet',
      '--out',
      trace,
      '--',
      process.execPath,
      RUNTIME,
      String(FRAMES),
      String(FRAME_BYTES),
      end,
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  proxy.stdin.on('error', () => {});
  return { proxy, trace };
}

/** Reads the proxy's stdout and stderr to their end and waits for it to exit. */
async function finish(proxy: ChildProcessWithoutNullStreams, trace: string): Promise<ProxyRun> {
  const stdout: Buffer[] = [];
  let stderr = '';
  proxy.stdout.on('data', (chunk: Buffer) => {
    stdout.push(chunk);
    // A client busy with each chunk: the proxy's output pipe stays full, so when the runtime
    // exits the proxy still has its last bytes queued (the case that was cut off). The pace
    // only makes that case likely; what is asserted holds at any pace.
    proxy.stdout.pause();
    setTimeout(() => proxy.stdout.resume(), CLIENT_PAUSE_MS);
  });
  proxy.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const [code, signal] = (await once(proxy, 'close')) as [number | null, NodeJS.Signals | null];
  return { code, signal, stdout: Buffer.concat(stdout), stderr, trace: readTraceFile(trace) };
}

/** The reply as the runtime wrote it: `sent` frames, then the closing one. */
function expectedReply(sent: number, reason: string, input: Buffer): Buffer {
  const frames = Array.from({ length: sent }, (_, seq) => replyFrame(seq, FRAME_BYTES));
  return Buffer.concat([
    ...frames,
    closingFrame(sent, FRAME_BYTES, reason, input.length, sha256(input)),
  ]);
}

/** Checks the client got `expected` whole, and that the trace recorded each of its frames. */
function expectDelivered(run: ProxyRun, expected: Buffer): void {
  // Sizes first: a cut reply then reads as "so many bytes short", not as a 2 MB diff.
  const ending = (bytes: Buffer): string => bytes.subarray(-1).toString('latin1');
  expect({ bytes: run.stdout.length, lastByte: ending(run.stdout), stderr: run.stderr }).toEqual({
    bytes: expected.length,
    lastByte: '\n',
    stderr: '',
  });
  expect(run.stdout.equals(expected)).toBe(true);

  const lines = expected.toString('utf8').split('\n').slice(0, -1);
  const replies = framesOf(run.trace).filter((f) => f.dir === 'serverToClient');
  expect(replies.map((f) => [f.line, f.bytes])).toEqual(
    lines.map((line, i) => [i + 1, Buffer.byteLength(line)]),
  );
  expect(replies.at(-1)!.json).toEqual(JSON.parse(lines.at(-1)!));
}

const runs = Array.from({ length: RUNS }, (_, i) => i + 1);
/** How the runtime ends after its last frame, and how the proxy then ends: the same way. */
const ENDINGS = [
  { label: 'exit 3', end: '3', code: 3, signal: null },
  { label: 'death by SIGHUP', end: 'SIGHUP', code: null, signal: 'SIGHUP' },
] as const;

describe("dsh-sdk trace delivers all of a runtime's output before it exits", () => {
  test.each(ENDINGS.flatMap((ending) => runs.map((run) => ({ ...ending, run }))))(
    `stdin's end, then a last 100 KB frame and $label: run $run of ${RUNS}`,
    async ({ end, code, signal }) => {
      const { proxy, trace } = startProxy(end);
      // The client sends all it has and closes the proxy's stdin, then reads the reply: by then
      // the turn has filled the pipes and the runtime's exit races the proxy's last writes.
      proxy.stdin.end(CLIENT_INPUT);
      await once(proxy.stdin, 'finish');
      const run = await finish(proxy, trace);

      expect([run.code, run.signal]).toEqual([code, signal]);
      // The closing frame names what the runtime read: all the client sent, before stdin's end.
      expectDelivered(run, expectedReply(FRAMES, 'stdin-end', CLIENT_INPUT));
      const requests = framesOf(run.trace).filter((f) => f.dir === 'clientToServer');
      expect(requests.map((f) => f.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      const exit = run.trace.at(-1);
      expect(exit).toMatchObject({ type: 'exit', exitCode: code, signal });
    },
    RUN_TIMEOUT_MS,
  );

  test.each(runs)(
    `SIGTERM to the proxy mid-turn, then a last frame and exit 143: run %i of ${RUNS}`,
    async () => {
      const { proxy, trace } = startProxy('0');
      // Once the turn is streaming, the proxy is told to stop; it passes SIGTERM on.
      let received = 0;
      proxy.stdout.on('data', (chunk: Buffer) => {
        const before = received;
        received += chunk.length;
        if (before < 5 * FRAME_BYTES && received >= 5 * FRAME_BYTES) proxy.kill('SIGTERM');
      });
      const run = await finish(proxy, trace);

      expect([run.code, run.signal]).toEqual([143, null]);
      const last = run.stdout.toString('utf8').split('\n').at(-2) ?? '';
      // The closing frame says how many came before it (0 when it was cut: the sizes then differ).
      const sent = Number(/"text":"SIGTERM after (\d+) frames/.exec(last)?.[1] ?? 0);
      expectDelivered(run, expectedReply(sent, 'SIGTERM', Buffer.alloc(0)));
      proxy.stdin.end();
    },
    RUN_TIMEOUT_MS,
  );
});

describe('dsh-sdk trace once its runtime has exited', () => {
  test('a runtime dead of a signal Node survives (SIGPIPE) is reported as a shell would: 141', async () => {
    const trace = join(tempDir(), 'sigpipe.trace.ndjson');
    const run = await runCli(['trace', '--out', trace, '--', 'sh', '-c', 'kill -PIPE $$']);
    expect([run.code, run.signal, run.stderr]).toEqual([141, null, '']);
    expect(readTraceFile(trace).at(-1)).toMatchObject({ exitCode: null, signal: 'SIGPIPE' });
  });

  test('a signal is its own: it ends the proxy still relaying the output of what the runtime left', async () => {
    // The runtime exits at once, leaving a process that holds its stdout open: the proxy goes on
    // relaying, but there is no runtime left to pass a signal on to.
    const trace = join(tempDir(), 'gone.trace.ndjson');
    const runtime = 'echo $$ >&2; sleep 30 & exit 0';
    const proxy = spawn(DSH_SDK, ['trace', '--quiet', '--out', trace, '--', 'sh', '-c', runtime], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const [pidLine] = (await once(proxy.stderr, 'data')) as [Buffer];
    const pid = Number(pidLine.toString('utf8'));
    try {
      await gone(pid);
      const exited = once(proxy, 'exit');
      proxy.kill('SIGTERM');
      expect(await exited).toEqual([null, 'SIGTERM']);
      // The recording is complete all the same: it ends with the runtime's own exit.
      expect(readTraceFile(trace).at(-1)).toMatchObject({ type: 'exit', exitCode: 0 });
    } finally {
      // The runtime led its own process group, which the sleep it left is in.
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // The sleep is over already.
      }
    }
  });
});

/** Settles once process `pid` is gone: exited and reaped by its parent. */
async function gone(pid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
