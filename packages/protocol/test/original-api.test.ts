// The call forms of the original `@deepseek-ai/dsh-sdk-protocol`, as its README documents them,
// on the package root (docs/migrating.md lists them), and the differences we keep on purpose.
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import {
  ErrorCode,
  JsonRpcLineTransport,
  JsonRpcResponseError,
  RequestAbortedError,
  TransportClosedError,
} from '../src/index.js';
import type { TransportDiagnostic } from '../src/index.js';
import { GatedWritable, isSettled } from './helpers/gated-writable.js';
import { settle } from './helpers/harness.js';
import { recordUnhandledRejections } from './helpers/unhandled.js';

/**
 * A transport over in-memory streams the test drives from the other end. Made with the options
 * object, so that each test depends on the one call form it is about; the first tests below are
 * about the positional one.
 */
function originalStyle(settings: { onDiagnostic?: (d: TransportDiagnostic) => void } = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new JsonRpcLineTransport({ input, output, ...settings });
  const sent: Record<string, unknown>[] = [];
  let partial = '';
  output.setEncoding('utf8');
  output.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) sent.push(JSON.parse(line) as Record<string, unknown>);
  });
  const send = (message: object): void => void input.write(`${JSON.stringify(message)}\n`);
  return { transport, input, output, sent, send };
}

const unhandled = recordUnhandledRejections();

describe('new JsonRpcLineTransport(input, output)', () => {
  test('takes the streams positionally and the other options third', async () => {
    const diagnostics: TransportDiagnostic[] = [];
    const [input, output] = [new PassThrough(), new PassThrough()];
    const onDiagnostic = (d: TransportDiagnostic) => void diagnostics.push(d);
    const transport = new JsonRpcLineTransport(input, output, { onDiagnostic });
    transport.start();
    const answer = transport.request('initialize', { cwd: '/w' });
    expect(JSON.parse(String(output.read()))).toMatchObject({ id: 1, method: 'initialize' });
    input.write('not json\n');
    input.write('{"jsonrpc":"2.0","id":1,"result":{"ok":true}}\n');
    await expect(answer).resolves.toEqual({ ok: true });
    expect(diagnostics.map((d) => d.reason)).toEqual(['invalid-json']);
  });

  test('says how to call it when a stream is missing, instead of failing at start()', () => {
    const input = new PassThrough();
    const call = () => new JsonRpcLineTransport(input as never);
    expect(call).toThrow(TypeError);
    expect(call).toThrow('new JsonRpcLineTransport(input, output)');
  });
});

describe('onRequest(handler): one handler for every method', () => {
  test('is called as (method, params) and its result answers', async () => {
    const { transport, sent, send } = originalStyle();
    const calls: unknown[] = [];
    transport.onRequest(async (method, params) => {
      calls.push([method, params]);
      return { echoed: method };
    });
    transport.start();
    send({ jsonrpc: '2.0', id: 'a', method: 'session/prompt', params: { sessionId: 's' } });
    await settle();
    expect(calls).toEqual([['session/prompt', { sessionId: 's' }]]);
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 'a', result: { echoed: 'session/prompt' } }]);
  });

  test('gets params as a plain object: absent, null, an array or a scalar become {}', async () => {
    const { transport, send } = originalStyle();
    const seen: unknown[] = [];
    transport.onRequest((_method, params) => seen.push(params));
    transport.start();
    for (const params of [undefined, null, [1, 2], 7]) send({ id: 1, method: 'm', params });
    await settle();
    expect(seen).toEqual([{}, {}, {}, {}]);
  });

  test('answers -32603 with the message of a rejection, and keeps a thrown error code', async () => {
    const { transport, sent, send } = originalStyle();
    transport.onRequest(async (method) => {
      if (method === 'typed') throw new JsonRpcResponseError(-32002, 'Not initialized', { a: 1 });
      throw new Error(`cannot ${method}`);
    });
    transport.start();
    send({ id: 1, method: 'shutdown' });
    send({ id: 2, method: 'typed' });
    await settle();
    expect(sent).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'cannot shutdown' } },
      {
        jsonrpc: '2.0',
        id: 2,
        error: { code: -32002, message: 'Not initialized', data: { a: 1 } },
      },
    ]);
  });

  test('answers -32601 without a handler; a method handler goes before the catch-all', async () => {
    const { transport, sent, send } = originalStyle();
    transport.start();
    send({ id: 1, method: 'initialize' });
    await settle();
    transport.onRequest('initialize', () => 'own');
    const remove = transport.onRequest(() => 'any');
    send({ id: 2, method: 'initialize' });
    send({ id: 3, method: 'other' });
    await settle();
    remove();
    send({ id: 4, method: 'other' });
    await settle();
    expect(sent.map(({ id, result, error }) => [id, result ?? error])).toEqual([
      [1, { code: ErrorCode.MethodNotFound, message: 'Method not found: initialize' }],
      [2, 'own'],
      [3, 'any'],
      [4, { code: ErrorCode.MethodNotFound, message: 'Method not found: other' }],
    ]);
  });

  test('a second catch-all replaces the first, as in the original', async () => {
    const { transport, sent, send } = originalStyle();
    transport.onRequest(() => 'first');
    transport.onRequest(() => 'second');
    transport.start();
    send({ id: 1, method: 'm' });
    await settle();
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 1, result: 'second' }]);
  });
});

