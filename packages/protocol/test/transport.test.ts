import { PassThrough, Writable } from 'node:stream';
import { describe, expect, test, vi } from 'vitest';
import {
  ErrorCode,
  JsonRpcLineTransport,
  JsonRpcResponseError,
  RequestAbortedError,
  RequestTimeoutError,
  TransportClosedError,
} from '../src/index.js';
import type { JsonRpcTransportPeer, RequestContext } from '../src/index.js';
import { createHarness, settle } from './helpers/harness.js';

describe('JsonRpcLineTransport outbound requests', () => {
  test('sends a request with jsonrpc, a numeric id, the method and the params', async () => {
    const { transport, sent } = createHarness();
    transport.start();
    void transport.request('initialize', { cwd: '/tmp' });
    await settle();
    expect(sent).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { cwd: '/tmp' } },
    ]);
  });

  test('numbers requests from 1 upwards', async () => {
    const { transport, sent } = createHarness();
    transport.start();
    void transport.request('a');
    void transport.request('b');
    void transport.request('c');
    await settle();
    expect(sent.map((message) => (message as { id: number }).id)).toEqual([1, 2, 3]);
  });

  test('omits the params member when no params are given', async () => {
    const { transport, sentLines } = createHarness();
    transport.start();
    void transport.request('shutdown');
    await transport.notify('ping');
    await settle();
    expect(sentLines).toEqual([
      '{"jsonrpc":"2.0","id":1,"method":"shutdown"}',
      '{"jsonrpc":"2.0","method":"ping"}',
    ]);
  });

  test('sends null params as null', async () => {
    const { transport, sentLines } = createHarness();
    transport.start();
    await transport.notify('ping', null);
    await settle();
    expect(sentLines).toEqual(['{"jsonrpc":"2.0","method":"ping","params":null}']);
  });

  test('resolves a request with the result of its response', async () => {
    const { transport, send } = createHarness();
    transport.start();
    const response = transport.request<{ name: string }>('initialize', {});
    send({ jsonrpc: '2.0', id: 1, result: { name: 'runtime' } });
    await expect(response).resolves.toEqual({ name: 'runtime' });
  });

  test('matches responses to requests by id, in any order', async () => {
    const { transport, send } = createHarness();
    transport.start();
    const first = transport.request('a');
    const second = transport.request('b');
    send({ id: 2, result: 'second' });
    send({ id: 1, result: 'first' });
    await expect(first).resolves.toBe('first');
    await expect(second).resolves.toBe('second');
  });

  test('rejects a request with a JsonRpcResponseError that keeps the wire error', async () => {
    const { transport, send } = createHarness();
    transport.start();
    const failed = transport.request('initialize', {});
    const withoutData = transport.request('initialize', {});
    const data = [{ pointer: '/maxTokens', message: 'must be >= 1' }];
    send({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid params', data } });
    send({ jsonrpc: '2.0', id: 2, error: { code: -32002, message: 'Not initialized' } });
    const error: unknown = await failed.catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(JsonRpcResponseError);
    expect(error).toMatchObject({
      name: 'JsonRpcResponseError',
      code: -32602,
      wireMessage: 'Invalid params',
      message: 'Invalid params: /maxTokens: must be >= 1',
      data,
    });
    const bare: unknown = await withoutData.catch((reason: unknown) => reason);
    expect(bare).toMatchObject({ code: -32002, message: 'Not initialized' });
    expect(Object.hasOwn(bare as object, 'data')).toBe(false);
  });

  test('keeps "data": null as present', async () => {
    const { transport, send } = createHarness();
    transport.start();
    const failed = transport.request('m');
    send({ id: 1, error: { code: 1, message: 'x', data: null } });
    const error = (await failed.catch((reason: unknown) => reason)) as JsonRpcResponseError;
    expect(Object.hasOwn(error, 'data')).toBe(true);
    expect(error.data).toBeNull();
  });

  test('refuses to send before start()', async () => {
    const { transport, sent } = createHarness();
    await expect(transport.request('m')).rejects.toMatchObject({ reason: 'not-started' });
    await expect(transport.notify('m')).rejects.toBeInstanceOf(TransportClosedError);
    await settle();
    expect(sent).toEqual([]);
  });

  test('rejects a request whose params JSON cannot hold, and keeps working', async () => {
    const { transport, send } = createHarness();
    transport.start();
    await expect(transport.request('m', { big: 1n })).rejects.toBeInstanceOf(TypeError);
    const next = transport.request('m');
    send({ id: 2, result: 'ok' });
    await expect(next).resolves.toBe('ok');
  });
});

