// The generated peers (gen/peers.gen.ts) and their support (peer-support.ts) over in-memory
// streams: typed calls and subscriptions, schema checks, fan-out. The twin of
// python/tests/test_peers.py.
import { describe, expect, test } from 'vitest';
import {
  ErrorCode,
  HarnessSdkClientPeer,
  JsonRpcResponseError,
  Method,
  ProtocolError,
  serveHarnessSdk,
} from '../src/index.js';
import type { HarnessSdkRequestHandlers, SessionStatusNotification } from '../src/index.js';
import { createHarness, settle } from './helpers/harness.js';

const STATUS = {
  jsonrpc: '2.0',
  method: Method.sessionStatus,
  params: { sessionId: 's', status: 'idle' },
} as const;
const ROUTE = { cwd: '/w', provider: 'echo', model: 'echo-1' };

function startedClient(): ReturnType<typeof createHarness> & { peer: HarnessSdkClientPeer } {
  const harness = createHarness();
  return { ...harness, peer: new HarnessSdkClientPeer(harness.transport.start()) };
}

describe('the client peer: calls', () => {
  test('a typed call sends the wire params and resolves with the checked result', async () => {
    const { peer, send, sent } = startedClient();
    const answer = peer.initialize(ROUTE);
    await settle();
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 1, method: Method.initialize, params: ROUTE }]);
    const result = { serverInfo: { name: 'deepseek-harness-sdk-runtime', version: '0.0.1' } };
    send({ jsonrpc: '2.0', id: 1, result });
    await expect(answer).resolves.toEqual(result);
  });

  test('a result that breaks the schema rejects with a ProtocolError naming the violations', async () => {
    const { peer, send } = startedClient();
    const answer = peer.initialize(ROUTE);
    await settle();
    send({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'other', version: '1' } } });
    const error: unknown = await answer.catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({
      method: Method.initialize,
      violations: [{ pointer: '/serverInfo/name', message: 'must be equal to constant' }],
    });
  });

  test('an error response rejects with the wire error', async () => {
    const { peer, send } = startedClient();
    const answer = peer.sessionPrompt({
      sessionId: 's',
      contentBlocks: [{ type: 'text', text: 'x' }],
    });
    await settle();
    send({ jsonrpc: '2.0', id: 1, error: { code: -32002, message: 'Not initialized' } });
    await expect(answer).rejects.toEqual(new JsonRpcResponseError(-32002, 'Not initialized'));
  });
});

describe('the client peer: subscriptions', () => {
  test('every subscriber gets the checked params once, in subscription order', async () => {
    const { peer, send, diagnostics } = startedClient();
    const seen: string[] = [];
    peer.onSessionStatus((params) => void seen.push(`a ${params.status}`));
    peer.onSessionStatus((params) => void seen.push(`b ${params.status}`));
    send(STATUS);
    await settle();
    expect(seen).toEqual(['a idle', 'b idle']);
    expect(diagnostics).toEqual([]);
  });

  test('a throwing subscriber is reported and the others still get the params', async () => {
    const { peer, send, diagnostics } = startedClient();
    const seen: SessionStatusNotification[] = [];
    peer.onSessionStatus(() => {
      throw new Error('subscriber bug');
    });
    peer.onSessionStatus((params) => void seen.push(params));
    send(STATUS);
    await settle();
    expect(seen).toEqual([STATUS.params]);
    expect(diagnostics).toMatchObject([
      {
        reason: 'notification-handler-failed',
        message: 'the session.status handler failed: subscriber bug',
        line: 1,
        method: Method.sessionStatus,
      },
    ]);
  });

  test('a rejecting async subscriber is reported, and so is a lone one', async () => {
    const { peer, send, diagnostics } = startedClient();
    const unsubscribeFirst = peer.onSessionStatus(async () => Promise.reject(new Error('first')));
    peer.onSessionStatus(async () => Promise.reject(new Error('second')));
    send(STATUS);
    await settle();
    unsubscribeFirst();
    send(STATUS); // now the only subscriber: the transport reports its failure itself
    await settle();
    expect(diagnostics.map((d) => [d.reason, d.message, d.line])).toEqual([
      ['notification-handler-failed', 'the session.status handler failed: first', 1],
      ['notification-handler-failed', 'the session.status handler failed: second', 1],
      ['notification-handler-failed', 'the session.status handler failed: second', 2],
    ]);
  });

  test('the last unsubscribe gives the method back: later ones are unhandled, not silent', async () => {
    const { peer, send, diagnostics } = startedClient();
    const unsubscribe = peer.onSessionStatus(() => {});
    unsubscribe();
    send(STATUS);
    await settle();
    expect(diagnostics).toMatchObject([
      { reason: 'unhandled-notification', method: Method.sessionStatus, line: 1 },
    ]);
  });

  test('params that break the schema are dropped and reported with every violation', async () => {
    const { peer, send, diagnostics } = startedClient();
    const seen: unknown[] = [];
    peer.onSessionStatus((params) => void seen.push(params));
    send({ ...STATUS, params: { sessionId: '', status: 'paused' } });
    await settle();
    expect(seen).toEqual([]);
    expect(diagnostics).toMatchObject([
      {
        reason: 'invalid-notification-params',
        method: Method.sessionStatus,
        violations: [
          { pointer: '/sessionId', message: 'must NOT have fewer than 1 characters' },
          { pointer: '/status', message: 'must be equal to one of the allowed values' },
        ],
      },
    ]);
  });
});

describe('the server end', () => {
  const handlers: HarnessSdkRequestHandlers = {
    initialize: () => ({ serverInfo: { name: 'deepseek-harness-sdk-runtime', version: '0' } }),
    sessionPrompt: () => {
      throw new Error('no sessions here');
    },
    sessionInterrupt: () => ({ found: false, wasRunning: false }),
    sessionClose: () => ({ found: false }),
    shutdown: () => ({}),
  };

  test('params that break the schema are refused with -32602 before the handler runs', async () => {
    const { transport, send, sent } = createHarness();
    let calls = 0;
    serveHarnessSdk(transport.start(), { ...handlers, initialize: () => (calls += 1) as never });
    send({ jsonrpc: '2.0', id: 7, method: Method.initialize, params: { cwd: 1 } });
    await settle();
    expect(calls).toBe(0);
    expect(sent).toEqual([
      {
        jsonrpc: '2.0',
        id: 7,
        error: {
          code: ErrorCode.InvalidParams,
          message: 'Invalid params',
          data: [
            // `required` comes before `properties` in the schema, as in the vectors.
            { pointer: '/provider', message: "must have required property 'provider'" },
            { pointer: '/model', message: "must have required property 'model'" },
            { pointer: '/cwd', message: 'must be string' },
          ],
        },
      },
    ]);
  });

  test('a handler that throws is answered -32603 with its message', async () => {
    const { transport, send, sent } = createHarness();
    serveHarnessSdk(transport.start(), handlers);
    const params = { sessionId: 's', contentBlocks: [{ type: 'text', text: 'x' }] };
    send({ jsonrpc: '2.0', id: 1, method: Method.sessionPrompt, params });
    await settle();
    expect(sent).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: { code: ErrorCode.InternalError, message: 'no sessions here' },
      },
    ]);
  });
});