describe('onNotification(handler): one handler for every method', () => {
  test('is called as (method, params) with params made a plain object', async () => {
    const diagnostics: TransportDiagnostic[] = [];
    const { transport, send } = originalStyle({ onDiagnostic: (d) => diagnostics.push(d) });
    const seen: unknown[] = [];
    transport.onNotification((method, params) => void seen.push([method, params]));
    transport.start();
    send({ jsonrpc: '2.0', method: 'session.status', params: { sessionId: 's', status: 'idle' } });
    send({ jsonrpc: '2.0', method: 'session.event' });
    send({ jsonrpc: '2.0', method: 'session.event', params: ['x'] });
    await settle();
    expect(seen).toEqual([
      ['session.status', { sessionId: 's', status: 'idle' }],
      ['session.event', {}],
      ['session.event', {}],
    ]);
    expect(diagnostics).toEqual([]); // handled: nothing reported as unhandled
  });

  test('leaves methods with their own handler to it; a throw is reported, never thrown', async () => {
    const diagnostics: TransportDiagnostic[] = [];
    const { transport, send } = originalStyle({ onDiagnostic: (d) => diagnostics.push(d) });
    const own: unknown[] = [];
    transport.onNotification('session.status', (params) => void own.push(params));
    transport.onNotification(() => {
      throw new Error('handler bug');
    });
    transport.start();
    send({ method: 'session.status', params: { status: 'idle' } });
    send({ method: 'session.event', params: {} });
    await settle();
    expect(own).toEqual([{ status: 'idle' }]);
    expect(diagnostics.map((d) => [d.reason, d.method])).toEqual([
      ['notification-handler-failed', 'session.event'],
    ]);
    expect(unhandled).toEqual([]);
  });
});

describe('request(method, params, signal)', () => {
  class Timeout extends Error {}

  test('rejects with the very reason the signal was aborted with, as fetch does', async () => {
    const { transport, sent } = originalStyle();
    transport.start();
    const abandon = new AbortController();
    const answer = transport.request('session/prompt', { sessionId: 's' }, abandon.signal);
    const reason = new Timeout('session/prompt timed out after 50ms');
    abandon.abort(reason);
    await expect(answer).rejects.toBe(reason);
    expect(sent).toHaveLength(1); // it was sent: the peer is not told
  });

  test('rejects at once, sending nothing, with a signal aborted before', async () => {
    const { transport, sent } = originalStyle();
    transport.start();
    const reason = new Timeout('already');
    await expect(transport.request('m', {}, AbortSignal.abort(reason))).rejects.toBe(reason);
    const plain = transport.request('m', {}, AbortSignal.abort());
    await expect(plain).rejects.toMatchObject({ name: 'AbortError' });
    await settle();
    expect(sent).toEqual([]);
  });

  test('a reason that is no Error still rejects with an Error, holding it as cause', async () => {
    const { transport } = originalStyle();
    transport.start();
    const error: unknown = await transport
      .request('m', {}, AbortSignal.abort('gave up'))
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect((error as Error).cause).toBe('gave up');
  });

  test('forgets the aborted request: a late response is reported, not delivered', async () => {
    const diagnostics: TransportDiagnostic[] = [];
    const { transport, send } = originalStyle({ onDiagnostic: (d) => diagnostics.push(d) });
    transport.start();
    const abandon = new AbortController();
    const answer = transport.request('m', {}, abandon.signal);
    abandon.abort(new Timeout('late'));
    await expect(answer).rejects.toBeInstanceOf(Timeout);
    send({ id: 1, result: {} });
    await settle();
    expect(diagnostics.map((d) => d.reason)).toEqual(['unknown-response-id']);
  });

  test('takes a polyfilled signal too (an EventTarget with aborted and reason)', async () => {
    const { transport } = originalStyle();
    transport.start();
    const polyfill = Object.assign(new EventTarget(), {
      aborted: false,
      reason: undefined as unknown,
    });
    const answer = transport.request('m', {}, polyfill as unknown as AbortSignal);
    const reason = new Timeout('polyfilled');
    Object.assign(polyfill, { aborted: true, reason });
    polyfill.dispatchEvent(new Event('abort'));
    await expect(answer).rejects.toBe(reason);
  });

  test('options.signal keeps rejecting with a RequestAbortedError (our own form)', async () => {
    const { transport } = originalStyle();
    transport.start();
    const reason = new Timeout('x');
    const answer = transport.request('m', {}, { signal: AbortSignal.abort(reason) });
    await expect(answer).rejects.toMatchObject({ name: 'RequestAbortedError', cause: reason });
  });
});