describe('JsonRpcLineTransport timeouts and aborts', () => {
  test('rejects a request that times out, then reports its late response as unknown', async () => {
    const { transport, send, diagnostics } = createHarness();
    transport.start();
    const started = performance.now();
    const request = transport.request('slow', undefined, { timeoutMs: 20 });
    await expect(request).rejects.toBeInstanceOf(RequestTimeoutError);
    expect(performance.now() - started).toBeGreaterThanOrEqual(15);
    await expect(request).rejects.toMatchObject({ method: 'slow', id: 1, timeoutMs: 20 });
    send({ id: 1, result: 'late' });
    await settle();
    expect(diagnostics).toEqual([
      expect.objectContaining({ reason: 'unknown-response-id', id: 1, line: 1 }),
    ]);
  });

  test('clears the timer of a request that is answered in time', async () => {
    vi.useFakeTimers();
    try {
      const { transport, send } = createHarness();
      transport.start();
      const request = transport.request('m', undefined, { timeoutMs: 1000 });
      send({ id: 1, result: 'ok' });
      await vi.waitFor(() => expect(vi.getTimerCount()).toBe(0));
      await expect(request).resolves.toBe('ok');
    } finally {
      vi.useRealTimers();
    }
  });

  test('rejects a request whose signal aborts, with the signal reason as cause', async () => {
    const { transport, send, diagnostics } = createHarness();
    transport.start();
    const controller = new AbortController();
    const request = transport.request('m', {}, { signal: controller.signal });
    await settle();
    const reason = new Error('user gave up');
    controller.abort(reason);
    const error: unknown = await request.catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(error).toMatchObject({ method: 'm', id: 1, cause: reason });
    send({ id: 1, result: 'late' });
    await settle();
    expect(diagnostics.map((diagnostic) => diagnostic.reason)).toEqual(['unknown-response-id']);
  });

  test('sends nothing for a signal that is already aborted', async () => {
    const { transport, sent } = createHarness();
    transport.start();
    const request = transport.request('m', {}, { signal: AbortSignal.abort('no') });
    await expect(request).rejects.toMatchObject({ name: 'RequestAbortedError', cause: 'no' });
    await settle();
    expect(sent).toEqual([]);
  });

  test('stops listening to the signal once the request is answered', async () => {
    const { transport, send } = createHarness();
    transport.start();
    const controller = new AbortController();
    const request = transport.request('m', {}, { signal: controller.signal });
    send({ id: 1, result: 'ok' });
    await expect(request).resolves.toBe('ok');
    controller.abort();
    await expect(request).resolves.toBe('ok');
  });

  test('refuses a timeout that is negative or not a number', async () => {
    const { transport } = createHarness();
    transport.start();
    await expect(transport.request('m', {}, { timeoutMs: -1 })).rejects.toBeInstanceOf(RangeError);
    await expect(transport.request('m', {}, { timeoutMs: Number.NaN })).rejects.toBeInstanceOf(
      RangeError,
    );
  });
});

