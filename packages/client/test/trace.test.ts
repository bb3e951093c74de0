// The `trace` option over real pipes: the client records its own connection to a real runtime, and
// each record is checked against the bytes that really went by, captured independently by `tee` on
// both sides of the runtime.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TraceExit, TraceFrame, TraceHeader, TraceRecord } from '@dsh-sdk/protocol';
import { afterEach, describe, expect, test } from 'vitest';
import { CLIENT_RECORDER, RuntimeExitedError } from '../src/index.js';
import { REFERENCE_RUNTIME_LAUNCHER } from '../src/runtime-launcher.js';
import { fakeRuntime, startClient, stopClients } from './helpers/clients.js';
import { budgetMs } from './helpers/time-budget.js';

afterEach(stopClients);

interface Capture {
  readonly dir: string;
  /** The runtime behind two `tee`s: what the client wrote and what the runtime wrote, byte for byte. */
  readonly command: string[];
  readonly sent: () => Buffer;
  readonly received: () => Buffer;
  readonly trace: string;
}

function capture(runtime: readonly string[]): Capture {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-sdk-client-trace-'));
  const script = 'set -o pipefail; tee "$1" | "${@:3}" | tee "$2"';
  return {
    dir,
    command: [
      'bash',
      '-c',
      script,
      'tee-runtime',
      join(dir, 'sent'),
      join(dir, 'received'),
      ...runtime,
    ],
    sent: () => readFileSync(join(dir, 'sent')),
    received: () => readFileSync(join(dir, 'received')),
    trace: join(dir, 'client.trace.ndjson'),
  };
}

function readRecords(path: string): { lines: string[]; records: TraceRecord[] } {
  const lines = readFileSync(path, 'utf8').split('\n');
  expect(lines.pop()).toBe('');
  return { lines, records: lines.map((line) => JSON.parse(line) as TraceRecord) };
}

/**
 * Every non-blank line of `bytes`, with its 1-based number, checked against the frames of one
 * direction, in order: line number, size, and the content exactly as sent.
 */
function expectFramesMatch(
  lines: readonly string[],
  records: readonly TraceRecord[],
  dir: TraceFrame['dir'],
  bytes: Buffer,
): TraceFrame[] {
  const wire = bytes.toString('utf8').split('\n');
  expect(wire.pop()).toBe(''); // every line was terminated
  const expected = wire
    .map((text, index) => ({ text: text.replace(/\r$/, ''), line: index + 1, raw: text }))
    .filter(({ text }) => text !== '');
  const frames = records
    .map((record, index) => ({ record, text: lines[index]! }))
    .filter(({ record }) => record.type === 'frame' && record.dir === dir);
  expect(frames.map(({ record }) => (record as TraceFrame).line)).toEqual(
    expected.map((e) => e.line),
  );
  frames.forEach(({ record, text }, index) => {
    const frame = record as TraceFrame;
    const sent = expected[index]!;
    expect(frame.bytes).toBe(Buffer.byteLength(sent.raw));
    if (frame.json !== undefined) expect(text.endsWith(`,"json":${sent.text}}`)).toBe(true);
    else expect(frame.text).toBe(sent.text);
  });
  return frames.map(({ record }) => record as TraceFrame);
}

