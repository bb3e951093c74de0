import { describe, expect, test } from 'vitest';
import { Method } from '../src/gen/methods.gen.js';
import { TRACE_FORMAT, TRACE_FORMAT_VERSION, TraceRecorder } from '../src/index.js';
import type {
  TraceDirection,
  TraceFinding,
  TraceFindingRecord,
  TraceFrame,
  TraceRecord,
} from '../src/index.js';

interface Recording {
  readonly recorder: TraceRecorder;
  readonly lines: string[];
  readonly records: () => TraceRecord[];
  readonly frames: () => TraceFrame[];
  readonly reported: { finding: TraceFinding; seq: number }[];
  send(dir: TraceDirection, ...chunks: (string | Buffer)[]): void;
}

function record(
  options: { maxFrameBytes?: number; headBytes?: number; maxPending?: number } = {},
): Recording {
  const lines: string[] = [];
  const reported: { finding: TraceFinding; seq: number }[] = [];
  let clock = 0;
  const recorder = new TraceRecorder({
    write: (line) => lines.push(line),
    onFinding: (finding, context) => reported.push({ finding, seq: context.seq }),
    recorder: 'test',
    now: () => (clock += 1.5),
    ...(options.maxFrameBytes === undefined ? {} : { maxFrameBytes: options.maxFrameBytes }),
    ...(options.headBytes === undefined ? {} : { headBytes: options.headBytes }),
    ...(options.maxPending === undefined ? {} : { maxPendingRequests: options.maxPending }),
  });
  const records = (): TraceRecord[] => lines.map((l) => JSON.parse(l) as TraceRecord);
  return {
    recorder,
    lines,
    records,
    frames: () => records().filter((r): r is TraceFrame => r.type === 'frame'),
    reported,
    send(dir, ...chunks) {
      for (const chunk of chunks)
        recorder.push(dir, typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    },
  };
}

const c2s = 'clientToServer';
const s2c = 'serverToClient';
const line = (value: unknown): string => `${JSON.stringify(value)}\n`;
const initialize = (id: unknown) => ({
  jsonrpc: '2.0',
  id,
  method: Method.initialize,
  params: { cwd: '/w', provider: 'echo', model: 'echo-1' },
});
const initializeResult = (id: unknown) => ({
  jsonrpc: '2.0',
  id,
  result: { serverInfo: { name: 'deepseek-harness-sdk-runtime', version: '0.1.0' } },
});
const reasons = (frame: TraceFrame | undefined) => (frame?.findings ?? []).map((f) => f.reason);

describe('TraceRecorder', () => {
  test('starts with a versioned header and ends with an exit record', () => {
    const r = record({ maxFrameBytes: 4096, headBytes: 16 });
    r.recorder.finish({ exitCode: 3, signal: null });
    const [header, ...rest] = r.records();
    expect(header).toMatchObject({
      type: 'header',
      format: TRACE_FORMAT,
      version: TRACE_FORMAT_VERSION,
      recorder: 'test',
      maxFrameBytes: 4096,
      headBytes: 16,
    });
    expect(rest.map((x) => x.type)).toEqual(['end-of-stream', 'end-of-stream', 'exit']);
    expect(rest.at(-1)).toMatchObject({
      exitCode: 3,
      signal: null,
      frames: { clientToServer: 0, serverToClient: 0 },
      findings: 0,
    });
  });

  test('records a frame with its direction, time, line, size and parsed JSON', () => {
    const r = record();
    r.send(c2s, line(initialize(1)));
    const [frame] = r.frames();
    expect(frame).toEqual({
      type: 'frame',
      seq: 0,
      dir: c2s,
      t: 1.5,
      line: 1,
      bytes: line(initialize(1)).length - 1,
      kind: 'request',
      method: Method.initialize,
      id: 1,
      json: initialize(1),
    });
  });

  test('pairs a response with its request: method, request seq and latency', () => {
    const r = record();
    r.send(c2s, line(initialize(7)));
    r.send(s2c, line(initializeResult(7)));
    const [, response] = r.frames();
    expect(response).toMatchObject({
      kind: 'result',
      id: 7,
      method: Method.initialize,
      request: 0,
      latencyMs: 1.5,
    });
    expect(response?.findings).toBeUndefined();
  });

  test('a string id never answers a numeric one', () => {
    const r = record();
    r.send(c2s, line(initialize(1)));
    r.send(s2c, line(initializeResult('1')));
    expect(reasons(r.frames()[1])).toEqual(['unknown-response-id']);
    r.recorder.finish();
    const unanswered = r.records().filter((x): x is TraceFindingRecord => x.type === 'finding');
    expect(unanswered).toMatchObject([
      { frame: 0, dir: c2s, finding: { reason: 'unanswered-request' } },
    ]);
  });

  test('checks params, results and notifications with the generated validators', () => {
    const r = record();
    r.send(
      c2s,
      line({
        ...initialize(1),
        params: { cwd: '/w', provider: 'echo', model: 'echo-1', maxTokens: 0 },
      }),
    );
    r.send(
      s2c,
      line({
        jsonrpc: '2.0',
        id: 1,
        result: { serverInfo: { name: 'deepseek-harness-sdk-runtime' } },
      }),
    );
    r.send(
      s2c,
      line({
        jsonrpc: '2.0',
        method: Method.sessionStatus,
        params: { sessionId: 's', status: 'busy' },
      }),
    );
    const [request, response, notification] = r.frames();
    expect(request?.findings).toMatchObject([
      { reason: 'invalid-params', violations: [{ pointer: '/maxTokens' }] },
    ]);
    expect(response?.findings).toMatchObject([
      { reason: 'invalid-result', violations: [{ pointer: '/serverInfo/version' }] },
    ]);
    expect(notification?.findings).toMatchObject([
      { reason: 'invalid-notification-params', violations: [{ pointer: '/status' }] },
    ]);
    expect(r.reported.map((x) => [x.seq, x.finding.reason])).toEqual([
      [0, 'invalid-params'],
      [1, 'invalid-result'],
      [2, 'invalid-notification-params'],
    ]);
  });

  test('a method without params takes absent params; unknown methods, directions and kinds are findings', () => {
    const r = record();
    r.send(c2s, line({ jsonrpc: '2.0', id: 1, method: Method.shutdown }));
    r.send(c2s, line({ jsonrpc: '2.0', id: 2, method: 'session/nonsense', params: {} }));
    r.send(
      c2s,
      line({
        jsonrpc: '2.0',
        method: Method.sessionStatus,
        params: { sessionId: 's', status: 'idle' },
      }),
    );
    r.send(
      s2c,
      line({
        jsonrpc: '2.0',
        id: 9,
        method: Method.sessionStatus,
        params: { sessionId: 's', status: 'idle' },
      }),
    );
    const frames = r.frames();
    expect(frames.map(reasons)).toEqual([
      [],
      ['unknown-method'],
      ['wrong-direction'],
      ['wrong-kind'],
    ]);
  });

  test('a reused id of a pending request is a finding', () => {
    const r = record();
    r.send(c2s, line(initialize(1)), line(initialize(1)));
    expect(r.frames().map(reasons)).toEqual([[], ['duplicate-request-id']]);
  });

  test('lines that are not messages keep their text and get the transport reasons', () => {
    const r = record();
    r.send(c2s, 'not json\n', '[1]\n', '"s"\n', '{"id":null,"method":"x"}\n', '\r\n', '{}\n');
    const frames = r.frames();
    expect(frames.map(reasons)).toEqual([
      ['invalid-json'],
      ['batch-unsupported'],
      ['not-an-object'],
      ['invalid-id'],
      ['invalid-message'],
    ]);
    expect(frames[0]?.text).toBe('not json');
    // The blank line is not recorded, but counted: `{}` is line 6.
    expect(frames.map((f) => f.line)).toEqual([1, 2, 3, 4, 6]);
  });

  test('a line over the limit or not UTF-8 keeps its size and first bytes only', () => {
    const r = record({ maxFrameBytes: 32, headBytes: 8 });
    const big = `{"jsonrpc":"2.0","method":"${'x'.repeat(100)}"}`;
    r.send(
      c2s,
      big.slice(0, 20),
      big.slice(20),
      '\n',
      Buffer.from([0x7b, 0xff, 0x7d, 0x0a]),
      '{"id":',
    );
    r.recorder.endOfStream(c2s);
    const frames = r.frames();
    expect(frames.map(reasons)).toEqual([
      ['frame-too-large'],
      ['invalid-utf8'],
      ['truncated-frame'],
    ]);
    expect(frames.map((f) => f.bytes)).toEqual([big.length, 3, 6]);
    expect(frames.map((f) => Buffer.from(f.head ?? '', 'base64').toString('latin1'))).toEqual([
      big.slice(0, 8),
      '{\xff}',
      '{"id":',
    ]);
    for (const frame of frames) expect(frame.json).toBeUndefined();
  });

  test('a JSON line with a bare CR as whitespace is recorded without the CR', () => {
    const r = record();
    r.send(
      s2c,
      '{"jsonrpc":"2.0",\r"method":"session.status","params":{"sessionId":"s","status":"idle"}}\n',
    );
    expect(r.lines[1]).not.toContain('\r');
    expect(r.frames()[0]?.json).toEqual({
      jsonrpc: '2.0',
      method: 'session.status',
      params: { sessionId: 's', status: 'idle' },
    });
  });

  test('pending requests are bounded: the oldest is given up on with a report', () => {
    const r = record({ maxPending: 2 });
    r.send(c2s, line(initialize(1)), line(initialize(2)), line(initialize(3)));
    const findings = r.records().filter((x): x is TraceFindingRecord => x.type === 'finding');
    expect(findings).toMatchObject([{ frame: 0, finding: { reason: 'unanswered-request' } }]);
    r.send(s2c, line(initializeResult(2)), line(initializeResult(3)));
    expect(r.frames().slice(3).map(reasons)).toEqual([[], []]);
  });
});