describe('JsonRpcLineTransport inbound requests', () => {
  test('answers a request with the result of its handler', async () => {
    const { transport, send, sent } = createHarness();
    transport.start();
    transport.onRequest('add', (params) => {
      const [a, b] = params as [number, number];
      return a + b;
    });
    send({ jsonrpc: '2.0', id: 'x', method: 'add', params: [2, 3] });
    await vi.waitFor(() => expect(sent).toEqual([{ jsonrpc: '2.0', id: 'x', result: 5 }]));
  });

  test('answers with the resolved value of an async handler', async () => {
    const { transport, send, sent } = createHarness();
    transport.start();
    transport.onRequest('m', async () => ({ ok: true }));
    send({ id: 0, method: 'm' });
    await vi.waitFor(() => expect(sent).toEqual([{ jsonrpc: '2.0', id: 0, result: { ok: true } }]));
  });

  test('answers null when the handler returns nothing', async () => {
    const { transport, send, sentLines } = createHarness();
    transport.start();
    transport.onRequest('shutdown', () => undefined);
    send({ id: 1, method: 'shutdown' });
    await vi.waitFor(() => expect(sentLines).toEqual(['{"jsonrpc":"2.0","id":1,"result":null}']));
  });

  test('passes the params, the id, the method and the line to the handler', async () => {
    const { transport, send } = createHarness();
    transport.start();
    const seen: [unknown, RequestContext][] = [];
    transport.onRequest('m', (params, context) => void seen.push([params, context]));
    const request = { id: 9, method: 'm', params: { a: 1 } };
    send('\n');
    send(request);
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    const [params, context] = seen[0] ?? [];
    expect(params).toEqual({ a: 1 });
    const bytes = JSON.stringify(request).length;
    expect(context).toMatchObject({ id: 9, method: 'm', line: 2, bytes });
    expect(context?.signal.aborted).toBe(false);
  });

  test('answers -32601 for a method without a handler', async () => {
    const { transport, send, sent, diagnostics } = createHarness();
    transport.start();
    send({ jsonrpc: '2.0', id: 4, method: 'nope' });
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: ErrorCode.MethodNotFound, message: 'Method not found: nope' },
    });
    expect(diagnostics).toEqual([]);
  });

  test('answers with the exact code, message and data of a thrown JsonRpcResponseError', async () => {
    const { transport, send, sentLines } = createHarness();
    transport.start();
    const data = [{ pointer: '/cwd', message: "must have required property 'cwd'" }];
    transport.onRequest('initialize', () => {
      throw new JsonRpcResponseError(ErrorCode.InvalidParams, 'Invalid params', { data });
    });
    transport.onRequest('prompt', async () => {
      throw new JsonRpcResponseError(ErrorCode.NotInitialized, 'Not initialized');
    });
    send({ id: 1, method: 'initialize', params: {} });
    send({ id: 2, method: 'prompt', params: {} });
    await vi.waitFor(() => expect(sentLines).toHaveLength(2));
    expect(sentLines).toEqual([
      `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params","data":${JSON.stringify(data)}}}`,
      '{"jsonrpc":"2.0","id":2,"error":{"code":-32002,"message":"Not initialized"}}',
    ]);
  });

  test('answers -32603 with the message of any other error a handler throws or rejects with', async () => {
    const { transport, send, sent } = createHarness();
    transport.start();
    transport.onRequest('sync', () => {
      throw new Error('disk full');
    });
    transport.onRequest('async', () => Promise.reject(new TypeError('bad state')));
    transport.onRequest('string', () => Promise.reject('plain string'));
    send({ id: 1, method: 'sync' });
    send({ id: 2, method: 'async' });
    send({ id: 3, method: 'string' });
    await vi.waitFor(() => expect(sent).toHaveLength(3));
    expect(sent).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'disk full' } },
      { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'bad state' } },
      { jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'plain string' } },
    ]);
  });

  test('answers -32603 when the result cannot be serialized', async () => {
    const { transport, send, sent } = createHarness();
    transport.start();
    transport.onRequest('m', () => ({ big: 10n }));
    send({ id: 1, method: 'm' });
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ id: 1, error: { code: -32603 } });
  });

  test('refuses a second handler for the same method, and unregisters with the disposer', async () => {
    const { transport, send, sent } = createHarness();
    transport.start();
    const dispose = transport.onRequest('m', () => 1);
    expect(() => transport.onRequest('m', () => 2)).toThrow(/already registered/);
    dispose();
    transport.onRequest('m', () => 3);
    send({ id: 1, method: 'm' });
    await vi.waitFor(() => expect(sent).toEqual([{ jsonrpc: '2.0', id: 1, result: 3 }]));
  });

  test('aborts the handler signal when the transport closes', async () => {
    const { transport, send } = createHarness();
    transport.start();
    let signal: AbortSignal | undefined;
    transport.onRequest('m', (_params, context) => {
      signal = context.signal;
      return new Promise(() => {});
    });
    send({ id: 1, method: 'm' });
    await vi.waitFor(() => expect(signal).toBeDefined());
    transport.close();
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBeInstanceOf(TransportClosedError);
  });
});

