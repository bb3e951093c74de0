import { ErrorCode, JsonRpcResponseError, SERVER_NAME } from '@dsh-sdk/protocol';
import type { SessionPromptParams } from '@dsh-sdk/protocol';
import { afterEach, describe, expect, test } from 'vitest';
import { ECHO_ROUTE, RuntimeConnection, killChildren } from './helpers/runtime-connection.js';

afterEach(killChildren);

/** The error a request was answered with. */
async function refusal(request: Promise<unknown>): Promise<JsonRpcResponseError> {
  const error: unknown = await request.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(JsonRpcResponseError);
  return error as JsonRpcResponseError;
}

const prompt: SessionPromptParams = {
  sessionId: 's',
  contentBlocks: [{ type: 'text', text: 'hi' }],
};

describe('the handshake', () => {
  test('answers initialize with the server name and the runtime version', async () => {
    const runtime = new RuntimeConnection();
    await expect(runtime.peer.initialize(ECHO_ROUTE)).resolves.toEqual({
      serverInfo: { name: SERVER_NAME, version: '0.1.0' },
    });
  });

  test('accepts every served effort', async () => {
    for (const reasoningEffort of ['low', 'medium', 'high']) {
      const runtime = new RuntimeConnection();
      await expect(runtime.peer.initialize({ ...ECHO_ROUTE, reasoningEffort })).resolves.toEqual({
        serverInfo: { name: SERVER_NAME, version: '0.1.0' },
      });
    }
  });

  test.each([
    [
      'an unknown provider',
      { provider: 'x' },
      { pointer: '/provider', message: 'provider "x" is not served; served: echo' },
    ],
    [
      'an unknown model of a served provider',
      { model: 'x' },
      { pointer: '/model', message: 'model "x" is not served by echo; served: echo-1' },
    ],
    [
      'an unsupported effort',
      { reasoningEffort: 'x' },
      {
        pointer: '/reasoningEffort',
        message: 'reasoningEffort "x" is not supported by echo-1; supported: low, medium, high',
      },
    ],
  ])('refuses %s with -32602 and the pointer', async (_name, change, violation) => {
    const runtime = new RuntimeConnection();
    const error = await refusal(runtime.peer.initialize({ ...ECHO_ROUTE, ...change }));
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.data).toEqual([violation]);
  });

  test('refuses params that break the schema with -32602 before any route check', async () => {
    const runtime = new RuntimeConnection();
    const params = { cwd: '/tmp', provider: 'x', model: 'echo-1', maxTokens: 0 };
    const error = await refusal(runtime.transport.request('initialize', params));
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.data).toEqual([{ pointer: '/maxTokens', message: expect.any(String) }]);
  });

  test('allows a retry after a failed initialize', async () => {
    const runtime = new RuntimeConnection();
    await refusal(runtime.peer.initialize({ ...ECHO_ROUTE, model: 'nope' }));
    await expect(runtime.peer.initialize(ECHO_ROUTE)).resolves.toMatchObject({
      serverInfo: { name: SERVER_NAME },
    });
  });

  test('refuses a second initialize after a successful one with -32600', async () => {
    const runtime = await RuntimeConnection.initialized();
    const error = await refusal(runtime.peer.initialize(ECHO_ROUTE));
    expect(error).toMatchObject({ code: ErrorCode.InvalidRequest, message: 'already initialized' });
  });

  test('refuses session/prompt before initialize with -32002', async () => {
    const runtime = new RuntimeConnection();
    const error = await refusal(runtime.peer.sessionPrompt(prompt));
    expect(error).toMatchObject({
      code: ErrorCode.NotInitialized,
      message: 'not initialized: send initialize first',
    });
  });

  test('still refuses session/prompt after a failed initialize', async () => {
    const runtime = new RuntimeConnection();
    await refusal(runtime.peer.initialize({ ...ECHO_ROUTE, provider: 'x' }));
    const error = await refusal(runtime.peer.sessionPrompt(prompt));
    expect(error.code).toBe(ErrorCode.NotInitialized);
  });

  test('answers an unknown method with -32601', async () => {
    const runtime = await RuntimeConnection.initialized();
    const error = await refusal(runtime.transport.request('session/cancel', { sessionId: 's' }));
    expect(error.code).toBe(ErrorCode.MethodNotFound);
  });

  test('answers shutdown with {} and exits 0 without stdin being closed', async () => {
    const runtime = await RuntimeConnection.initialized();
    await expect(runtime.peer.shutdown()).resolves.toEqual({});
    await expect(runtime.exited).resolves.toEqual({ code: 0, signal: null });
    expect(runtime.child.stdin.writableEnded).toBe(false);
  });

  test('answers shutdown before initialize too', async () => {
    const runtime = new RuntimeConnection();
    await expect(runtime.peer.shutdown()).resolves.toEqual({});
    await expect(runtime.exited).resolves.toEqual({ code: 0, signal: null });
  });

  test('refuses every request that follows shutdown with -32600', async () => {
    const runtime = await RuntimeConnection.initialized();
    // Written in one go (one writev, under PIPE_BUF): the runtime reads them all before it exits.
    runtime.child.stdin.cork();
    const answers = [
      runtime.peer.shutdown(),
      refusal(runtime.peer.sessionPrompt(prompt)),
      refusal(runtime.peer.initialize(ECHO_ROUTE)),
      refusal(runtime.peer.shutdown()),
    ];
    runtime.child.stdin.uncork();
    const [first, ...refusals] = await Promise.all(answers);
    expect(first).toEqual({});
    for (const error of refusals) {
      expect(error).toMatchObject({ code: ErrorCode.InvalidRequest, message: 'shutting down' });
    }
    await expect(runtime.exited).resolves.toEqual({ code: 0, signal: null });
  });
});
