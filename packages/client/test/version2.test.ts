// Protocol version 2 from the client: negotiation, interrupt and close, run cancellation, and
// the local refusals against a runtime without the capabilities. Real runtimes over real pipes.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { LATEST_PROTOCOL_VERSION } from '@dsh-sdk/protocol';
import { CapabilityNotSupportedError, RunAbortedError, isEventOfType } from '../src/index.js';
import type { HarnessClient, HarnessNotification } from '../src/index.js';
import { PYTHON_RUNTIME_LAUNCHER, REFERENCE_RUNTIME_LAUNCHER } from '../src/runtime-launcher.js';
import { startClient, stopClients } from './helpers/clients.js';

afterEach(stopClients);

/** Chunks 150 ms apart: a turn of a long prompt lasts seconds, long enough to stop it. */
const PACED = { DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '150' };
const LONG = 'Tell me everything about the sea, slowly and in many, many words, please.';

const isChunk = (n: HarnessNotification) =>
  n.method === 'session.event' && n.params.event.type === 'assistant/chunk';

/** Resolves at the first notification of `client` that `test` accepts. */
function first(client: HarnessClient, test: (n: HarnessNotification) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const stop = client.onNotification((n) => {
      if (!test(n)) return;
      stop();
      resolve();
    });
  });
}

describe.each([
  ['TypeScript runtime', REFERENCE_RUNTIME_LAUNCHER],
  ['Python runtime', PYTHON_RUNTIME_LAUNCHER],
])('version 2 against the %s', (_name, launcher) => {
  test('asks for the latest version by default and exposes what was negotiated', async () => {
    const client = await startClient({ command: [launcher] });
    expect(LATEST_PROTOCOL_VERSION).toBe(2);
    expect(client.protocolVersion).toBe(2);
    expect(client.capabilities).toEqual({ sessionInterrupt: true, sessionClose: true });
  });

  test('with protocolVersion null it is a version 1 client: no capabilities, nothing sent', async () => {
    const client = await startClient({ command: [launcher], protocolVersion: null });
    expect(client.protocolVersion).toBe(1);
    expect(client.capabilities).toEqual({});
    const request = vi.spyOn(client.transport, 'request');
    const error: unknown = await client.interrupt('s-1').catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(CapabilityNotSupportedError);
    expect(error).toMatchObject({ capability: 'sessionInterrupt', protocolVersion: 1 });
    expect(String(error)).toMatch(/sessionInterrupt capability .* session\/interrupt was not sent/);
    await expect(client.closeSession('s-1')).rejects.toMatchObject({ capability: 'sessionClose' });
    expect(request).not.toHaveBeenCalled();
  });

  test('asked for version 1, the runtime answers 1 without capabilities', async () => {
    const client = await startClient({ command: [launcher], protocolVersion: 1 });
    expect(client.protocolVersion).toBe(1);
    expect(client.capabilities).toEqual({});
  });

  test('a version 1 runtime: the client speaks 1, and a cancelled run is only detached', async () => {
    const client = await startClient({
      command: [launcher, '--protocol-version', '1'],
      env: PACED,
    });
    expect(client.protocolVersion).toBe(1);
    expect(client.capabilities).toEqual({});
    await expect(client.interrupt('s-1')).rejects.toBeInstanceOf(CapabilityNotSupportedError);
    const controller = new AbortController();
    void first(client, isChunk).then(() => controller.abort(new Error('stop')));
    const error: unknown = await client
      .run(LONG, { sessionId: 'v1', signal: controller.signal })
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(RunAbortedError);
    expect(String(error)).toMatch(/cannot interrupt/);
    expect((error as RunAbortedError).cause).toEqual(new Error('stop'));
  });

  test('aborting a run interrupts its turn: the run resolves with finish reason aborted', async () => {
    const client = await startClient({ command: [launcher], env: PACED });
    const controller = new AbortController();
    void first(client, isChunk).then(() => controller.abort());
    const result = await client.run(LONG, { sessionId: 'stopped', signal: controller.signal });
    expect(result.finishReason).toBe('aborted');
    expect(result.finalResponse).toBe('');
    expect(result.events.some((e) => isEventOfType(e, 'assistant/message'))).toBe(false);
    expect(result.events.at(-1)).toMatchObject({
      type: 'turn/end',
      data: { reason: { kind: 'aborted' } },
    });
    expect(result.notifications.at(-1)).toMatchObject({
      method: 'session.status',
      params: { sessionId: 'stopped', status: 'idle' },
    });
    const again = await client.run('again', { sessionId: 'stopped' });
    expect(again).toMatchObject({ finishReason: 'completed', finalResponse: 'Echo: again' });
  });

  test('aborting a queued run waits for its turn: the turn before it completes', async () => {
    const client = await startClient({ command: [launcher], env: PACED });
    const before = client.run('short one', { sessionId: 'queue' });
    const queued = client.run(LONG, { sessionId: 'queue', signal: AbortSignal.abort('now') });
    await expect(before).resolves.toMatchObject({ finishReason: 'completed' });
    const result = await queued;
    expect(result.finishReason).toBe('aborted');
    expect(result.messageId).toBe('queue/m2');
  });

  test('interrupt stops the current turn only; the queued prompt then runs', async () => {
    const client = await startClient({ command: [launcher], env: PACED });
    const current = client.run(LONG, { sessionId: 'q' });
    const next = client.run('next', { sessionId: 'q' });
    await first(client, isChunk);
    await expect(client.interrupt('q')).resolves.toEqual({ found: true, wasRunning: true });
    await expect(current).resolves.toMatchObject({ finishReason: 'aborted' });
    await expect(next).resolves.toMatchObject({
      finishReason: 'completed',
      finalResponse: 'Echo: next',
    });
    await expect(client.interrupt('q')).resolves.toEqual({ found: true, wasRunning: false });
    await expect(client.interrupt('nobody')).resolves.toEqual({ found: false, wasRunning: false });
  });

  test('closeSession stops and disposes a session; the same id starts again', async () => {
    const client = await startClient({ command: [launcher], env: PACED });
    const run = client.run(LONG, { sessionId: 'c' });
    const other = client.run('other', { sessionId: 'd' });
    await first(client, isChunk);
    await expect(client.closeSession('c')).resolves.toEqual({ found: true });
    await expect(run).resolves.toMatchObject({ finishReason: 'aborted' });
    await expect(client.closeSession('c')).resolves.toEqual({ found: false });
    await expect(other).resolves.toMatchObject({ finishReason: 'completed' });
    const fresh = await client.run('hello', { sessionId: 'c' });
    expect(fresh.messageId).toBe('c/m1');
    expect(fresh.events[0]).toMatchObject({ type: 'agent/inbox/spliced', seq: 0 });
  });
});