describe('JsonRpcLineTransport inbound notifications', () => {
  test('hands each notification to its handler, in order', async () => {
    const { transport, send } = createHarness();
    transport.start();
    const seen: unknown[] = [];
    transport.onNotification('session.event', (params, context) => {
      seen.push([params, context.method, context.line]);
    });
    send({ jsonrpc: '2.0', method: 'session.event', params: { seq: 0 } });
    send({ jsonrpc: '2.0', method: 'session.event', params: { seq: 1 } });
    await vi.waitFor(() => expect(seen).toHaveLength(2));
    expect(seen).toEqual([
      [{ seq: 0 }, 'session.event', 1],
      [{ seq: 1 }, 'session.event', 2],
    ]);
  });

  test('reports a notification without a handler as unhandled-notification, never answers it', async () => {
    const { transport, send, diagnostics, sent } = createHarness();
    transport.start();
    const notification = { jsonrpc: '2.0', method: 'unknown.thing', params: {} };
    send(notification);
    await settle();
    expect(diagnostics).toEqual([
      {
        reason: 'unhandled-notification',
        message: 'no handler is registered for unknown.thing',
        line: 1,
        bytes: JSON.stringify(notification).length,
        method: 'unknown.thing',
      },
    ]);
    expect(sent).toEqual([]);
  });

  test('reports a notification handler that throws or rejects, and reads on', async () => {
    const { transport, send, diagnostics } = createHarness();
    transport.start();
    const failure = new Error('handler bug');
    transport.onNotification('sync', () => {
      throw failure;
    });
    transport.onNotification('async', async () => Promise.reject(new Error('later bug')));
    const seen: unknown[] = [];
    transport.onNotification('ok', (params) => void seen.push(params));
    send({ method: 'sync' });
    send({ method: 'async' });
    send({ method: 'ok', params: 1 });
    await vi.waitFor(() => expect(diagnostics).toHaveLength(2));
    expect(seen).toEqual([1]);
    expect(diagnostics[0]).toMatchObject({
      reason: 'notification-handler-failed',
      method: 'sync',
      line: 1,
      cause: failure,
      message: 'the sync handler failed: handler bug',
    });
    expect(diagnostics[1]).toMatchObject({
      reason: 'notification-handler-failed',
      method: 'async',
    });
  });
});

