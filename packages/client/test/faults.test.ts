import { Method } from '@dsh-sdk/protocol';
import type { TransportDiagnostic } from '@dsh-sdk/protocol';
import { afterEach, describe, expect, test } from 'vitest';
import { RuntimeExitedError, isEventOfType, textOf } from '../src/index.js';
import { fakeRuntime, startClient, stopClients } from './helpers/clients.js';
import { budgetMs } from './helpers/time-budget.js';

afterEach(stopClients);

/** Generous: "at once" means well before any timeout, not a tight race. */
const PROMPTLY_MS = budgetMs(5000);

describe('faults', () => {
  test('fails running runs and pending calls at once when the runtime is killed mid-turn', async () => {
    const client = await startClient({ env: { DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '100' } });
    let killedAt = 0;
    const runs = ['first', 'second'].map((sessionId) =>
      client
        .run('x'.repeat(200), {
          sessionId,
          onNotification: (notification) => {
            const isChunk =
              notification.method === Method.sessionEvent &&
              notification.params.event.type === 'assistant/chunk';
            if (isChunk && killedAt === 0) {
              killedAt = performance.now();
              process.kill(client.pid ?? 0, 'SIGKILL');
            }
          },
        })
        .catch((reason: unknown) => reason),
    );
    const errors = await Promise.all(runs);
    expect(performance.now() - killedAt).toBeLessThan(PROMPTLY_MS);
    for (const error of errors) {
      expect(error).toBeInstanceOf(RuntimeExitedError);
      expect(error).toMatchObject({ exitCode: null, signal: 'SIGKILL' });
      expect((error as Error).message).toMatch(/^the runtime was killed by SIGKILL/);
    }
    // Later calls fail the same way, without waiting for any timeout.
    await expect(client.run('too late')).rejects.toBe(errors[0]);
    await expect(
      client.prompt({ sessionId: 's', contentBlocks: [{ type: 'text', text: 'x' }] }),
    ).rejects.toBeInstanceOf(RuntimeExitedError);
  });

  test('says how the runtime exited and what it last wrote on stderr', async () => {
    const client = await startClient({ command: fakeRuntime('die-mid-turn') });
    const error: unknown = await client.run('hello').catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(RuntimeExitedError);
    expect(error).toMatchObject({ exitCode: 3, signal: null });
    const { message, stderrTail } = error as RuntimeExitedError;
    expect(message).toBe(
      'the runtime exited with code 3; stderr tail:\nfake-runtime: out of cheese\nfake-runtime: giving up',
    );
    expect(stderrTail).toBe(client.stderrTail());
    await expect(client.shutdown()).resolves.toMatchObject({
      endedBy: 'already-exited',
      exitCode: 3,
    });
  });

  test('tolerates garbage and blank lines between frames, and reports them', async () => {
    const diagnostics: TransportDiagnostic[] = [];
    const client = await startClient({
      command: fakeRuntime('garbage'),
      onDiagnostic: (d) => diagnostics.push(d),
    });
    const result = await client.run('hello', { sessionId: 'g' });
    expect(result).toMatchObject({
      messageId: 'm1',
      finalResponse: 'clean reply',
      finishReason: 'completed',
    });
    expect(result.events.map((event) => event.type)).toEqual([
      'agent/inbox/spliced',
      'turn/start',
      'assistant/chunk',
      'assistant/message',
      'turn/end',
    ]);
    const reasons = diagnostics.map((d) => d.reason);
    expect(reasons.filter((reason) => reason === 'invalid-json')).toHaveLength(8);
    expect(reasons.filter((reason) => reason === 'batch-unsupported')).toHaveLength(7);
    expect(new Set(reasons)).toEqual(new Set(['invalid-json', 'batch-unsupported']));
  });

  test('delivers 10,000 notifications of a burst, all in order', async () => {
    const count = 10_000;
    const client = await startClient({ command: fakeRuntime('flood', String(count)) });
    let delivered = 0;
    const result = await client.run('flood me', {
      sessionId: 'f',
      onNotification: () => void (delivered += 1),
      timeoutMs: budgetMs(30_000),
    });
    // The receipt came before the response here: it was buffered, not lost.
    expect(result.events[0]?.type).toBe('agent/inbox/spliced');
    const chunks = result.events.slice(1);
    expect(chunks).toHaveLength(count);
    expect(chunks.map((event) => event.seq)).toEqual(
      Array.from({ length: count }, (_, index) => index + 1),
    );
    const deltas = chunks.map((event) =>
      isEventOfType(event, 'assistant/chunk') ? textOf([event.data.delta]) : '',
    );
    expect(deltas.join('')).toBe(Array.from({ length: count }, (_, index) => `${index},`).join(''));
    expect(result.notifications).toHaveLength(count + 2);
    expect(delivered).toBe(count + 2);
  });

  test('completes interleaved runs of many sessions sharing one runtime', async () => {
    const client = await startClient({ env: { DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '3' } });
    // Two clients' worth of sessions: "alice-*" and "bob-*", three runs queued on each.
    const sessions = ['alice', 'bob'].flatMap((owner) => [1, 2, 3, 4].map((n) => `${owner}-${n}`));
    const runs = sessions.flatMap((sessionId) =>
      [1, 2, 3].map(async (turn) => {
        const text = `${sessionId} turn ${turn} says hello to everyone`;
        const result = await client.run(text, { sessionId });
        return { sessionId, text, result };
      }),
    );
    const outcomes = await Promise.all(runs);
    expect(outcomes).toHaveLength(24);
    for (const { sessionId, text, result } of outcomes) {
      expect(result.sessionId).toBe(sessionId);
      expect(result.finalResponse).toBe(`Echo: ${text}`);
      expect(result.finishReason).toBe('completed');
      for (const n of result.notifications) {
        expect(
          n.method === Method.sessionEvent || n.method === Method.sessionStatus
            ? n.params.sessionId
            : '',
        ).toBe(sessionId);
      }
    }
    for (const sessionId of sessions) {
      const ids = outcomes
        .filter((outcome) => outcome.sessionId === sessionId)
        .map((outcome) => outcome.result.messageId);
      expect(new Set(ids).size).toBe(3);
    }
  });
});