describe('flush()', () => {
  test('waits until every message sent before it was handed over, writing nothing itself', async () => {
    const output = new GatedWritable(1);
    const transport = new JsonRpcLineTransport(new PassThrough(), output).start();
    const sending = [transport.notify('a'), transport.notify('b')];
    const flushed = transport.flush();
    expect(await isSettled(flushed)).toBe(false);
    output.release(); // 'a' reaches the OS; 'b' is still queued behind the back-pressure
    expect(await isSettled(flushed)).toBe(false);
    output.release();
    output.release();
    await Promise.all([...sending, flushed]);
    expect(output.received.join('')).toBe(
      '{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc":"2.0","method":"b"}\n',
    );
  });

  test('resolves at once when nothing waits, before start() and after close()', async () => {
    const transport = new JsonRpcLineTransport(new PassThrough(), new PassThrough());
    await expect(transport.flush()).resolves.toBeUndefined();
    transport.start();
    transport.close();
    await expect(transport.flush()).resolves.toBeUndefined();
  });

  test('rejects when the output failed, so lines were lost', async () => {
    const failing = new Writable({
      write: (_chunk, _encoding, callback) => callback(new Error('EPIPE')),
    });
    const transport = new JsonRpcLineTransport(new PassThrough(), failing).start();
    void transport.notify('lost');
    await expect(transport.flush()).rejects.toMatchObject({ reason: 'output-error' });
  });
});

describe('notify() that nobody awaits', () => {
  test('never becomes an unhandled rejection, after close() or when params cannot be sent', async () => {
    const { transport } = originalStyle();
    transport.start();
    void transport.notify('cyclic', { big: 1n });
    transport.close();
    transport.notify('session.event', { sessionId: 's' });
    await settle();
    await settle();
    expect(unhandled).toEqual([]);
    // Whoever awaits it still learns why.
    await expect(transport.notify('m')).rejects.toBeInstanceOf(TransportClosedError);
  });
});

describe('new JsonRpcResponseError(code, message, data)', () => {
  test('keeps positional data, sends it, and message is the wire text', () => {
    const error = new JsonRpcResponseError(7, 'scripted init failure', { hint: 'fake' });
    expect(error).toMatchObject({
      code: 7,
      message: 'scripted init failure',
      data: { hint: 'fake' },
    });
    expect(error.toErrorObject()).toEqual({
      code: 7,
      message: 'scripted init failure',
      data: { hint: 'fake' },
    });
    expect(new JsonRpcResponseError(1, 'm', [1]).data).toEqual([1]);
    expect(new JsonRpcResponseError(1, 'm', 'text').data).toBe('text');
    expect(new JsonRpcResponseError(1, 'm', null).data).toBeNull();
    expect(Object.hasOwn(new JsonRpcResponseError(1, 'm', undefined), 'data')).toBe(false);
  });

  test('the options form still works; with a fourth argument the third is always data', () => {
    const cause = new Error('root');
    const options = new JsonRpcResponseError(1, 'm', { data: { a: 1 }, cause });
    expect(options).toMatchObject({ data: { a: 1 }, cause });
    expect(Object.hasOwn(new JsonRpcResponseError(1, 'm', {}), 'data')).toBe(false);
    const dataLikeOptions = new JsonRpcResponseError(1, 'm', { data: { a: 1 } }, {});
    expect(dataLikeOptions.data).toEqual({ data: { a: 1 } });
    expect(new JsonRpcResponseError(1, 'm', 'd', { cause }).cause).toBe(cause);
  });

  test('an error response rejects with it, code and data preserved', async () => {
    const { transport, send } = originalStyle();
    transport.start();
    const answer = transport.request('initialize', {});
    send({ id: 1, error: { code: 7, message: 'scripted init failure', data: { hint: 'fake' } } });
    const error: unknown = await answer.catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(JsonRpcResponseError);
    expect(error).toMatchObject({
      code: 7,
      message: 'scripted init failure',
      data: { hint: 'fake' },
    });
  });
});

describe('differences kept on purpose (docs/migrating.md)', () => {
  test('a request before start() is refused at once, not left waiting for a start', async () => {
    const { transport, sent } = originalStyle();
    const early = transport.request('initialize', {});
    await expect(early).rejects.toMatchObject({
      name: 'TransportClosedError',
      reason: 'not-started',
    });
    await settle();
    expect(sent).toEqual([]);
  });

  test('close() rejects pending requests with a TransportClosedError, an Error', async () => {
    const { transport } = originalStyle();
    transport.start();
    const pending = transport.request('m', {});
    transport.close();
    const error: unknown = await pending.catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(TransportClosedError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ reason: 'closed', message: 'the transport was closed' });
  });
});
