// The transport against the protocol's limits: lines nested deeper than MAX_NESTING_DEPTH, numbers
// outside ±MAX_SAFE_INTEGER in the members it reads, and handler results it cannot send.
import { describe, expect, test } from 'vitest';
import { ErrorCode, JsonRpcResponseError } from '../src/index.js';
import { MAX_NESTING_DEPTH } from '../src/gen/constants.gen.js';
import { createHarness, settle } from './helpers/harness.js';

/** A value whose line, as `params` of a frame (level 1), nests `depth` levels in all. */
function paramsOfDepth(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 2; level <= depth; level += 1) value = level % 2 ? { a: value } : [value];
  return value;
}

const TOO_DEEP_ANSWER = `Invalid request: the frame is nested deeper than ${MAX_NESTING_DEPTH} levels`;

describe('a line nested deeper than the limit', () => {
  test('is delivered at the limit and reported one level deeper, before any handler', async () => {
    const { transport, send, diagnostics, sent } = createHarness();
    const received: unknown[] = [];
    transport.onNotification('n', (params) => void received.push(params));
    transport.onRequest('r', () => 'handled');
    transport.start();
    send({ jsonrpc: '2.0', method: 'n', params: paramsOfDepth(MAX_NESTING_DEPTH) });
    send({ jsonrpc: '2.0', method: 'n', params: paramsOfDepth(MAX_NESTING_DEPTH + 1) });
    send({ jsonrpc: '2.0', id: 'r1', method: 'r', params: paramsOfDepth(MAX_NESTING_DEPTH) });
    send({ jsonrpc: '2.0', id: 'r2', method: 'r', params: paramsOfDepth(MAX_NESTING_DEPTH + 1) });
    await settle();
    expect(received).toEqual([paramsOfDepth(MAX_NESTING_DEPTH)]);
    expect(
      diagnostics.map(({ reason, line, method, id }) => ({ reason, line, method, id })),
    ).toEqual([
      { reason: 'nesting-too-deep', line: 2, method: 'n', id: undefined },
      { reason: 'nesting-too-deep', line: 4, method: 'r', id: 'r2' },
    ]);
    // The refusal is written at once; a handler's answer after its promise settles.
    expect(sent).toEqual([
      {
        jsonrpc: '2.0',
        id: 'r2',
        error: { code: ErrorCode.InvalidRequest, message: TOO_DEEP_ANSWER },
      },
      { jsonrpc: '2.0', id: 'r1', result: 'handled' },
    ]);
  });

  test('is answered however deep it is, and reading goes on', async () => {
    const { transport, send, sent, diagnostics } = createHarness();
    transport.onRequest('echo', (params) => params);
    transport.start();
    const depth = 200_000;
    send(
      `{"jsonrpc":"2.0","id":1,"method":"echo","params":${'['.repeat(depth)}${']'.repeat(depth)}}\n`,
    );
    send({ jsonrpc: '2.0', id: 2, method: 'echo', params: 'after' });
    await settle();
    expect(sent).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: { code: ErrorCode.InvalidRequest, message: TOO_DEEP_ANSWER },
      },
      { jsonrpc: '2.0', id: 2, result: 'after' },
    ]);
    expect(diagnostics.map((d) => d.reason)).toEqual(['nesting-too-deep']);
    expect(transport.state).toBe('open');
  });

  test('comes before invalid-json, and is never answered when its top level cannot be read', async () => {
    const { transport, send, sent, diagnostics } = createHarness();
    transport.onRequest('echo', (params) => params);
    transport.start();
    const open = '['.repeat(MAX_NESTING_DEPTH + 1);
    send(`${open}\n`); // not JSON, too deep
    send(`{"jsonrpc":"2.0","id":1,"method":"echo","params":${open}}\n`); // never closes
    send(
      `{"jsonrpc":"2.0","id":null,"method":"echo","params":[${open}${']'.repeat(MAX_NESTING_DEPTH + 1)}]}\n`,
    );
    send(`{"jsonrpc":"2.0","id":3,"result":${open}${']'.repeat(MAX_NESTING_DEPTH + 1)}}\n`);
    await settle();
    expect(diagnostics.map(({ reason, id }) => ({ reason, id }))).toEqual([
      { reason: 'nesting-too-deep', id: undefined },
      { reason: 'nesting-too-deep', id: undefined },
      { reason: 'nesting-too-deep', id: undefined },
      { reason: 'nesting-too-deep', id: 3 },
    ]);
    expect(sent).toEqual([]);
  });
});