describe('a client records its own connection', () => {
  test('a delegate turn with the reference runtime, record by record against the bytes', async () => {
    const wire = capture([REFERENCE_RUNTIME_LAUNCHER]);
    const client = await startClient({ command: wire.command, trace: wire.trace });
    const result = await client.run('/delegate hello child', {
      sessionId: 's1',
      timeoutMs: budgetMs(20_000),
    });
    expect(result.finishReason).toBe('completed');
    const report = await client.shutdown({ timeoutMs: 1000 });
    expect(report.hasExited).toBe(true);

    const { lines, records } = readRecords(wire.trace);
    const header = records[0] as TraceHeader;
    expect(header).toMatchObject({ type: 'header', format: 'dsh-sdk-trace', version: 1 });
    expect(header.recorder).toBe(CLIENT_RECORDER);
    expect(header.command).toEqual(wire.command);
    const sent = expectFramesMatch(lines, records, 'clientToServer', wire.sent());
    const received = expectFramesMatch(lines, records, 'serverToClient', wire.received());
    expect(sent.map((f) => f.method)).toEqual(['initialize', 'session/prompt', 'shutdown']);
    expect(received.some((f) => f.method === 'subagent.started')).toBe(true);
    // Each request's answer is linked to it, nothing is wrong, and the exit closes the trace.
    for (const request of sent) {
      const answer = received.find((f) => f.request === request.seq)!;
      expect(answer).toMatchObject({ id: request.id, method: request.method, kind: 'result' });
    }
    expect(records.flatMap((r) => (r.type === 'frame' ? (r.findings ?? []) : []))).toEqual([]);
    const exit = records.at(-1) as TraceExit;
    expect(exit).toMatchObject({ type: 'exit', exitCode: client.exit!.exitCode, findings: 0 });
    expect(exit.frames).toEqual({ clientToServer: sent.length, serverToClient: received.length });
    expect(
      records
        .filter((r) => r.type === 'end-of-stream')
        .map((r) => r.dir)
        .sort(),
    ).toEqual(['clientToServer', 'serverToClient']);
  });

  test('invalid frames from the runtime are recorded raw, with their findings', async () => {
    const wire = capture(fakeRuntime('garbage'));
    const findings: string[] = [];
    const client = await startClient({
      command: wire.command,
      trace: { path: wire.trace, onFinding: (finding) => findings.push(finding.reason) },
    });
    await client.run('hello', { sessionId: 's1', timeoutMs: budgetMs(10_000) });
    await client.shutdown({ timeoutMs: 500 });

    const { lines, records } = readRecords(wire.trace);
    const received = expectFramesMatch(lines, records, 'serverToClient', wire.received());
    expectFramesMatch(lines, records, 'clientToServer', wire.sent());
    const invalid = received.filter((f) => f.findings !== undefined);
    expect(invalid[0]).toMatchObject({ text: '  this is not json' });
    expect(new Set(invalid.map((f) => f.findings!.map((x) => x.reason).join()))).toEqual(
      new Set(['invalid-json', 'batch-unsupported']),
    );
    expect(findings).toEqual(invalid.flatMap((f) => f.findings!.map((x) => x.reason)));
    expect((records.at(-1) as TraceExit).findings).toBe(findings.length);
  });

  test('a runtime that dies: the trace is complete, and ends with its exit code', async () => {
    // No tee here: the first one would keep the pipeline alive after the runtime died.
    const wire = capture(fakeRuntime('die-mid-turn'));
    const client = await startClient({ command: fakeRuntime('die-mid-turn'), trace: wire.trace });
    await expect(client.run('hello', { sessionId: 's1' })).rejects.toBeInstanceOf(
      RuntimeExitedError,
    );
    // Complete without a shutdown: the runtime's exit finishes the trace.
    await expect.poll(() => readFileSync(wire.trace, 'utf8').includes('"type":"exit"')).toBe(true);
    const { records } = readRecords(wire.trace);
    expect(records.at(-1)).toMatchObject({ type: 'exit', exitCode: 3, signal: null });
    const frames = records.filter((r): r is TraceFrame => r.type === 'frame');
    expect(frames.filter((f) => f.dir === 'serverToClient').map((f) => f.method)).toEqual([
      'initialize',
      'session/prompt',
      'session.status',
      'session.event',
      'session.event',
      'session.event',
    ]);
  });

  test('a trace file that cannot be written is reported, and the connection is untouched', async () => {
    const errors: Error[] = [];
    const client = await startClient({
      command: [REFERENCE_RUNTIME_LAUNCHER],
      trace: { path: '/nonexistent-directory/run.trace.ndjson', onError: (e) => errors.push(e) },
    });
    const result = await client.run('still here', { sessionId: 's1', timeoutMs: budgetMs(20_000) });
    expect(result.finishReason).toBe('completed');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/ENOENT/);
    expect((await client.shutdown()).hasExited).toBe(true);
  });
});
