// What a user of the client sees besides a run's result: notifications from the very first line,
// the transport's diagnostics, the errors to catch, and who ended a call.
import {
  JsonRpcResponseError as ProtocolResponseError,
  RequestTimeoutError as ProtocolTimeoutError,
} from '@dsh-sdk/protocol';
import type { TransportDiagnostic } from '@dsh-sdk/protocol';
import { afterEach, describe, expect, test } from 'vitest';
import {
  ClientClosedError,
  ErrorCode,
  JsonRpcResponseError,
  RequestTimeoutError,
  RuntimeExitedError,
} from '../src/index.js';
import type { HarnessNotification } from '../src/index.js';
import { ROUTE, fakeRuntime, startClient, stopClients } from './helpers/clients.js';

afterEach(stopClients);

/** Sent by the fixture in the same write as the `initialize` answer. */
const WITH_HANDSHAKE = 23;

describe('notifications around the handshake', () => {
  test('a listener passed to spawn sees every notification sent with the handshake', async () => {
    const seen: HarnessNotification[] = [];
    const diagnostics: TransportDiagnostic[] = [];
    const client = await startClient({
      command: fakeRuntime('notify-with-handshake', String(WITH_HANDSHAKE)),
      onNotification: (notification) => seen.push(notification),
      onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
    });
    await client.shutdown();
    expect(seen).toHaveLength(WITH_HANDSHAKE);
    expect(seen[0]).toEqual({
      method: 'session.status',
      params: { sessionId: 'background', status: 'running' },
    });
    expect(diagnostics).toEqual([]);
  });

  test('without a listener, each one is reported as unhandled-notification, none in silence', async () => {
    const diagnostics: TransportDiagnostic[] = [];
    const client = await startClient({
      command: fakeRuntime('notify-with-handshake', String(WITH_HANDSHAKE)),
      onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
    });
    await client.shutdown();
    expect(diagnostics).toHaveLength(WITH_HANDSHAKE);
    expect(new Set(diagnostics.map((d) => d.reason))).toEqual(new Set(['unhandled-notification']));
    expect(client.transport.diagnosticCounts).toEqual({ 'unhandled-notification': WITH_HANDSHAKE });
  });
});

describe('the transport behind the client', () => {
  test('shows what the runtime sent that could not be used, by reason', async () => {
    const diagnostics: TransportDiagnostic[] = [];
    const client = await startClient({
      command: fakeRuntime('garbage'),
      onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
    });
    await client.run('hello');
    const counts = client.transport.diagnosticCounts;
    expect(counts['invalid-json']).toBeGreaterThan(0);
    expect(counts['invalid-json']).toBe(
      diagnostics.filter((d) => d.reason === 'invalid-json').length,
    );
    expect(client.transport.state).toBe('open');
  });
});

describe('errors a client call raises, exported by the client package', () => {
  test('are the protocol package classes themselves', () => {
    expect(JsonRpcResponseError).toBe(ProtocolResponseError);
    expect(RequestTimeoutError).toBe(ProtocolTimeoutError);
  });

  test('a refused handshake is a JsonRpcResponseError with the wire code', async () => {
    const error: unknown = await startClient({ initialize: { ...ROUTE, model: 'echo-9' } }).catch(
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(JsonRpcResponseError);
    expect(error).toMatchObject({ code: ErrorCode.InvalidParams });
  });

  test('an unanswered prompt is a RequestTimeoutError', async () => {
    const client = await startClient({
      command: fakeRuntime('no-prompt-answer'),
      requestTimeoutMs: 200,
    });
    const prompt = { sessionId: 's', contentBlocks: [{ type: 'text' as const, text: 'x' }] };
    await expect(client.prompt(prompt)).rejects.toBeInstanceOf(RequestTimeoutError);
  });
});

describe('a call ended by the client itself', () => {
  test('fails with ClientClosedError, not as if the runtime had crashed', async () => {
    const client = await startClient({ command: fakeRuntime('no-receipt') });
    const run = client.run('never finishes').catch((reason: unknown) => reason);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await client.shutdown({ timeoutMs: 300 });
    const error = await run;
    expect(error).toBeInstanceOf(ClientClosedError);
    expect(error).not.toBeInstanceOf(RuntimeExitedError);
    expect((error as Error).message).toBe(
      'the client is closing: its own shutdown() ended what was pending',
    );
    // And so does every call made afterwards.
    await expect(client.run('after shutdown')).rejects.toBeInstanceOf(ClientClosedError);
  });

  test('a call after shutdown() says that the client is closed and sent nothing', async () => {
    const client = await startClient();
    await client.shutdown();
    const prompt = { sessionId: 's', contentBlocks: [{ type: 'text' as const, text: 'x' }] };
    const calls: readonly (readonly [string, () => Promise<unknown>])[] = [
      ['run()', () => client.run('after shutdown')],
      ['stream()', () => client.stream('after shutdown').result],
      ['streamText()', () => client.streamText('after shutdown').result],
      ['prompt()', () => client.prompt(prompt)],
      ['interrupt()', () => client.interrupt('s')],
      ['closeSession()', () => client.closeSession('s')],
    ];
    for (const [call, start] of calls) {
      const error: unknown = await start().catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(ClientClosedError);
      expect((error as Error).message).toBe(
        `the client is closed: ${call} came after its shutdown(), so nothing was sent`,
      );
    }
  });

  test('a pending request ended by shutdown fails the same way', async () => {
    const client = await startClient({ command: fakeRuntime('no-prompt-answer') });
    const prompt = client
      .prompt({ sessionId: 's', contentBlocks: [{ type: 'text', text: 'x' }] })
      .catch((reason: unknown) => reason);
    await client.shutdown({ timeoutMs: 300 });
    await expect(prompt).resolves.toBeInstanceOf(ClientClosedError);
  });
});