describe('JsonRpcLineTransport diagnostics', () => {
  test('reports every malformed line with its reason and line number, and reads on', async () => {
    const { transport, send, diagnostics } = createHarness({ maxFrameBytes: 64 });
    transport.start();
    const seen: unknown[] = [];
    transport.onNotification('ok', (params) => void seen.push(params));
    send('not json\n');
    send('[1,2]\n');
    send('42\n');
    send('{"id":null,"method":"m"}\n');
    send('{"jsonrpc":"1.0","method":"m"}\n');
    send(Buffer.from([0x7b, 0xff, 0x7d, 0x0a]));
    send(`{"method":"ok","params":"${'x'.repeat(100)}"}\n`);
    send('{"method":"ok","params":NaN}\n');
    send('\r\n');
    send('{"method":"ok","params":"survived"}\n');
    await vi.waitFor(() => expect(seen).toEqual(['survived']));
    expect(diagnostics.map(({ reason, line }) => [reason, line])).toEqual([
      ['invalid-json', 1],
      ['batch-unsupported', 2],
      ['not-an-object', 3],
      ['invalid-id', 4],
      ['invalid-message', 5],
      ['invalid-utf8', 6],
      ['frame-too-large', 7],
      ['invalid-json', 8],
    ]);
    expect(diagnostics[3]).toMatchObject({ method: 'm', bytes: 24 });
    expect(diagnostics[6]).toMatchObject({ bytes: 127 });
    expect(transport.diagnosticCounts).toEqual({
      'invalid-json': 2,
      'batch-unsupported': 1,
      'not-an-object': 1,
      'invalid-id': 1,
      'invalid-message': 1,
      'invalid-utf8': 1,
      'frame-too-large': 1,
    });
  });

  test('reports a response whose id matches no pending request', async () => {
    const { transport, send, diagnostics } = createHarness();
    transport.start();
    const pending = transport.request('m');
    send({ id: '1', result: 'string id is not our numeric 1' });
    send({ id: 99, error: { code: 1, message: 'x' } });
    await vi.waitFor(() => expect(diagnostics).toHaveLength(2));
    expect(diagnostics).toEqual([
      expect.objectContaining({ reason: 'unknown-response-id', id: '1', line: 1 }),
      expect.objectContaining({ reason: 'unknown-response-id', id: 99, line: 2 }),
    ]);
    send({ id: 1, result: 'mine' });
    await expect(pending).resolves.toBe('mine');
  });

  test('passes reportDiagnostic to the observer and counts it', () => {
    const { transport, diagnostics } = createHarness();
    const violations = [
      { pointer: '/status', message: 'must be equal to one of the allowed values' },
    ];
    transport.reportDiagnostic({
      reason: 'invalid-notification-params',
      method: 'session.status',
      message: 'dropped',
      bytes: 10,
      line: 3,
      violations,
    });
    expect(diagnostics).toEqual([expect.objectContaining({ violations, line: 3 })]);
    expect(transport.diagnosticCounts).toEqual({ 'invalid-notification-params': 1 });
  });

  test('keeps reading when the observer throws', async () => {
    const input = new PassThrough();
    const transport = new JsonRpcLineTransport({
      input,
      output: new PassThrough(),
      onDiagnostic: () => {
        throw new Error('observer bug');
      },
    }).start();
    const seen: unknown[] = [];
    transport.onNotification('ok', (params) => void seen.push(params));
    input.write('garbage\n{"method":"ok","params":1}\n');
    await vi.waitFor(() => expect(seen).toEqual([1]));
    expect(transport.diagnosticCounts).toEqual({ 'invalid-json': 1 });
  });
});

