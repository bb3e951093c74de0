// Params are checked before sending: the same -32602 the runtime would answer, and nothing sent.
// The reference runtime over real pipes, recorded by the client's `trace` option.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TraceFrame, TraceRecord } from '@dsh-sdk/protocol';
import { afterEach, describe, expect, test } from 'vitest';
import {
  ErrorCode,
  HarnessClient,
  JsonRpcResponseError,
  InvalidParamsError,
} from '../src/index.js';
import { ROUTE, startClient, stopClients } from './helpers/clients.js';

afterEach(stopClients);

function traceFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'dsh-sdk-client-validation-')), 'trace.ndjson');
}

/** The methods of the requests the client sent, in order. */
function sentMethods(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as TraceRecord)
    .filter((r): r is TraceFrame => r.type === 'frame' && r.dir === 'clientToServer')
    .flatMap((f) => (f.method === undefined ? [] : [f.method]));
}

/** What the runtime answers to `params`, sent as they are (past the client's check). */
async function runtimeRefusal(client: HarnessClient, method: string, params: unknown) {
  const error: unknown = await client.transport.request(method, params).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(JsonRpcResponseError);
  return error as JsonRpcResponseError;
}

describe('params checked before sending', () => {
  test('run([]) fails locally with the violations the runtime gives, and sends nothing', async () => {
    const trace = traceFile();
    const client = await startClient({ trace });
    const error: unknown = await client.run([], { sessionId: 'empty' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect(error).toBeInstanceOf(JsonRpcResponseError);
    const local = error as InvalidParamsError;
    expect(local).toMatchObject({ code: ErrorCode.InvalidParams, method: 'session/prompt' });
    expect(local.message).toMatch(
      /^Invalid params: \/contentBlocks: .*session\/prompt was not sent/,
    );

    const remote = await runtimeRefusal(client, 'session/prompt', {
      sessionId: 'empty',
      contentBlocks: [],
    });
    expect(local.data).toEqual(remote.data);
    expect([local.code, local.wireMessage]).toEqual([remote.code, remote.wireMessage]);
    await client.shutdown();
    // Only the prompt sent past the check reached the runtime.
    expect(sentMethods(trace)).toEqual(['initialize', 'session/prompt', 'shutdown']);
  });

  test('every violation, in the runtime order, for params with several', async () => {
    const client = await startClient();
    const params = { sessionId: '', contentBlocks: [{ type: 'text' }] };
    const local: unknown = await client.prompt(params as never).catch((e: unknown) => e);
    expect(local).toBeInstanceOf(InvalidParamsError);
    const remote = await runtimeRefusal(client, 'session/prompt', params);
    expect((local as InvalidParamsError).data).toEqual(remote.data);
    expect((local as InvalidParamsError).data.length).toBeGreaterThan(1);
  });

  test('interrupt and closeSession check the session id the same way', async () => {
    const trace = traceFile();
    const client = await startClient({ trace });
    for (const call of [() => client.interrupt(''), () => client.closeSession('')]) {
      const error: unknown = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidParamsError);
      const remote = await runtimeRefusal(client, (error as InvalidParamsError).method, {
        sessionId: '',
      });
      expect((error as InvalidParamsError).data).toEqual(remote.data);
    }
    await client.shutdown();
    expect(sentMethods(trace)).toEqual([
      'initialize',
      'session/interrupt',
      'session/close',
      'shutdown',
    ]);
  });

  test('spawn with invalid initialize params fails before a runtime is started', async () => {
    const error: unknown = await HarnessClient.spawn({
      // Starting this would fail with RuntimeSpawnError: the check comes first.
      command: ['/nonexistent/dsh-sdk-runtime'],
      initialize: { ...ROUTE, cwd: '', maxTokens: 0 },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect(error).toMatchObject({ method: 'initialize' });
    expect((error as InvalidParamsError).data.map((v) => v.pointer)).toContain('/maxTokens');
  });
});

describe('a prompt that is not a string or an array of blocks', () => {
  // Plain JavaScript, or `as never` in TypeScript: the types allow none of these.
  const cases: readonly (readonly [unknown, string])[] = [
    [42, 'got a number: 42'],
    [null, 'got null'],
    [{ type: 'text', text: 'hi' }, 'got an object: {"type":"text","text":"hi"} (a single block'],
    [['hi'], 'prompt[0] is a string: hi'],
  ];

  test.each(cases)(
    'run(%j) rejects with a TypeError that says what a prompt is',
    async (prompt, got) => {
      const trace = traceFile();
      const client = await startClient({ trace });
      for (const start of [
        () => client.run(prompt as never),
        () => client.stream(prompt as never).result,
        () => client.streamText(prompt as never).result,
      ]) {
        const error: unknown = await start().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(TypeError);
        const { message } = error as TypeError;
        expect(message).toMatch(
          /^a prompt is a string, or an array of content blocks such as textBlock/,
        );
        expect(message).toContain(got);
      }
      await client.shutdown();
      expect(sentMethods(trace)).toEqual(['initialize', 'shutdown']);
    },
  );
});
