import { JsonRpcResponseError, Method } from '@dsh-sdk/protocol';
import { afterEach, describe, expect, test } from 'vitest';
import { textBlock } from '../src/index.js';
import type { HarnessNotification, RunResult } from '../src/index.js';
import { PACED, ROUTE, recordAll, startClient, stopClients } from './helpers/clients.js';

afterEach(stopClients);

/** The notifications of `result`'s tree, cut from everything the client saw. */
function sliceOfRun(all: readonly HarnessNotification[], result: RunResult): HarnessNotification[] {
  const first = all.indexOf(result.notifications[0] as HarnessNotification);
  const last = all.indexOf(result.notifications.at(-1) as HarnessNotification);
  const tree = new Set([result.sessionId]);
  return all.slice(first, last + 1).filter((n) => {
    if (n.method === Method.subagentStarted) {
      if (!tree.has(n.params.parentSessionId)) return false;
      tree.add(n.params.childSessionId);
      return true;
    }
    if (n.method === Method.subagentFinished) return tree.has(n.params.parentSessionId);
    return tree.has(n.params.sessionId);
  });
}

describe('run()', () => {
  test('returns the final response, the finish reason, the root events and its notifications', async () => {
    const client = await startClient();
    const result = await client.run('hello there', { sessionId: 'r1' });
    expect(result).toMatchObject({
      sessionId: 'r1',
      messageId: 'r1/m1',
      finalResponse: 'Echo: hello there',
      finishReason: 'completed',
    });
    expect(result.events.map((event) => event.type)).toEqual([
      'agent/inbox/spliced',
      'turn/start',
      'user/message',
      'step/start',
      'assistant/chunk',
      'assistant/chunk',
      'assistant/message',
      'step/end',
      'turn/end',
    ]);
    // From the receipt (status `running` comes before it) to the root's idle.
    expect(result.notifications.map((n) => n.method)).toEqual([
      ...result.events.map(() => Method.sessionEvent),
      Method.sessionStatus,
    ]);
    expect(result.notifications.at(-1)).toEqual({
      method: Method.sessionStatus,
      params: { sessionId: 'r1', status: 'idle' },
    });
  });

  test('follows the session tree of a delegation, children of children included, in wire order', async () => {
    const client = await startClient();
    const all = recordAll(client);
    const result = await client.run('/delegate /delegate the deepest task', { sessionId: 'tree' });
    expect(result.finalResponse).toBe(
      'Delegated to tree/child1: Delegated to tree/child1/child1: Echo: the deepest task',
    );
    expect(result.notifications).toEqual(sliceOfRun(all, result));
    const sessions = new Set(
      result.notifications.flatMap((n) =>
        n.method === Method.sessionEvent ? [n.params.sessionId] : [],
      ),
    );
    expect([...sessions]).toEqual(['tree', 'tree/child1', 'tree/child1/child1']);
    expect(
      result.events.every((event) =>
        result.notifications.some(
          (n) =>
            n.method === Method.sessionEvent &&
            n.params.event === event &&
            n.params.sessionId === 'tree',
        ),
      ),
    ).toBe(true);
    expect(result.notifications.filter((n) => n.method === Method.subagentFinished)).toHaveLength(
      2,
    );
  });

  test('takes content blocks as well as a string', async () => {
    const client = await startClient();
    const result = await client.run([textBlock('first'), textBlock('second')]);
    expect(result.finalResponse).toBe('Echo: first\nsecond');
    expect(result.sessionId).toMatch(/^session-/);
  });

  test('reports max-tokens as the finish reason', async () => {
    const client = await startClient({ initialize: { ...ROUTE, maxTokens: 1 } });
    const result = await client.run('a prompt longer than sixteen code points');
    expect(result).toMatchObject({ finishReason: 'max-tokens', finalResponse: 'Echo: a prompt l' });
  });

  test('gives each of several runs queued on one busy session its own turn', async () => {
    const client = await startClient({ env: PACED });
    const texts = ['one', 'two', 'three', 'four'];
    const results = await Promise.all(texts.map((text) => client.run(text, { sessionId: 'busy' })));
    expect(results.map((result) => result.finalResponse)).toEqual(
      texts.map((text) => `Echo: ${text}`),
    );
    expect(new Set(results.map((result) => result.messageId)).size).toBe(4);
    for (const result of results) {
      const spliced = result.events[0];
      expect(spliced?.type).toBe('agent/inbox/spliced');
      expect(JSON.stringify(spliced?.data)).toContain(`"id":"${result.messageId}"`);
      expect(result.events.filter((event) => event.type === 'turn/end')).toHaveLength(1);
    }
  });

  test('rejects with the wire error when the prompt is refused', async () => {
    const client = await startClient();
    const missing = {
      type: 'image',
      attachment: { attachmentId: 'sha256-00', mediaType: 'image/png' },
    } as const;
    const error: unknown = await client.run([missing]).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(JsonRpcResponseError);
    expect(error).toMatchObject({
      code: -32602,
      data: [{ pointer: '/contentBlocks/0/attachment/attachmentId', message: expect.any(String) }],
    });
    // The client is still usable.
    await expect(client.run('after')).resolves.toMatchObject({ finalResponse: 'Echo: after' });
  });

  test('reports the server that answered the handshake', async () => {
    const client = await startClient();
    expect(client.serverInfo).toEqual({ name: 'deepseek-harness-sdk-runtime', version: '0.1.0' });
    expect(client.pid).toEqual(expect.any(Number));
  });
});
