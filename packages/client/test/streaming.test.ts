import { Method } from '@dsh-sdk/protocol';
import { afterEach, describe, expect, test } from 'vitest';
import { RuntimeExitedError, isEventOfType, textOf } from '../src/index.js';
import type { HarnessNotification } from '../src/index.js';
import { PACED, fakeRuntime, recordAll, startClient, stopClients } from './helpers/clients.js';

afterEach(stopClients);

/** The text deltas of the root session's chunks, in order. */
function deltasOf(notifications: readonly HarnessNotification[], sessionId: string): string[] {
  return notifications.flatMap((n) =>
    n.method === Method.sessionEvent &&
    n.params.sessionId === sessionId &&
    isEventOfType(n.params.event, 'assistant/chunk')
      ? [textOf([n.params.event.data.delta])]
      : [],
  );
}

describe('watching a run as it streams', () => {
  test('calls onNotification with each notification of the tree as it arrives', async () => {
    const client = await startClient({ env: PACED });
    const seen: HarnessNotification[] = [];
    let chunksBeforeIdle = 0;
    const text = 'a reply long enough to come in several chunks';
    const run = client.run(`/delegate ${text}`, {
      sessionId: 'watch',
      onNotification: (notification) => {
        seen.push(notification);
        if (deltasOf([notification], 'watch/child1').length > 0) chunksBeforeIdle += 1;
      },
    });
    const result = await run;
    expect(seen).toEqual(result.notifications);
    expect(chunksBeforeIdle).toBe(4);
    expect(deltasOf(seen, 'watch').join('')).toBe(result.finalResponse);
  });

  test('delivers chunks before the run ends', async () => {
    const client = await startClient({ env: { DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '60' } });
    let firstChunkAt: number | undefined;
    const result = await client.run('x'.repeat(40), {
      onNotification: (notification) => {
        if (
          notification.method === Method.sessionEvent &&
          notification.params.event.type === 'assistant/chunk'
        ) {
          firstChunkAt ??= performance.now();
        }
      },
    });
    const endedAt = performance.now();
    expect(result.finalResponse).toBe(`Echo: ${'x'.repeat(40)}`);
    expect(firstChunkAt).toBeDefined();
    // Three chunks 60 ms apart: the first came well before the idle.
    expect(endedAt - (firstChunkAt ?? endedAt)).toBeGreaterThanOrEqual(100);
  });

  test('stream() yields the notifications of the run, then ends with its result', async () => {
    const client = await startClient({ env: PACED });
    const stream = client.stream('streamed reply, please', { sessionId: 'it' });
    const yielded: HarnessNotification[] = [];
    for await (const notification of stream) yielded.push(notification);
    const result = await stream.result;
    expect(yielded).toEqual(result.notifications);
    expect(deltasOf(yielded, 'it').join('')).toBe('Echo: streamed reply, please');
  });

  test('stream() throws the run error when the runtime dies', async () => {
    const client = await startClient({ command: fakeRuntime('die-mid-turn') });
    const stream = client.stream('doomed');
    const yielded: HarnessNotification[] = [];
    const error: unknown = await (async () => {
      for await (const notification of stream) yielded.push(notification);
    })().catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(RuntimeExitedError);
    await expect(stream.result).rejects.toBe(error);
    expect(yielded.map((n) => n.method)).toEqual([
      Method.sessionEvent,
      Method.sessionEvent,
      Method.sessionEvent,
    ]);
  });

  test('onNotification of the client sees every session, unfiltered', async () => {
    const client = await startClient();
    const all = recordAll(client);
    await Promise.all([client.run('a', { sessionId: 'x' }), client.run('b', { sessionId: 'y' })]);
    const statuses = all.flatMap((n) =>
      n.method === Method.sessionStatus ? [`${n.params.sessionId} ${n.params.status}`] : [],
    );
    expect(statuses.sort()).toEqual(['x idle', 'x running', 'y idle', 'y running']);
  });
});
