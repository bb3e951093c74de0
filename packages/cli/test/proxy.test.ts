// dsh-sdk trace over real pipes: every byte passes unchanged both ways (the runtime is `cat`, so
// what the client sends comes back), and each line is recorded with the transport's own verdict.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIAGNOSTIC_REASONS } from '@dsh-sdk/protocol';
import type { TraceDirection, TraceFrame } from '@dsh-sdk/protocol';
import { describe, expect, test } from 'vitest';
import { DSH_SDK, framesOf, readTraceFile, splitAt, tempDir, VECTORS } from './helpers/cli.js';
import type { Run } from './helpers/cli.js';

/**
 * Runs `dsh-sdk trace ARGS -- cat` and sends `chunks` one at a time, each once everything before
 * it came back: so no two chunks reach the proxy in one read, however loaded the machine is.
 */
async function echoThroughProxy(args: readonly string[], chunks: readonly Buffer[]): Promise<Run> {
  const proxy = spawn(DSH_SDK, ['trace', ...args, '--', 'cat'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stdout: Buffer[] = [];
  let stderr = '';
  let received = 0;
  let echoed: { readonly bytes: number; readonly resolve: () => void } | undefined;
  proxy.stdout.on('data', (chunk: Buffer) => {
    stdout.push(chunk);
    received += chunk.length;
    if (echoed !== undefined && received >= echoed.bytes) {
      echoed.resolve();
      echoed = undefined;
    }
  });
  proxy.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  proxy.stdin.on('error', () => {});
  const closed = once(proxy, 'close') as Promise<[number | null, NodeJS.Signals | null]>;
  let sent = 0;
  for (const chunk of chunks) {
    sent += chunk.length;
    const bytes = sent;
    const back = new Promise<void>((resolve) => (echoed = { bytes, resolve }));
    proxy.stdin.write(chunk);
    await Promise.race([back, closed]);
  }
  proxy.stdin.end();
  const [code, signal] = await closed;
  return { code, signal, stdout: Buffer.concat(stdout), stderr };
}

const FRAMING = join(VECTORS, 'framing/read');
const CASES = readdirSync(FRAMING)
  .filter((f) => f.endsWith('.ndjson'))
  .map((f) => f.slice(0, -'.ndjson'.length));

interface FramingExpectation {
  readonly maxFrameBytes?: number;
  readonly splitAt?: number[];
  readonly reports: { line: number; reason: string; message: string }[];
  readonly inputEnds?: boolean;
}

/** Reasons a line gets from the line reader and the classifier alone (no pending requests). */
const LINE_REASONS = new Set<string>(
  DIAGNOSTIC_REASONS.filter(
    (r) =>
      r !== 'unknown-response-id' &&
      r !== 'invalid-notification-params' &&
      r !== 'notification-handler-failed',
  ),
);

function lineFindings(
  frames: readonly TraceFrame[],
  dir: TraceDirection,
): { line: number; reason: string; message: string }[] {
  return frames
    .filter((f) => f.dir === dir)
    .flatMap((f) =>
      (f.findings ?? [])
        .filter((x) => LINE_REASONS.has(x.reason))
        // The recorder adds the parser's words to `invalid-json`, as a transport's `detail`.
        .map((x) => ({ line: f.line, reason: x.reason, message: x.message.split(': ')[0] ?? '' })),
    );
}

describe('dsh-sdk trace passes the framing vectors through byte for byte', () => {
  test.concurrent.each(CASES)('framing/read/%s', async (name) => {
    const bytes = readFileSync(join(FRAMING, `${name}.ndjson`));
    const expected = JSON.parse(
      readFileSync(join(FRAMING, `${name}.expect.json`), 'utf8'),
    ) as FramingExpectation;
    const trace = join(tempDir(), 'run.trace.ndjson');
    const limit =
      expected.maxFrameBytes === undefined
        ? []
        : ['--max-frame-bytes', String(expected.maxFrameBytes)];
    const run = await echoThroughProxy(
      ['--quiet', '--out', trace, ...limit],
      splitAt(bytes, expected.splitAt ?? []),
    );
    expect(run.code).toBe(0);
    expect(run.stdout.equals(bytes)).toBe(true);

    const frames = framesOf(readTraceFile(trace));
    // The stream always ends here; a vector whose input stays open has no report for its last,
    // unterminated line, which the recorder reports as cut short.
    const terminatedLines = bytes.filter((b) => b === 0x0a).length;
    for (const dir of ['clientToServer', 'serverToClient'] as const) {
      const found = lineFindings(frames, dir);
      const open =
        expected.inputEnds === false ? found.filter((f) => f.line > terminatedLines) : [];
      expect(open.every((f) => f.reason === 'truncated-frame')).toBe(true);
      expect(found.filter((f) => !open.includes(f))).toEqual(
        expected.reports.filter((r) => LINE_REASONS.has(r.reason)),
      );
    }
    // Each recorded JSON frame is the line as sent.
    const lines = bytes.toString('latin1').split('\n');
    for (const frame of frames.filter((f) => f.json !== undefined)) {
      const line = Buffer.from(lines[frame.line - 1]!, 'latin1')
        .toString('utf8')
        .replace(/\r$/, '');
      expect(frame.json).toEqual(JSON.parse(line));
      expect(frame.bytes).toBe(Buffer.byteLength(lines[frame.line - 1]!, 'latin1'));
    }
  });
});

function bigPromptLine(targetBytes: number): Buffer {
  // Text with two-, three- and four-byte characters, so chunk boundaries fall inside them.
  const unit = 'é€😀abc';
  const text = unit.repeat(Math.ceil(targetBytes / Buffer.byteLength(unit)));
  const frame = {
    jsonrpc: '2.0',
    id: 1,
    method: 'session/prompt',
    params: { sessionId: 's1', contentBlocks: [{ type: 'text', text }] },
  };
  return Buffer.from(`${JSON.stringify(frame)}\r\n`);
}

describe('dsh-sdk trace with big frames', () => {
  test('an 8 MiB frame with split UTF-8 and CRLF passes unchanged and is recorded whole', async () => {
    const line = bigPromptLine(8 * 1024 * 1024);
    const chunks = splitAt(line, [1, 2, 1000, 65_537, 1_000_001, 4_000_003, line.length - 1]);
    const trace = join(tempDir(), 'big.trace.ndjson');
    const run = await echoThroughProxy(['--out', trace], chunks);
    expect(run.code).toBe(0);
    expect(run.stdout.equals(line)).toBe(true);
    const frames = framesOf(readTraceFile(trace));
    // `cat` sends the request back, so the client is sent a request of a client method.
    expect(frames.map((f) => [f.dir, f.bytes, (f.findings ?? []).map((x) => x.reason)])).toEqual([
      ['clientToServer', line.length - 1, []],
      ['serverToClient', line.length - 1, ['wrong-direction']],
    ]);
    expect(frames[0]!.json).toEqual(JSON.parse(line.toString('utf8')));
  });

  test('a line over the frame limit is recorded by its size and first bytes, and still passes', async () => {
    const line = bigPromptLine(3 * 1024 * 1024);
    const trace = join(tempDir(), 'over.trace.ndjson');
    const run = await echoThroughProxy(
      ['--quiet', '--out', trace, '--max-frame-bytes', String(1024 * 1024), '--head-bytes', '64'],
      splitAt(line, [100_000, 2_000_000]),
    );
    expect(run.stdout.equals(line)).toBe(true);
    const [first] = framesOf(readTraceFile(trace));
    expect(first).toMatchObject({
      bytes: line.length - 1,
      findings: [{ reason: 'frame-too-large' }],
    });
    expect(Buffer.from(first!.head!, 'base64').equals(line.subarray(0, 64))).toBe(true);
    expect(first!.json).toBeUndefined();
  });
});

describe('dsh-sdk trace memory', () => {
  test('stays bounded while a 256 MiB line passes through', async () => {
    const trace = join(tempDir(), 'huge.trace.ndjson');
    const child = spawn(
      DSH_SDK,
      ['trace', '--quiet', '--out', trace, '--max-frame-bytes', String(1 << 20), '--', 'cat'],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    let received = 0;
    child.stdout.on('data', (chunk: Buffer) => (received += chunk.length));
    let peakKiB = 0;
    const sample = (): void => {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        peakKiB = Math.max(peakKiB, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
      } catch {
        // The process has exited.
      }
    };
    const sampler = setInterval(sample, 20);
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const piece = Buffer.alloc(1 << 20, 'x');
    const total = 256;
    for (let i = 0; i < total; i++) {
      sample();
      if (!child.stdin.write(piece))
        await new Promise((resolve) => child.stdin.once('drain', resolve));
    }
    child.stdin.end('\n');
    expect(await exited).toBe(0);
    clearInterval(sampler);
    expect(received).toBe(total * (1 << 20) + 1);
    const [frame] = framesOf(readTraceFile(trace));
    expect(frame).toMatchObject({
      bytes: total * (1 << 20),
      findings: [{ reason: 'frame-too-large' }],
    });
    // Node itself takes some 50 MB; holding the line would take 256 MB more.
    console.log(`proxy peak RSS while 256 MiB passed: ${(peakKiB / 1024).toFixed(0)} MiB`);
    expect(peakKiB).toBeGreaterThan(0);
    expect(peakKiB / 1024).toBeLessThan(160);
  });
});