describe('JsonRpcLineTransport lifecycle', () => {
  test('rejects every pending request when the input ends, and refuses new ones', async () => {
    const { transport, input } = createHarness();
    transport.start();
    const first = transport.request('a');
    const second = transport.request('b');
    input.end();
    await expect(first).rejects.toMatchObject({
      name: 'TransportClosedError',
      reason: 'input-ended',
      message: 'the input stream ended',
    });
    await expect(second).rejects.toBeInstanceOf(TransportClosedError);
    await expect(transport.request('c')).rejects.toMatchObject({ reason: 'input-ended' });
    await expect(transport.notify('d')).rejects.toMatchObject({ reason: 'input-ended' });
    expect(transport.state).toBe('closed');
    await expect(transport.closed).resolves.toMatchObject({ reason: 'input-ended' });
  });

  test('reports a frame cut short by the end of the input before rejecting', async () => {
    const { transport, input, send, diagnostics } = createHarness();
    transport.start();
    const pending = transport.request('m');
    send('{"jsonrpc":"2.0","id":1,"res');
    input.end();
    await expect(pending).rejects.toMatchObject({ reason: 'input-ended' });
    expect(diagnostics).toEqual([
      expect.objectContaining({ reason: 'truncated-frame', line: 1, bytes: 28 }),
    ]);
  });

  test('settles responses that arrive in the same chunk as the end of the input', async () => {
    const { transport, input } = createHarness();
    transport.start();
    const pending = transport.request('m');
    input.end('{"id":1,"result":"just in time"}\n');
    await expect(pending).resolves.toBe('just in time');
  });

  test('rejects every pending request when the input fails', async () => {
    const { transport, input } = createHarness();
    transport.start();
    const pending = transport.request('m');
    const failure = new Error('read ECONNRESET');
    input.destroy(failure);
    const error: unknown = await pending.catch((reason: unknown) => reason);
    expect(error).toMatchObject({ reason: 'input-error', cause: failure });
    expect((error as Error).message).toContain('read ECONNRESET');
  });

  test('rejects every pending request when writing fails', async () => {
    const input = new PassThrough();
    const epipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    const output = new Writable({
      write: (_chunk, _encoding, callback) => setImmediate(() => callback(epipe)),
    });
    const transport = new JsonRpcLineTransport({ input, output }).start();
    const first = transport.request('a');
    const second = transport.request('b');
    await expect(first).rejects.toMatchObject({ reason: 'output-error', cause: epipe });
    await expect(second).rejects.toMatchObject({ reason: 'output-error' });
    await expect(transport.request('c')).rejects.toMatchObject({ reason: 'output-error' });
    expect(transport.state).toBe('closed');
  });

  test('close() rejects pending requests but neither ends nor destroys the streams', async () => {
    const { transport, input, output } = createHarness();
    const listenersBefore = ['data', 'end', 'error', 'close'].map((event) =>
      input.listenerCount(event),
    );
    transport.start();
    const pending = transport.request('m');
    transport.close('runtime exited with code 1', { cause: 'stderr tail' });
    transport.close('again');
    await expect(pending).rejects.toMatchObject({
      reason: 'closed',
      message: 'runtime exited with code 1',
      cause: 'stderr tail',
    });
    expect([input.destroyed, input.readableEnded, output.destroyed, output.writableEnded]).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(['data', 'end', 'error', 'close'].map((event) => input.listenerCount(event))).toEqual(
      listenersBefore,
    );
    await expect(transport.closed).resolves.toMatchObject({
      message: 'runtime exited with code 1',
    });
  });

  test('ignores input that arrives after close()', async () => {
    const { transport, send, diagnostics } = createHarness();
    transport.start();
    const seen: unknown[] = [];
    transport.onNotification('ok', (params) => void seen.push(params));
    transport.close();
    send('{"method":"ok","params":1}\ngarbage\n');
    await settle();
    expect(seen).toEqual([]);
    expect(diagnostics).toEqual([]);
  });

  test('stops dispatching the rest of a chunk once a handler closes the transport', async () => {
    const { transport, send, diagnostics } = createHarness();
    transport.start();
    const seen: unknown[] = [];
    transport.onNotification('ok', (params) => {
      seen.push(params);
      transport.close();
    });
    const rest = Buffer.from('{"method":"ok","params":2}\ngarbage\n');
    send(
      Buffer.concat([Buffer.from('{"method":"ok","params":1}\n'), rest, Buffer.from([0xff, 0x0a])]),
    );
    await settle();
    expect(seen).toEqual([1]);
    expect(diagnostics).toEqual([]);
  });

  test('start() is idempotent and attaches each listener once', () => {
    const { transport, input } = createHarness();
    transport.start();
    transport.start();
    expect(input.listenerCount('data')).toBe(1);
    expect(transport.state).toBe('open');
  });

  test('start() on an input that already ended closes the transport', async () => {
    const input = new PassThrough();
    input.end();
    input.resume();
    await new Promise((resolve) => input.once('end', resolve));
    const transport = new JsonRpcLineTransport({ input, output: new PassThrough() }).start();
    await expect(transport.closed).resolves.toMatchObject({ reason: 'input-ended' });
  });
});

describe('JsonRpcLineTransport end to end', () => {
  test('two transports on crossed streams answer each other', async () => {
    const clientToServer = new PassThrough();
    const serverToClient = new PassThrough();
    const client = new JsonRpcLineTransport({ input: serverToClient, output: clientToServer });
    const server = new JsonRpcLineTransport({ input: clientToServer, output: serverToClient });
    const events: unknown[] = [];
    client.onNotification('session.event', (params) => void events.push(params));
    server.onRequest('session/prompt', async (params, context) => {
      await server.notify('session.event', { seq: 0, for: context.id });
      return { messageId: `m-${(params as { sessionId: string }).sessionId}` };
    });
    client.start();
    server.start();
    const peer: JsonRpcTransportPeer = client;
    await expect(peer.request('session/prompt', { sessionId: 's1' })).resolves.toEqual({
      messageId: 'm-s1',
    });
    expect(events).toEqual([{ seq: 0, for: 1 }]);
    await expect(peer.request('missing')).rejects.toMatchObject({ code: -32601 });
  });
});