describe('numbers in the members the transport reads', () => {
  test('an id outside the safe range is invalid-id and never answered', async () => {
    const { transport, send, sent, diagnostics } = createHarness();
    transport.onRequest('r', () => 'handled');
    transport.start();
    send('{"jsonrpc":"2.0","id":9007199254740992,"method":"r"}\n');
    send('{"jsonrpc":"2.0","id":-9007199254740993,"method":"r"}\n');
    send('{"jsonrpc":"2.0","id":1e400,"method":"r"}\n');
    send('{"jsonrpc":"2.0","id":9007199254740991,"method":"r"}\n');
    send('{"jsonrpc":"2.0","id":-0.5,"method":"r"}\n');
    await settle();
    expect(diagnostics.map(({ reason, line }) => ({ reason, line }))).toEqual([
      { reason: 'invalid-id', line: 1 },
      { reason: 'invalid-id', line: 2 },
      { reason: 'invalid-id', line: 3 },
    ]);
    expect(diagnostics[0]?.message).toBe(
      'id must be a string or a number, got a number out of range',
    );
    expect(sent).toEqual([
      { jsonrpc: '2.0', id: 9007199254740991, result: 'handled' },
      { jsonrpc: '2.0', id: -0.5, result: 'handled' },
    ]);
  });

  test('an error code outside the safe range makes the response invalid-message', async () => {
    const { transport, send, diagnostics } = createHarness();
    transport.start();
    const pending = transport.request('r', undefined, { timeoutMs: 50 }).catch((e: unknown) => e);
    send('{"jsonrpc":"2.0","id":1,"error":{"code":9007199254740993,"message":"x"}}\n');
    await settle();
    expect(diagnostics.map((d) => [d.reason, d.id])).toEqual([['invalid-message', 1]]);
    expect(await pending).toMatchObject({ name: 'RequestTimeoutError' });
  });
});

describe('what the transport refuses to send', () => {
  test('a request or notification nested deeper than the limit fails where it is sent', async () => {
    const { transport, sent } = createHarness();
    transport.start();
    const deep = paramsOfDepth(MAX_NESTING_DEPTH + 1);
    await expect(transport.request('r', deep)).rejects.toThrow(
      `cannot send a message nested deeper than ${MAX_NESTING_DEPTH} levels`,
    );
    await expect(transport.notify('n', deep)).rejects.toBeInstanceOf(RangeError);
    await transport.notify('n', paramsOfDepth(MAX_NESTING_DEPTH));
    await settle();
    expect(sent).toEqual([
      { jsonrpc: '2.0', method: 'n', params: paramsOfDepth(MAX_NESTING_DEPTH) },
    ]);
    expect(transport.state).toBe('open');
  });

  test('a result it cannot send is answered -32603, from plain and async handlers alike', async () => {
    const { transport, send, sent } = createHarness();
    const tooDeep = { a: paramsOfDepth(MAX_NESTING_DEPTH) }; // one level more inside `result`
    let stackBreaker: unknown = null;
    for (let i = 0; i < 20_000; i += 1) stackBreaker = [stackBreaker];
    const throwingToJson = {
      toJSON: () => {
        throw new Error('no JSON for you');
      },
    };
    const results: Record<string, unknown> = { tooDeep, stackBreaker, throwingToJson, big: 10n };
    for (const [name, result] of Object.entries(results)) {
      transport.onRequest(`sync/${name}`, () => result);
      transport.onRequest(`async/${name}`, async () => result);
    }
    transport.onRequest('echo', (params) => params);
    transport.start();
    let id = 0;
    for (const kind of ['sync', 'async'])
      for (const name of Object.keys(results))
        send({ jsonrpc: '2.0', id: (id += 1), method: `${kind}/${name}` });
    send({ jsonrpc: '2.0', id: 'last', method: 'echo', params: 'still open' });
    await settle();
    await settle();
    const answers = new Map(
      sent.map((m) => [(m as { id: unknown }).id, m as Record<string, unknown>]),
    );
    expect(answers.size).toBe(id + 1);
    for (let n = 1; n <= id; n += 1) {
      expect(answers.get(n)).toMatchObject({ error: { code: ErrorCode.InternalError } });
      expect(typeof (answers.get(n)?.['error'] as { message: unknown }).message).toBe('string');
    }
    expect(answers.get(1)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: ErrorCode.InternalError,
        message: `cannot send a message nested deeper than ${MAX_NESTING_DEPTH} levels`,
      },
    });
    expect(answers.get('last')).toEqual({ jsonrpc: '2.0', id: 'last', result: 'still open' });
    expect(transport.state).toBe('open');
  });

  test('an error a handler throws that the peer would drop is answered -32603', async () => {
    const { transport, send, sent } = createHarness();
    const unprintable = {
      toString: () => {
        throw new Error('no text either');
      },
    };
    transport.onRequest('badCode', () => {
      throw new JsonRpcResponseError(2 ** 60, 'too big a code');
    });
    transport.onRequest('fractionalCode', () => {
      throw new JsonRpcResponseError(1.5, 'not an integer');
    });
    transport.onRequest('unprintable', () => {
      throw unprintable;
    });
    transport.start();
    send({ jsonrpc: '2.0', id: 1, method: 'badCode' });
    send({ jsonrpc: '2.0', id: 2, method: 'fractionalCode' });
    send({ jsonrpc: '2.0', id: 3, method: 'unprintable' });
    await settle();
    expect(sent).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: ErrorCode.InternalError,
          message: `the handler's error is not a JSON-RPC error (code ${String(2 ** 60)})`,
        },
      },
      {
        jsonrpc: '2.0',
        id: 2,
        error: {
          code: ErrorCode.InternalError,
          message: "the handler's error is not a JSON-RPC error (code 1.5)",
        },
      },
      {
        jsonrpc: '2.0',
        id: 3,
        error: { code: ErrorCode.InternalError, message: 'the handler failed' },
      },
    ]);
  });
});
